// SPDX-License-Identifier: GPL-2.0
/*
 * tiers and tiering: the kernel's memory tiering machinery, which moves
 * pages between tiers after they were placed (README "Tiering").
 *
 * tiers [--tiering off|demotion|balancing]: the boot's tiering mode (the
 * plan's first step after the topology with run-lab's --tiering): writes
 * /sys/kernel/mm/numa/demotion_enabled and kernel.numa_balancing (off: 0,
 * 0; demotion: 1, 0; balancing: 1, 2 = NUMA_BALANCING_MEMORY_TIERING) and
 * leaves them so for the boot's later steps (they are not declared needs:
 * nothing restores them), reads them back (TAP), and shows the memory
 * tiers (/sys/devices/virtual/memory_tiering/memory_tier<T>/nodelist) as
 * rows memory_tier_node<N>, each against the tier the kernel's own formula
 * gives from the HMAT figures in sysfs (mm/memory-tiers.c
 * mt_perf_to_adistance(): DRAM's abstract distance 576 times the node's
 * latency over DRAM's, times DRAM's bandwidth over the node's; tier =
 * distance >> 7; the DRAM reference is the lowest node with CPUs, none when
 * the nodes with CPUs differ by more than 10 %).
 *
 * tiering: per policy (bind, preferred, preferred-many to CPU 0's node;
 * default from CPU 0) a child in a cgroup of its own populates --mib MiB,
 * then asks the group's memory.reclaim for all of it: proactive reclaim of
 * the case's own pages only (no filler, nothing else of the guest touched;
 * the same amount every case).  With no swap, anonymous pages can only go
 * by demotion (mm/vmscan.c can_reclaim_anon_pages() -> can_demote()), so
 * what moves is exactly what demotion moved.  Rows: where the pages are
 * (move_pages) when populated, after the reclaim and, under balancing,
 * after each second of touching them (promotion needs NUMA hint faults on
 * a running task); /proc/vmstat pgdemote_* and pgpromote_* deltas and per
 * node; the share outside the policy's nodes.  6.12 demotes "ignoring all
 * cpuset and mempolicy settings" (demote_folio_list()): a BIND range's
 * pages leave its nodemask, which the TAP shows.  Under balancing, bind and
 * preferred-many run again with mbind()'s MPOL_F_NUMA_BALANCING (rows bench
 * tiering_mof): sanitize_mpol_flags() gives them MPOL_F_MOF | MPOL_F_MORON,
 * so task_numa_work() scans them (vma_policy_mof()) and mpol_misplaced()
 * sends a hint-faulted page to the faulting CPU's node, in their mask: the
 * demoted pages come back, which the TAP wants.
 */
#include "cgroup.h"
#include "tb.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MIB (1024UL * 1024)
#define DEMOTION_PATH "/sys/kernel/mm/numa/demotion_enabled"
#define BALANCING_PATH "/proc/sys/kernel/numa_balancing"
#define TIERS_DIR "/sys/devices/virtual/memory_tiering"
#define NODE_DIR "/sys/devices/system/node"
/* include/linux/memory-tiers.h */
#define MEMTIER_CHUNK_BITS 7
#define MEMTIER_ADISTANCE_DRAM ((4L << MEMTIER_CHUNK_BITS) + (1L << (MEMTIER_CHUNK_BITS - 1)))
#define NUMA_BALANCING_MEMORY_TIERING 2

const char *const tiering_names[TIERING_COUNT] = { "off", "demotion", "balancing" };

int tiering_parse(const char *s)
{
	for (int i = 0; i < TIERING_COUNT; i++)
		if (!strcmp(s, tiering_names[i]))
			return i;
	return -1;
}

/* demotion_enabled: 1, 0, or -1 when it cannot be read ("true"/"false"). */
static int demotion_read(void)
{
	char buf[16] = "";
	FILE *f = fopen(DEMOTION_PATH, "r");

	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return !strncmp(buf, "true", 4) || buf[0] == '1' ? 1 : !strncmp(buf, "false", 5) || buf[0] == '0' ? 0 : -1;
}

static long balancing_read(void)
{
	long v;

	return knob_read_long(BALANCING_PATH, &v) ? -1 : v;
}

/* Write @val to @path, as it stays (the boot's setting); 0 or -1 said. */
static int write_setting(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f) {
		msg("tiers: open %s: %s", path, strerror(errno));
		return -1;
	}
	ok = fputs(val, f) >= 0;
	ok &= fclose(f) == 0;
	if (!ok)
		msg("tiers: write \"%s\" to %s: %s", val, path, strerror(errno));
	return ok ? 0 : -1;
}

