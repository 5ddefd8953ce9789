// SPDX-License-Identifier: GPL-2.0
/*
 * What the benchmarks share around a case: setting up a scenario (which
 * nodes a filler holds full), page-size availability, hugepage pools,
 * touching pages, and reporting how a child ended.
 */
#include "tb.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/wait.h>

#define MIB (1024UL * 1024)

static void free_rows(const char *bench, enum scenario sc, const struct filler *f)
{
	struct rowkey k = { bench, "-", "-", scenario_names[sc] };
	struct nodeset mem;
	char metric[48];

	out_row(&k, "filler_mib", (double)f->mib, "MiB");
	mem_nodes(&mem);
	ns_for_each(n, &mem) {
		snprintf(metric, sizeof(metric), "free_mib_node%d", n);
		out_row(&k, metric, (double)node_meminfo_kib(n, "MemFree") / 1024, "MiB");
	}
}

bool scenario_reclaimable(enum scenario sc)
{
	return sc == SC_FULL_RECLAIMABLE_CACHE || sc == SC_FULL_RECLAIMABLE_ANON;
}

enum fill_kind scenario_fill_kind(enum scenario sc)
{
	return sc == SC_FULL_RECLAIMABLE_CACHE ? FILL_CACHE :
	       sc == SC_FULL_RECLAIMABLE_ANON ? FILL_ANON_SWAP : FILL_ANON;
}

const char *reclaim_disks_missing(bool swap, char *why, size_t len)
{
	struct stat st, root;
	FILE *e = fopen(RECLAIM_DISKS_ERR, "r");

	if (e) {
		char line[160] = "";

		if (!fgets(line, sizeof(line), e))
			snprintf(line, sizeof(line), "(empty)");
		fclose(e);
		line[strcspn(line, "\n")] = 0;
		snprintf(why, len, "the guest's reclaim disks: %s", line);
		return why;
	}
	/* a mount point is another device than / (the initramfs) */
	if (stat(RECLAIM_FS_DIR, &st) || stat("/", &root) || st.st_dev == root.st_dev) {
		snprintf(why, len, "the guest's reclaim disks: %s is not mounted", RECLAIM_FS_DIR);
		return why;
	}
	if (swap && (stat(RECLAIM_SWAP_DEV, &st) || !S_ISBLK(st.st_mode))) {
		snprintf(why, len, "the guest's reclaim disks: %s is not a block device", RECLAIM_SWAP_DEV);
		return why;
	}
	return NULL;
}

/*
 * full-reclaimable-cache and -anon: the preferred nodes held with
 * reclaimable memory down to their low watermark + RECLAIM_MARGIN_MIB, the
 * other nodes free; -anon turns the swap disk on for the scenario
 * (scenario_end turns it off: anywhere else swap would make the filler of
 * full, pressure and oom reclaimable).
 */
static const char *scenario_begin_reclaimable(const struct opts *o, const char *bench,
					      enum scenario sc, struct filler *f, char *why,
					      size_t len)
{
	long total = nodes_total_mib(&o->preferred);

	if (reclaim_disks_missing(sc == SC_FULL_RECLAIMABLE_ANON, why, len))
		return why;
	if (total > o->fill_cap_mib) {
		snprintf(why, len, "filling %ld MiB exceeds --fill-cap-mib %ld", total, o->fill_cap_mib);
		return why;
	}
	if (sc == SC_FULL_RECLAIMABLE_ANON && swapon(RECLAIM_SWAP_DEV, 0)) {
		snprintf(why, len, "swapon %s: %s", RECLAIM_SWAP_DEV, strerror(errno));
		return why;
	}
	f->swap_on = sc == SC_FULL_RECLAIMABLE_ANON;
	if (filler_start_reclaimable(f, &o->preferred, scenario_fill_kind(sc))) {
		scenario_end(f);
		snprintf(why, len, "the filler could not fill the nodes with %s",
			 sc == SC_FULL_RECLAIMABLE_CACHE ? "page cache" : "anonymous memory");
		return why;
	}
	f->held = true;
	msg("scenario %s: filler pid %d holds %ld MiB of %s, leaving the low watermark + %d MiB per node",
	    scenario_names[sc], f->pid, f->mib,
	    sc == SC_FULL_RECLAIMABLE_CACHE ? "clean page cache" : "swappable anonymous memory",
	    RECLAIM_MARGIN_MIB);
	free_rows(bench, sc, f);
	return NULL;
}

