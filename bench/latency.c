// SPDX-License-Identifier: GPL-2.0
/*
 * latency: first-touch fault latency per page, per policy, page size and
 * scenario.  The policy reaches the kernel through mbind() (rows
 * bench=latency) and, separately, through set_mempolicy() (rows
 * bench=latency_task): the VMA policy and the task policy take different
 * paths to the same alloc_pages_mpol().
 *
 * Each case runs in a child (an OOM kill or a SIGBUS is an outcome); every
 * repetition maps a fresh region, applies the policy, writes one byte per
 * page timing each write with CLOCK_MONOTONIC (vDSO), and keeps the times in
 * a log-bucket histogram.  Rows: the pooled histogram's count, mean, p50,
 * p90, p99, p99_9, max; the median over repetitions of the per-repetition
 * p50 with its order-statistic confidence interval (stats.h); where the
 * pages landed; the clock's own cost; and, with nothing filled, the
 * median cost per page of the timed passes against untimed passes that
 * alternate with them (the harness's overhead; even repetitions timed
 * first, odd ones untimed first), after a warm-up repetition whose times
 * are discarded.  The first case run at a condition runs a second time
 * (mbind()), as bench=latency_aa: an A/A pair, the spread between two
 * identical cases of one boot.  --seed shuffles the policies' order.
 * With --memory-timing count each timed repetition is a phase of its own
 * (phase.c), begun before its loop's first clock read and ended after its
 * last: the untimed passes and the warm-up are not counted.
 */
#include "tb.h"
#include "order.h"
#include "stats.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define MIB (1024UL * 1024)

struct lat_case {
	const struct opts *o;
	struct rowkey k;
	enum pol pol;
	enum via via;
	enum pagesize ps;
};

/*
 * One timed pass over a fresh region: every write's time into @rep (and, for
 * THP, into @huge or @base; NULL: not kept), the loop's cost per page into
 * *per_page.  @count: progress into sh->pages_done; @last: the placement
 * rows of the case.  0, or the child's exit code (3: setup failed).
 */
static int timed_pass(const struct lat_case *c, struct shared *sh, size_t len, struct hist *rep,
		      struct hist *huge, struct hist *base, bool count, bool last,
		      const struct nodeset *polnodes, double *per_page)
{
	const struct opts *o = c->o;
	size_t page = page_bytes(c->ps), stride = touch_stride(c->ps);
	long per_node[MAX_NODE + 1];
	char *p = map_region(c->ps, len);

	if (!p)
		return 3;
	if (pol_apply(c->pol, c->via, &o->preferred, p, len))
		return 3;
	hist_init(rep);
	/* memory timing: a repetition that counts is a phase; the warm-up is not */
	if (count)
		phase_case_begin(sh, -1);
	uint64_t loop0 = now_ns();

	for (size_t off = 0; off < len; off += page) {
		uint64_t t0 = now_ns(), dt;

		p[off] = 1;
		dt = now_ns() - t0;
		hist_add(rep, dt);
		sh->pages_done += count;
		if (c->ps != PS_THP)
			continue;
		/*
		 * Every 4 KiB of a THP region is written.  A fault that got a
		 * huge page mapped the next 4 KiB as well; one that fell back
		 * mapped one base page, and each of the other 511 writes is a
		 * base-page fault of its own.
		 */
		if (page_resident(p + off + 4096)) {
			if (huge)
				hist_add(huge, dt);
			for (size_t b = stride; b < page; b += stride) {
				p[off + b] = 1;
				sh->pages_done += count;
			}
			continue;
		}
		if (base)
			hist_add(base, dt);
		for (size_t b = stride; b < page; b += stride) {
			t0 = now_ns();
			p[off + b] = 1;
			dt = now_ns() - t0;
			hist_add(rep, dt);
			if (base)
				hist_add(base, dt);
			sh->pages_done += count;
		}
	}
	*per_page = (double)(now_ns() - loop0) / (double)(len / stride);
	if (count)
		phase_case_end(sh, &c->k, (long)(len / 4096));
	if (c->via == VIA_TASK)
		sys_set_mempolicy(MPOL_DEFAULT, NULL);
	if (last) {
		if (placement(p, len, stride, per_node, MAX_NODE) > 0) {
			out_row(&c->k, "in_mask_frac", frac_in(per_node, polnodes), "ratio");
			out_row(&c->k, "on_set_frac", frac_in(per_node, &o->preferred), "ratio");
		}
		if (c->ps == PS_THP) {
			long kib = smaps_anon_huge_kib(p);

			if (kib >= 0)
				out_row(&c->k, "thp_frac", (double)kib * 1024 / (double)len, "ratio");
		}
	}
	munmap(p, len);
	return 0;
}

/*
 * The harness's own cost: an untimed pass over a fresh region with the same
 * policy and size, so the medians of the timed and untimed passes compare
 * like with like.  -1 when it could not run (no pair then).
 */
