// SPDX-License-Identifier: GPL-2.0
/*
 * fallback-order: where an MPOL_PREFERRED_MANY allocation that overflows its
 * nodes lands under each fallback order of the lab kernel
 * (kernel/patches/0006): local (no flag, the kernel's default), nearest
 * (MPOL_F_FALLBACK_NEAREST) and tier (MPOL_F_FALLBACK_TIER).  The order is a
 * mode flag of the policy, so each order is a task of its own: the child of
 * each case and order puts the flag on its own policy, and nothing
 * system-wide changes (other tasks, and the other orders' children, keep
 * theirs).
 *
 * Cases: the preferred set of --preferred and, when it has several nodes,
 * each of its nodes alone (with one node the orders can disagree: on two
 * sockets of DRAM + PMEM, "tier" sends PMEM 2's overflow to PMEM 3 and
 * "local" to DRAM 0).  Per case a filler holds the preferred nodes full to
 * --headroom-mib above their high watermark; per order a child pinned to
 * CPU 0 then faults the set's free memory + --mib MiB of 4 KiB pages under
 * PREFERRED_MANY with its order's flag, so at least --mib MiB must fall back
 * (less if the nodes outside the set are short of it).
 *
 * Rows (bench fallback-order, policy preferred-many, pagesize 4k, scenario =
 * the order, nodes = the case's set): pages_node<N>, pages_total,
 * on_set_frac, pages_fallback, fallback_node (the node outside the set
 * that took most of the overflow, -1 none), local_node, filler_mib,
 * free_mib_node<N> and min_wmark_mib_node<N> of the set, overflow_mib, the
 * deltas of the mpol_* and numa_* counters, and the modeled cost of the
 * placement (model_*; --model-hmat gives the figures seen from CPU 0).
 * A TAP check per case and order: the series' mpol_pref_many_fallback
 * counter rose by at least the pages placed outside the set (the counters are
 * system wide, so other tasks only add).
 *
 * On a kernel without the flags (it rejects them with EINVAL) only "local"
 * runs -- the only order such a kernel has -- and the two others SKIP, so
 * the rows compare with the lab kernel's "local" rows.
 */
#include "tb.h"
#include "nearest.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MIB (1024UL * 1024)
#define BENCH VOCAB_BENCH_FALLBACK_ORDER

struct fo_case {
	const struct opts *o;
	struct rowkey k;
	struct nodeset pref;
	size_t len;
	enum pol pol;		/* PREFERRED_MANY, or PREFERRED for a single-node pair */
	int cpu;		/* the child runs there; -1: where the harness is */
	int flags;		/* the order's mode flag (MPOL_F_FALLBACK_*), 0 local */
};

static int fo_child(void *arg, struct shared *sh)
{
	const struct fo_case *c = arg;
	enum pol pol = c->pol;
	struct counters before, after;
	struct nodeset mem;
	long total, outside = 0, best = 0;
	int best_node = -1;
	char metric[48];
	char *p = map_region(PS_4K, c->len);

	if (!p)
		return 3;
	if (c->cpu >= 0) {
		cpu_set_t one;

		CPU_ZERO(&one);
		CPU_SET(c->cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one)) {
			msg(BENCH ": cannot pin to CPU %d: %s", c->cpu, strerror(errno));
			return 3;
		}
	}
	/* the order is this task's own: a flag of its policy */
	if (pol_apply_flags(pol, VIA_MBIND, &c->pref, p, c->len, c->flags))
		return 1;
	counters_read(&before);
	touch_pages(p, c->len, 4096, sh);
	counters_read(&after);
	total = placement(p, c->len, 4096, sh->per_node, MAX_NODE);
	if (total <= 0)
		return 1;
	mem_nodes(&mem);
	ns_for_each(n, &mem) {
		if (n > MAX_NODE)
			break;
		snprintf(metric, sizeof(metric), "pages_node%d", n);
		out_row(&c->k, metric, (double)sh->per_node[n], "pages");
		if (ns_has(&c->pref, n))
			continue;
		outside += sh->per_node[n];
		if (sh->per_node[n] > best) {
			best = sh->per_node[n];
			best_node = n;
		}
	}
	out_row(&c->k, "pages_total", (double)total, "pages");
	out_row(&c->k, "on_set_frac", frac_in(sh->per_node, &c->pref), "ratio");
	out_row(&c->k, "pages_fallback", (double)outside, "pages");
	out_row(&c->k, "fallback_node", best_node, "node");
	sh->result[2] = best_node;
	counter_delta_rows(&c->k, &before, &after, NULL);
	model_rows(&c->k, c->o, sh->per_node);
	/* result[0]: pages outside the set, result[1]: the counter's delta or -1 */
	sh->result[0] = (double)outside;
	sh->result[1] = -1;
	{
		long long a = counters_get(&before, "mpol_pref_many_fallback");
		long long b = counters_get(&after, "mpol_pref_many_fallback");

		if (a >= 0 && b >= 0)
			sh->result[1] = (double)(b - a);
	}
	counters_free(&before);
	counters_free(&after);
	munmap(p, c->len);
	return 0;
}