const char *scenario_begin(const struct opts *o, const char *bench,
			   enum scenario sc, struct filler *f, char *why, size_t len)
{
	struct nodeset fill, roomy;
	long total, extra;

	f->pid = -1;
	f->mib = 0;
	f->held = false;
	f->reaped = false;
	f->ballast_pid = -1;
	f->ballast_reaped = false;
	f->level = false;
	f->kind = FILL_ANON;
	f->swap_on = false;
	f->gen = 0;
	ns_clear(&f->nodes);
	if (sc == SC_FREE) {
		free_rows(bench, sc, f);
		return NULL;
	}
	if (scenario_reclaimable(sc))
		return scenario_begin_reclaimable(o, bench, sc, f, why, len);
	/* full and pressure hold the nodes with memory nothing can reclaim */
	if (vmstat_meminfo_kib("SwapTotal") > 0) {
		snprintf(why, len, "swap is on (SwapTotal %ld kB): the filler of %s would be reclaimable",
			 vmstat_meminfo_kib("SwapTotal"), scenario_names[sc]);
		return why;
	}
	/*
	 * full: the preferred nodes held, the others free.  pressure: the
	 * preferred nodes held as in full, and every other node left with
	 * only what a case's overflow needs more than the headroom: --mib,
	 * plus what PREFERRED_MANY's reclaim-less first pass leaves on the
	 * preferred nodes (low - min, which the case counts as theirs), plus
	 * 4 MiB.  An overflow fits, but only by taking those nodes down to
	 * their watermarks (kswapd past low; direct reclaim past min).
	 */
	ns_clear(&roomy);
	extra = o->mib + 4;
	if (sc == SC_FULL) {
		fill = o->preferred;
	} else {
		mem_nodes(&fill);
		ns_for_each(n, &fill)
			if (!ns_has(&o->preferred, n))
				ns_set(&roomy, n);
		ns_for_each(n, &o->preferred) {
			long low = node_wmark_kib(n, "low"), min = node_wmark_kib(n, "min");

			if (low > min && min >= 0)
				extra += (low - min + 1023) / 1024;
		}
	}
	total = nodes_total_mib(&fill);
	/* a safety net for running on a real host: never fill a big machine */
	if (total > o->fill_cap_mib) {
		snprintf(why, len, "filling %ld MiB exceeds --fill-cap-mib %ld",
			 total, o->fill_cap_mib);
		return why;
	}
	if (filler_start(f, &fill, o->headroom_mib, &roomy, extra)) {
		snprintf(why, len, "the filler could not fill the nodes");
		return why;
	}
	f->held = true;
	msg("scenario %s: filler pid %d holds %ld MiB, leaving ~%ld MiB per node (%ld more off the preferred set)",
	    scenario_names[sc], f->pid, f->mib, o->headroom_mib, f->roomy_mib);
	free_rows(bench, sc, f);
	return NULL;
}

void scenario_end(struct filler *f)
{
	f->held = false;
	filler_stop(f);
	filler_files_remove(f);
	if (f->swap_on && swapoff(RECLAIM_SWAP_DEV))
		msg("swapoff %s: %s (swap stays on for the rest of the run)", RECLAIM_SWAP_DEV,
		    strerror(errno));
	f->swap_on = false;
}

