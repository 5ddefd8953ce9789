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
#include "cgroup.h"
#include "mpolmodel.h"
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
#ifndef MPOL_F_STATIC_NODES
#define MPOL_F_STATIC_NODES (1 << 15)
#define MPOL_F_RELATIVE_NODES (1 << 14)
#endif

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
	long per_node[MAX_NODE + 1], got, was_a = -1, was_b = -1;
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
	if (knob_read_long(pa, &was_a) || knob_read_long(pb, &was_b)) {
		tap(false, BENCH " weighted-interleave: %s or %s unreadable", pa, pb);
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
	{
		long now_a = -1, now_b = -1;

		knob_read_long(pa, &now_a);
		knob_read_long(pb, &now_b);
		tap(now_a == was_a && now_b == was_b,
		    BENCH " weighted-interleave: weights restored to %ld and %ld (read %ld and %ld)",
		    was_a, was_b, now_a, now_b);
	}
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

/*
 * MPOL_F_STATIC_NODES and MPOL_F_RELATIVE_NODES under a cpuset change:
 * per flag (none, static, relative) a child in a cgroup of its own whose
 * cpuset.mems is M1 = {n1, n2} sets MPOL_BIND {n1} | flag, writes a fresh
 * range, the group's cpuset.mems becomes M2 = {n0, n1} (n0 < n1 < n2 the
 * lowest memory nodes), and it writes another.  Where each range landed,
 * and the policy's nodes get_mempolicy() says, against mpolmodel.c's
 * reading of the documented semantics: none remaps the nodes by position
 * (n1, 1st of M1 -> n0, 1st of M2), static keeps n1 (in M2 too), relative
 * reads {n1} as the n1-th node of the set (M1's 2nd, n2, then M2's 2nd,
 * n1 for n1 = 1).  Only new pages count: cgroup v2 migrates the first
 * range when mems change (memory_migrate is always on there).
 */
struct cpuset_result {
	long per_node[2][MAX_NODE + 1], seen[2];
	struct nodeset got[2];		/* get_mempolicy() after each stage */
	char why[200];
};

struct cpuset_arg {
	enum mm_flag flag;
	struct nodeset user, m2;
	const char *cg;
	size_t len;
	struct cpuset_result *res;
};

static int cpuset_child(void *argp, struct shared *sh)
{
	static const int flag_bits[MM_NFLAGS] = { 0, MPOL_F_STATIC_NODES, MPOL_F_RELATIVE_NODES };
	struct cpuset_arg *a = argp;
	struct cpuset_result *r = a->res;
	char ids[128];
	int mode;

	(void)sh;
	if (cg_join(a->cg, r->why, sizeof(r->why)))
		return 3;
	if (sys_set_mempolicy(MPOL_BIND | flag_bits[a->flag], &a->user)) {
		snprintf(r->why, sizeof(r->why), "set_mempolicy(MPOL_BIND|%s): %s", mm_flag_names[a->flag],
			 strerror(errno));
		return 3;
	}
	for (int st = 0; st < 2; st++) {
		char *m;

		if (st == 1) {
			ns_format_plus(&a->m2, ids, sizeof(ids));
			for (char *c = ids; *c; c++)
				if (*c == '+')
					*c = ',';
			if (cg_write(a->cg, "cpuset.mems", ids, r->why, sizeof(r->why)))
				return 3;
		}
		m = map_region(PS_4K, a->len);
		if (!m) {
			snprintf(r->why, sizeof(r->why), "mmap: %s", strerror(errno));
			return 3;
		}
		for (size_t off = 0; off < a->len; off += 4096)
			m[off] = 1;
		r->seen[st] = placement(m, a->len, 4096, r->per_node[st], MAX_NODE);
		if (sys_get_mempolicy(&mode, &r->got[st], NULL, 0))
			ns_clear(&r->got[st]);
		munmap(m, a->len);
	}
	return 0;
}

static void cpuset_flags(const struct opts *o, size_t len)
{
	struct rowkey k = { BENCH, pol_names[POL_BIND], "4k", "free" };
	struct nodeset mem, m1, m2, user, want[2];
	struct cpuset_result *res;
	struct shared *sh;
	char why[200], name[64], cgpath[128], ids[128], metric[64], m1s[64], m2s[64];
	int n0, n1, n2;

	(void)o;
	mem_nodes(&mem);
	n0 = ns_first(&mem);
	n1 = n0 < 0 ? -1 : ns_next(&mem, n0);
	n2 = n1 < 0 ? -1 : ns_next(&mem, n1);
	if (n2 < 0) {
		tap_skip("needs three memory nodes", BENCH " MPOL_F_STATIC_NODES/RELATIVE_NODES under a cpuset change");
		return;
	}
	if (cg_unavailable("cpuset", why, sizeof(why))) {
		tap_skip(why, BENCH " MPOL_F_STATIC_NODES/RELATIVE_NODES under a cpuset change");
		return;
	}
	ns_clear(&m1);
	ns_set(&m1, n1);
	ns_set(&m1, n2);
	ns_clear(&m2);
	ns_set(&m2, n0);
	ns_set(&m2, n1);
	ns_clear(&user);
	ns_set(&user, n1);
	ns_format_plus(&m1, m1s, sizeof(m1s));
	ns_format_plus(&m2, m2s, sizeof(m2s));
	res = mmap(NULL, sizeof(*res), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	sh = shared_new();
	if (res == MAP_FAILED || !sh) {
		tap(false, BENCH " cpuset: mmap of the results: %s", strerror(errno));
		if (res != MAP_FAILED)
			munmap(res, sizeof(*res));
		return;
	}
	{
		unsigned long long b1 = 0, b2 = 0;

		ns_for_each(n, &m1)
			b1 |= n < 64 ? 1ull << n : 0;
		ns_for_each(n, &m2)
			b2 |= n < 64 ? 1ull << n : 0;
		out_row(&k, "cpuset_mems_before_mask", (double)b1, "mask");
		out_row(&k, "cpuset_mems_after_mask", (double)b2, "mask");
		out_row(&k, "cpuset_policy_node", n1, "node");
	}
	for (int f = 0; f < MM_NFLAGS; f++) {
		struct cpuset_arg a = { .flag = (enum mm_flag)f, .user = user, .m2 = m2, .len = len, .res = res };
		enum outcome oc;
		int sig = 0;

		memset(res, 0, sizeof(*res));
		memset(sh, 0, sizeof(*sh));
		mm_at_set(a.flag, &user, &m1, &want[0]);
		mm_rebind(a.flag, &user, &want[0], &m1, &m2, &want[1]);
		snprintf(name, sizeof(name), "tierbench-cpuset-%s", mm_flag_names[f]);
		snprintf(ids, sizeof(ids), "%d,%d", n1, n2);
		if (cg_create(name, cgpath, sizeof(cgpath), why, sizeof(why))) {
			tap(false, BENCH " cpuset %s: %s", mm_flag_names[f], why);
			continue;
		}
		if (cg_write(cgpath, "cpuset.mems", ids, why, sizeof(why))) {
			tap(false, BENCH " cpuset %s: %s", mm_flag_names[f], why);
			cg_remove(cgpath);
			continue;
		}
		a.cg = cgpath;
		oc = run_child(cpuset_child, &a, sh, 120, &sig);
		cg_remove(cgpath);
		if (oc != OUT_COMPLETED) {
			report_outcome(&k, oc, sh, 4096);
			tap(false, BENCH " cpuset %s: the case ended %s%s%s", mm_flag_names[f], outcome_names[oc],
			    res->why[0] ? ": " : "", res->why);
			continue;
		}
		for (int st = 0; st < 2; st++) {
			const char *stage = st ? "after" : "before";
			double frac;
			int land = landing_node(res->per_node[st]), exp = ns_first(&want[st]);

			snprintf(metric, sizeof(metric), "cpuset_%s_landing_node_%s", mm_flag_names[f], stage);
			out_row(&k, metric, land, "node");
			snprintf(metric, sizeof(metric), "cpuset_%s_expected_node_%s", mm_flag_names[f], stage);
			out_row(&k, metric, exp, "node");
			frac = res->seen[st] > 0 ? frac_in(res->per_node[st], &want[st]) : 0;
			snprintf(metric, sizeof(metric), "cpuset_%s_on_expected_frac_%s", mm_flag_names[f], stage);
			out_row(&k, metric, frac, "ratio");
			/* get_mempolicy() gives a static or relative policy's user nodemask */
			const struct nodeset *said = f == MM_NOFLAG ? &want[st] : &user;

			ns_format_plus(&res->got[st], ids, sizeof(ids));
			tap(frac >= 0.99 && ns_equal(&res->got[st], said),
			    BENCH " MPOL_BIND {%d} %s, cpuset.mems %s: %.4f of %ld new pages on node %d as documented (landed on %d; get_mempolicy says %s)",
			    n1, mm_flag_names[f], st ? m2s : m1s, frac, res->seen[st], exp, land, ids);
		}
	}
	munmap(sh, sizeof(*sh));
	munmap(res, sizeof(*res));
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
	cpuset_flags(o, len);
	return 0;
}

const struct bench bench_features = {
	.name = VOCAB_BENCH_FEATURES,
	.help = "home node, mbind(MPOL_MF_MOVE), weighted-interleave weights, static/relative nodes under a cpuset change",
	.options = "--preferred --mib --policies",
	.needs = { .min_mem_nodes = 2 },
	.timeout_secs = 300,
	.run = run_features,
};
