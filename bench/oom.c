// SPDX-License-Identifier: GPL-2.0
/*
 * oom: allocate past the capacity of the policy's nodes in a forked child
 * (the harness holds oom_score_adj -1000, the child +500) and record how it
 * ends: completed, oom_killed (SIGKILL plus the kernel log's oom-kill line
 * naming the child, with its constraint), killed (SIGKILL without a report),
 * sigbus, sigsegv, enomem, efault; the MiB it obtained and the seconds to
 * the outcome.
 *
 * vm.overcommit_memory is set to 1 for the duration so that the failure
 * happens at fault time, where the policy acts, not at mmap() time; the
 * hugepage pools are sized so that the preferred nodes hold fewer pages
 * than the child asks for.  Both are restored (knobs_restore).
 *
 * Checks (what 6.12 does, mm/mempolicy.c + mm/oom_kill.c): 4 KiB BIND is
 * OOM-killed with constraint=CONSTRAINT_MEMORY_POLICY, and so is THP BIND
 * (its faults fall back to base pages first); hugetlb BIND gets SIGBUS;
 * PREFERRED and PREFERRED_MANY complete with pages outside the preferred set.
 */
#include "tb.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define MIB (1024UL * 1024)

struct oom_case {
	const struct opts *o;
	enum pol pol;
	enum pagesize ps;
	long mib;
};

/* One write per touch_stride(): 4 KiB, THP included (tb.h). */

static int oom_child(void *arg, struct shared *sh)
{
	const struct oom_case *c = arg;
	size_t len = (size_t)c->mib * MIB, stride = touch_stride(c->ps);
	long total;
	char *p;

	sh->t_start_ns = (long long)now_ns();
	p = map_region(c->ps, len);
	if (!p)
		return 3;
	if (pol_apply(c->pol, VIA_MBIND, &c->o->preferred, p, len))
		return errno == EFAULT ? 4 : 3;
	touch_pages(p, len, stride, sh);
	total = placement(p, len, stride, sh->per_node, MAX_NODE);
	if (total > 0)
		sh->inside_frac = frac_in(sh->per_node, &c->o->preferred);
	return 0;
}

