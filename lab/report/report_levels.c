// SPDX-License-Identifier: GPL-2.0
/*
 * The report's fill-level section: bench fallback's level-* cases (the
 * preferred nodes held between two of their watermarks, a small probe
 * under each subject policy).  Every sentence is built from the figures of
 * this run, each followed by the summary.csv lines it comes from.
 */
#include "report_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const levels[] = { "level-above-high", "level-low-high", "level-min-low" };
static const char *const level_words[] = {
	"above the high watermark", "between the low and high watermarks",
	"between the min and low watermarks",
};
#define NLEVELS (sizeof(levels) / sizeof(levels[0]))
static const char *const subjects[] = { "bind", "preferred", "preferred-many" };
#define NSUBJECTS (sizeof(subjects) / sizeof(subjects[0]))

/* The node sets with level rows, in the order of the rows. */
static void level_sets(struct run *r, struct strlist *sets)
{
	for (size_t i = 0; i < r->nrows; i++) {
		const struct row *w = &r->rows[i];

		if (is_ok(w) && !strcmp(w->f[COL_BENCH], "fallback") &&
		    !strncmp(w->f[COL_SCENARIO], "level-", 6))
			sl_add(sets, w->f[COL_NODES]);
	}
}

static void pct(char *buf, size_t n, double frac)
{
	fmt_num(buf, n, round(frac * 1000) / 10);
}

/*
 * One sentence per node set and level: the policies whose probes landed
 * alike are named together, each group with its share on the set.
 */
size_t level_summary(struct run *r, struct sbuf *b)
{
	struct strlist sets = { 0 };
	size_t said = 0;

	level_sets(r, &sets);
	for (size_t s = 0; s < sets.n; s++)
		for (size_t lv = 0; lv < NLEVELS; lv++) {
			struct row *w[NSUBJECTS];
			bool done[NSUBJECTS] = { false };
			size_t have = 0, groups = 0;

			for (size_t p = 0; p < NSUBJECTS; p++) {
				w[p] = run_find(r, "fallback", subjects[p], sets.v[s], "4k", levels[lv],
						"on_set_frac");
				if (w[p] && !isnan(numval(w[p])))
					have++;
				else
					w[p] = NULL;
			}
			if (!have)
				continue;
			sb_printf(b, "%sWith %s held %s, ", said++ ? "\n" : "", sets.v[s],
				  level_words[lv]);
			for (size_t p = 0; p < NSUBJECTS; p++) {
				const struct row *group[NSUBJECTS];
				size_t ng = 0;
				char v[32];

				if (!w[p] || done[p])
					continue;
				/* a tenth of a percent apart is not told apart here */
				for (size_t q = p; q < NSUBJECTS; q++)
					if (w[q] && !done[q] && fabs(numval(w[q]) - numval(w[p])) < 0.001) {
						done[q] = true;
						group[ng++] = w[q];
					}
				sb_printf(b, "%s", groups++ ? "; " : "");
				for (size_t g = 0; g < ng; g++)
					sb_printf(b, "%s%s", !g ? "" : g + 1 < ng ? ", " : " and ",
						  group[g]->f[COL_POLICY]);
				pct(v, sizeof(v), numval(w[p]));
				sb_printf(b, " put %s %% of the probe on them", v);
				cite_rows(r, group, ng, b);
			}
			sb_puts(b, ".");
		}
	sl_free(&sets);
	return said;
}

void sec_fill_levels(struct doc *d, struct run *r)
{
	static const char *const cols[] = { "nodes", "level", "policy", "on the set",
					    "cost per fault (median)", "outcome" };
	struct strlist sets = { 0 };
	struct sbuf b = { 0 };

	if (!level_summary(r, &b)) {
		sb_free(&b);
		return;
	}
	doc_heading(d, 2, "fill-levels", "Fill level: the preferred nodes between their watermarks");
	doc_para(d, NULL, "bench fallback held the preferred nodes, to the page, in the middle of "
		      "each band between their watermarks (MemFree at each case's start: rows "
		      "level_free_mib_node<N>), then wrote a probe of at most 1 MiB under each "
		      "policy. The memory that holds them cannot be reclaimed (anonymous, no "
		      "swap): this is full memory, not memory the kernel could free.");
	doc_paras(d, b.s);
	level_sets(r, &sets);
	doc_table_start(d, cols, sizeof(cols) / sizeof(cols[0]));
	for (size_t s = 0; s < sets.n; s++)
		for (size_t lv = 0; lv < NLEVELS; lv++)
			for (size_t p = 0; p < NSUBJECTS; p++) {
				const char *oc = run_case_outcome(r, "fallback", subjects[p], sets.v[s],
								  "4k", levels[lv]);
				struct row *wf = run_find(r, "fallback", subjects[p], sets.v[s], "4k",
							  levels[lv], "on_set_frac");
				struct row *wt = run_find(r, "fallback", subjects[p], sets.v[s], "4k",
							  levels[lv], "fault_p50");
				char v[32];
				char *t;

				if (!oc && !wf)
					continue;
				doc_row_start(d);
				doc_cell(d, sets.v[s]);
				doc_cell(d, level_words[lv]);
				doc_cell(d, subjects[p]);
				if (wf && !isnan(numval(wf))) {
					pct(v, sizeof(v), numval(wf));
					t = xasprintf("%s %%", v);
				} else {
					t = xstrdup("-");
				}
				doc_cell(d, t);
				free(t);
				if (wt && !isnan(numval(wt))) {
					fmt_num(v, sizeof(v), numval(wt));
					t = xasprintf("%s %s", v, wt->f[COL_UNIT]);
				} else {
					t = xstrdup("-");
				}
				doc_cell(d, t);
				free(t);
				doc_cell(d, oc ? oc : "-");
				doc_row_end(d);
			}
	doc_table_end(d);
	sl_free(&sets);
	sb_free(&b);
}