/* The memory tier of each node (-1 none), from TIERS_DIR; how many tiers. */
static int read_tiers(int *tier_of)
{
	DIR *d = opendir(TIERS_DIR);
	struct dirent *e;
	int ntiers = 0;

	for (int n = 0; n <= MAX_NODE; n++)
		tier_of[n] = -1;
	if (!d) {
		msg("tiers: %s: %s", TIERS_DIR, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		char path[300], err[160];
		struct nodeset ns;
		int t;

		if (sscanf(e->d_name, "memory_tier%d", &t) != 1)
			continue;
		snprintf(path, sizeof(path), TIERS_DIR "/memory_tier%d/nodelist", t);
		if (read_cpulist(path, &ns, err, sizeof(err))) {
			msg("tiers: %s", err);
			continue;
		}
		ntiers++;
		ns_for_each(n, &ns)
			if (n <= MAX_NODE)
				tier_of[n] = t;
	}
	closedir(d);
	return ntiers;
}

/* HMAT figure @name of @node as its CPU initiators see it (access1, else access0). */
static long hmat_cpu_value(int node, const char *name)
{
	char path[160];
	long v;

	snprintf(path, sizeof(path), NODE_DIR "/node%d/access1/initiators/%s", node, name);
	if (!knob_read_long(path, &v))
		return v;
	return hmat_value(node, name);
}

static const char *const hmat_figs[4] = { "read_latency", "write_latency", "read_bandwidth", "write_bandwidth" };

/*
 * The DRAM reference of mm/memory-tiers.c: the lowest memory node with CPUs
 * and HMAT figures (mt_set_default_dram_perf()); -1 when there is none or
 * when another such node differs from it by more than 10 % in a figure,
 * which disables the HMAT-based tiers (default_dram_perf_error).
 */
static int dram_reference(const struct nodeset *mem, const struct nodeset *cpus)
{
	int ref = -1;
	long r[4];

	ns_for_each(n, mem) {
		long v[4];
		bool all = true;

		if (!ns_has(cpus, n))
			continue;
		for (int i = 0; i < 4; i++)
			all &= (v[i] = hmat_cpu_value(n, hmat_figs[i])) >= 0;
		if (!all)
			continue;
		if (ref < 0) {
			ref = n;
			memcpy(r, v, sizeof(r));
			continue;
		}
		for (int i = 0; i < 4; i++)
			if (labs(v[i] - r[i]) * 10 > r[i])
				return -1;
	}
	return ref;
}

/*
 * The tier mm/memory-tiers.c gives @node: a node with CPUs (default_dram_nodes)
 * and a CPU-less one without figures or reference are DRAM's; else its
 * abstract distance from the HMAT figures against @ref's, in the kernel's
 * integer order.
 */
static int expected_tier(int node, int ref, const struct nodeset *cpus)
{
	const char *const *f = hmat_figs;
	long v[4], r[4], adist;

	if (ns_has(cpus, node) || ref < 0)
		return (int)(MEMTIER_ADISTANCE_DRAM >> MEMTIER_CHUNK_BITS);
	for (int i = 0; i < 4; i++) {
		v[i] = hmat_cpu_value(node, f[i]);
		r[i] = hmat_cpu_value(ref, f[i]);
		if (v[i] < 0 || r[i] < 0)
			return (int)(MEMTIER_ADISTANCE_DRAM >> MEMTIER_CHUNK_BITS);
	}
	if (v[0] + v[1] == 0 || v[2] + v[3] == 0 || r[0] + r[1] == 0)
		return (int)(MEMTIER_ADISTANCE_DRAM >> MEMTIER_CHUNK_BITS);
	adist = MEMTIER_ADISTANCE_DRAM * (v[0] + v[1]) / (r[0] + r[1]) * (r[2] + r[3]) / (v[2] + v[3]);
	return (int)(adist >> MEMTIER_CHUNK_BITS);
}

static int run_tiers(const struct opts *o)
{
	struct rowkey k = { VOCAB_BENCH_TIERS, "-", "-", "-" };
	int tier_of[MAX_NODE + 1], ntiers, ref, dem, bal;
	struct nodeset mem, cpus;
	char metric[48];

	if (o->tiering >= 0) {
		static const char *const dem_w[TIERING_COUNT] = { "0", "1", "1" };
		static const char *const bal_w[TIERING_COUNT] = { "0", "0", "2" };
		bool wrote = !write_setting(DEMOTION_PATH, dem_w[o->tiering]);

		wrote &= !write_setting(BALANCING_PATH, bal_w[o->tiering]);
		dem = demotion_read();
		bal = (int)balancing_read();
		tap(wrote && dem == (o->tiering != TIERING_OFF) &&
			    bal == (o->tiering == TIERING_BALANCING ? NUMA_BALANCING_MEMORY_TIERING : 0),
		    VOCAB_BENCH_TIERS " --tiering %s took effect: demotion_enabled %d, numa_balancing %d",
		    tiering_names[o->tiering], dem, bal);
	}
	out_row(&k, "demotion_enabled", demotion_read(), "flag");
	out_row(&k, "numa_balancing", (double)balancing_read(), "mode");
	ntiers = read_tiers(tier_of);
	if (ntiers < 0) {
		tap(false, VOCAB_BENCH_TIERS " memory tiers: no %s", TIERS_DIR);
		return 0;
	}
	out_row(&k, "memory_tiers", ntiers, "count");
	mem_nodes(&mem);
	cpu_nodes(&cpus);
	ref = dram_reference(&mem, &cpus);
	out_row(&k, "dram_reference_node", ref, "node");
	ns_for_each(n, &mem) {
		int want = expected_tier(n, ref, &cpus);

		snprintf(metric, sizeof(metric), "memory_tier_node%d", n);
		out_row(&k, metric, tier_of[n], "id");
		snprintf(metric, sizeof(metric), "expected_tier_node%d", n);
		out_row(&k, metric, want, "id");
		tap(tier_of[n] == want,
		    VOCAB_BENCH_TIERS " node %d%s in memory_tier%d, the kernel's formula from the HMAT figures says %d",
		    n, ns_has(&cpus, n) ? "" : " (CPU-less)", tier_of[n], want);
	}
	return 0;
}

const struct bench bench_tiers = {
	.name = VOCAB_BENCH_TIERS,
	.help = "the boot's tiering mode (--tiering: written, left so, read back) and the memory tiers",
	.options = "--tiering",
	.needs = { .min_mem_nodes = 1 },
	.every_node = true,
	.timeout_secs = 60,
	.run = run_tiers,
};

/* ---- tiering ---- */

/* The counters a case reads around its reclaim, system-wide and per node. */
enum { C_DEMOTE_KSWAPD, C_DEMOTE_DIRECT, C_DEMOTE_KHUGEPAGED, C_PROMOTE_SUCCESS, C_PROMOTE_CANDIDATE,
       C_HINT_FAULTS, C_MIGRATE_SUCCESS, C_PAGES_MIGRATED };
static const char *const ctr_names[] = {
	"pgdemote_kswapd", "pgdemote_direct", "pgdemote_khugepaged",
	"pgpromote_success", "pgpromote_candidate", "numa_hint_faults", "pgmigrate_success",
	"numa_pages_migrated",
};
#define NCTR (sizeof(ctr_names) / sizeof(ctr_names[0]))
/* Of those, the node counters (per-node vmstat), read on every memory node. */
static const char *const node_ctr_names[] = { "pgdemote_kswapd", "pgdemote_direct", "pgpromote_success" };
#define NNODE_CTR (sizeof(node_ctr_names) / sizeof(node_ctr_names[0]))

#define MAX_ROUNDS 10
enum { ST_POPULATED, ST_RECLAIMED, ST_ROUND0 };
#define NSTAGES (ST_ROUND0 + MAX_ROUNDS)

struct tiering_result {
	long per_node[NSTAGES][MAX_NODE + 1];
	long seen[NSTAGES];
	int nstages;
	long long ctr[NCTR], node_ctr[MAX_NODE + 1][NNODE_CTR];	/* deltas */
	int reclaim_errno;	/* 0: memory.reclaim took all it was asked */
	double reclaim_time;	/* out_time_unit() */
	char why[200];		/* a setup failure */
};

struct tiering_arg {
	enum pol pol;
	bool mof;		/* mbind() with MPOL_F_NUMA_BALANCING */
	struct nodeset mask;	/* the policy's nodes */
	size_t len;
	int rounds;		/* seconds of touching after the reclaim */
	const char *cg;		/* the case's cgroup */
	struct tiering_result *res;
};

static void counters_now(long long *c, long long (*nc)[NNODE_CTR])
{
	for (size_t i = 0; i < NCTR; i++)
		c[i] = vmstat_get(ctr_names[i]);
	for (int n = 0; n <= MAX_NODE; n++)
		for (size_t i = 0; i < NNODE_CTR; i++)
			nc[n][i] = -1;
	struct nodeset mem;

	mem_nodes(&mem);
	ns_for_each(n, &mem)
		if (n <= MAX_NODE)
			for (size_t i = 0; i < NNODE_CTR; i++)
				nc[n][i] = node_vmstat_get(n, node_ctr_names[i]);
}

/* The case's child: in its cgroup, populate, reclaim, watch. */
static int tiering_child(void *argp, struct shared *sh)
{
	struct tiering_arg *a = argp;
	struct tiering_result *r = a->res;
	long long c0[NCTR], c1[NCTR], n0[MAX_NODE + 1][NNODE_CTR], n1[MAX_NODE + 1][NNODE_CTR];
	char bytes[32];
	uint64_t t0, t1;
	char *m;

	(void)sh;
	if (cg_join(a->cg, r->why, sizeof(r->why)))
		return 3;
	m = map_region(PS_4K, a->len);
	if (!m) {
		snprintf(r->why, sizeof(r->why), "mmap %zu MiB: %s", a->len / MIB, strerror(errno));
		return 3;
	}
	if (a->pol != POL_DEFAULT &&
	    sys_mbind(m, a->len, pol_mode(a->pol) | (a->mof ? MPOL_F_NUMA_BALANCING : 0), &a->mask, 0)) {
		snprintf(r->why, sizeof(r->why), "mbind %s%s: %s", pol_names[a->pol],
			 a->mof ? " | MPOL_F_NUMA_BALANCING" : "", strerror(errno));
		return 3;
	}
	for (size_t off = 0; off < a->len; off += 4096)
		m[off] = 1;
	r->seen[ST_POPULATED] = placement(m, a->len, 4096, r->per_node[ST_POPULATED], MAX_NODE);
	counters_now(c0, n0);
	snprintf(bytes, sizeof(bytes), "%zu", a->len);
	t0 = now_ns();
	r->reclaim_errno = cg_write(a->cg, "memory.reclaim", bytes, r->why, sizeof(r->why)) ? errno : 0;
	t1 = now_ns();
	r->reclaim_time = (double)(t1 - t0);
	r->seen[ST_RECLAIMED] = placement(m, a->len, 4096, r->per_node[ST_RECLAIMED], MAX_NODE);
	r->nstages = ST_ROUND0;
	/* a running task that touches its pages: NUMA hint faults, promotion */
	for (int k = 0; k < a->rounds && k < MAX_ROUNDS; k++) {
		uint64_t end = now_ns() + 1000000000ull;

		while (now_ns() < end)
			for (size_t off = 0; off < a->len; off += 4096)
				((volatile char *)m)[off]++;
		r->seen[ST_ROUND0 + k] = placement(m, a->len, 4096, r->per_node[ST_ROUND0 + k], MAX_NODE);
		r->nstages = ST_ROUND0 + k + 1;
	}
	counters_now(c1, n1);
	for (size_t i = 0; i < NCTR; i++)
		r->ctr[i] = c0[i] < 0 || c1[i] < 0 ? -1 : c1[i] - c0[i];
	for (int n = 0; n <= MAX_NODE; n++)
		for (size_t i = 0; i < NNODE_CTR; i++)
			r->node_ctr[n][i] = n0[n][i] < 0 || n1[n][i] < 0 ? -1 : n1[n][i] - n0[n][i];
	munmap(m, a->len);
	return 0;
}

static const char *stage_name(int s, char *buf, size_t len)
{
	if (s == ST_POPULATED)
		return "populated";
	if (s == ST_RECLAIMED)
		return "reclaimed";
	snprintf(buf, len, "touched%ds", s - ST_ROUND0 + 1);
	return buf;
}

/*
 * One case: policy @p to node @home; @mof: mbind() with MPOL_F_NUMA_BALANCING
 * (rows bench VOCAB_BENCH_TIERING_MOF, the TAP's name says "+mof").
 */
static void tiering_case(const struct opts *o, enum pol p, bool mof, int home, int dem, long bal,
			 struct shared *sh, struct tiering_result *res)
{
	const char *bench = mof ? VOCAB_BENCH_TIERING_MOF : VOCAB_BENCH_TIERING;
	struct rowkey k = { bench, pol_names[p], "4k", "free" };
	struct tiering_arg a = { .pol = p, .mof = mof, .len = (size_t)o->mib * MIB, .res = res };
	char cgpath[128], name[64], why[200], metric[64], sb[24];
	enum outcome oc;
	int sig = 0;

	memset(res, 0, sizeof(*res));
	memset(sh, 0, sizeof(*sh));
	ns_clear(&a.mask);
	ns_set(&a.mask, home);
	a.rounds = bal & NUMA_BALANCING_MEMORY_TIERING ? (o->profile == PROFILE_QUICK ? 3 :
							  o->profile == PROFILE_DEFAULT ? 5 : MAX_ROUNDS) : 0;
	snprintf(name, sizeof(name), "tierbench-%s-%s", bench, pol_names[p]);
	if (cg_create(name, cgpath, sizeof(cgpath), why, sizeof(why))) {
		tap(false, "%s %s: %s", bench, pol_names[p], why);
		return;
	}
	a.cg = cgpath;
	oc = run_child(tiering_child, &a, sh, 120 + 2 * a.rounds, &sig);
	cg_remove(cgpath);
	report_outcome(&k, oc, sh, 4096);
	if (oc != OUT_COMPLETED) {
		tap(false, "%s %s: the case ended %s%s%s", bench, pol_names[p], outcome_names[oc],
		    res->why[0] ? ": " : "", res->why);
		return;
	}
	out_row(&k, "case_mib", (double)o->mib, "MiB");
	out_row(&k, "policy_node", home, "node");
	out_row(&k, "reclaim_errno", res->reclaim_errno, "errno");
	out_row(&k, "reclaim_time", res->reclaim_time, out_time_unit());
	for (int s = 0; s < res->nstages; s++) {
		if (res->seen[s] <= 0)
			continue;
		for (int n = 0; n <= MAX_NODE; n++) {
			if (!res->per_node[s][n])
				continue;
			snprintf(metric, sizeof(metric), "%s_frac_node%d", stage_name(s, sb, sizeof(sb)), n);
			out_row(&k, metric, (double)res->per_node[s][n] / (double)res->seen[s], "ratio");
		}
		snprintf(metric, sizeof(metric), "%s_outside_policy_frac", stage_name(s, sb, sizeof(sb)));
		out_row(&k, metric, 1.0 - frac_in(res->per_node[s], &a.mask), "ratio");
	}
	for (size_t i = 0; i < NCTR; i++)
		if (res->ctr[i] >= 0) {
			snprintf(metric, sizeof(metric), "%s_delta", ctr_names[i]);
			out_row(&k, metric, (double)res->ctr[i], "count");
		}
	for (int n = 0; n <= MAX_NODE; n++)
		for (size_t i = 0; i < NNODE_CTR; i++)
			if (res->node_ctr[n][i] > 0) {
				snprintf(metric, sizeof(metric), "%s_node%d_delta", node_ctr_names[i], n);
				out_row(&k, metric, (double)res->node_ctr[n][i], "count");
			}

	double populated = frac_in(res->per_node[ST_POPULATED], &a.mask);
	double outside = 1.0 - frac_in(res->per_node[ST_RECLAIMED], &a.mask);
	long long demoted = (res->ctr[C_DEMOTE_KSWAPD] > 0 ? res->ctr[C_DEMOTE_KSWAPD] : 0) +
			    (res->ctr[C_DEMOTE_DIRECT] > 0 ? res->ctr[C_DEMOTE_DIRECT] : 0);

	tap(populated >= 0.99, "%s %s: %.4f of %ld pages populated on node %d",
	    bench, pol_names[p], populated, res->seen[ST_POPULATED], home);
	if (dem == 1)
		/* 6.12: "Demotion ignores all cpuset and mempolicy settings" */
		tap(outside >= 0.9 && demoted > 0,
		    "%s %s: memory.reclaim demoted %.4f of the pages off node %d%s (pgdemote +%lld)",
		    bench, pol_names[p], outside, home,
		    p == POL_BIND ? ", outside the BIND nodemask: 6.12's demotion ignores mempolicy" : "", demoted);
	else
		tap(outside <= 0.01 && demoted == 0,
		    "%s %s: demotion disabled, %.4f of the pages left node %d (pgdemote +%lld)",
		    bench, pol_names[p], outside, home, demoted);
	if (res->nstages > ST_ROUND0 && outside >= 0.9) {
		double back = frac_in(res->per_node[res->nstages - 1], &a.mask);
		long long promoted = res->ctr[C_PROMOTE_SUCCESS], faults = res->ctr[C_HINT_FAULTS];

		/*
		 * task_numa_work() scans only ranges whose policy has MPOL_F_MOF
		 * (vma_policy_mof()): the default policy's, and BIND's or
		 * PREFERRED_MANY's when mbind() was given MPOL_F_NUMA_BALANCING
		 * (sanitize_mpol_flags(): MPOL_F_MOF | MPOL_F_MORON).  With
		 * MORON, mpol_misplaced() targets the faulting CPU's node (node
		 * 0, in the mask): the pages come back.
		 */
		if (p == POL_DEFAULT || mof)
			tap(back >= 0.9 && promoted > 0 && faults > 0,
			    "%s %s: after %d s of touching, %.4f of the pages promoted back to node %d (pgpromote_success +%lld, numa_hint_faults +%lld)%s",
			    bench, pol_names[p], res->nstages - ST_ROUND0, back, home, promoted, faults,
			    mof ? ": MPOL_F_NUMA_BALANCING lets the NUMA scanner in" : "");
		else
			tap(back <= 0.01,
			    "%s %s: after %d s of touching, %.4f of the pages back on node %d: the NUMA scanner skips a range without MPOL_F_MOF",
			    bench, pol_names[p], res->nstages - ST_ROUND0, back, home);
	}
}

static int run_tiering(const struct opts *o)
{
	static const enum pol pols[] = { POL_BIND, POL_PREFERRED, POL_PREFERRED_MANY, POL_DEFAULT };
	static const enum pol mof_pols[] = { POL_BIND, POL_PREFERRED_MANY };
	struct rowkey k = { VOCAB_BENCH_TIERING, "-", "-", "-" };
	struct tiering_result *res;
	struct shared *sh;
	int home = node_of_cpu(0), dem = demotion_read();
	long bal = balancing_read();
	char why[200];

	if (pin_to_cpu0(why, sizeof(why))) {
		tap_skip(why, VOCAB_BENCH_TIERING);
		return 0;
	}
	if (cg_unavailable("memory", why, sizeof(why))) {
		tap_skip(why, VOCAB_BENCH_TIERING);
		return 0;
	}
	if (home < 0) {
		tap_skip("CPU 0 has no node", VOCAB_BENCH_TIERING);
		return 0;
	}
	if (node_meminfo_kib(home, "MemFree") - node_wmark_kib(home, "high") < 2 * o->mib * 1024) {
		snprintf(why, sizeof(why), "node %d has less than %ld MiB above its high watermark", home,
			 2 * o->mib);
		tap_skip(why, VOCAB_BENCH_TIERING);
		return 0;
	}
	/* with swap on, memory.reclaim could swap instead of demoting */
	if (vmstat_meminfo_kib("SwapTotal") > 0) {
		tap(false, VOCAB_BENCH_TIERING ": swap is on (SwapTotal %ld kB): demotion is not the only way out",
		    vmstat_meminfo_kib("SwapTotal"));
		return 0;
	}
	out_row(&k, "demotion_enabled", dem, "flag");
	out_row(&k, "numa_balancing", (double)bal, "mode");
	res = mmap(NULL, sizeof(*res), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	sh = shared_new();
	if (res == MAP_FAILED || !sh) {
		tap(false, VOCAB_BENCH_TIERING ": mmap of the results: %s", strerror(errno));
		if (res != MAP_FAILED)
			munmap(res, sizeof(*res));
		return 0;
	}
	for (size_t i = 0; i < sizeof(pols) / sizeof(pols[0]); i++)
		if (pol_wanted(o, pols[i], VOCAB_BENCH_TIERING))
			tiering_case(o, pols[i], false, home, dem, bal, sh, res);
	/* under balancing: the policies that take MPOL_F_NUMA_BALANCING, with it */
	if (bal & NUMA_BALANCING_MEMORY_TIERING)
		for (size_t i = 0; i < sizeof(mof_pols) / sizeof(mof_pols[0]); i++)
			if (pol_wanted(o, mof_pols[i], VOCAB_BENCH_TIERING_MOF))
				tiering_case(o, mof_pols[i], true, home, dem, bal, sh, res);
	munmap(sh, sizeof(*sh));
	munmap(res, sizeof(*res));
	return 0;
}

const struct bench bench_tiering = {
	.name = VOCAB_BENCH_TIERING,
	.help = "where each policy's pages go after memory.reclaim of their cgroup: demotion, promotion",
	.options = "--mib --policies",
	.needs = { .min_mem_nodes = 2 },
	.every_node = true,
	.timeout_secs = 600,
	.run = run_tiering,
};
