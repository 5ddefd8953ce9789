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

const char *scenario_begin(const struct opts *o, const char *bench,
			   enum scenario sc, struct filler *f, char *why, size_t len)
{
	struct nodeset fill;
	long total;

	f->pid = -1;
	f->mib = 0;
	if (sc == SC_FREE) {
		free_rows(bench, sc, f);
		return NULL;
	}
	if (sc == SC_FULL)
		fill = o->preferred;
	else
		mem_nodes(&fill);
	total = nodes_total_mib(&fill);
	/* a safety net for running on a real host: never fill a big machine */
	if (total > o->fill_cap_mib) {
		snprintf(why, len, "filling %ld MiB exceeds --fill-cap-mib %ld",
			 total, o->fill_cap_mib);
		return why;
	}
	if (filler_start(f, &fill, o->headroom_mib)) {
		snprintf(why, len, "the filler could not fill the nodes");
		return why;
	}
	msg("scenario %s: filler pid %d holds %ld MiB, leaving ~%ld MiB per node",
	    scenario_names[sc], f->pid, f->mib, o->headroom_mib);
	free_rows(bench, sc, f);
	return NULL;
}

void scenario_end(struct filler *f)
{
	filler_stop(f);
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

void hugetlb_pools(const struct rowkey *k, long pages)
{
	struct nodeset ns;
	char metric[48];

	mem_nodes(&ns);
	ns_for_each(n, &ns) {
		long got = 0;

		if (hugetlb_reserve(n, pages, &got))
			continue;
		if (got < pages)
			msg("node %d: %ld of %ld 2 MiB pages reserved", n, got, pages);
		snprintf(metric, sizeof(metric), "hugetlb_pool_node%d", n);
		out_row(k, metric, (double)got, "pages");
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

	snprintf(metric, sizeof(metric), "outcome_%s", outcome_names[oc]);
	out_row(k, metric, 1, "flag");
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