/* The smallest free memory of the nodes outside @pref, MiB (-1 none). */
static long min_free_outside(const struct nodeset *pref)
{
	struct nodeset mem;
	long least = -1;

	mem_nodes(&mem);
	ns_for_each(n, &mem) {
		long f = node_meminfo_kib(n, "MemFree");

		if (ns_has(pref, n) || f < 0)
			continue;
		if (least < 0 || f / 1024 < least)
			least = f / 1024;
	}
	return least;
}

static int run_fo_case(const struct opts *o, const struct nodeset *pref, struct shared *sh,
		    bool have_flags)
{
	struct filler f;
	long room, overflow, wmark = 0, total_p = nodes_total_mib(pref);
	char why[256], ids[48];
	int failed = 0;

	ns_format_plus(pref, ids, sizeof(ids));
	out_set_nodes(o->label, pref);
	if (total_p > o->fill_cap_mib) {
		snprintf(why, sizeof(why), "filling %ld MiB exceeds --fill-cap-mib %ld", total_p,
			 o->fill_cap_mib);
		tap_skip(why, BENCH " %s:%s", o->label, ids);
		return 0;
	}
	/*
	 * Fill to headroom above the high watermark: the first pass of
	 * PREFERRED_MANY does not reclaim, so it stops at the low watermark,
	 * which THP's min_free_kbytes puts at tens of MiB on a small node.
	 */
	ns_for_each(n, pref) {
		long high = node_wmark_kib(n, "high") / 1024;

		if (high > wmark)
			wmark = high;
	}
	if (filler_start(&f, pref, o->headroom_mib + wmark, NULL, 0)) {
		tap_skip("the filler could not fill the preferred nodes", BENCH " %s:%s", o->label,
			 ids);
		return 0;
	}
	f.held = true;	/* run_case() checks the fill before and after each case */
	/* the overflow must fit on the nodes it can land on, with room to spare */
	room = min_free_outside(pref) - 2 * o->headroom_mib - wmark;
	overflow = o->mib < room ? o->mib : room;
	if (overflow < 4) {
		snprintf(why, sizeof(why), "nodes outside %.47s have %ld MiB free, too little to overflow into",
			 ids, min_free_outside(pref));
		tap_skip(why, BENCH " %s:%s", o->label, ids);
		filler_stop(&f);
		return 0;
	}
	msg(BENCH " %s:%s: filler holds %ld MiB, leaving %ld MiB above the high watermark; %ld MiB overflow per order",
	    o->label, ids, f.mib, o->headroom_mib, overflow);
	for (int s = 0; s < FB_COUNT; s++) {
		struct fo_case c = { o, { BENCH, "preferred-many", "4k", fallback_names[s] }, *pref, 0,
				     POL_PREFERRED_MANY, -1, fallback_flag((enum fallback)s) };
		long free_sum = 0;
		enum outcome oc;

		if (c.flags && !have_flags) {
			tap_skip("kernel has no MPOL_F_FALLBACK_* mode flags (not the lab's series)",
				 BENCH " %s:%s %s", o->label, ids, fallback_names[s]);
			continue;
		}
		out_row(&c.k, "filler_mib", (double)f.mib, "MiB");
		out_row(&c.k, "local_node", node_of_cpu(0), "node");
		/* all the free memory of the set and then some: at least the
		 * overflow must come from elsewhere, however deep the first pass
		 * digs below the watermarks (a non-blocking allocation may go
		 * below min) */
		ns_for_each(n, pref) {
			/* with the per-CPU lists, which run_case() drains into MemFree */
			long free_kib = node_free_pcp_kib(n);
			char metric[48];

			snprintf(metric, sizeof(metric), "free_mib_node%d", n);
			out_row(&c.k, metric, (double)free_kib / 1024, "MiB");
			snprintf(metric, sizeof(metric), "min_wmark_mib_node%d", n);
			{
				long min_kib = node_wmark_kib(n, "min");

				out_row(&c.k, metric, min_kib < 0 ? NAN : (double)min_kib / 1024, "MiB");
			}
			if (free_kib > 0)
				free_sum += free_kib;
		}
		out_row(&c.k, "overflow_mib", (double)overflow, "MiB");
		c.len = ((size_t)free_sum * 1024 + (size_t)overflow * MIB) & ~(size_t)4095;
		memset(sh, 0, sizeof(*sh));
		oc = run_case(&c.k, &f, fo_child, &c, sh, 300);
		report_outcome(&c.k, oc, sh, 4096);
		if (oc == OUT_INVALID || oc == OUT_KILLED_OTHER) {
			failed = 1;	/* report_outcome() said why, as TAP */
			continue;
		}
		if (oc != OUT_COMPLETED) {
			failed |= !tap(false, BENCH " %s:%s %s: the overflowing allocation completes (%s)",
				       o->label, ids, fallback_names[s], outcome_names[oc]);
			continue;
		}
		if (sh->result[1] < 0)
			tap_skip("kernel has no mpol_pref_many_fallback counter",
				 BENCH " %s:%s %s: counter covers the fallback", o->label, ids,
				 fallback_names[s]);
		else
			failed |= !tap(sh->result[0] > 0 && sh->result[1] >= sh->result[0],
				       BENCH " %s:%s %s: mpol_pref_many_fallback rose by %.0f, at least the %.0f pages placed outside the set (more than none)",
				       o->label, ids, fallback_names[s], sh->result[1], sh->result[0]);
	}
	filler_stop(&f);
	return failed;
}

