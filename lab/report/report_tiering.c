// SPDX-License-Identifier: GPL-2.0
/*
 * The report's section on memory tiering (run-lab --tiering; bench tiers
 * and tiering): the mode the guest ran in, its memory tiers, and where each
 * policy's pages were after memory.reclaim of their cgroup and over time,
 * every sentence from this run's rows with the summary.csv lines behind it.
 */
#include "report_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TIERS "tiers"
#define TIERING "tiering"
#define TIERING_MOF "tiering_mof"	/* bind, preferred-many with MPOL_F_NUMA_BALANCING */

/* The cases, in bench tiering's order: its rows' bench and policy, the words for them. */
static const struct tcase {
	const char *bench, *pol, *label;
} tcases[] = {
	{ TIERING, "bind", "bind" },
	{ TIERING, "preferred", "preferred" },
	{ TIERING, "preferred-many", "preferred-many" },
	{ TIERING, "default", "default" },
	{ TIERING_MOF, "bind", "bind with MPOL_F_NUMA_BALANCING" },
	{ TIERING_MOF, "preferred-many", "preferred-many with MPOL_F_NUMA_BALANCING" },
};
#define NCASES (sizeof(tcases) / sizeof(tcases[0]))

/* The node sets of @bench's rows. */
static void bench_sets(struct run *r, const char *bench, struct strlist *sets)
{
	for (size_t i = 0; i < r->nrows; i++)
		if (is_ok(&r->rows[i]) && !strcmp(r->rows[i].f[COL_BENCH], bench))
			sl_add(sets, r->rows[i].f[COL_NODES]);
}

static struct row *crow(struct run *r, const struct tcase *tc, const char *set, const char *metric)
{
	return run_find(r, tc->bench, tc->pol, set, "4k", "free", metric);
}

static struct row *trow(struct run *r, const char *pol, const char *set, const char *metric)
{
	return run_find(r, TIERING, pol, set, "4k", "free", metric);
}

/* "node 2 100 %, node 0 0.2 %" of @stage's rows for @pol; false without any. */
static bool places(struct run *r, const struct tcase *tc, const char *set, const char *stage,
		   struct sbuf *b, struct cites *c)
{
	size_t sl = strlen(stage), k = 0;
	char v[32];

	for (size_t i = 0; i < r->nrows; i++) {
		struct row *w = &r->rows[i];
		const char *m = w->f[COL_METRIC];

		if (!is_ok(w) || strcmp(w->f[COL_BENCH], tc->bench) || strcmp(w->f[COL_POLICY], tc->pol) ||
		    strcmp(w->f[COL_NODES], set) || strncmp(m, stage, sl) ||
		    strncmp(m + sl, "_frac_node", 10) || isnan(numval(w)))
			continue;
		fmt_num(v, sizeof(v), 100 * numval(w));
		sb_printf(b, "%snode %s %s %%", k++ ? ", " : "", m + sl + 10, v);
		if (c)
			cites_add(c, w);
	}
	return k > 0;
}

/* The last "touched<K>s" stage with rows for @pol, K in *secs; NULL none. */
static const char *last_round(struct run *r, const struct tcase *tc, const char *set, char *buf, size_t len,
			      int *secs)
{
	*secs = 0;
	for (int k = 1; k <= 60; k++) {
		char m[48];

		snprintf(m, sizeof(m), "touched%ds_outside_policy_frac", k);
		if (!crow(r, tc, set, m))
			break;
		*secs = k;
	}
	if (!*secs)
		return NULL;
	snprintf(buf, len, "touched%ds", *secs);
	return buf;
}

