// SPDX-License-Identifier: GPL-2.0
/*
 * The report's section on bench threads: several threads of one task on
 * different CPUs allocating at once (threads_node: the CPUs of one node;
 * threads_2nodes: two nodes' CPUs, alternating).  Per layout and policy,
 * where each thread's pages went and its median fault cost; then which
 * policies let threads on different nodes land on different nodes (their
 * own "local").  Every figure is this run's, followed by the summary.csv
 * lines it comes from.
 */
#include "report_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const layouts[] = { "threads_node", "threads_2nodes" };
static const char *const layout_words[] = {
	"on the CPUs of one node", "on the CPUs of two nodes, alternating",
};
#define NLAYOUTS (sizeof(layouts) / sizeof(layouts[0]))
/* said in sentences; the interleaves (spread by design) are in the table only */
static const char *const said_policies[] = { "bind", "preferred", "preferred-many", "default", NULL };
#define MAX_THREADS 64

static struct row *th_row(struct run *r, const char *lay, const char *pol, const char *set,
			  int i, const char *what)
{
	char metric[64];

	snprintf(metric, sizeof(metric), "thread%d_%s", i, what);
	return run_find(r, lay, pol, set, "4k", "free", metric);
}

/* The node sets with rows of @lay, in the order of the rows. */
static void th_sets(struct run *r, const char *lay, struct strlist *sets)
{
	for (size_t i = 0; i < r->nrows; i++)
		if (is_ok(&r->rows[i]) && !strcmp(r->rows[i].f[COL_BENCH], lay) &&
		    strcmp(r->rows[i].f[COL_POLICY], "-"))
			sl_add(sets, r->rows[i].f[COL_NODES]);
}

static void pct(char *buf, size_t n, double frac)
{
	fmt_num(buf, n, round(frac * 1000) / 10);
}

/*
 * "thread 0 (CPU 0, node 0) 100 % on node 2" for each thread of one case,
 * each with its rows; the number of threads said, and into @tops each
 * thread's landing node (NAN when the boots disagree or no row).
 */
static int threads_of_case(struct run *r, const char *lay, const char *pol, const char *set,
			   struct sbuf *b, double *tops, double *nodes)
{
	int said = 0;

	for (int i = 0; i < MAX_THREADS; i++) {
		struct row *cpu = th_row(r, lay, pol, set, i, "cpu");
		struct row *node = th_row(r, lay, pol, set, i, "node");
		struct row *top = th_row(r, lay, pol, set, i, "top_node");
		struct row *frac = th_row(r, lay, pol, set, i, "top_frac");
		const struct row *rows[4] = { cpu, node, top, frac };
		bool same;
		double v;
		char *t;
		char p[32];

		if (!cpu || !node || !top)
			break;
		t = node_word(top, &same, &v);
		/* a thread whose pages are spread has no one landing node */
		tops[i] = same && (!frac || numval(frac) > 0.5) ? v : NAN;
		nodes[i] = numval(node);
		sb_printf(b, "%sthread %d (CPU %.0f, node %.0f) ", said ? ", " : "", i, numval(cpu),
			  numval(node));
		if (frac && !isnan(numval(frac))) {
			pct(p, sizeof(p), numval(frac));
			sb_printf(b, "%s %% on ", p);
		} else {
			sb_puts(b, "most on ");
		}
		sb_puts(b, t ? t : "no node");
		cite_rows(r, rows, frac ? 4 : 3, b);
		free(t);
		said++;
	}
	return said;
}

