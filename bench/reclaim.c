// SPDX-License-Identifier: GPL-2.0
/*
 * reclaim: first-touch faults with the preferred nodes full of memory the
 * kernel can reclaim (issue 20): scenario full-reclaimable-cache (clean
 * page cache of a sparse file on the guest's ext4 disk, read by a filler
 * bound to the node) and full-reclaimable-anon (the filler's anonymous
 * memory, with the swap disk on for the scenario).  Each fill leaves the
 * preferred nodes at their low watermark + RECLAIM_MARGIN_MIB, so kswapd
 * sleeps when a case starts; the case asks for what the nodes still give
 * above min plus --mib (case_bytes()), so no policy can keep every page
 * on the preferred nodes without reclaim.
 *
 * Per policy (bind, preferred, preferred-many, through mbind(), 4 KiB
 * pages): every write timed (the distribution: direct reclaim is a long
 * tail), where the pages landed, the machine-wide reclaim counters of
 * /proc/vmstat around the case (allocstall, pgscan, pgsteal, pswpout,
 * pgdemote) and the per-node ones from the vmscan tracepoints (vmscan.h):
 * pages scanned and reclaimed on each node by kswapd and by direct
 * reclaim, kswapd's wakes per node.  The kernel's paths (mm/page_alloc.c,
 * mm/mempolicy.c, 6.12) are in bench/README.md ("reclaim").
 */
#include "tb.h"
#include "vmscan.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MIB (1024UL * 1024)
#define TRACING "/sys/kernel/tracing"

static const char *const trace_events[] = {
	"mm_vmscan_lru_shrink_inactive", "mm_vmscan_kswapd_wake", "mm_vmscan_wakeup_kswapd",
	"mm_vmscan_direct_reclaim_begin", "mm_vmscan_node_reclaim_begin",
};
#define NEVENTS (sizeof(trace_events) / sizeof(trace_events[0]))

/* The machine-wide counters around a case: row <name>_delta. */
static const char *const vm_counters[] = {
	"pgscan_kswapd", "pgscan_direct", "pgsteal_kswapd", "pgsteal_direct", "pageoutrun",
	"pswpout", "pswpin", "pgdemote_kswapd", "pgdemote_direct", "workingset_refault_file",
};
#define NCOUNTERS (sizeof(vm_counters) / sizeof(vm_counters[0]))
/* allocstall is kept per zone type: their sum, row allocstall_delta */
static const char *const allocstalls[] = { "allocstall_dma", "allocstall_dma32",
					   "allocstall_normal", "allocstall_movable" };
#define NSTALLS (sizeof(allocstalls) / sizeof(allocstalls[0]))