/* The mode and the tiers, into @b; false without tiers/tiering rows. */
static bool mode_sentences(struct run *r, const char *set, struct sbuf *b)
{
	struct row *dem = run_find(r, TIERS, "-", set, "-", "-", "demotion_enabled");
	struct row *bal = run_find(r, TIERS, "-", set, "-", "-", "numa_balancing");
	const char *mode = run_meta(r, META_tiering);
	struct strlist tiers = { 0 };
	size_t wrong = 0;

	if (!dem)
		dem = run_find(r, TIERING, "-", set, "-", "-", "demotion_enabled");
	if (!bal)
		bal = run_find(r, TIERING, "-", set, "-", "-", "numa_balancing");
	if (!dem && !bal)
		return false;
	if (mode && *mode)
		sb_printf(b, "With run-lab --tiering %s, t", mode);
	else
		sb_puts(b, "T");
	sb_printf(b, "he guest ran with demotion_enabled %s and kernel.numa_balancing %s",
		  dem && !isnan(numval(dem)) ? (numval(dem) > 0 ? "1" : "0") : "unknown",
		  bal && !isnan(numval(bal)) ? bal->f[COL_VALUE] : "unknown");
	{
		const struct row *both[2] = { dem ? dem : bal, dem ? bal : NULL };

		cite_rows(r, both, dem && bal ? 2 : 1, b);
	}
	sb_puts(b, ".");
	/* the tiers: "memory_tier4 holds nodes 0, 1" */
	for (size_t i = 0; i < r->nrows; i++) {
		struct row *w = &r->rows[i];

		if (is_ok(w) && !strcmp(w->f[COL_BENCH], TIERS) && !strcmp(w->f[COL_NODES], set) &&
		    !strncmp(w->f[COL_METRIC], "memory_tier_node", 16))
			sl_add(&tiers, w->f[COL_VALUE]);
	}
	for (size_t t = 0; t < tiers.n; t++) {
		struct cites c = { 0 };
		size_t k = 0;

		sb_printf(b, "%s memory_tier%s holds node", t ? ";" : " Memory tiers:", tiers.v[t]);
		for (size_t i = 0; i < r->nrows; i++) {
			struct row *w = &r->rows[i], *want;
			char m[48];

			if (!is_ok(w) || strcmp(w->f[COL_BENCH], TIERS) || strcmp(w->f[COL_NODES], set) ||
			    strncmp(w->f[COL_METRIC], "memory_tier_node", 16) || strcmp(w->f[COL_VALUE], tiers.v[t]))
				continue;
			sb_printf(b, "%s %s", k++ ? "," : "", w->f[COL_METRIC] + 16);
			cites_add(&c, w);
			snprintf(m, sizeof(m), "expected_tier_node%s", w->f[COL_METRIC] + 16);
			want = run_find(r, TIERS, "-", set, "-", "-", m);
			if (want) {
				cites_add(&c, want);
				wrong += strcmp(want->f[COL_VALUE], w->f[COL_VALUE]) != 0;
			}
		}
		cites_put(r, &c, b);
	}
	if (tiers.n)
		sb_printf(b, ". %s", wrong ? "Not every node is in the tier the kernel's abstract-distance formula "
					     "gives from the HMAT figures the guest sees (mm/memory-tiers.c "
					     "mt_perf_to_adistance()): see the tiers rows."
					   : "Each node is in the tier the kernel's abstract-distance formula gives "
					     "from the HMAT figures the guest sees (mm/memory-tiers.c "
					     "mt_perf_to_adistance(); a tier is 128 of distance, DRAM's is 576).");
	sl_free(&tiers);
	return true;
}

/* BIND's pages and its nodemask after the reclaim, one sentence; false without rows. */
static bool bind_sentence(struct run *r, const char *set, struct sbuf *b)
{
	struct row *out = trow(r, "bind", set, "reclaimed_outside_policy_frac");
	struct row *home = trow(r, "bind", set, "policy_node");
	struct cites c = { 0 };
	struct sbuf where = { 0 };
	char v[32];

	if (!out || !home || isnan(numval(out)))
		return false;
	places(r, &tcases[0], set, "reclaimed", &where, &c);
	fmt_num(v, sizeof(v), 100 * numval(out));
	cites_add(&c, out);
	cites_add(&c, home);
	if (numval(out) >= 0.5)
		sb_printf(b, "MPOL_BIND to node %s did not keep its pages there: after memory.reclaim "
			  "%s %% were outside its nodemask (%s). Demotion in this kernel ignores the "
			  "policy of the memory it moves (mm/vmscan.c demote_folio_list(): \"Demotion "
			  "ignores all cpuset and mempolicy settings\"), so a bound range ends on the "
			  "demotion target like any other",
			  home->f[COL_VALUE], v, where.len ? where.s : "no placement rows");
	else if (numval(out) > 0)
		sb_printf(b, "MPOL_BIND to node %s kept most of its pages: after memory.reclaim %s %% "
			  "were outside its nodemask (%s)",
			  home->f[COL_VALUE], v, where.len ? where.s : "no placement rows");
	else
		sb_printf(b, "MPOL_BIND to node %s kept all its pages inside its nodemask after "
			  "memory.reclaim (%s): nothing was demoted out of it",
			  home->f[COL_VALUE], where.len ? where.s : "no placement rows");
	cites_put(r, &c, b);
	sb_puts(b, ".");
	sb_free(&where);
	return true;
}

/*
 * The first second of touching after which at least 90 % of @tc's pages
 * were inside its policy's nodes, its row in *@w; 0 none.
 */
