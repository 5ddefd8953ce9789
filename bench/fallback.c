// SPDX-License-Identifier: GPL-2.0
/*
 * fallback: where the pages of each policy land.
 *
 * Per policy, page size and scenario, of the case's resident pages: the
 * share on the nodes the kernel was given for the policy (in_mask_frac), on
 * the case's preferred set (on_set_frac), the share the series' fallback
 * counter counted (fallback_frac: preferred and preferred-many, where the
 * kernel has the counter), and the pages per node (pages_node<N>, 4 KiB units), from move_pages(2) with
 * nodes == NULL.  Cross-check: for 4 KiB pages the numastat deltas
 * (numa_hit + numa_miss of node N counts the allocations that node served)
 * taken around the touch loop in the same child must agree with the
 * placement: every placed page was counted on its node, so a node whose
 * numastat delta falls short of its placed pages by more than max(1 %,
 * 32 pages) fails a TAP check (the kernel counted on the wrong node, or not
 * at all).  The counters are system wide, so an excess is other tasks' noise
 * (page tables, the child's own allocations, a busy host: ~100-350 pages
 * per 16 MiB there); it is a row, numastat_excess_pages, not a verdict.
 * Deltas of vmstat's numa_* and mpol_*
 * counters (the latter from the lab's kernel series, if present) are rows.
 *
 * Fill curve (scenario=fill, 4 KiB): allocate in steps of --step-mib past
 * the preferred nodes' free memory; after each step one row per figure with
 * x_mib = MiB allocated so far: step_on_set_frac (share of that step's
 * pages on the preferred set), cum_on_set_frac (share of all the curve's
 * pages so far) and step_frac_node<N>.
 */
#include "tb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define MIB (1024UL * 1024)

/*
 * The fallback share: what the series' counter for the policy counted
 * during the touch loop, over the case's resident pages.  The counter is
 * system wide and counts allocations in the task's context that the case
 * did not map (its page tables), so it may exceed the placement's own
 * share off the set; no row without the counter (not the lab's kernel).
 */
static void fallback_frac_row(const struct rowkey *k, enum pol p, const struct counters *a,
			      const struct counters *b, long total)
{
	const char *name = p == POL_PREFERRED ? "mpol_pref_fallback"
			   : p == POL_PREFERRED_MANY ? "mpol_pref_many_fallback" : NULL;
	long long v0 = name ? counters_get(a, name) : -1, v1 = name ? counters_get(b, name) : -1;

	if (v0 < 0 || v1 < 0 || total <= 0)
		return;
	out_row(k, "fallback_frac", (double)(v1 - v0) / (double)total, "ratio");
}

struct fb_case {
	const struct opts *o;
	struct rowkey k;
	enum pol pol;
	enum pagesize ps;
	long fill_total_mib;	/* fill curve: how far to go */
};

/*
 * A THP case's pages against the kernel's THP fault counters, read around
 * the touch loop in the child: rows thp_huge_pages_resident (from smaps),
 * thp_fault_alloc and thp_fault_fallback; result[4] = 1 when checked,
 * result[5] = 1 when every 4 KiB is resident and the huge pages resident
 * are the huge faults counted, result[6..7] the two figures for the TAP.
 */
static void thp_rows(const struct rowkey *k, void *p, size_t len, long total,
		     long long alloc, long long fallback, struct shared *sh)
{
	long kib = smaps_anon_huge_kib(p);
	long huge = kib >= 0 ? kib / 2048 : -1;

	if (huge >= 0)
		out_row(k, "thp_huge_pages_resident", (double)huge, "pages");
	if (alloc >= 0)
		out_row(k, "thp_fault_alloc", (double)alloc, "count");
	if (fallback >= 0)
		out_row(k, "thp_fault_fallback", (double)fallback, "count");
	if (huge < 0 || alloc < 0)
		return;
	sh->result[4] = 1;
	sh->result[5] = total == (long)(len / 4096) && huge == alloc;
	sh->result[6] = (double)huge;
	sh->result[8] = (double)(len / 4096);
	sh->result[7] = (double)alloc;
}