/*
 * The single-node case that tells PREFERRED from PREFERRED_MANY in 6.12:
 * one CPU-less node @n alone, filled as above, and a child on a CPU whose
 * node is not @n's nearest memory node with CPUs.  PREFERRED overflows down
 * @n's own zonelist, PREFERRED_MANY (kernel order "local") down the
 * allocating CPU's node's: on two sockets they land on different nodes.
 * Rows: bench single-node, policy preferred / preferred-many, nodes the
 * label of @n, scenario full: cpu, cpu_node, fallback_node, pages_fallback,
 * on_set_frac, pages_node<N>, expected_node (the first node the SLIT
 * says, -1 unknown).  A TAP check per policy: the overflow went to a node
 * at the smallest distance from @n (PREFERRED) or from the CPU's node
 * (PREFERRED_MANY); with ties any of them.
 */
static int run_single_pair(const struct opts *o, int n, struct shared *sh)
{
	static const enum pol pols[] = { POL_PREFERRED, POL_PREFERRED_MANY };
	struct nodeset one, cpus, mem, none, want;
	int dist_n[MAX_NODE + 1], dist_c[MAX_NODE + 1];
	int near_cpu_node = -1, cpu_node = -1, cpu, failed = 0;
	long wmark = 0, room, overflow, free_kib;
	struct filler f;
	char ids[48];

	ns_clear(&one);
	ns_set(&one, n);
	ns_clear(&none);
	ns_format_plus(&one, ids, sizeof(ids));
	cpu_nodes(&cpus);
	mem_nodes(&mem);
	for (int m = 0; m <= MAX_NODE; m++)
		dist_n[m] = node_distance(n, m);
	/* @n's nearest node with CPUs, then the first other node with CPUs */
	nearest_nodes(dist_n, MAX_NODE + 1, &cpus, &one, &want);
	near_cpu_node = ns_first(&want);
	ns_for_each(c, &cpus)
		if (c != near_cpu_node && !ns_has(&want, c)) {
			cpu_node = c;
			break;
		}
	cpu = cpu_node < 0 ? -1 : node_first_cpu(cpu_node);
	if (cpu < 0) {
		tap_skip("needs a node with CPUs other than the nearest to the preferred node",
			 "single-node %s:%s", o->label, ids);
		return 0;
	}
	for (int m = 0; m <= MAX_NODE; m++)
		dist_c[m] = node_distance(cpu_node, m);
	out_set_nodes(o->label, &one);
	wmark = node_wmark_kib(n, "high") / 1024;
	if (filler_start(&f, &one, o->headroom_mib + wmark, NULL, 0)) {
		tap_skip("the filler could not fill the node", "single-node %s:%s", o->label, ids);
		return 0;
	}
	f.held = true;
	room = min_free_outside(&one) - 2 * o->headroom_mib - wmark;
	overflow = o->mib < room ? o->mib : room;
	if (overflow < 4) {
		tap_skip("too little free memory outside the node to overflow into",
			 "single-node %s:%s", o->label, ids);
		filler_stop(&f);
		return 0;
	}
	msg("single-node %s:%s from CPU %d (node %d; the node's nearest with CPUs: %d): %ld MiB overflow",
	    o->label, ids, cpu, cpu_node, near_cpu_node, overflow);
	for (size_t i = 0; i < sizeof(pols) / sizeof(pols[0]); i++) {
		struct fo_case c = { o, { VOCAB_BENCH_SINGLE_NODE, pol_names[pols[i]], "4k", "full" }, one, 0,
				     pols[i], cpu, 0 };
		const int *from = pols[i] == POL_PREFERRED ? dist_n : dist_c;
		enum outcome oc;
		int got;

		free_kib = node_free_pcp_kib(n);	/* the per-CPU lists drain before a fallback */
		c.len = ((size_t)(free_kib > 0 ? free_kib : 0) * 1024 + (size_t)overflow * MIB) &
			~(size_t)4095;
		out_row(&c.k, "cpu", cpu, "id");
		out_row(&c.k, "cpu_node", cpu_node, "node");
		nearest_nodes(from, MAX_NODE + 1, &mem, &one, &want);
		out_row(&c.k, "expected_node", ns_count(&want) ? ns_first(&want) : -1, "node");
		memset(sh, 0, sizeof(*sh));
		oc = run_case(&c.k, &f, fo_child, &c, sh, 300);
		report_outcome(&c.k, oc, sh, 4096);
		if (oc == OUT_INVALID || oc == OUT_KILLED_OTHER) {
			failed = 1;
			continue;
		}
		if (oc != OUT_COMPLETED) {
			failed |= !tap(false, "single-node %s:%s %s: the overflowing allocation completes (%s)",
				       o->label, ids, pol_names[pols[i]], outcome_names[oc]);
			continue;
		}
		got = (int)sh->result[2];
		failed |= !tap(ns_count(&want) && got >= 0 && ns_has(&want, got),
			       "single-node %s:%s %s from CPU %d: overflow on node %d, the nearest to %s %d by the SLIT",
			       o->label, ids, pol_names[pols[i]], cpu, got,
			       pols[i] == POL_PREFERRED ? "the preferred node" : "the CPU's node",
			       pols[i] == POL_PREFERRED ? n : cpu_node);
	}
	filler_stop(&f);
	return failed;
}