static int run_oom(const struct opts *o)
{
	struct shared *sh = shared_new();
	struct nodeset mem, others;
	long total_p, free_o, overshoot;
	char why[200];

	if (!sh)
		return 1;
	mem_nodes(&mem);
	ns_clear(&others);
	ns_for_each(n, &mem)
		if (!ns_has(&o->preferred, n))
			ns_set(&others, n);
	/* a node outside the set and vm.panic_on_oom 0: needs, judged by main.c */
	total_p = nodes_total_mib(&o->preferred);
	if (total_p > o->fill_cap_mib) {
		snprintf(why, sizeof(why), "the preferred nodes' %ld MiB exceed --fill-cap-mib %ld",
			 total_p, o->fill_cap_mib);
		tap_skip(why, "oom");
		return 0;
	}
	if (sysctl_save_write("vm.overcommit_memory", 1))
		return 1;
	free_o = nodes_free_mib(&others);
	/* a quarter past the preferred nodes, within what the others can take */
	overshoot = total_p / 4;
	if (overshoot > free_o - 4 * o->headroom_mib)
		overshoot = free_o - 4 * o->headroom_mib;
	if (overshoot < 8) {
		snprintf(why, sizeof(why), "nodes outside the preferred set have only %ld MiB free",
			 free_o);
		tap_skip(why, "oom");
		return 0;
	}

	for (int ps = 0; ps < PS_COUNT; ps++) {
		struct oom_case c = { o, 0, ps, total_p + overshoot };

		if (!(o->page_mask & 1u << ps))
			continue;
		if (pagesize_unavailable(ps, why, sizeof(why))) {
			tap_skip(why, "oom %s", pagesize_names[ps]);
			continue;
		}
		if (ps == PS_2M) {
			/* preferred pools hold about half of what is asked, others the rest */
			long want = o->mib / 2, got, in_pref = 0, in_others = 0;

			ns_for_each(n, &mem)
				if (hugetlb_reserve(n, ns_has(&o->preferred, n) ?
						    want / 2 / ns_count(&o->preferred) + 1 :
						    want / ns_count(&others) + 1, &got) == 0) {
					msg("oom 2m: node %d pool %ld pages", n, got);
					*(ns_has(&o->preferred, n) ? &in_pref : &in_others) += got;
				}
			/* past the preferred pools by half the others' (at least one page),
			 * from what the pools really got */
			if (!in_pref || !in_others) {
				snprintf(why, sizeof(why), "hugetlb pools got %ld pages on the preferred nodes, %ld on the others",
					 in_pref, in_others);
				tap_skip(why, "oom 2m");
				knobs_restore();
				continue;
			}
			c.mib = 2 * (in_pref + (in_others / 2 > 1 ? in_others / 2 : 1));
		}
		for (int p = 0; p < POL_COUNT; p++) {
			struct rowkey k = { VOCAB_BENCH_OOM, pol_names[p], pagesize_names[ps], "-" };
			enum outcome oc;

			if (!pol_wanted(o, p, VOCAB_BENCH_OOM))
				continue;
			c.pol = p;
			memset(sh, 0, sizeof(*sh));
			msg("oom %s/%s: asking for %ld MiB (preferred nodes %ld MiB)",
			    pol_names[p], pagesize_names[ps], c.mib, total_p);
			oc = run_case(&k, NULL, oom_child, &c, sh, 600);
			out_row(&k, "asked", (double)c.mib, "MiB");
			report_outcome(&k, oc, sh, touch_stride(ps));
			out_row(&k, "mib_obtained",
				(double)sh->pages_done * (double)touch_stride(ps) / (double)MIB, "MiB");
			out_row(&k, "secs_to_outcome", sh->secs, "s");
			if (ps == PS_4K && p == POL_BIND)
				tap(oc == OUT_OOM_KILLED &&
				    !strcmp(sh->oom_constraint, "CONSTRAINT_MEMORY_POLICY"),
				    "oom bind/4k past its nodes: OOM-killed with CONSTRAINT_MEMORY_POLICY (got %s%s%s)",
				    outcome_names[oc], sh->oom_constraint[0] ? " " : "",
				    sh->oom_constraint);
			if (ps == PS_THP && p == POL_BIND)
				tap(oc == OUT_OOM_KILLED,
				    "oom bind/thp past its nodes: OOM-killed once huge and base pages run out (got %s after %.0f MiB)",
				    outcome_names[oc],
				    (double)sh->pages_done * (double)touch_stride(ps) / (double)MIB);
			if (ps == PS_2M && p == POL_BIND)
				tap(oc == OUT_SIGBUS,
				    "oom bind/2m past its nodes' pools: SIGBUS at the first page they lack (got %s)",
				    outcome_names[oc]);
			if (ps == PS_4K && (p == POL_PREFERRED || p == POL_PREFERRED_MANY))
				tap(oc == OUT_COMPLETED && sh->inside_frac < 1.0,
				    "oom %s/4k past its nodes: completes with pages outside the preferred set (got %s, %.3f on the set)",
				    pol_names[p], outcome_names[oc], sh->inside_frac);
		}
		if (ps == PS_2M)
			knobs_restore();
	}
	return 0;
}

const struct bench bench_oom = {
	.name = VOCAB_BENCH_OOM,
	.help = "allocate past the policy nodes' capacity in a child; record the outcome",
	.options = "--policies --pagesizes --mib --fill-cap-mib --headroom-mib",
	.needs = { .min_mem_nodes = 2, .outside_set = true, .oom_kill = true,
		   .sysctls = { "vm.overcommit_memory" } },
	.timeout_secs = 900,
	.run = run_oom,
};