static int fb_child(void *arg, struct shared *sh)
{
	const struct fb_case *c = arg;
	const struct opts *o = c->o;
	size_t len = case_bytes(o, c->k.scenario, c->ps), stride = touch_stride(c->ps);
	long long thp_alloc0 = vmstat_get("thp_fault_alloc");
	long long thp_fb0 = vmstat_get("thp_fault_fallback");
	struct counters before, after;
	struct nodeset polnodes, mem;
	char metric[48];
	long total;
	char *p = map_region(c->ps, len);

	if (!p)
		return 3;
	out_row(&c->k, "case_mib", (double)len / MIB, "MiB");
	if (pol_apply(c->pol, VIA_MBIND, &o->preferred, p, len))
		return 3;
	pol_nodes(c->pol, &o->preferred, &polnodes);
	mem_nodes(&mem);
	counters_read(&before);
	touch_pages(p, len, stride, sh);
	counters_read(&after);
	total = placement(p, len, stride, sh->per_node, MAX_NODE);
	if (total <= 0)
		return 1;
	if (c->ps == PS_THP)
		thp_rows(&c->k, p, len, total, vmstat_delta("thp_fault_alloc", thp_alloc0),
			 vmstat_delta("thp_fault_fallback", thp_fb0), sh);
	sh->inside_frac = frac_in(sh->per_node, &polnodes);
	out_row(&c->k, "in_mask_frac", sh->inside_frac, "ratio");
	out_row(&c->k, "on_set_frac", frac_in(sh->per_node, &o->preferred), "ratio");
	out_row(&c->k, "pages_total", (double)total, "pages");
	fallback_frac_row(&c->k, c->pol, &before, &after, total);
	ns_for_each(n, &mem) {
		long long hit, miss, hit0, miss0;

		if (n > MAX_NODE)
			break;
		snprintf(metric, sizeof(metric), "pages_node%d", n);
		out_row(&c->k, metric, (double)sh->per_node[n], "pages");
		snprintf(metric, sizeof(metric), "node%d.numa_hit", n);
		hit = counters_get(&after, metric);
		hit0 = counters_get(&before, metric);
		snprintf(metric, sizeof(metric), "node%d.numa_miss", n);
		miss = counters_get(&after, metric);
		miss0 = counters_get(&before, metric);
		if (hit < 0 || miss < 0 || hit0 < 0 || miss0 < 0)
			continue;
		snprintf(metric, sizeof(metric), "numastat_alloc_node%d", n);
		out_row(&c->k, metric, (double)(hit - hit0 + miss - miss0), "allocs");
		/* result[0]: worst shortfall of numastat, result[3]: worst excess */
		if (c->ps == PS_4K) {
			double dev = (double)(hit - hit0 + miss - miss0) - (double)sh->per_node[n];

			if (-dev > sh->result[0])
				sh->result[0] = -dev;
			if (dev > sh->result[3])
				sh->result[3] = dev;
			sh->result[1] = 1;	/* cross-check done */
		}
	}
	if (sh->result[1])
		out_row(&c->k, "numastat_excess_pages", sh->result[3], "pages");
	counter_delta_rows(&c->k, &before, &after, NULL);
	sh->result[2] = (double)total;
	counters_free(&before);
	counters_free(&after);
	munmap(p, len);
	return 0;
}

/* Fill curve: one mapping per step, the policy set on each. */
static int fill_child(void *arg, struct shared *sh)
{
	const struct fb_case *c = arg;
	const struct opts *o = c->o;
	size_t step = (size_t)o->step_mib * MIB;
	long per_node[MAX_NODE + 1];
	long on_set = 0, all = 0;
	struct nodeset mem;
	char metric[48];

	mem_nodes(&mem);
	for (long so_far = o->step_mib; so_far <= c->fill_total_mib;
	     so_far += o->step_mib) {
		char *p = map_region(PS_4K, step);

		if (!p)
			return 3;
		if (pol_apply(c->pol, VIA_MBIND, &o->preferred, p, step))
			return 3;
		touch_pages(p, step, 4096, sh);
		long placed = placement(p, step, 4096, per_node, MAX_NODE);

		if (placed <= 0)
			return 1;
		all += placed;
		ns_for_each(n, &o->preferred)
			if (n <= MAX_NODE)
				on_set += per_node[n];
		out_row_x(&c->k, "step_on_set_frac", frac_in(per_node, &o->preferred),
			  "ratio", so_far);
		out_row_x(&c->k, "cum_on_set_frac", (double)on_set / (double)all, "ratio", so_far);
		ns_for_each(n, &mem) {
			struct nodeset one;

			if (n > MAX_NODE)
				break;
			ns_clear(&one);
			ns_set(&one, n);
			snprintf(metric, sizeof(metric), "step_frac_node%d", n);
			out_row_x(&c->k, metric, frac_in(per_node, &one), "ratio", so_far);
		}
		/* the mapping stays: the point is to fill */
	}
	return 0;
}