static int run_fallback_order(const struct opts *o)
{
	struct shared *sh;
	char why[200];
	bool have_flags;
	int failed = 0;

	if (!pol_wanted(o, POL_PREFERRED_MANY, BENCH))
		return 0;
	if (!(o->page_mask & 1u << PS_4K) || !(o->scen_mask & 1u << SC_FULL)) {
		tap_skip("runs 4k pages in scenario full only", BENCH);
		return 0;
	}
	/* "local" means CPU 0's node for every case */
	if (pin_to_cpu0(why, sizeof(why))) {
		tap_skip(why, BENCH);
		return 0;
	}
	sh = shared_new();
	if (!sh)
		return 1;
	have_flags = kernel_knows_mode(MPOL_PREFERRED_MANY | MPOL_F_FALLBACK_NEAREST);
	if (!have_flags)
		msg(BENCH ": the kernel rejects MPOL_F_FALLBACK_NEAREST: only its one order (local) runs");
	failed |= run_fo_case(o, &o->preferred, sh, have_flags);
	if (ns_count(&o->preferred) > 1)
		ns_for_each(n, &o->preferred) {
			struct nodeset one;

			ns_clear(&one);
			ns_set(&one, n);
			failed |= run_fo_case(o, &one, sh, have_flags);
		}
	/* preferred against preferred-many, each CPU-less preferred node alone */
	{
		struct nodeset cpus;

		cpu_nodes(&cpus);
		if (ns_count(&cpus) > 1)
			ns_for_each(n, &o->preferred)
				if (!ns_has(&cpus, n) && n <= MAX_NODE)
					failed |= run_single_pair(o, n, sh);
	}
	out_set_nodes(o->label, &o->preferred);
	return failed;
}

const struct bench bench_fallback_order = {
	.name = VOCAB_BENCH_FALLBACK_ORDER,
	.help = "PREFERRED_MANY overflow per fallback order (a flag of each task's policy): placement, counters, modeled cost",
	.options = "--policies --mib --headroom-mib --fill-cap-mib --model-hmat --model-cache-hit "
		   "--model-cache-hmat",
	/* with two memory nodes the overflow has one place to go */
	.needs = { .min_mem_nodes = 3, .outside_set = true, .sysctls = { PCP_HIGH_SYSCTL } },
	.timeout_secs = 600,
	.run = run_fallback_order,
};
