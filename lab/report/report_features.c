// SPDX-License-Identifier: GPL-2.0
/*
 * The report's section on bench features: the home node, MPOL_MF_MOVE and
 * weighted interleave's weights, each said from this run's figures with
 * the summary.csv lines behind them.
 */
#include "report_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void features_sets(struct run *r, struct strlist *sets)
{
	for (size_t i = 0; i < r->nrows; i++)
		if (is_ok(&r->rows[i]) && !strcmp(r->rows[i].f[COL_BENCH], "features"))
			sl_add(sets, r->rows[i].f[COL_NODES]);
}

/* "node 3", or the boots' words when they differ; NULL without the row. */
static char *node_of(struct row *w)
{
	bool same;
	double v;
	char *t = w ? node_word(w, &same, &v) : NULL;

	if (t && same) {
		free(t);
		t = v < 0 ? xstrdup("no node") : xasprintf("node %.0f", v);
	}
	return t;
}

/* The home-node sentence of one policy and set into @b; false without rows. */
static bool home_sentence(struct run *r, const char *pol, const char *set, struct sbuf *b)
{
	struct row *none = run_find(r, "features", pol, set, "4k", "free", "landing_node_nohome");
	char *t = node_of(none);
	size_t homes = 0;

	if (!t)
		return false;
	sb_printf(b, "From CPU 0, %s over %s landed on %s without a home node", pol, set, t);
	cite(r, none, b);
	free(t);
	for (size_t i = 0; i < r->nrows; i++) {
		struct row *w = &r->rows[i];
		const char *m = w->f[COL_METRIC];

		if (!is_ok(w) || strcmp(w->f[COL_BENCH], "features") || strcmp(w->f[COL_POLICY], pol) ||
		    strcmp(w->f[COL_NODES], set) || strncmp(m, "landing_node_home", 17))
			continue;
		t = node_of(w);
		sb_printf(b, "%s with home node %s on %s", homes++ ? "," : ";", m + 17, t ? t : "no node");
		cite(r, w, b);
		free(t);
	}
	sb_puts(b, ".");
	return true;
}

size_t features_summary(struct run *r, struct sbuf *b)
{
	static const char *const pols[] = { "preferred-many", "bind" };
	struct strlist sets = { 0 };
	size_t said = 0;

	features_sets(r, &sets);
	for (size_t s = 0; s < sets.n; s++) {
		const char *set = sets.v[s];
		struct row *mv = run_find(r, "features", "bind", set, "4k", "free", "moved_frac");
		struct row *mc = run_find(r, "features", "bind", set, "4k", "free", "move_cost_per_page");
		struct row *we = run_find(r, "features", "weighted-interleave", set, "4k", "free",
					  "wi_expected_frac");
		char v[32], u[32];

		for (size_t p = 0; p < sizeof(pols) / sizeof(pols[0]); p++) {
			struct sbuf one = { 0 };

			if (home_sentence(r, pols[p], set, &one))
				sb_printf(b, "%s%s", said++ ? "\n" : "", one.s);
			sb_free(&one);
		}
		if (mv && !isnan(numval(mv))) {
			const struct row *both[2] = { mv, mc };

			fmt_num(v, sizeof(v), 100 * numval(mv));
			sb_printf(b, "%smbind(MPOL_MF_MOVE) on %s moved %s %% of a populated bound range",
				  said++ ? "\n" : "", set, v);
			if (mc && !isnan(numval(mc))) {
				fmt_num(u, sizeof(u), numval(mc));
				sb_printf(b, ", at %s %s per page", u, mc->f[COL_UNIT]);
			}
			cite_rows(r, both, mc ? 2 : 1, b);
			sb_puts(b, ".");
		}
		if (we && !isnan(numval(we))) {
			sb_printf(b, "%sWeighted interleave over %s put", said++ ? "\n" : "", set);
			for (size_t i = 0, k = 0; i < r->nrows; i++) {
				struct row *w = &r->rows[i], *wt;
				char metric[64];

				if (!is_ok(w) || strcmp(w->f[COL_BENCH], "features") ||
				    strcmp(w->f[COL_NODES], set) ||
				    strncmp(w->f[COL_METRIC], "wi_frac_node", 12))
					continue;
				snprintf(metric, sizeof(metric), "wi_weight_node%s", w->f[COL_METRIC] + 12);
				wt = run_find(r, "features", w->f[COL_POLICY], set, "4k", "free", metric);
				fmt_num(v, sizeof(v), 100 * numval(w));
				sb_printf(b, "%s %s %% on node %s", k++ ? "," : "", v, w->f[COL_METRIC] + 12);
				if (wt && !isnan(numval(wt))) {
					fmt_num(u, sizeof(u), numval(wt));
					sb_printf(b, " (weight %s)", u);
				}
				{
					const struct row *both[2] = { w, wt };

					cite_rows(r, both, wt ? 2 : 1, b);
				}
			}
			fmt_num(v, sizeof(v), 100 * numval(we));
			sb_printf(b, "; the weights ask %s %% on the first", v);
			cite(r, we, b);
			sb_puts(b, ".");
		}
	}
	sl_free(&sets);
	return said;
}

void sec_features(struct doc *d, struct run *r)
{
	struct sbuf b = { 0 };

	if (!features_summary(r, &b)) {
		sb_free(&b);
		return;
	}
	doc_heading(d, 2, "features", "Home node, page migration and interleave weights");
	doc_para(d, NULL, "bench features, with free nodes and 4 KiB pages, pinned to CPU 0 "
		      "(bench/README.md, \"features\").");
	doc_paras(d, b.s);
	sb_free(&b);
}
