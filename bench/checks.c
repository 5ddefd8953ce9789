// SPDX-License-Identifier: GPL-2.0
/*
 * checks: semantic checks that fail the run (exit 1) when the kernel
 * misbehaves, as TAP lines.  Expected behaviour is 6.12's mm/mempolicy.c:
 * mpol_new() rejects an empty mask for every mode but DEFAULT/PREFERRED/
 * LOCAL; do_get_mempolicy() returns the mode and mask that were set
 * (PREFERRED keeps only the first node); mpol_to_str() prints
 * policy_modes[MPOL_PREFERRED_MANY] = "prefer (many)" followed by
 * ":<nodes as %pbl>" in numa_maps; PREFERRED_MANY's first pass allocates
 * from the mask while it has free pages; BIND never leaves its mask.
 */
#include "tb.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define MIB (1024UL * 1024)

static void check_empty_mask(void)
{
	struct nodeset empty;
	long rc;
	int e;
	void *p;

	ns_clear(&empty);
	rc = sys_set_mempolicy(MPOL_PREFERRED_MANY, &empty);
	e = errno;
	sys_set_mempolicy(MPOL_DEFAULT, NULL);
	tap(rc == -1 && e == EINVAL,
	    "set_mempolicy(MPOL_PREFERRED_MANY, empty mask) fails with EINVAL (got %s)",
	    rc ? strerror(e) : "success");

	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		tap(false, "mmap for the mbind empty-mask check: %s", strerror(errno));
		return;
	}
	rc = sys_mbind(p, 4096, MPOL_PREFERRED_MANY, &empty, 0);
	e = errno;
	tap(rc == -1 && e == EINVAL,
	    "mbind(MPOL_PREFERRED_MANY, empty mask) fails with EINVAL (got %s)",
	    rc ? strerror(e) : "success");
	munmap(p, 4096);
}

static void check_roundtrip(const struct opts *o, enum pol p, enum via v)
{
	struct nodeset want, got;
	char ws[128], gs[128];
	int mode = -1;
	long rc;
	void *addr = NULL;
	const char *how = v == VIA_MBIND ? "mbind" : "set_mempolicy";

	pol_nodes(p, &o->preferred, &want);
	if (v == VIA_MBIND) {
		addr = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (addr == MAP_FAILED) {
			tap(false, "%s %s round trip: mmap: %s", how, pol_names[p], strerror(errno));
			return;
		}
	}
	if (pol_apply(p, v, &o->preferred, addr, 4096)) {
		tap(false, "%s(%s) accepted", how, pol_names[p]);
		goto out;
	}
	rc = sys_get_mempolicy(&mode, &got, addr, v == VIA_MBIND ? MPOL_F_ADDR : 0);
	if (rc) {
		tap(false, "get_mempolicy after %s(%s): %s", how, pol_names[p], strerror(errno));
		goto out;
	}
	ns_format_plus(&want, ws, sizeof(ws));
	ns_format_plus(&got, gs, sizeof(gs));
	tap(mode == pol_mode(p) && ns_equal(&want, &got),
	    "get_mempolicy after %s(%s %s) returns mode %d mask %s (got mode %d mask %s)",
	    how, pol_names[p], ws, pol_mode(p), ws, mode, gs);
out:
	if (v == VIA_TASK)
		sys_set_mempolicy(MPOL_DEFAULT, NULL);
	else if (addr && addr != MAP_FAILED)
		munmap(addr, 4096);
}

static void check_numa_maps(const struct opts *o)
{
	char want[160], pbl[128], line[1024], addrkey[32];
	bool found = false, match = false;
	FILE *f;
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		tap(false, "numa_maps check: mmap: %s", strerror(errno));
		return;
	}
	if (pol_apply(POL_PREFERRED_MANY, VIA_MBIND, &o->preferred, p, 4096)) {
		tap(false, "numa_maps check: mbind(preferred-many) accepted");
		munmap(p, 4096);
		return;
	}
	ns_format_pbl(&o->preferred, pbl, sizeof(pbl));
	snprintf(want, sizeof(want), " prefer (many):%s", pbl);
	snprintf(addrkey, sizeof(addrkey), "%lx ", (unsigned long)p);
	f = fopen("/proc/self/numa_maps", "r");
	if (!f) {
		tap(false, "/proc/self/numa_maps readable: %s", strerror(errno));
		munmap(p, 4096);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, addrkey, strlen(addrkey)))
			continue;
		found = true;
		line[strcspn(line, "\n")] = 0;
		/* "7f12...000 prefer (many):1,3 anon=1 ..." or end of line */
		{
			const char *at = line + strlen(addrkey) - 1;
			size_t wl = strlen(want);

			match = !strncmp(at, want, wl) && (at[wl] == ' ' || !at[wl]);
		}
		break;
	}
	fclose(f);
	tap(found && match, "/proc/self/numa_maps shows \"%s\" for an mbind(MPOL_PREFERRED_MANY) range%s%s",
	    want + 1, found ? (match ? "" : ": got \"") : ": range not listed",
	    found && !match ? line : "");
	munmap(p, 4096);
}