/*
 * Why a reclaimable scenario's nodes do not hold what it says, or NULL:
 * each filled node at least half its memory in the fill's kind (FilePages
 * for the page cache, AnonPages for the anonymous fill) and, for the
 * anonymous fill, the swap on.
 */
static const char *reclaimable_short(const struct filler *f, char *why, size_t len)
{
	const char *field = f->kind == FILL_CACHE ? "FilePages" : "AnonPages";

	if (f->kind == FILL_ANON)
		return NULL;
	if (f->kind == FILL_ANON_SWAP && vmstat_meminfo_kib("SwapTotal") <= 0) {
		snprintf(why, len, "swap_off: SwapTotal is 0 in /proc/meminfo");
		return why;
	}
	ns_for_each(n, &f->nodes) {
		long have = node_meminfo_kib(n, field), total = node_meminfo_kib(n, "MemTotal");

		if (node_unreclaimable(n) == 1) {
			snprintf(why, len, "kswapd_hopeless: node %d is node_unreclaimable in /proc/zoneinfo (kswapd gave up on it)",
				 n);
			return why;
		}

		if (have < 0 || total <= 0 || have < total / 2) {
			snprintf(why, len, "reclaimable_short: node %d holds %.1f MiB of %s, want half its %.1f MiB",
				 n, (double)have / 1024, field, (double)total / 1024);
			return why;
		}
	}
	return NULL;
}

/* Why the scenario of @f is broken now, or NULL. */
static const char *scenario_broken(struct filler *f, char *why, size_t len)
{
	if (!filler_alive(f)) {
		if (f->ballast_reaped)
			snprintf(why, len, "ballast_gone: an OOM found no case to kill and took the ballast (pid %d)",
				 f->ballast_pid);
		else if (f->reaped && WIFSIGNALED(f->status))
			snprintf(why, len, "filler_gone: the filler (pid %d) was killed by signal %d",
				 f->pid, WTERMSIG(f->status));
		else
			snprintf(why, len, "filler_gone: the filler (pid %d) is no longer alive",
				 f->pid);
		return why;
	}
	ns_for_each(n, &f->nodes) {
		long kib = node_free_pcp_kib(n);

		if (n > MAX_NODE)
			break;
		if (kib < f->band_lo_kib[n] || kib > f->band_hi_kib[n]) {
			snprintf(why, len, "free_out_of_band: node %d has %.1f MiB free (with per-CPU lists), band %.1f-%.1f MiB",
				 n, (double)kib / 1024, (double)f->band_lo_kib[n] / 1024,
				 (double)f->band_hi_kib[n] / 1024);
			return why;
		}
	}
	return NULL;
}

static void start_rows(const struct rowkey *k)
{
	static const char *const wm[] = { "min", "low", "high" };
	struct nodeset mem;
	char metric[48];

	mem_nodes(&mem);
	ns_for_each(n, &mem) {
		snprintf(metric, sizeof(metric), "start_free_mib_node%d", n);
		out_row(k, metric, (double)node_meminfo_kib(n, "MemFree") / 1024, "MiB");
		snprintf(metric, sizeof(metric), "start_pcp_mib_node%d", n);
		out_row(k, metric, (double)node_pcp_kib(n) / 1024, "MiB");
		for (size_t w = 0; w < sizeof(wm) / sizeof(wm[0]); w++) {
			snprintf(metric, sizeof(metric), "wmark_%s_mib_node%d", wm[w], n);
			out_row(k, metric, (double)node_wmark_kib(n, wm[w]) / 1024, "MiB");
		}
	}
}

/*
 * How much a latency or fallback case asks for.  In a filled scenario (full, pressure) what the
 * preferred nodes can still give at the case's start -- free memory above
 * the min watermark, per-CPU lists included (the allocator drains them
 * before it gives up) -- plus --mib: at least --mib cannot fit there, so
 * BIND must meet its OOM and the others must overflow.  A hugetlb (2m) case
 * asks for --mib: its pool is reserved apart from the filler.
 */