static void fill_curve(const struct opts *o, struct shared *sh, int *failed)
{
	struct nodeset mem, others;
	long free_p, free_o, total_p, overshoot;
	char why[200];

	(void)failed;
	mem_nodes(&mem);
	ns_clear(&others);
	ns_for_each(n, &mem)
		if (!ns_has(&o->preferred, n))
			ns_set(&others, n);
	if (!ns_count(&others)) {
		tap_skip("needs a memory node outside the preferred set", "fallback fill curve");
		return;
	}
	total_p = nodes_total_mib(&o->preferred);
	if (total_p > o->fill_cap_mib) {
		snprintf(why, sizeof(why), "filling %ld MiB exceeds --fill-cap-mib %ld",
			 total_p, o->fill_cap_mib);
		tap_skip(why, "fallback fill curve");
		return;
	}
	free_p = nodes_free_mib(&o->preferred);
	free_o = nodes_free_mib(&others);
	/* past the preferred nodes by a quarter, if the others can take it */
	overshoot = free_p / 4 > 4 * o->step_mib ? free_p / 4 : 4 * o->step_mib;
	if (overshoot > free_o - 2 * o->headroom_mib)
		overshoot = free_o - 2 * o->headroom_mib;
	if (overshoot < o->step_mib) {
		snprintf(why, sizeof(why), "nodes outside the preferred set have only %ld MiB free",
			 free_o);
		tap_skip(why, "fallback fill curve");
		return;
	}
	for (int p = 0; p < POL_COUNT; p++) {
		struct fb_case c = { o, { "fallback", pol_names[p], "4k", "fill" }, p,
				     PS_4K, free_p + overshoot };
		enum outcome oc;
		int sig;

		if (!(o->pol_mask & 1u << p) || !pol_supported(p, why, sizeof(why)))
			continue;
		/* the references would only repeat interleaving; keep default quick */
		if (o->profile != PROFILE_FULL && p > POL_DEFAULT)
			continue;
		memset(sh, 0, sizeof(*sh));
		msg("fill curve %s: to %ld MiB in %ld MiB steps (preferred free %ld MiB)",
		    pol_names[p], c.fill_total_mib, o->step_mib, free_p);
		oc = run_child(fill_child, &c, sh, 900, &sig);
		report_outcome(&c.k, oc, sh, 4096);
	}
}

static int run_fallback(const struct opts *o)
{
	struct shared *sh = shared_new();
	char why[200];
	int failed = 0;

	if (!sh)
		return 1;
	for (int sc = 0; sc < SC_COUNT; sc++) {
		struct filler f;

		if (!(o->scen_mask & 1u << sc))
			continue;
		if (scenario_begin(o, "fallback", sc, &f, why, sizeof(why))) {
			tap_skip(why, "fallback scenario %s", scenario_names[sc]);
			continue;
		}
		for (int ps = 0; ps < PS_COUNT; ps++) {
			struct rowkey kp = { "fallback", "-", pagesize_names[ps], scenario_names[sc] };

			if (!(o->page_mask & 1u << ps))
				continue;
			if (pagesize_unavailable(ps, why, sizeof(why))) {
				tap_skip(why, "fallback %s/%s", pagesize_names[ps],
					 scenario_names[sc]);
				continue;
			}
			if (ps == PS_2M)
				hugetlb_pools(&kp, o->mib / 2);
			for (int p = 0; p < POL_COUNT; p++) {
				struct fb_case c = { o, { "fallback", pol_names[p],
					pagesize_names[ps], scenario_names[sc] }, p, ps, 0 };
				enum outcome oc;

				if (!pol_wanted(o, p, "fallback"))
					continue;
				memset(sh, 0, sizeof(*sh));
				oc = run_case(&c.k, &f, fb_child, &c, sh, 600);
				report_outcome(&c.k, oc, sh, touch_stride(ps));
				if (oc != OUT_COMPLETED)
					continue;
				if (sh->result[4]) {
					tap(sh->result[5],
					    "fallback %s/thp/%s: every 4 KiB resident (%.0f of %.0f pages) and the huge pages resident are the huge faults counted (%.0f resident, thp_fault_alloc +%.0f)",
					    pol_names[p], scenario_names[sc], sh->result[2],
					    sh->result[8], sh->result[6], sh->result[7]);
				}
				if (sh->result[1]) {
					double tol = sh->result[2] * 0.01 > 32 ? sh->result[2] * 0.01 : 32;

					tap(sh->result[0] <= tol,
					    "fallback %s/%s/%s: numastat counts every placed page on its node (worst shortfall %.0f pages, tolerance %.0f)",
					    pol_names[p], pagesize_names[ps], scenario_names[sc],
					    sh->result[0], tol);
				}
			}
			if (ps == PS_2M)
				knobs_restore();
		}
		scenario_end(&f);
	}
	if (o->scen_mask & 1u << SC_FREE)
		fill_curve(o, sh, &failed);
	return failed;
}

const struct bench bench_fallback = {
	.name = "fallback",
	.help = "where pages land: in-mask fraction, per node, fill curve, numastat cross-check",
	.options = "--policies --pagesizes --scenarios --mib --step-mib --fill-cap-mib --headroom-mib",
	.needs = { .min_mem_nodes = 1 },
	.timeout_secs = 900,
	.run = run_fallback,
};