static int first_back(struct run *r, const struct tcase *tc, const char *set, int secs, struct row **w)
{
	for (int k = 1; k <= secs; k++) {
		char m[48];

		snprintf(m, sizeof(m), "touched%ds_outside_policy_frac", k);
		*w = crow(r, tc, set, m);
		if (*w && !isnan(numval(*w)) && numval(*w) <= 0.1)
			return k;
	}
	*w = NULL;
	return 0;
}

/* Promotion over time under balancing, one sentence per case with rounds. */
static size_t rounds_sentences(struct run *r, const char *set, struct sbuf *b)
{
	size_t said = 0;

	for (size_t p = 0; p < NCASES; p++) {
		const struct tcase *tc = &tcases[p];
		bool mof = !strcmp(tc->bench, TIERING_MOF);
		char stage[32], m[64], v[32];
		int secs;
		const char *st = last_round(r, tc, set, stage, sizeof(stage), &secs);
		struct row *out, *prom, *home, *hint, *migr;
		struct cites c = { 0 };
		struct sbuf where = { 0 };

		if (!st)
			continue;
		snprintf(m, sizeof(m), "%s_outside_policy_frac", st);
		out = crow(r, tc, set, m);
		prom = crow(r, tc, set, "pgpromote_success_delta");
		hint = crow(r, tc, set, "numa_hint_faults_delta");
		migr = crow(r, tc, set, "numa_pages_migrated_delta");
		if (!out || isnan(numval(out)))
			continue;
		places(r, tc, set, st, &where, &c);
		cites_add(&c, out);
		if (prom)
			cites_add(&c, prom);
		if (mof && hint)
			cites_add(&c, hint);
		if (mof && migr)
			cites_add(&c, migr);
		home = crow(r, tc, set, "policy_node");
		cites_add(&c, home);
		fmt_num(v, sizeof(v), 100 * (1 - numval(out)));
		sb_printf(b, "%sAfter %d s of touching its demoted pages, %s had %s %% back on node %s, "
			  "where it populated them (%s; pgpromote_success %s",
			  said++ ? "\n" : "", secs, tc->label, v, home ? home->f[COL_VALUE] : "?",
			  where.s ? where.s : "", prom ? prom->f[COL_VALUE] : "not counted");
		if (mof)
			sb_printf(b, ", numa_hint_faults %s, numa_pages_migrated %s",
				  hint ? hint->f[COL_VALUE] : "not counted", migr ? migr->f[COL_VALUE] : "not counted");
		sb_puts(b, ")");
		cites_put(r, &c, b);
		if (!mof && strcmp(tc->pol, "default") && numval(out) >= 0.99 && prom && numval(prom) == 0)
			sb_puts(b, ": NUMA balancing's scanner skips a range whose policy lacks MPOL_F_MOF "
				   "(kernel/sched/fair.c task_numa_work(), mm/mempolicy.c vma_policy_mof()), "
				   "which mbind() sets only with MPOL_F_NUMA_BALANCING (not passed here), "
				   "so no hint fault asks to promote them");
		if (mof && numval(out) <= 0.1 && prom && numval(prom) > 0) {
			struct tcase plain = { TIERING, tc->pol, tc->pol };
			struct row *fb, *po;
			int k = first_back(r, tc, set, secs, &fb);
			struct cites c2 = { 0 };

			snprintf(m, sizeof(m), "%s_outside_policy_frac", st);
			po = crow(r, &plain, set, m);
			if (fb)
				cites_add(&c2, fb);
			if (po)
				cites_add(&c2, po);
			sb_printf(b, ": with the flag, mbind() gives the policy MPOL_F_MOF | MPOL_F_MORON "
				  "(mm/mempolicy.c sanitize_mpol_flags()), the scanner takes the range and "
				  "mpol_misplaced() sends a hint-faulted page to the faulting CPU's node, "
				  "which is in the policy's nodes; 90 %% or more were back after %d s",
				  k);
			if (po && !isnan(numval(po))) {
				fmt_num(v, sizeof(v), 100 * (1 - numval(po)));
				sb_printf(b, ", against %s %% for %s without the flag", v, tc->pol);
			}
			cites_put(r, &c2, b);
		}
		sb_puts(b, ".");
		sb_free(&where);
	}
	return said;
}