size_t case_bytes(const struct opts *o, const char *scenario, enum pagesize ps)
{
	size_t len = (size_t)o->mib * MIB;
	long kib = 0;

	if (!strcmp(scenario, scenario_names[SC_FREE]) || ps == PS_2M)
		return len;
	ns_for_each(n, &o->preferred) {
		long v = node_free_pcp_kib(n) - node_wmark_kib(n, "min");

		if (v > 0)
			kib += v;
	}
	len += (size_t)kib * 1024;
	return (len + 2 * MIB - 1) / (2 * MIB) * (2 * MIB);	/* whole THP extents */
}

/* What holds a reclaimable scenario's nodes at a case's start, per filled node. */
static void reclaimable_start_rows(const struct rowkey *k, const struct filler *f)
{
	char metric[48];

	ns_for_each(n, &f->nodes) {
		snprintf(metric, sizeof(metric), "start_file_mib_node%d", n);
		out_row(k, metric, (double)node_meminfo_kib(n, "FilePages") / 1024, "MiB");
		snprintf(metric, sizeof(metric), "start_anon_mib_node%d", n);
		out_row(k, metric, (double)node_meminfo_kib(n, "AnonPages") / 1024, "MiB");
		snprintf(metric, sizeof(metric), "start_unreclaimable_node%d", n);
		out_row(k, metric, node_unreclaimable(n), "flag");
	}
	if (f->kind == FILL_ANON_SWAP)
		out_row(k, "start_swap_free_mib", (double)vmstat_meminfo_kib("SwapFree") / 1024, "MiB");
}

/*
 * kswapd's scans of the filled nodes so far: pgscan_kswapd of each node's
 * vmstat where the kernel keeps it per node, else /proc/vmstat's (6.12
 * keeps it machine-wide); -1 unknown.
 */
static long long kswapd_scans(const struct nodeset *nodes)
{
	long long sum = 0;

	ns_for_each(n, nodes) {
		long long v = node_vmstat_get(n, "pgscan_kswapd");

		if (v < 0)
			return vmstat_get("pgscan_kswapd");
		sum += v;
	}
	return sum;
}

#define KSWAPD_STILL_MS 200
#define KSWAPD_WAIT_MS 2000

/*
 * A reclaimable case must start with kswapd asleep: a refill goes
 * straight to its target on a node kswapd has not given up on, and a
 * kswapd still balancing after the previous case would reclaim inside
 * this one's window.  Wait (at most KSWAPD_WAIT_MS) until pgscan_kswapd
 * has not moved for KSWAPD_STILL_MS; row start_kswapd_active says whether
 * it was still scanning when the wait ended (the report then does not
 * claim the premise), start_kswapd_wait_secs how long the wait took.
 */
static void kswapd_settle(const struct rowkey *k, const struct filler *f)
{
	long long prev = kswapd_scans(&f->nodes), now;
	int waited = 0, still = 0;

	if (prev < 0) {
		msg("%s/%s/%s/%s: pgscan_kswapd unreadable: whether kswapd sleeps is not known",
		    k->bench, k->policy, k->pagesize, k->scenario);
		return;
	}
	while (still < KSWAPD_STILL_MS && waited < KSWAPD_WAIT_MS) {
		struct timespec ts = { 0, 50 * 1000 * 1000 };

		nanosleep(&ts, NULL);
		waited += 50;
		now = kswapd_scans(&f->nodes);
		still = now == prev ? still + 50 : 0;
		prev = now;
	}
	if (still < KSWAPD_STILL_MS)
		msg("%s/%s/%s/%s: kswapd still scanning after %d ms: the case starts with it awake",
		    k->bench, k->policy, k->pagesize, k->scenario, waited);
	out_row(k, "start_kswapd_active", still < KSWAPD_STILL_MS, "flag");
	out_row(k, "start_kswapd_wait_secs", waited / 1000.0, "s");
}

