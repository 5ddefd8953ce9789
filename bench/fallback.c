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
 *
 * Fill-level sweep (scenario level-<band>, with full): see level_sweep().
 *
 * Memory timing (phase.c): each case's touch loop is a phase, each fill
 * step one with the step's x_mib, each level probe's timed loop one.
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

/*
 * The series' per-node counters against placement, both ways.  For a
 * preferred or preferred-many 4 KiB case, on every node the policy's "hit"
 * counter (a node of the policy's own mask) or "fallback" counter (any
 * other node) rose during the touch loop by the pages placed there, and the
 * other counter did not rise.  The policy is on the mapping (mbind), so the
 * child's page tables and other allocations (task policy: default) are not
 * counted by the series; a preferred allocation elsewhere in the guest
 * would be.  Rows mpol_counted_node<N> (both counters); result[9] the worst
 * difference or wrongly counted pages, result[10] = 1 when checked, -1 when
 * the kernel has no per-node counters (only the lab's series adds them).
 */
static void mpol_node_check(const struct rowkey *k, enum pol p, const struct nodeset *mask,
			    const struct counters *a, const struct counters *b,
			    const long *per_node, struct shared *sh)
{
	const char *names[2] = {
		p == POL_PREFERRED ? "mpol_pref_hit" : "mpol_pref_many_hit",
		p == POL_PREFERRED ? "mpol_pref_fallback" : "mpol_pref_many_fallback",
	};
	static long long d[MAX_NODE + 1][2];
	struct nodeset mem;
	char name[48];
	double worst = 0;

	if (p != POL_PREFERRED && p != POL_PREFERRED_MANY)
		return;
	mem_nodes(&mem);
	/* every node's counters first: no row at all from a kernel without them */
	ns_for_each(n, &mem) {
		if (n > MAX_NODE)
			break;
		for (int i = 0; i < 2; i++) {
			long long v0, v1;

			snprintf(name, sizeof(name), "node%d.%s", n, names[i]);
			v0 = counters_get(a, name);
			v1 = counters_get(b, name);
			if (v0 < 0 || v1 < 0) {
				sh->result[10] = -1;	/* the parent says why it skips */
				return;
			}
			d[n][i] = v1 - v0;
		}
	}
	ns_for_each(n, &mem) {
		long long right, wrong, dev;

		if (n > MAX_NODE)
			break;
		right = ns_has(mask, n) ? d[n][0] : d[n][1];
		wrong = ns_has(mask, n) ? d[n][1] : d[n][0];
		snprintf(name, sizeof(name), "mpol_counted_node%d", n);
		out_row(k, name, (double)(d[n][0] + d[n][1]), "pages");
		dev = right > per_node[n] ? right - per_node[n] : per_node[n] - right;
		if (wrong > dev)
			dev = wrong;
		if ((double)dev > worst)
			worst = (double)dev;
	}
	sh->result[9] = worst;
	sh->result[10] = 1;
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
	phase_case_begin(sh, -1);
	touch_pages(p, len, stride, sh);
	phase_case_end(sh, &c->k, (long)(len / 4096));
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
	if (c->ps == PS_4K)
		mpol_node_check(&c->k, c->pol, &polnodes, &before, &after, sh->per_node, sh);
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
		phase_case_begin(sh, so_far);
		touch_pages(p, step, 4096, sh);
		phase_case_end(sh, &c->k, (long)(step / 4096));
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
		struct fb_case c = { o, { VOCAB_BENCH_FALLBACK, pol_names[p], "4k", "fill" }, p,
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

/*
 * Fill-level sweep (scenario level-<band>, 4 KiB): the preferred nodes
 * filled, to the page, into the middle of one band between their
 * watermarks -- above high, between low and high, between min and low --
 * then per subject policy a small probe, its share on the preferred set,
 * its pages per node and its mean cost per fault.  In 6.12 the band decides:
 * the allocator's fast path takes a node only above its low watermark, so
 * PREFERRED, which gives the fast path every node of the preferred node's
 * zonelist, goes to the next node once its node is under low; BIND and
 * PREFERRED_MANY's first pass see only their nodes, enter the slow path
 * and take them down to min (the latter without direct reclaim).  Nothing
 * here can be reclaimed (anonymous memory, no swap): the figure of memory
 * that is full, not of memory that could be freed.
 */
enum level { LV_ABOVE_HIGH, LV_LOW_HIGH, LV_MIN_LOW, LV_COUNT };
static const char *const level_names[LV_COUNT] = {
	"level-above-high", "level-low-high", "level-min-low",
};

/* @node's band for @lv in KiB ([*lo, *hi]) and its middle; -1: no watermarks. */
static long level_band(int node, enum level lv, long *lo, long *hi)
{
	long min = node_wmark_kib(node, "min"), low = node_wmark_kib(node, "low"),
	     high = node_wmark_kib(node, "high");

	if (min < 0 || low <= min || high <= low)
		return -1;
	switch (lv) {
	case LV_ABOVE_HIGH:
		*lo = high;
		*hi = high + 2 * (high - low);
		break;
	case LV_LOW_HIGH:
		*lo = low;
		*hi = high;
		break;
	default:
		*lo = min;
		*hi = low;
		break;
	}
	return (*lo + *hi) / 2;
}

struct lv_case {
	const struct opts *o;
	struct rowkey k;
	enum pol pol;
	size_t bytes;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int lv_child(void *arg, struct shared *sh)
{
	const struct lv_case *c = arg;
	struct nodeset mem;
	char metric[48];
	uint64_t t0;
	double per_fault, *dt;
	size_t npages;
	long total;
	char *p = map_region(PS_4K, c->bytes);

	if (!p)
		return 3;
	if (pol_apply(c->pol, VIA_MBIND, &c->o->preferred, p, c->bytes))
		return 3;
	npages = c->bytes / 4096;
	dt = calloc(npages, sizeof(*dt));
	if (!dt)
		return 3;
	phase_case_begin(sh, -1);
	t0 = now_ns();
	for (size_t i = 0; i < npages; i++) {
		uint64_t t = now_ns();

		p[i * 4096] = 1;
		dt[i] = (double)(now_ns() - t);
		sh->pages_done++;
	}
	per_fault = (double)(now_ns() - t0) / (double)npages;
	phase_case_end(sh, &c->k, (long)npages);
	qsort(dt, npages, sizeof(*dt), cmp_double);
	total = placement(p, c->bytes, 4096, sh->per_node, MAX_NODE);
	if (total <= 0) {
		free(dt);
		return 1;
	}
	sh->inside_frac = frac_in(sh->per_node, &c->o->preferred);
	out_row(&c->k, "on_set_frac", sh->inside_frac, "ratio");
	out_row(&c->k, "pages_total", (double)total, "pages");
	/* one pass over the probe, each fault timed: page zeroing and the timer reads in */
	out_row(&c->k, "fault_p50", npages % 2 ? dt[npages / 2] :
		(dt[npages / 2 - 1] + dt[npages / 2]) / 2, out_time_unit());
	out_row(&c->k, "fault_mean", per_fault, out_time_unit());
	free(dt);
	mem_nodes(&mem);
	ns_for_each(n, &mem) {
		if (n > MAX_NODE)
			break;
		snprintf(metric, sizeof(metric), "pages_node%d", n);
		out_row(&c->k, metric, (double)sh->per_node[n], "pages");
	}
	munmap(p, c->bytes);
	return 0;
}

/* Is every preferred node's MemFree in its band?  NULL, or why not. */
static const char *level_missed(const struct opts *o, const long *lo, const long *hi,
				char *why, size_t len)
{
	ns_for_each(n, &o->preferred) {
		long kib = node_meminfo_kib(n, "MemFree");

		if (n > MAX_NODE)
			break;
		if (kib < lo[n] || kib > hi[n]) {
			snprintf(why, len, "level_missed: node %d has %.1f MiB free, the level is %.1f-%.1f MiB",
				 n, (double)kib / 1024, (double)lo[n] / 1024, (double)hi[n] / 1024);
			return why;
		}
	}
	return NULL;
}

/* What 6.12 gives each subject policy at each level (see above). */
static bool level_expect_on_set(enum pol p, enum level lv)
{
	return !(p == POL_PREFERRED && lv == LV_MIN_LOW);
}

static void level_sweep(const struct opts *o, struct shared *sh)
{
	static const enum pol subjects[] = { POL_BIND, POL_PREFERRED, POL_PREFERRED_MANY };
	long target[MAX_NODE + 1], lo[MAX_NODE + 1], hi[MAX_NODE + 1];
	struct nodeset mem, others;
	char why[200];

	/*
	 * PREFERRED must have somewhere to go under low, and the harness's own
	 * node must not be the one taken down to it.
	 */
	mem_nodes(&mem);
	ns_clear(&others);
	ns_for_each(n, &mem)
		if (!ns_has(&o->preferred, n))
			ns_set(&others, n);
	if (nodes_free_mib(&others) < 4 * o->headroom_mib) {
		tap_skip("needs a memory node outside the preferred set with free memory",
			 "fallback fill-level sweep");
		return;
	}
	/*
	 * The allocator judges each zone by its own watermarks (and a lower
	 * zone's lowmem_reserve keeps its pages from user allocations), while
	 * the levels here are node-wide: one populated zone per node only.
	 */
	ns_for_each(n, &o->preferred)
		if (node_zones(n) != 1) {
			snprintf(why, sizeof(why), "preferred node %d has %d populated zones, the levels are set per node",
				 n, node_zones(n));
			tap_skip(why, "fallback fill-level sweep");
			return;
		}
	if (nodes_total_mib(&o->preferred) > o->fill_cap_mib) {
		snprintf(why, sizeof(why), "filling %ld MiB exceeds --fill-cap-mib %ld",
			 nodes_total_mib(&o->preferred), o->fill_cap_mib);
		tap_skip(why, "fallback fill-level sweep");
		return;
	}
	/*
	 * A CPU-less node's per-CPU lists may hold up to its low watermark
	 * (6.12 sizes them from it, split over every CPU): free pages that
	 * MemFree, and so the watermark check, does not see until they drain.
	 * The smallest lists the kernel allows (high = 4 batches) keep a level
	 * where it was filled; restored at the end.
	 */
	if (sysctl_save_write("vm.percpu_pagelist_high_fraction", 1L << 20))
		msg("vm.percpu_pagelist_high_fraction: not set; the levels may drift");
	for (int lv = 0; lv < LV_COUNT; lv++) {
		size_t probe = MIB;
		struct filler f;
		bool bad = false;

		memset(target, 0, sizeof(target));
		ns_for_each(n, &o->preferred) {
			size_t quarter;

			if (n > MAX_NODE || (target[n] = level_band(n, lv, &lo[n], &hi[n])) < 0) {
				bad = true;
				break;
			}
			/* the probe stays inside the band: a quarter of it at most */
			quarter = (size_t)(hi[n] - lo[n]) / 4 * 1024 / 4096 * 4096;
			if (quarter < probe)
				probe = quarter;
		}
		if (bad || probe < 16 * 4096) {
			tap_skip(bad ? "a preferred node without watermarks" :
				 "the band is under 256 KiB wide", "fallback %s", level_names[lv]);
			continue;
		}
		if (filler_start_level(&f, &o->preferred, target)) {
			tap(false, "fallback %s: the filler took the preferred nodes to the level",
			    level_names[lv]);
			filler_stop(&f);
			continue;
		}
		f.held = true;
		msg("fill level %s: filler pid %d holds %ld MiB, probe %zu KiB",
		    level_names[lv], f.pid, f.mib, probe / 1024);
		for (size_t i = 0; i < sizeof(subjects) / sizeof(subjects[0]); i++) {
			enum pol p = subjects[i];
			struct lv_case c = { o, { VOCAB_BENCH_FALLBACK, pol_names[p], "4k", level_names[lv] },
					     p, probe };
			enum outcome oc;
			char metric[48];

			if (!pol_wanted(o, p, VOCAB_BENCH_FALLBACK))
				continue;
			memset(sh, 0, sizeof(*sh));
			/* a probe or the per-CPU lists draining may move MemFree: fill again once */
			pcp_drain(&o->preferred, 1024);
			if (level_missed(o, lo, hi, why, sizeof(why))) {
				msg("%s/%s: %s; filling again", pol_names[p], level_names[lv], why);
				filler_stop(&f);
				if (filler_start_level(&f, &o->preferred, target))
					f.pid = -1;
			}
			ns_for_each(n, &o->preferred) {
				if (n > MAX_NODE)
					break;
				snprintf(metric, sizeof(metric), "level_free_mib_node%d", n);
				out_row(&c.k, metric, (double)node_meminfo_kib(n, "MemFree") / 1024,
					"MiB");
				snprintf(metric, sizeof(metric), "level_target_mib_node%d", n);
				out_row(&c.k, metric, (double)target[n] / 1024, "MiB");
			}
			if (f.pid < 0 || level_missed(o, lo, hi, sh->invalid_why,
						      sizeof(sh->invalid_why))) {
				if (f.pid < 0)
					snprintf(sh->invalid_why, sizeof(sh->invalid_why),
						 "filler_gone: the nodes could not be filled again");
				report_outcome(&c.k, OUT_INVALID, sh, 4096);
				continue;
			}
			oc = run_case(&c.k, &f, lv_child, &c, sh, 300);
			report_outcome(&c.k, oc, sh, 4096);
			if (oc != OUT_COMPLETED)
				continue;
			if (level_expect_on_set(p, lv))
				tap(sh->inside_frac >= 1.0,
				    "fallback %s/%s: every page on the preferred nodes (%.4f)",
				    pol_names[p], level_names[lv], sh->inside_frac);
			else
				tap(sh->inside_frac <= 0.01,
				    "fallback %s/%s: under the low watermark the fast path leaves the preferred node (%.4f on the set)",
				    pol_names[p], level_names[lv], sh->inside_frac);
		}
		f.held = false;
		filler_stop(&f);
	}
	knobs_restore();
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
		hugetlb_scenario_pools(o, VOCAB_BENCH_FALLBACK, (enum scenario)sc);
		if (scenario_begin(o, VOCAB_BENCH_FALLBACK, sc, &f, why, sizeof(why))) {
			tap_skip(why, "fallback scenario %s", scenario_names[sc]);
			knobs_restore();
			continue;
		}
		for (int ps = 0; ps < PS_COUNT; ps++) {
			if (!(o->page_mask & 1u << ps))
				continue;
			if (pagesize_unavailable(ps, why, sizeof(why))) {
				tap_skip(why, "fallback %s/%s", pagesize_names[ps],
					 scenario_names[sc]);
				continue;
			}
			for (int p = 0; p < POL_COUNT; p++) {
				struct fb_case c = { o, { VOCAB_BENCH_FALLBACK, pol_names[p],
					pagesize_names[ps], scenario_names[sc] }, p, ps, 0 };
				enum outcome oc;

				if (!pol_wanted(o, p, VOCAB_BENCH_FALLBACK))
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
				if (p == POL_BIND)
					tap(sh->inside_frac >= 1.0,
					    "fallback bind/%s/%s: every resident page on the bound nodes (%.4f of %.0f pages)",
					    pagesize_names[ps], scenario_names[sc], sh->inside_frac,
					    sh->result[2]);
				if (sh->result[10] < 0)
					tap_skip("the kernel has no per-node mpol_* counters (the lab's series)",
						 "fallback %s/%s/%s: the series' per-node counters against placement",
						 pol_names[p], pagesize_names[ps], scenario_names[sc]);
				if (sh->result[10] > 0) {
					double tol = sh->result[2] * 0.01 > 32 ? sh->result[2] * 0.01 : 32;

					tap(sh->result[9] <= tol,
					    "fallback %s/%s/%s: the series' per-node counters count each node's placed pages as hit or fallback, as the policy's mask says, and nothing else (worst difference %.0f pages, tolerance %.0f)",
					    pol_names[p], pagesize_names[ps], scenario_names[sc],
					    sh->result[9], tol);
				}
				if (sh->result[1]) {
					double tol = sh->result[2] * 0.01 > 32 ? sh->result[2] * 0.01 : 32;

					tap(sh->result[0] <= tol,
					    "fallback %s/%s/%s: numastat counts every placed page on its node (worst shortfall %.0f pages, tolerance %.0f)",
					    pol_names[p], pagesize_names[ps], scenario_names[sc],
					    sh->result[0], tol);
				}
			}
		}
		scenario_end(&f);
		knobs_restore();
	}
	if (o->scen_mask & 1u << SC_FREE)
		fill_curve(o, sh, &failed);
	if (o->scen_mask & 1u << SC_FULL)
		level_sweep(o, sh);
	return failed;
}

const struct bench bench_fallback = {
	.name = VOCAB_BENCH_FALLBACK,
	.help = "where pages land: in-mask fraction, per node, fill curve, numastat cross-check",
	.options = "--policies --pagesizes --scenarios --mib --step-mib --fill-cap-mib --headroom-mib",
	.needs = { .min_mem_nodes = 1, .sysctls = { PCP_HIGH_SYSCTL } },
	.timeout_secs = 900,
	.run = run_fallback,
};