/* Allocate @mib with policy @p; share of the pages inside @in. */
static int placed_frac(const struct opts *o, enum pol p, long mib,
		       const struct nodeset *in, double *frac, long *pages)
{
	size_t len = (size_t)mib * MIB;
	long per_node[MAX_NODE + 1];
	char *m = map_region(PS_4K, len);

	if (!m)
		return -1;
	if (pol_apply(p, VIA_MBIND, &o->preferred, m, len)) {
		munmap(m, len);
		return -1;
	}
	for (size_t off = 0; off < len; off += 4096)
		m[off] = 1;
	*pages = placement(m, len, 4096, per_node, MAX_NODE);
	munmap(m, len);
	if (*pages <= 0)
		return -1;
	*frac = frac_in(per_node, in);
	return 0;
}

static void check_placement(const struct opts *o, enum pol p, double min_frac)
{
	struct nodeset in;
	long free_mib, mib = o->mib, pages = 0;
	double frac = 0;
	char why[320], ids[128];

	pol_nodes(p, &o->preferred, &in);
	ns_format_plus(&in, ids, sizeof(ids));
	free_mib = nodes_free_mib(&in);
	if (free_mib < 2 * mib + 2 * o->headroom_mib) {
		snprintf(why, sizeof(why), "nodes %s have %ld MiB free, the check wants %ld",
			 ids, free_mib, 2 * mib + 2 * o->headroom_mib);
		tap_skip(why, "%s places pages inside %s", pol_names[p], ids);
		return;
	}
	if (placed_frac(o, p, mib, &in, &frac, &pages)) {
		tap(false, "%s: allocate and query %ld MiB", pol_names[p], mib);
		return;
	}
	tap(frac >= min_frac,
	    "%s with free nodes %s: %.4f of %ld pages inside the mask (want >= %.2f)",
	    pol_names[p], ids, frac, pages, min_frac);
}

/*
 * The child of check_oom_no_case(): at -1000, as the harness, it takes
 * pages bound to @node one at a time until /proc/vmstat oom_kill rises (an
 * OOM that found no case), then stops at once.  Exit 0 then, 2 when the
 * region ran out first, 1 on a setup error.
 */
static int alloc_until_oom(int node, long mib)
{
	size_t len = (size_t)mib * MIB;
	long long oom0 = vmstat_get("oom_kill");
	struct nodeset one;
	char *p;

	oom_adj_self(-1000);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	ns_clear(&one);
	ns_set(&one, node);
	if (oom0 < 0 || p == MAP_FAILED || sys_mbind(p, len, MPOL_BIND, &one, 0))
		return 1;
	madvise(p, len, MADV_NOHUGEPAGE);
	for (size_t off = 0; off < len; off += 4096) {
		p[off] = 1;
		if (vmstat_get("oom_kill") > oom0)
			return 0;
	}
	return 2;
}

/*
 * An OOM with no case to kill takes the ballast, not the filler and not
 * the machine (mem.c's "ballast"): one preferred node filled as scenario
 * full fills it, then a -1000 task allocates bound to it until the OOM
 * killer acts.  Without the ballast the kernel finds only -1000 tasks and
 * panics ("System is deadlocked on memory"), which fails the boot.
 */