enum outcome run_case(const struct rowkey *k, struct filler *f,
		      int (*fn)(void *arg, struct shared *sh), void *arg,
		      struct shared *sh, int timeout_secs)
{
	/* a filler that could not be restarted leaves the scenario broken, not free */
	bool filled = f && f->held;
	char why[200];
	enum outcome oc;
	int sig;

	if (filled && scenario_broken(f, why, sizeof(why))) {
		msg("%s/%s/%s/%s: %s; filling again", k->bench, k->policy, k->pagesize,
		    k->scenario, why);
		filler_stop(f);
		if (filler_restart(f))
			f->pid = -1;
	}
	if (filled) {
		struct nodeset mem;
		int drained;

		/*
		 * Every filled case starts with the per-CPU lists drained (at most
		 * 1 MiB per node).  The lists hold free pages MemFree does not
		 * count, which only the CPU that owns them can take, and with
		 * nothing reclaimable the allocator calls the OOM killer without
		 * draining them.  Left as the previous case's exit left them, they
		 * decided the outcome: fallback preferred/thp/pressure completed
		 * in one default run (26 + 28 MiB on the DRAM nodes' lists) and
		 * was OOM-killed in the next (61 + 58 MiB), the same free memory
		 * with the lists counted.  stat_refresh's decay alone stops at the
		 * lists' high_min (measured: 23 MiB on node 0 on average), so the
		 * lists are made small for the drain (the smallest high,
		 * percpu_pagelist_high_fraction) and given back the sizing they
		 * had just before (the kernel's own, or the fill-level sweep's
		 * short lists) before the case runs.
		 */
		mem_nodes(&mem);
		drained = pcp_drain_small(&mem, 1024);
		if (drained > 0)
			msg("%s/%s/%s/%s: the per-CPU lists did not drain below 1 MiB per node (start_pcp_mib rows)",
			    k->bench, k->policy, k->pagesize, k->scenario);
		start_rows(k);
		if (f->kind != FILL_ANON)
			reclaimable_start_rows(k, f);
		if (drained < 0) {
			/* the lists' sizing is not the kernel's: not the case's scenario */
			snprintf(sh->invalid_why, sizeof(sh->invalid_why),
				 "pcp_sizing: %s could not be set or written back", PCP_HIGH_SYSCTL);
			return OUT_INVALID;
		}
		if (f->pid < 0 || scenario_broken(f, sh->invalid_why, sizeof(sh->invalid_why)) ||
		    reclaimable_short(f, sh->invalid_why, sizeof(sh->invalid_why))) {
			if (f->pid < 0)
				snprintf(sh->invalid_why, sizeof(sh->invalid_why),
					 "filler_gone: the nodes could not be filled again");
			return OUT_INVALID;
		}
	}
	if (filled && f->kind != FILL_ANON)
		kswapd_settle(k, f);
	oc = run_child(fn, arg, sh, timeout_secs, &sig);
	if (oc == OUT_KILLED_OTHER || !filled)
		return oc;
	/*
	 * The case was OOM-killed, then an OOM with no case to kill took the
	 * ballast (the harness allocating before the case's pages were back on
	 * the free lists): the case ran in its scenario and its outcome
	 * stands; the next case fills again.  Said as a row.
	 */
	if (oc == OUT_OOM_KILLED && sh->oom_other_after && f->ballast_pid > 0 &&
	    sh->oom_victim_other == f->ballast_pid) {
		out_row(k, "ballast_killed_after_case", 1, "flag");
		msg("%s/%s/%s/%s: the ballast (pid %d) was killed after the case's own OOM kill",
		    k->bench, k->policy, k->pagesize, k->scenario, f->ballast_pid);
		sh->invalid_why[0] = 0;
		return oc;
	}
	/*
	 * A reclaimable scenario is spent by its case: what the case took was
	 * reclaimed, so its pages leave the nodes freer than the fill did when
	 * it exits.  It held if the filler (and the swap) outlived the case;
	 * the next case fills again (scenario_broken() at its start).
	 */
	if (f->kind != FILL_ANON) {
		if (!filler_alive(f)) {
			scenario_broken(f, sh->invalid_why, sizeof(sh->invalid_why));
			return OUT_INVALID;
		}
		if (reclaimable_short(f, sh->invalid_why, sizeof(sh->invalid_why)) &&
		    !strncmp(sh->invalid_why, "swap_off", 8))
			return OUT_INVALID;
		sh->invalid_why[0] = 0;
		return oc;
	}
	/*
	 * Let a dead child's pages reach the free lists before judging: the
	 * OOM reaper and the per-CPU lists drain asynchronously (up to 1 s).
	 */
	for (int i = 0; scenario_broken(f, sh->invalid_why, sizeof(sh->invalid_why)); i++) {
		struct timespec ts = { 0, 50 * 1000 * 1000 };

		if (i == 20 || !filler_alive(f))
			return OUT_INVALID;
		nanosleep(&ts, NULL);
	}
	sh->invalid_why[0] = 0;
	return oc;
}