/* @val into @path; -1 (said) when it cannot be written. */
static int write_said(const char *path, const char *val)
{
	if (write_str(path, val, strlen(val))) {
		msg("reclaim: %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int write_knob(const char *rel, const char *val)
{
	char path[160];

	snprintf(path, sizeof(path), TRACING "/%s", rel);
	return write_said(path, val);
}

/* The vmscan events on, the buffer emptied; -1 (said) when tracefs is not there. */
static int trace_begin(void)
{
	char rel[128];

	if (write_knob("tracing_on", "0") || write_knob("trace", ""))
		return -1;
	for (size_t i = 0; i < NEVENTS; i++) {
		snprintf(rel, sizeof(rel), "events/vmscan/%s/enable", trace_events[i]);
		if (write_knob(rel, "1"))
			return -1;
	}
	return write_knob("tracing_on", "1");
}

static void trace_end(void)
{
	char rel[128];

	write_knob("tracing_on", "0");
	for (size_t i = 0; i < NEVENTS; i++) {
		snprintf(rel, sizeof(rel), "events/vmscan/%s/enable", trace_events[i]);
		write_knob(rel, "0");
	}
}

/* The trace buffer into @t; -1 (said) when unreadable or a line is not understood. */
static int trace_read(struct vmscan_tally *t)
{
	FILE *f = fopen(TRACING "/trace", "r");
	char *line = NULL;
	size_t cap = 0;
	long bad = 0;

	vmscan_tally_init(t);
	if (!f) {
		msg("reclaim: " TRACING "/trace: %s", strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) > 0)
		if (vmscan_trace_line(t, line) < 0 && bad++ == 0)
			msg("reclaim: a vmscan trace line not understood: %.120s", line);
	free(line);
	fclose(f);
	return bad ? -1 : 0;
}

struct rc_case {
	const struct opts *o;
	struct rowkey k;
	enum pol pol;
	bool zone_reclaim;	/* vm.zone_reclaim_mode=1 while the case faults (not while it refills) */
};

#define ZONE_RECLAIM_MODE "/proc/sys/vm/zone_reclaim_mode"

static int zone_reclaim_set(const char *v)
{
	return write_said(ZONE_RECLAIM_MODE, v);
}

static void counter_rows(const struct rowkey *k, const long long *before, const long long *stall0)
{
	long long stall = 0;
	char metric[48];

	for (size_t i = 0; i < NCOUNTERS; i++) {
		long long d = vmstat_delta(vm_counters[i], before[i]);

		/* pgdemote: said when it happened (no tiering in this scenario) */
		if (d < 0 || (d == 0 && !strncmp(vm_counters[i], "pgdemote", 8)))
			continue;
		snprintf(metric, sizeof(metric), "%s_delta", vm_counters[i]);
		out_row(k, metric, (double)d, "pages");
	}
	for (size_t i = 0; i < NSTALLS; i++) {
		long long d = vmstat_delta(allocstalls[i], stall0[i]);

		if (d > 0)
			stall += d;
	}
	out_row(k, "allocstall_delta", (double)stall, "count");
}

static void trace_rows(const struct rowkey *k, const struct vmscan_tally *t)
{
	static const struct {
		const char *name, *unit;
		size_t off;
	} per_node[] = {
		{ "pgscan_kswapd", "pages", offsetof(struct vmscan_tally, scan_kswapd) },
		{ "pgsteal_kswapd", "pages", offsetof(struct vmscan_tally, steal_kswapd) },
		{ "pgscan_direct", "pages", offsetof(struct vmscan_tally, scan_direct) },
		{ "pgsteal_direct", "pages", offsetof(struct vmscan_tally, steal_direct) },
		{ "kswapd_wake", "count", offsetof(struct vmscan_tally, kswapd_wake) },
		{ "wakeup_kswapd", "count", offsetof(struct vmscan_tally, wakeup_kswapd) },
		{ "node_reclaim", "count", offsetof(struct vmscan_tally, node_reclaim) },
	};
	struct nodeset mem;
	char metric[48];

	mem_nodes(&mem);
	ns_for_each(n, &mem) {
		if (n >= VMSCAN_NODES)
			break;
		for (size_t i = 0; i < sizeof(per_node) / sizeof(per_node[0]); i++) {
			const long *v = (const long *)((const char *)t + per_node[i].off);

			snprintf(metric, sizeof(metric), "%s_node%d", per_node[i].name, n);
			out_row(k, metric, (double)v[n], per_node[i].unit);
		}
	}
	out_row(k, "direct_reclaim_entries", (double)t->direct_begin, "count");
	if (t->lost >= 0)
		out_row(k, "trace_lost_events", (double)t->lost, "count");
}

static int rc_child(void *arg, struct shared *sh)
{
	const struct rc_case *c = arg;
	const struct opts *o = c->o;
	size_t len = case_bytes(o, c->k.scenario, PS_4K);
	struct hist *h = malloc(sizeof(*h));
	long long before[NCOUNTERS], stall0[NSTALLS];
	long per_node[MAX_NODE + 1], seen;
	struct vmscan_tally *t = malloc(sizeof(*t));
	struct nodeset polnodes;
	cpu_set_t cpus;
	char metric[48];
	bool traced;
	char *p;

	if (!h || !t) {
		msg("reclaim: out of memory for the histogram");
		return 1;
	}
	CPU_ZERO(&cpus);
	CPU_SET(o->cpu, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus)) {
		msg("reclaim %s/%s: cannot run on CPU %d: %s", c->k.policy, c->k.scenario, o->cpu,
		    strerror(errno));
		return 1;
	}
	out_row(&c->k, "case_mib", (double)len / MIB, "MiB");
	p = map_region(PS_4K, len);
	if (!p || pol_apply(c->pol, VIA_MBIND, &o->preferred, p, len))
		return 3;
	hist_init(h);
	for (size_t i = 0; i < NCOUNTERS; i++)
		before[i] = vmstat_get(vm_counters[i]);
	for (size_t i = 0; i < NSTALLS; i++)
		stall0[i] = vmstat_get(allocstalls[i]);
	if (c->zone_reclaim && zone_reclaim_set("1"))
		return 3;
	out_row(&c->k, "zone_reclaim_mode", c->zone_reclaim, "value");
	traced = !trace_begin();
	if (!traced)
		trace_end();	/* a partial trace_begin() leaves nothing enabled */
	phase_case_begin(sh, -1);
	for (size_t off = 0; off < len; off += 4096) {
		uint64_t t0 = now_ns();

		p[off] = 1;
		hist_add(h, now_ns() - t0);
		sh->pages_done++;
	}
	phase_case_end(sh, &c->k, (long)(len / 4096));
	if (traced)
		trace_end();
	if (c->zone_reclaim)
		zone_reclaim_set("0");
	counter_rows(&c->k, before, stall0);
	if (traced && !trace_read(t))
		trace_rows(&c->k, t);
	else
		tap(false, "reclaim %s/%s: the vmscan tracepoints could be read (per-node rows)",
		    c->k.policy, c->k.scenario);
	pol_nodes(c->pol, &o->preferred, &polnodes);
	seen = placement(p, len, 4096, per_node, MAX_NODE);
	if (seen > 0) {
		struct nodeset mem;

		/*
		 * move_pages() places resident pages only: under
		 * full-reclaimable-anon some of the case's own may be in swap,
		 * and the fractions below are over the resident ones.
		 */
		out_row(&c->k, "resident_frac", (double)seen * 4096 / (double)len, "ratio");
		out_row(&c->k, "in_mask_frac", frac_in(per_node, &polnodes), "ratio");
		out_row(&c->k, "on_set_frac", frac_in(per_node, &o->preferred), "ratio");
		mem_nodes(&mem);
		ns_for_each(n, &mem) {
			if (n > MAX_NODE)
				break;
			snprintf(metric, sizeof(metric), "mib_node%d", n);
			out_row(&c->k, metric, (double)per_node[n] * 4096 / MIB, "MiB");
		}
	}
	out_hist(&c->k, 0, h);
	out_row(&c->k, "count", (double)h->count, "pages");
	out_hist_summary(&c->k, h);
	munmap(p, len);
	free(h);
	free(t);
	return 0;
}

/* The subject policies: the question is theirs (the references spread by design). */
static const enum pol reclaim_pols[] = { POL_BIND, POL_PREFERRED, POL_PREFERRED_MANY };

static int run_reclaim(const struct opts *o)
{
	struct shared *sh = shared_new();
	unsigned mask = o->scen_given ? o->scen_mask :
			1u << SC_FULL_RECLAIMABLE_CACHE | 1u << SC_FULL_RECLAIMABLE_ANON;
	struct rowkey k0 = { VOCAB_BENCH_RECLAIM, "-", "-", "-" };
	char why[200];
	int rc = 0;

	if (!sh)
		return 1;
	out_row(&k0, "cpu", o->cpu, "id");
	if (!(o->page_mask & 1u << PS_4K)) {
		tap_skip("4k only", "reclaim: --pagesizes has no 4k");
		return 0;
	}
	for (int sc = 0; sc < SC_COUNT; sc++) {
		struct filler f;

		if (!(mask & 1u << sc))
			continue;
		if (scenario_begin(o, VOCAB_BENCH_RECLAIM, (enum scenario)sc, &f, why, sizeof(why))) {
			/*
			 * The reclaimable scenarios are this bench's question and
			 * their disks the lab's own: a disk missing, a swapon
			 * that fails, a fill that does not reach its target or
			 * the fill cap are failures of the check, never a SKIP.
			 */
			if (scenario_reclaimable((enum scenario)sc))
				rc |= !tap(false, "reclaim scenario %s: %s", scenario_names[sc], why);
			else
				tap_skip(why, "reclaim scenario %s", scenario_names[sc]);
			knobs_restore();
			continue;
		}
		/*
		 * The page cache again with vm.zone_reclaim_mode=1 (bench
		 * reclaim_zone_reclaim): the fast path reclaims the node's
		 * unmapped page cache (node_reclaim()) before it passes to the
		 * next zone.  Not the anonymous fill: mode 1 does not unmap.
		 */
		for (int zr = 0; zr <= (sc == SC_FULL_RECLAIMABLE_CACHE); zr++)
			for (size_t i = 0; i < sizeof(reclaim_pols) / sizeof(reclaim_pols[0]); i++) {
				const char *bench = zr ? VOCAB_BENCH_RECLAIM_ZONE : VOCAB_BENCH_RECLAIM;
				struct rc_case c = { o, { bench, pol_names[reclaim_pols[i]], "4k",
							  scenario_names[sc] }, reclaim_pols[i], zr };
				enum outcome oc;

				if (!pol_wanted(o, reclaim_pols[i], bench))
					continue;
				/*
				 * The child sets mode 1 once the case is filled (a
				 * fill under mode 1 would reclaim itself at the low
				 * watermark); the harness saves the mode and puts
				 * 0 back after each case, whatever became of it.
				 */
				if (zr && sysctl_save_write("vm.zone_reclaim_mode", 0)) {
					rc |= !tap(false, "reclaim: vm.zone_reclaim_mode could be saved and set");
					break;
				}
				memset(sh, 0, sizeof(*sh));
				oc = run_case(&c.k, &f, rc_child, &c, sh, 600);
				/*
				 * The child turns tracing off when it finishes; one
				 * killed (timeout, OOM) leaves tracing_on 1 with the
				 * vmscan events on for the rest of the boot.
				 */
				if (!access(TRACING "/tracing_on", W_OK))
					trace_end();
				if (zr && sysctl_save_write("vm.zone_reclaim_mode", 0))
					rc |= !tap(false, "reclaim: vm.zone_reclaim_mode=0 could be set back");
				report_outcome(&c.k, oc, sh, 4096);
			}
		scenario_end(&f);
		knobs_restore();
	}
	return rc;
}

const struct bench bench_reclaim = {
	.name = VOCAB_BENCH_RECLAIM,
	.help = "fault latency, placement and reclaim with the preferred nodes full of reclaimable memory",
	.options = "--policies --pagesizes --scenarios --mib --fill-cap-mib --cpu",
	.needs = { .min_mem_nodes = 2, .outside_set = true,
		   .sysctls = { PCP_HIGH_SYSCTL, "vm.zone_reclaim_mode" } },
	.timeout_secs = 900,
	.run = run_reclaim,
};
