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

/*
 * MPOL_F_STATIC_NODES / RELATIVE_NODES under a cpuset change: where each
 * flag's new pages landed before and after, against the documented nodes.
 */
/* "{1,2}" of a node bitmask row's value */
static void mask_words(double v, struct sbuf *b)
{
	unsigned long long m = (unsigned long long)v;
	int k = 0;

	sb_putc(b, '{');
	for (int n = 0; n < 64; n++)
		if (m >> n & 1)
			sb_printf(b, "%s%d", k++ ? "," : "", n);
	sb_putc(b, '}');
}

static bool cpuset_sentence(struct run *r, const char *set, struct sbuf *b)
{
	static const char *const flags[] = { "noflag", "static", "relative" };
	static const char *const words[] = { "without a flag", "with MPOL_F_STATIC_NODES",
					     "with MPOL_F_RELATIVE_NODES" };
	size_t said = 0, off = 0;

	for (size_t f = 0; f < 3; f++) {
		struct row *w[4];
		char m[64];
		static const char *const what[4] = { "landing_node_before", "landing_node_after",
						     "expected_node_before", "expected_node_after" };
		struct cites c = { 0 };

		for (int i = 0; i < 4; i++) {
			snprintf(m, sizeof(m), "cpuset_%s_%s", flags[f], what[i]);
			w[i] = run_find(r, "features", "bind", set, "4k", "free", m);
		}
		if (!w[0] || !w[1] || !w[2] || !w[3])
			continue;
		if (!said++) {
			struct row *mb = run_find(r, "features", "bind", set, "4k", "free", "cpuset_mems_before_mask");
			struct row *ma = run_find(r, "features", "bind", set, "4k", "free", "cpuset_mems_after_mask");
			struct row *pn = run_find(r, "features", "bind", set, "4k", "free", "cpuset_policy_node");

			if (!mb || !ma || !pn || isnan(numval(mb)) || isnan(numval(ma)))
				return false;
			sb_printf(b, "A task bound (MPOL_BIND) to node %s in a cgroup whose cpuset.mems went from ",
				  pn->f[COL_VALUE]);
			mask_words(numval(mb), b);
			sb_puts(b, " to ");
			mask_words(numval(ma), b);
			cites_add(&c, mb);
			cites_add(&c, ma);
			cites_add(&c, pn);
			cites_put(r, &c, b);
			sb_puts(b, " put its new pages ");
		} else {
			sb_puts(b, "; ");
		}
		sb_printf(b, "%s on node %s, then on node %s", words[f], w[0]->f[COL_VALUE], w[1]->f[COL_VALUE]);
		off += strcmp(w[0]->f[COL_VALUE], w[2]->f[COL_VALUE]) || strcmp(w[1]->f[COL_VALUE], w[3]->f[COL_VALUE]);
		for (int i = 0; i < 4; i++)
			cites_add(&c, w[i]);
		cites_put(r, &c, b);
	}
	if (said)
		sb_puts(b, off ? ". Not every flag's pages landed where the documented semantics put them "
				 "(Documentation/admin-guide/mm/numa_memory_policy.rst; bench/mpolmodel.c): see the "
				 "cpuset_*_expected_node rows."
			       : ". Each is where the documented semantics put them "
				 "(Documentation/admin-guide/mm/numa_memory_policy.rst, as bench/mpolmodel.c reads "
				 "it): without a flag the node is remapped by its position in the old mems, a "
				 "static node stays while it is allowed, a relative one is the n-th of the mems.");
	return said > 0;
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
	for (size_t s = 0; s < sets.n; s++) {
		struct sbuf one = { 0 };

		if (cpuset_sentence(r, sets.v[s], &one))
			sb_printf(b, "%s%s", said++ ? "\n" : "", one.s);
		sb_free(&one);
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