const char *pagesize_unavailable(enum pagesize ps, char *why, size_t len)
{
	char mode[32];

	if (ps == PS_THP) {
		if (!thp_mode(mode, sizeof(mode))) {
			snprintf(why, len, "kernel has no transparent hugepages");
			return why;
		}
		if (!strcmp(mode, "never")) {
			snprintf(why, len, "THP disabled (transparent_hugepage/enabled=never)");
			return why;
		}
	}
	if (ps == PS_2M && !hugetlb_present()) {
		snprintf(why, len, "no writable 2 MiB hugetlb pool (CONFIG_HUGETLBFS?)");
		return why;
	}
	return NULL;
}

/*
 * A 2m case asks for --mib, --mib/2 pages.  A hugetlb pool is memory the
 * filler cannot take, so filling the buddy allocator leaves a 2m case's
 * pool as it was: with --mib/2 pages on the preferred nodes, bind "completed,
 * all on its nodes" in full and pressure, as in free.  The hugetlb form of
 * a full node is a short pool: in full and pressure the preferred nodes
 * hold half a case between them, rounded down (no page at all for a case
 * of fewer pages than twice the preferred nodes), so BIND meets SIGBUS and
 * the other policies overflow to the other nodes' pools, which hold a
 * whole case each.
 */
static long hugetlb_scenario_pages(const struct opts *o, enum scenario sc, int node)
{
	long case_pages = o->mib / 2 > 0 ? o->mib / 2 : 1;
	long k = ns_count(&o->preferred);

	if (sc == SC_FREE || !ns_has(&o->preferred, node) || k <= 0)
		return case_pages;
	return case_pages / 2 / k;
}

void hugetlb_scenario_pools(const struct opts *o, const char *bench, enum scenario sc)
{
	struct rowkey k = { bench, "-", pagesize_names[PS_2M], scenario_names[sc] };
	struct nodeset ns;
	char metric[48], why[200];

	if (!(o->page_mask & 1u << PS_2M) || pagesize_unavailable(PS_2M, why, sizeof(why)))
		return;
	mem_nodes(&ns);
	ns_for_each(n, &ns) {
		long got = 0, pages = hugetlb_scenario_pages(o, sc, n);

		if (hugetlb_reserve(n, pages, &got))
			continue;
		if (got < pages)
			msg("node %d: %ld of %ld 2 MiB pages reserved", n, got, pages);
		snprintf(metric, sizeof(metric), "hugetlb_pool_node%d", n);
		out_row(&k, metric, (double)got, "pages");
	}
}

void touch_pages(char *p, size_t len, size_t stride, struct shared *sh)
{
	for (size_t off = 0; off < len; off += stride) {
		p[off] = 1;
		sh->pages_done++;
	}
}