static void check_oom_no_case(const struct opts *o)
{
	struct nodeset one;
	struct filler f;
	int node = ns_first(&o->preferred), kfd, pid, status = 0, victim = 0;
	bool ballast_gone, filler_lives;
	long mib;
	char rec[8192];
	ssize_t n;

	ns_clear(&one);
	ns_set(&one, node);
	mib = node_meminfo_kib(node, "MemTotal") / 1024;
	if (mib <= 0 || mib > o->fill_cap_mib) {
		tap_skip("node too large to fill here (--fill-cap-mib)",
			 "an OOM with no case to kill takes the ballast");
		return;
	}
	/*
	 * The ballast's pages must reach the free lists the watermark check
	 * reads: with the per-CPU lists at their default (on a CPU-less node up
	 * to its low watermark) the reaped pages stayed there, the next OOM 4 ms
	 * later found no task, and the guest panicked (CI, dram-pmem).  The
	 * smallest lists for this check only; restored below.
	 */
	if (sysctl_save_write("vm.percpu_pagelist_high_fraction", 1L << 20)) {
		tap_skip("vm.percpu_pagelist_high_fraction not writable",
			 "an OOM with no case to kill takes the ballast");
		return;
	}
	pcp_drain(&one, 1024);
	if (filler_start(&f, &one, o->headroom_mib, NULL, 0)) {
		tap(false, "an OOM with no case to kill: the filler could not fill node %d", node);
		filler_stop(&f);
		knobs_restore();
		return;
	}
	kfd = kmsg_open();
	out_flush();
	pid = fork();
	if (pid == 0) {
		child_signals();
		_exit(alloc_until_oom(node, mib));
	}
	if (pid > 0) {
		/* killed with the filler if the step times out; 60 s at most here */
		child_track(pid);
		for (int i = 0; waitpid(pid, &status, WNOHANG) == 0; i++) {
			struct timespec ts = { 0, 10 * 1000 * 1000 };

			if (i == 6000) {
				kill(pid, SIGKILL);
				waitpid(pid, &status, 0);
				break;
			}
			nanosleep(&ts, NULL);
		}
		child_untrack(pid);
	}
	/* the log follows the kill */
	for (int i = 0; kfd >= 0 && !victim && i < 40; i++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		while ((n = read(kfd, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
			if (n <= 0)
				continue;
			rec[n] = 0;
			if (!victim)
				victim = kmsg_oom_victim(rec);
		}
		if (!victim)
			nanosleep(&ts, NULL);
	}
	if (kfd >= 0)
		close(kfd);
	/* a killed task is a zombie only once its exit is done: wait for it (2 s at most) */
	for (int i = 0; i < 200 && filler_alive(&f); i++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	ballast_gone = !filler_alive(&f) && f.ballast_reaped;
	filler_lives = filler_holder_alive(&f);
	tap(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
	    victim > 0 && victim == f.ballast_pid && ballast_gone && filler_lives,
	    "an OOM with no case to kill on node %d took the ballast (pid %d), not the filler (pid %d): victim pid %d, ballast %s, filler %s, allocating task %s",
	    node, f.ballast_pid, f.pid, victim, ballast_gone ? "gone" : "still there",
	    filler_lives ? "alive" : "gone",
	    pid < 0 ? "not forked" : WIFEXITED(status) ? (WEXITSTATUS(status) == 0 ? "went on" :
	    WEXITSTATUS(status) == 2 ? "met no OOM" : "could not set up") : "was killed");
	filler_stop(&f);
	knobs_restore();
}

static int run_checks(const struct opts *o)
{
	check_empty_mask();
	for (int v = VIA_MBIND; v <= VIA_TASK; v++)
		for (int p = 0; p < POL_COUNT; p++) {
			char why[200];

			if (p == POL_DEFAULT)
				continue;
			if (!pol_supported(p, why, sizeof(why))) {
				tap_skip(why, "get_mempolicy round trip %s", pol_names[p]);
				continue;
			}
			check_roundtrip(o, p, v);
		}
	check_numa_maps(o);
	check_placement(o, POL_PREFERRED_MANY, 0.99);
	check_placement(o, POL_PREFERRED, 0.99);
	check_placement(o, POL_BIND, 1.0);
	check_oom_no_case(o);
	return 0;
}

const struct bench bench_checks = {
	.name = VOCAB_BENCH_CHECKS,
	.help = "TAP checks of the policy API and placement (fail the run if the kernel misbehaves)",
	.options = "--preferred --mib --headroom-mib",
	.needs = { .min_mem_nodes = 1, .sysctls = { "vm.percpu_pagelist_high_fraction" } },
	.timeout_secs = 120,
	.run = run_checks,
};
