// SPDX-License-Identifier: GPL-2.0
/*
 * features: the parts of the memory-policy API no other bench measures,
 * each with free nodes, 4 KiB pages, from CPU 0, and a TAP check of what
 * 6.12 promises (mm/mempolicy.c):
 *
 * - set_mempolicy_home_node(2) on an MPOL_BIND or MPOL_PREFERRED_MANY
 *   range: the allocation starts at the home node's zonelist instead of the
 *   allocating CPU's node (policy_nodemask()), so with free nodes every page
 *   lands on the home node.  Per node h of the set: on_home_frac_home<h> and
 *   landing_node_home<h> (the node with most pages); without a home node
 *   landing_node_nohome, the set's node nearest CPU 0's.
 * - mbind(MPOL_MF_MOVE) on populated memory: pages bound to one node, then
 *   rebound to another with MPOL_MF_MOVE, must all move (moved_frac), at a
 *   cost per page (move_cost_per_page, one timed mbind over the range).
 * - weighted interleave's weights (/sys/kernel/mm/mempolicy/weighted_interleave/
 *   node<N>, restored after): weights 3 and 1 on two nodes give three pages
 *   of four on the first (wi_frac_node<N>, exact for a fresh range whose
 *   pages all fault in order).
 *
 * Needs two memory nodes: the --preferred set's first two, else its first
 * and the lowest other node.
 */
#include "tb.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MIB (1024UL * 1024)
#define BENCH VOCAB_BENCH_FEATURES
#ifndef SYS_set_mempolicy_home_node
#define SYS_set_mempolicy_home_node 450
#endif
#define WI_DIR "/sys/kernel/mm/mempolicy/weighted_interleave"

/* The node with the most pages of @per_node, -1 when none. */
static int landing_node(const long *per_node)
{
	int best = -1;

	for (int n = 0; n <= MAX_NODE; n++)
		if (per_node[n] > 0 && (best < 0 || per_node[n] > per_node[best]))
			best = n;
	return best;
}

/* Map @len, apply @p to it (and the home node, if >= 0), touch, count. */
static long place(const struct opts *o, enum pol p, int home, size_t len, long *per_node)
{
	char *m = map_region(PS_4K, len);
	long got;

	if (!m)
		return -1;
	if (pol_apply(p, VIA_MBIND, &o->preferred, m, len)) {
		munmap(m, len);
		return -1;
	}
	if (home >= 0 && syscall(SYS_set_mempolicy_home_node, (unsigned long)m, len,
				 (unsigned long)home, 0UL)) {
		msg("set_mempolicy_home_node(%d) on a %s range: %s", home, pol_names[p],
		    strerror(errno));
		munmap(m, len);
		return -1;
	}
	for (size_t off = 0; off < len; off += 4096)
		m[off] = 1;
	got = placement(m, len, 4096, per_node, MAX_NODE);
	munmap(m, len);
	return got;
}

static void home_node(const struct opts *o, size_t len)
{
	static const enum pol pols[] = { POL_PREFERRED_MANY, POL_BIND };
	long per_node[MAX_NODE + 1];
	char metric[48];

	if (ns_count(&o->preferred) < 2) {
		tap_skip("needs a preferred set of two nodes or more", BENCH " home node");
		return;
	}
	for (size_t i = 0; i < sizeof(pols) / sizeof(pols[0]); i++) {
		struct rowkey k = { BENCH, pol_names[pols[i]], "4k", "free" };

		if (!pol_wanted(o, pols[i], BENCH))
			continue;
		int nohome = place(o, pols[i], -1, len, per_node) > 0 ? landing_node(per_node) : -1;

		if (nohome >= 0)
			out_row(&k, "landing_node_nohome", nohome, "node");
		ns_for_each(h, &o->preferred) {
			struct nodeset one;
			long got = place(o, pols[i], h, len, per_node);
			double frac;

			if (got <= 0) {
				tap(false, BENCH " %s: home node %d set and the range written",
				    pol_names[pols[i]], h);
				continue;
			}
			ns_clear(&one);
			ns_set(&one, h);
			frac = frac_in(per_node, &one);
			snprintf(metric, sizeof(metric), "on_home_frac_home%d", h);
			out_row(&k, metric, frac, "ratio");
			snprintf(metric, sizeof(metric), "landing_node_home%d", h);
			out_row(&k, metric, landing_node(per_node), "node");
			/* where the pages go anyway, a home node tells nothing */
			if (h == nohome || nohome < 0)
				tap_skip(nohome < 0 ? "no placement without a home node to compare with" :
					 "the node the range lands on without a home node",
					 BENCH " %s with home node %d", pol_names[pols[i]], h);
			else
				tap(frac >= 0.99, BENCH " %s with home node %d, not %d (free nodes, CPU 0): %.4f of %ld pages on it",
				    pol_names[pols[i]], h, nohome, frac, got);
		}
	}
}