size_t tiering_summary(struct run *r, struct sbuf *b)
{
	struct strlist sets = { 0 };
	size_t said = 0;

	bench_sets(r, TIERS, &sets);
	bench_sets(r, TIERING, &sets);
	bench_sets(r, TIERING_MOF, &sets);
	for (size_t s = 0; s < sets.n; s++) {
		struct sbuf one = { 0 };

		if (mode_sentences(r, sets.v[s], &one)) {
			sb_printf(b, "%s%s", said++ ? "\n" : "", one.s);
			one.len = 0;
			if (one.s)
				one.s[0] = '\0';
		}
		if (bind_sentence(r, sets.v[s], &one)) {
			sb_printf(b, "%s%s", said++ ? "\n" : "", one.s);
			one.len = 0;
			one.s[0] = '\0';
		}
		if (rounds_sentences(r, sets.v[s], &one)) {
			sb_printf(b, "%s%s", said++ ? "\n" : "", one.s);
		}
		sb_free(&one);
	}
	sl_free(&sets);
	return said;
}

static void cell_places(struct doc *d, struct run *r, const struct tcase *tc, const char *set, const char *stage)
{
	struct sbuf w = { 0 };

	doc_cell(d, places(r, tc, set, stage, &w, NULL) ? w.s : "-");
	sb_free(&w);
}

static void cell_row(struct doc *d, struct row *w, double scale, const char *suffix)
{
	char v[32], *t;

	if (!w || isnan(numval(w))) {
		doc_cell(d, "-");
		return;
	}
	fmt_num(v, sizeof(v), scale * numval(w));
	t = xasprintf("%s%s", v, suffix);
	doc_cell(d, t);
	free(t);
}

void sec_tiering(struct doc *d, struct run *r)
{
	static const char *const cols[] = { "nodes", "policy", "populated", "after memory.reclaim",
					    "outside the policy's nodes", "pgdemote (kswapd + direct)",
					    "pgpromote_success", "numa_hint_faults", "at the end" };
	struct strlist sets = { 0 };
	struct sbuf b = { 0 };

	if (!tiering_summary(r, &b)) {
		sb_free(&b);
		return;
	}
	doc_heading(d, 2, "tiering", "Memory tiering: demotion and promotion per policy");
	doc_para(d, NULL, "bench tiers sets the boot's mode (run-lab --tiering) and shows the memory tiers; "
		      "bench tiering populates --mib MiB per policy on CPU 0's node from a cgroup of its "
		      "own, asks that cgroup's memory.reclaim for all of it (with no swap, anonymous "
		      "memory can only leave by demotion), and reads where the pages are then and, under "
		      "balancing, after each second of touching them; under balancing, bind and "
		      "preferred-many run again with mbind()'s MPOL_F_NUMA_BALANCING (rows bench "
		      "tiering_mof), which lets NUMA balancing scan them (bench/README.md, \"tiers, tiering\").");
	doc_paras(d, b.s);
	bench_sets(r, TIERING, &sets);
	bench_sets(r, TIERING_MOF, &sets);
	doc_table_start(d, cols, sizeof(cols) / sizeof(cols[0]));
	for (size_t s = 0; s < sets.n; s++)
		for (size_t p = 0; p < NCASES; p++) {
			const struct tcase *tc = &tcases[p];
			struct row *kd = crow(r, tc, sets.v[s], "pgdemote_kswapd_delta");
			struct row *dd = crow(r, tc, sets.v[s], "pgdemote_direct_delta");
			char stage[32], v[32];
			int secs;
			const char *st;

			if (!crow(r, tc, sets.v[s], "populated_outside_policy_frac"))
				continue;
			doc_row_start(d);
			doc_cell(d, sets.v[s]);
			doc_cell(d, tc->label);
			cell_places(d, r, tc, sets.v[s], "populated");
			cell_places(d, r, tc, sets.v[s], "reclaimed");
			cell_row(d, crow(r, tc, sets.v[s], "reclaimed_outside_policy_frac"), 100, " %");
			if (kd && dd && !isnan(numval(kd)) && !isnan(numval(dd))) {
				fmt_num(v, sizeof(v), numval(kd) + numval(dd));
				doc_cell(d, v);
			} else {
				doc_cell(d, "-");
			}
			cell_row(d, crow(r, tc, sets.v[s], "pgpromote_success_delta"), 1, "");
			cell_row(d, crow(r, tc, sets.v[s], "numa_hint_faults_delta"), 1, "");
			st = last_round(r, tc, sets.v[s], stage, sizeof(stage), &secs);
			if (st) {
				struct sbuf w = { 0 };
				char *t;

				places(r, tc, sets.v[s], st, &w, NULL);
				t = xasprintf("after %d s: %s", secs, w.s ? w.s : "-");
				doc_cell(d, t);
				free(t);
				sb_free(&w);
			} else {
				doc_cell(d, "after the reclaim");
			}
			doc_row_end(d);
		}
	doc_table_end(d);
	sl_free(&sets);
	sb_free(&b);
}