double frac_in(const long *per_node, const struct nodeset *ns)
{
	long in = 0, all = 0;

	for (int n = 0; n <= MAX_NODE; n++) {
		all += per_node[n];
		if (ns_has(ns, n))
			in += per_node[n];
	}
	return all ? (double)in / (double)all : 0.0;
}

void report_outcome(const struct rowkey *k, enum outcome oc,
		    const struct shared *sh, size_t page)
{
	char metric[48];

	phase_case_label_reaped(k, sh);
	snprintf(metric, sizeof(metric), "outcome_%s", outcome_names[oc]);
	out_row(k, metric, 1, "flag");
	/* -1: not measured (a timeout, a failed fork, no /proc/vmstat), no row */
	if (sh->oom_kill_delta >= 0)
		out_row(k, "oom_kill_delta", (double)sh->oom_kill_delta, "count");
	/* huge and base faults of a THP case, counted by the kernel (#17) */
	if (!strcmp(k->pagesize, "thp") && sh->thp_fault_alloc_delta >= 0 &&
	    sh->thp_fault_fallback_delta >= 0) {
		out_row(k, "thp_fault_alloc_delta", (double)sh->thp_fault_alloc_delta, "count");
		out_row(k, "thp_fault_fallback_delta", (double)sh->thp_fault_fallback_delta, "count");
	}
	if (oc == OUT_INVALID || oc == OUT_KILLED_OTHER) {
		/* "free_out_of_band: ..." -> row invalid_free_out_of_band */
		snprintf(metric, sizeof(metric), "invalid_%.*s",
			 (int)strcspn(sh->invalid_why, ":"), sh->invalid_why);
		out_row(k, oc == OUT_KILLED_OTHER ? "invalid_killed_other" : metric, 1, "flag");
		tap(false, "%s/%s/%s/%s: the case kept its scenario (%s: %s)", k->bench,
		    k->policy, k->pagesize, k->scenario, outcome_names[oc], sh->invalid_why);
	}
	/* progress for the host (labtool boot shows it; collect ignores META) */
	printf("META case=%s/%s/%s/%s outcome=%s\n", k->bench, k->policy,
	       k->pagesize, k->scenario, outcome_names[oc]);
	fflush(stdout);
	if (oc == OUT_COMPLETED)
		return;
	out_row(k, "mib_before_outcome",
		(double)sh->pages_done * (double)page / (double)MIB, "MiB");
	if (oc == OUT_OOM_KILLED)
		out_row(k, "oom_constraint_memory_policy",
			!strcmp(sh->oom_constraint, "CONSTRAINT_MEMORY_POLICY"),
			"flag");
	msg("%s/%s/%s/%s: %s after %ld pages%s%s", k->bench, k->policy,
	    k->pagesize, k->scenario, outcome_names[oc], sh->pages_done,
	    sh->oom_constraint[0] ? ", constraint=" : "", sh->oom_constraint);
}

bool pol_wanted(const struct opts *o, enum pol p, const char *bench)
{
	char why[160];

	if (!(o->pol_mask & 1u << p))
		return false;
	if (!pol_supported(p, why, sizeof(why))) {
		tap_skip(why, "%s %s", bench, pol_names[p]);
		return false;
	}
	return true;
}

bool pol_supported(enum pol p, char *why, size_t len)
{
	if (p != POL_WEIGHTED_INTERLEAVE && p != POL_PREFERRED_MANY)
		return true;
	if (kernel_knows_mode(pol_mode(p)))
		return true;
	snprintf(why, len, "kernel rejects mode %d (%s): %s", pol_mode(p),
		 pol_names[p], strerror(errno));
	return false;
}

const char *pin_to_cpu0(char *why, size_t len)
{
	cpu_set_t cpu0;

	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0)) {
		snprintf(why, len, "cannot pin to CPU 0: %s", strerror(errno));
		return why;
	}
	return NULL;
}