static int untimed_pass(const struct lat_case *c, size_t len, double *per_page)
{
	size_t stride = touch_stride(c->ps);
	char *p = map_region(c->ps, len);
	int rc = -1;

	if (p && !pol_apply(c->pol, c->via, &c->o->preferred, p, len)) {
		uint64_t u0 = now_ns();

		for (size_t off = 0; off < len; off += stride)
			((volatile char *)p)[off] = 1;
		*per_page = (double)(now_ns() - u0) / (double)(len / stride);
		rc = 0;
	}
	if (c->via == VIA_TASK)
		sys_set_mempolicy(MPOL_DEFAULT, NULL);
	if (p)
		munmap(p, len);
	return rc;
}

static int lat_child(void *arg, struct shared *sh)
{
	const struct lat_case *c = arg;
	const struct opts *o = c->o;
	size_t len = case_bytes(o, c->k.scenario, c->ps);
	struct hist *all = malloc(sizeof(*all)), *rep = malloc(sizeof(*rep));
	/* THP: faults that mapped a huge page, and base-page faults (fallbacks) */
	struct hist *huge = malloc(sizeof(*huge)), *base = malloc(sizeof(*base));
	double *p50 = calloc((size_t)o->reps, sizeof(double));
	struct nodeset polnodes;
	struct median_ci ci;
	double *timed = calloc((size_t)o->reps, sizeof(double));
	double *untimed = calloc((size_t)o->reps, sizeof(double));
	/*
	 * Only when nothing is filled: a warm-up repetition and the untimed
	 * passes.  Under full and pressure a case asks for more than the
	 * preferred nodes can give, so an extra pass would change the
	 * outcome: BIND's OOM kill (or SIGBUS) would fall on the warm-up, and
	 * the overflow's reclaim would leave the other nodes in another state
	 * for the repetitions that count.
	 */
	bool free_sc = !strcmp(c->k.scenario, "free");
	int pairs = 0, rc;
	double med, t, u;

	if (!all || !rep || !huge || !base || !p50 || !timed || !untimed) {
		msg("latency: out of memory for histograms");
		return 1;
	}
	/* the case's CPU (--cpu): every case on the same one, not where the scheduler puts it */
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	CPU_SET(o->cpu, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus)) {
		msg("latency %s/%s/%s/%s: cannot run on CPU %d: %s", c->k.bench, c->k.policy,
		    c->k.pagesize, c->k.scenario, o->cpu, strerror(errno));
		return 1;
	}
	out_row(&c->k, "case_mib", (double)len / MIB, "MiB");
	hist_init(all);
	hist_init(huge);
	hist_init(base);
	pol_nodes(c->pol, &o->preferred, &polnodes);
	if (free_sc) {
		/* the warm-up: a whole timed repetition, its times discarded */
		rc = timed_pass(c, sh, len, rep, NULL, NULL, false, false, &polnodes, &t);
		if (rc)
			return rc;
	}
	out_row(&c->k, "warmup_reps", free_sc, "count");
	for (int r = 0; r < o->reps; r++) {
		/* the passes alternate: even repetitions timed first, odd untimed first */
		bool untimed_first = free_sc && (r & 1), have_u = false;

		if (untimed_first)
			have_u = !untimed_pass(c, len, &u);
		rc = timed_pass(c, sh, len, rep, huge, base, true, r == o->reps - 1, &polnodes, &t);
		if (rc)
			return rc;
		if (free_sc && !untimed_first)
			have_u = !untimed_pass(c, len, &u);
		if (have_u) {
			timed[pairs] = t;
			untimed[pairs] = u;
			pairs++;
		}
		out_hist(&c->k, r, rep);
		hist_merge(all, rep);
		p50[r] = (double)hist_quantile(rep, 0.5);
	}
	if (pairs) {
		t = stats_median(timed, (size_t)pairs);
		u = stats_median(untimed, (size_t)pairs);
		out_row(&c->k, "loop_timed_ns_per_page", t, out_time_unit());
		out_row(&c->k, "loop_untimed_ns_per_page", u, out_time_unit());
		out_row(&c->k, "harness_overhead_ratio", t / u, "ratio");
	}
	out_row(&c->k, "count", (double)all->count, "pages");
	if (c->ps == PS_THP) {
		/* faults, not pages: a huge fault maps 512 base pages at once */
		out_row(&c->k, "huge_fault_count", (double)huge->count, "faults");
		out_row(&c->k, "base_fault_count", (double)base->count, "faults");
		if (huge->count) {
			out_row(&c->k, "huge_fault_p50", (double)hist_quantile(huge, 0.50), out_time_unit());
			out_row(&c->k, "huge_fault_mean", hist_mean(huge), out_time_unit());
		}
		if (base->count) {
			out_row(&c->k, "base_fault_p50", (double)hist_quantile(base, 0.50), out_time_unit());
			out_row(&c->k, "base_fault_mean", hist_mean(base), out_time_unit());
		}
	}
	out_hist_summary(&c->k, all);
	ci = stats_median_ci_ranks((size_t)o->reps, 0.95);
	med = stats_median(p50, (size_t)o->reps);	/* sorts p50 */
	out_row(&c->k, "p50_median_of_reps", med, out_time_unit());
	out_row(&c->k, "p50_ci95_low", p50[ci.lo_rank - 1], out_time_unit());
	out_row(&c->k, "p50_ci95_high", p50[ci.hi_rank - 1], out_time_unit());
	out_row(&c->k, "p50_ci_coverage", ci.coverage, "ratio");
	out_row(&c->k, "reps", o->reps, "count");
	free(all);
	free(rep);
	free(huge);
	free(base);
	free(p50);
	free(timed);
	free(untimed);
	return 0;
}