static void move_pages_check(int a, int b, size_t len)
{
	struct rowkey k = { BENCH, pol_names[POL_BIND], "4k", "free" };
	long per_node[MAX_NODE + 1], got;
	struct nodeset na, nb;
	uint64_t t0, t1;
	char *m = map_region(PS_4K, len);

	if (!m) {
		tap(false, BENCH " mbind(MPOL_MF_MOVE): mmap");
		return;
	}
	ns_clear(&na);
	ns_set(&na, a);
	ns_clear(&nb);
	ns_set(&nb, b);
	if (sys_mbind(m, len, MPOL_BIND, &na, 0)) {
		tap(false, BENCH " mbind(MPOL_MF_MOVE): bind to node %d: %s", a, strerror(errno));
		munmap(m, len);
		return;
	}
	for (size_t off = 0; off < len; off += 4096)
		m[off] = 1;
	t0 = now_ns();
	if (sys_mbind(m, len, MPOL_BIND, &nb, MPOL_MF_MOVE)) {
		tap(false, BENCH " mbind(MPOL_BIND node %d, MPOL_MF_MOVE): %s", b, strerror(errno));
		munmap(m, len);
		return;
	}
	t1 = now_ns();
	got = placement(m, len, 4096, per_node, MAX_NODE);
	munmap(m, len);
	if (got <= 0) {
		tap(false, BENCH " mbind(MPOL_MF_MOVE): placement read back");
		return;
	}
	out_row(&k, "moved_frac", frac_in(per_node, &nb), "ratio");
	out_row(&k, "move_cost_per_page", (double)(t1 - t0) / (double)got, out_time_unit());
	tap(frac_in(per_node, &nb) >= 0.99,
	    BENCH " mbind(MPOL_MF_MOVE) from node %d to %d: %.4f of %ld resident pages moved",
	    a, b, frac_in(per_node, &nb), got);
}

static void weights(int a, int b, size_t len)
{
	struct rowkey k = { BENCH, pol_names[POL_WEIGHTED_INTERLEAVE], "4k", "free" };
	char pa[96], pb[96], metric[48], why[160];
	struct nodeset two;
	long per_node[MAX_NODE + 1], got;
	double frac;
	char *m;

	if (!pol_supported(POL_WEIGHTED_INTERLEAVE, why, sizeof(why))) {
		tap_skip(why, BENCH " weighted-interleave weights");
		return;
	}
	snprintf(pa, sizeof(pa), WI_DIR "/node%d", a);
	snprintf(pb, sizeof(pb), WI_DIR "/node%d", b);
	if (access(pa, W_OK) || access(pb, W_OK)) {
		tap_skip("no writable " WI_DIR "/node<N>", BENCH " weighted-interleave weights");
		return;
	}
	if (knob_save_write(pa, 3) || knob_save_write(pb, 1)) {
		tap(false, BENCH " weighted-interleave: weights 3 and 1 written");
		knobs_restore();
		return;
	}
	ns_clear(&two);
	ns_set(&two, a);
	ns_set(&two, b);
	m = map_region(PS_4K, len);
	if (!m || sys_mbind(m, len, MPOL_WEIGHTED_INTERLEAVE, &two, 0)) {
		tap(false, BENCH " weighted-interleave over nodes %d,%d: %s", a, b, strerror(errno));
		if (m)
			munmap(m, len);
		knobs_restore();
		return;
	}
	for (size_t off = 0; off < len; off += 4096)
		m[off] = 1;
	got = placement(m, len, 4096, per_node, MAX_NODE);
	munmap(m, len);
	knobs_restore();
	if (got <= 0) {
		tap(false, BENCH " weighted-interleave: placement read back");
		return;
	}
	frac = (double)per_node[a] / (double)got;
	snprintf(metric, sizeof(metric), "wi_frac_node%d", a);
	out_row(&k, metric, frac, "ratio");
	snprintf(metric, sizeof(metric), "wi_frac_node%d", b);
	out_row(&k, metric, (double)per_node[b] / (double)got, "ratio");
	snprintf(metric, sizeof(metric), "wi_weight_node%d", a);
	out_row(&k, metric, 3, "weight");
	snprintf(metric, sizeof(metric), "wi_weight_node%d", b);
	out_row(&k, metric, 1, "weight");
	out_row(&k, "wi_expected_frac", 3.0 / (3 + 1), "ratio");
	tap(frac > 0.74 && frac < 0.76,
	    BENCH " weighted-interleave with weights 3 (node %d) and 1 (node %d): %.4f of %ld pages on node %d (want 0.75)",
	    a, b, frac, got, a);
}

static int run_features(const struct opts *o)
{
	size_t len = (size_t)o->mib * MIB;
	int a = ns_first(&o->preferred), b = ns_next(&o->preferred, a);
	struct nodeset mem;
	char why[160];

	if (pin_to_cpu0(why, sizeof(why))) {
		tap_skip(why, BENCH);
		return 0;
	}
	mem_nodes(&mem);
	if (b < 0)
		ns_for_each(n, &mem)
			if (n != a) {
				b = n;
				break;
			}
	if (a < 0 || b < 0) {
		tap_skip("needs two memory nodes", BENCH);
		return 0;
	}
	/*
	 * The harness allocates here itself, at -1000: each node it binds to
	 * must hold the range above its min watermark, or an OOM finds no task.
	 */
	ns_for_each(n, &mem) {
		long room = node_meminfo_kib(n, "MemFree") - node_wmark_kib(n, "min");

		if ((n == a || n == b || ns_has(&o->preferred, n)) && room < 2 * (long)(len / 1024)) {
			snprintf(why, sizeof(why), "node %d has %ld MiB above its min watermark, the bench needs %zu",
				 n, room / 1024, 2 * len / MIB);
			tap_skip(why, BENCH);
			return 0;
		}
	}
	home_node(o, len);
	move_pages_check(a, b, len);
	weights(a, b, len);
	return 0;
}

const struct bench bench_features = {
	.name = VOCAB_BENCH_FEATURES,
	.help = "home node, mbind(MPOL_MF_MOVE), weighted-interleave weights: placement with free nodes",
	.options = "--preferred --mib --policies",
	.needs = { .min_mem_nodes = 2 },
	.timeout_secs = 300,
	.run = run_features,
};