size_t threads_summary(struct run *r, struct sbuf *b)
{
	size_t said = 0;

	for (size_t l = 0; l < NLAYOUTS; l++) {
		struct strlist sets = { 0 };

		th_sets(r, layouts[l], &sets);
		for (size_t s = 0; s < sets.n; s++) {
			struct strlist apart = { 0 }, together = { 0 };
			bool two_nodes = false;

			for (int p = 0; said_policies[p]; p++) {
				const char *pol = said_policies[p];
				struct row *n = run_find(r, layouts[l], pol, sets.v[s], "4k", "free", "threads");
				struct row *p50 = run_find(r, layouts[l], pol, sets.v[s], "4k", "free", "p50");
				double tops[MAX_THREADS], nodes[MAX_THREADS];
				struct sbuf one = { 0 };
				int k;
				bool differ = false, known = true, cross = false;
				char v[32];

				if (!n)
					continue;
				k = threads_of_case(r, layouts[l], pol, sets.v[s], &one, tops, nodes);
				if (!k) {
					sb_free(&one);
					continue;
				}
				sb_printf(b, "%sWith %.0f threads %s, %s over %s put ", said++ ? "\n" : "",
					  numval(n), layout_words[l], pol, sets.v[s]);
				sb_puts(b, one.s);
				sb_free(&one);
				if (p50 && !isnan(numval(p50))) {
					fmt_num(v, sizeof(v), numval(p50));
					sb_printf(b, "; the median fault of all threads cost %s %s", v,
						  p50->f[COL_UNIT]);
					cite(r, p50, b);
				}
				sb_puts(b, ".");
				/* did threads of different nodes land on different nodes? */
				for (int i = 0; i < k; i++) {
					known &= !isnan(tops[i]);
					for (int j = 0; j < i; j++)
						if (nodes[i] != nodes[j]) {
							cross = true;
							differ |= tops[i] != tops[j];
						}
				}
				if (cross && known) {
					two_nodes = true;
					sl_add(differ ? &apart : &together, pol);
				}
			}
			if (two_nodes) {
				sb_printf(b, "\nThreads on different nodes (%s) landed on different nodes "
					     "under ", sets.v[s]);
				for (size_t i = 0; i < apart.n; i++)
					sb_printf(b, "%s%s", !i ? "" : i + 1 < apart.n ? ", " : " and ",
						  apart.v[i]);
				if (!apart.n)
					sb_puts(b, "no policy");
				sb_puts(b, ", on one node under ");
				for (size_t i = 0; i < together.n; i++)
					sb_printf(b, "%s%s", !i ? "" : i + 1 < together.n ? ", " : " and ",
						  together.v[i]);
				if (!together.n)
					sb_puts(b, "no policy");
				sb_puts(b, " (the rows above).");
			}
			sl_free(&apart);
			sl_free(&together);
		}
		sl_free(&sets);
	}
	return said;
}

void sec_threads(struct doc *d, struct run *r)
{
	static const char *const cols[] = { "threads", "nodes", "policy", "thread", "CPU (node)",
					    "most pages on", "on its own node", "fault p50" };
	struct sbuf b = { 0 };

	if (!threads_summary(r, &b)) {
		sb_free(&b);
		return;
	}
	doc_heading(d, 2, "threads", "Threads on several CPUs");
	doc_para(d, NULL, "bench threads: the threads of one task, each pinned to its own CPU, "
		      "start together on a barrier and write their own regions (mbind() policy, "
		      "4 KiB pages, nothing filled). Default, bind and preferred-many take the "
		      "faulting CPU's node's zonelist, so \"local\" is each thread's own; "
		      "preferred names one node for all (bench/README.md, \"threads\").");
	doc_paras(d, b.s);
	doc_table_start(d, cols, sizeof(cols) / sizeof(cols[0]));
	for (size_t l = 0; l < NLAYOUTS; l++) {
		struct strlist sets = { 0 };

		th_sets(r, layouts[l], &sets);
		for (size_t s = 0; s < sets.n; s++)
			for (int p = 0; known_policies[p]; p++)
				for (int i = 0; i < MAX_THREADS; i++) {
					const char *pol = known_policies[p];
					struct row *cpu = th_row(r, layouts[l], pol, sets.v[s], i, "cpu");
					struct row *node = th_row(r, layouts[l], pol, sets.v[s], i, "node");
					struct row *top = th_row(r, layouts[l], pol, sets.v[s], i, "top_node");
					struct row *frac = th_row(r, layouts[l], pol, sets.v[s], i, "top_frac");
					struct row *loc = th_row(r, layouts[l], pol, sets.v[s], i, "local_frac");
					struct row *p50 = th_row(r, layouts[l], pol, sets.v[s], i, "p50");
					char v[32], *t, *w;
					bool same;
					double x;

					if (!cpu || !node)
						break;
					doc_row_start(d);
					doc_cell(d, layout_words[l]);
					doc_cell(d, sets.v[s]);
					doc_cell(d, pol);
					t = xasprintf("%d", i);
					doc_cell(d, t);
					free(t);
					t = xasprintf("%.0f (%.0f)", numval(cpu), numval(node));
					doc_cell(d, t);
					free(t);
					w = node_word(top, &same, &x);
					if (w && frac && !isnan(numval(frac))) {
						pct(v, sizeof(v), numval(frac));
						t = xasprintf("%s (%s %%)", w, v);
					} else {
						t = xstrdup(w ? w : "-");
					}
					doc_cell(d, t);
					free(t);
					free(w);
					if (loc && !isnan(numval(loc))) {
						pct(v, sizeof(v), numval(loc));
						t = xasprintf("%s %%", v);
					} else {
						t = xstrdup("-");
					}
					doc_cell(d, t);
					free(t);
					if (p50 && !isnan(numval(p50))) {
						fmt_num(v, sizeof(v), numval(p50));
						t = xasprintf("%s %s", v, p50->f[COL_UNIT]);
					} else {
						t = xstrdup("-");
					}
					doc_cell(d, t);
					free(t);
					doc_row_end(d);
				}
		sl_free(&sets);
	}
	doc_table_end(d);
	sb_free(&b);
}