/* One case of the (page size, scenario) block, after its position row. */
static void lat_run_one(const struct opts *o, struct filler *f, struct shared *sh, bool aa,
			enum via v, enum pol p, enum pagesize ps, enum scenario sc, int pos)
{
	struct lat_case c = {
		o, { aa ? VOCAB_BENCH_LATENCY_AA : v == VIA_MBIND ? VOCAB_BENCH_LATENCY : VOCAB_BENCH_LATENCY_TASK,
		     pol_names[p], pagesize_names[ps], scenario_names[sc] }, p, v, ps };
	enum outcome oc;

	out_row(&c.k, "case_order", pos, "position");
	memset(sh, 0, sizeof(*sh));
	oc = run_case(&c.k, f, lat_child, &c, sh, 600);
	report_outcome(&c.k, oc, sh, touch_stride(ps));
}

/*
 * The cases of one page size and scenario: the mbind() group, then the
 * set_mempolicy() group, each in the order --seed gives it (the listed
 * order without one), then the A/A case: the first case run, again.  A
 * fixed order would put a policy always first, on a cold allocator, or
 * always after the same neighbour; the seed is a row (order_seed) and each
 * case's position among the cases of its block too (case_order, 1 = first).
 */
static void lat_block(const struct opts *o, struct filler *f, struct shared *sh,
		      enum pagesize ps, enum scenario sc)
{
	int first = -1, pos = 0;

	for (int v = VIA_MBIND; v <= VIA_TASK; v++) {
		int order[POL_COUNT];

		for (int p = 0; p < POL_COUNT; p++)
			order[p] = p;
		if (o->seed_given)
			order_shuffle(order, POL_COUNT,
				      order_group_seed(o->seed, (unsigned)v, (unsigned)ps, (unsigned)sc));
		for (int i = 0; i < POL_COUNT; i++) {
			enum pol p = (enum pol)order[i];

			if (!pol_wanted(o, p, v == VIA_MBIND ? VOCAB_BENCH_LATENCY : VOCAB_BENCH_LATENCY_TASK))
				continue;
			if (first < 0)
				first = p;
			lat_run_one(o, f, sh, false, (enum via)v, p, ps, sc, ++pos);
		}
	}
	/* the A/A case: mbind() again, the policy that ran first */
	if (first >= 0)
		lat_run_one(o, f, sh, true, VIA_MBIND, (enum pol)first, ps, sc, ++pos);
}

static int run_latency(const struct opts *o)
{
	struct shared *sh = shared_new();
	struct rowkey k0 = { VOCAB_BENCH_LATENCY, "-", "-", "-" };
	char why[200];

	if (!sh)
		return 1;
	out_row(&k0, "clock_overhead", clock_overhead_ns(), out_time_unit());
	if (o->seed_given)
		out_row(&k0, "order_seed", (double)o->seed, "seed");
	out_row(&k0, "cpu", o->cpu, "id");
	for (int sc = 0; sc < SC_COUNT; sc++) {
		struct filler f;

		if (!(o->scen_mask & 1u << sc))
			continue;
		hugetlb_scenario_pools(o, VOCAB_BENCH_LATENCY, (enum scenario)sc);
		if (scenario_begin(o, VOCAB_BENCH_LATENCY, sc, &f, why, sizeof(why))) {
			tap_skip(why, "latency scenario %s", scenario_names[sc]);
			knobs_restore();
			continue;
		}
		for (int ps = 0; ps < PS_COUNT; ps++) {
			if (!(o->page_mask & 1u << ps))
				continue;
			if (pagesize_unavailable(ps, why, sizeof(why))) {
				tap_skip(why, "latency %s/%s", pagesize_names[ps],
					 scenario_names[sc]);
				continue;
			}
			lat_block(o, &f, sh, (enum pagesize)ps, (enum scenario)sc);
		}
		scenario_end(&f);
		knobs_restore();
	}
	return 0;
}

const struct bench bench_latency = {
	.name = VOCAB_BENCH_LATENCY,
	.help = "first-touch fault latency per page (mbind and set_mempolicy)",
	.options = "--policies --pagesizes --scenarios --reps --mib --fill-cap-mib --headroom-mib --seed --cpu",
	.needs = { .min_mem_nodes = 1, .sysctls = { PCP_HIGH_SYSCTL } },
	.timeout_secs = 900,
	.run = run_latency,
};
