// SPDX-License-Identifier: GPL-2.0
/*
 * `labtool report`: from a run's files alone, per-figure data files, gnuplot
 * SVG/PNG plots, report.html (self-contained) and report.md.  Output depends
 * only on the input files, so regenerating gives byte-identical results.
 *
 * Row names this file relies on (see the README's results format):
 *   latency:        p50_ns p90_ns p99_ns p999_ns max_ns mean_ns count
 *                   median_ci95_lo_ns median_ci95_hi_ns
 *   fallback:       preferred_frac (0..1, or unit "%"), pages_node<N>,
 *                   fill curve: metric fill_preferred_frac (or preferred_frac)
 *                   with scenario fill@<MiB>
 *   oom:            outcome (completed|enomem|sigbus|oom-killed|...), mib_obtained, secs
 *   model:          model_read_latency_ns, model_read_bandwidth_mbps
 *   fallback-order: pages_node<N>, preferred_frac; scenario = kernel setting
 *   check:          tap_ok, tap_fail (counts)
 *   other benches:  workloads; every numeric metric is plotted per policy.
 * Rows nothing else shows end up in the "other figures" table.
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"
#include "report_int.h"

#define FILL_PREFIX "fill@"
#define FILL_METRIC "fill_preferred_frac"

static const char *const pagesize_order[] = { "4k", "thp", "2m", "1g", NULL };
static const char *const scenario_order[] = { "free", "full", "pressure", NULL };

/* ---- ordered sets of strings ---- */

void sl_add(struct strlist *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return;
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = s;
}

void sl_free(struct strlist *l)
{
	free(l->v);
	*l = (struct strlist){ 0 };
}

static int rank_in(const char *const *order, const char *s)
{
	for (int i = 0; order[i]; i++)
		if (!strcmp(order[i], s))
			return i;
	return 1000;
}

/* Stable sort by rank in a known list; unknown values keep file order. */
static void sl_sort_known(struct strlist *l, const char *const *order)
{
	for (size_t i = 1; i < l->n; i++) {
		const char *v = l->v[i];
		size_t j = i;

		while (j > 0 && rank_in(order, l->v[j - 1]) > rank_in(order, v)) {
			l->v[j] = l->v[j - 1];
			j--;
		}
		l->v[j] = v;
	}
}

static bool is_ok(const struct row *w)
{
	return !strcmp(w->f[COL_BOOT_STATUS], "ok");
}

static bool is_fill(const char *scenario)
{
	return !strncmp(scenario, FILL_PREFIX, strlen(FILL_PREFIX));
}

static bool is_node_metric(const char *metric, long *node)
{
	char *end;

	if (strncmp(metric, "pages_node", 10) || !metric[10])
		return false;
	*node = strtol(metric + 10, &end, 10);
	return !*end && *node >= 0;
}

/* ---- policy entries: one per (policy, nodes) ---- */

static char *entry_label(const char *policy, const char *nodes)
{
	if (!*nodes || !strcmp(nodes, "-"))
		return xstrdup(policy);
	return xasprintf("%s %s", policy, nodes);
}

void collect_entries(struct run *r, struct entries *e)
{
	*e = (struct entries){ 0 };
	for (size_t i = 0; i < r->nrows; i++) {
		struct row *w = &r->rows[i];
		size_t k;

		if (!is_ok(w) || !bench_is_micro(w->f[COL_BENCH]) ||
		    !strcmp(w->f[COL_BENCH], "check"))
			continue;
		for (k = 0; k < e->n; k++)
			if (!strcmp(e->v[k].policy, w->f[COL_POLICY]) &&
			    !strcmp(e->v[k].nodes, w->f[COL_NODES]))
				break;
		if (k < e->n)
			continue;
		e->v = xrealloc(e->v, (e->n + 1) * sizeof(*e->v));
		e->v[e->n++] = (struct entry){ w->f[COL_POLICY], w->f[COL_NODES],
					       entry_label(w->f[COL_POLICY], w->f[COL_NODES]) };
	}
	/* policy order, then file order (insertion sort is stable) */
	for (size_t i = 1; i < e->n; i++) {
		struct entry v = e->v[i];
		size_t j = i;

		while (j > 0 && policy_rank(e->v[j - 1].policy) > policy_rank(v.policy)) {
			e->v[j] = e->v[j - 1];
			j--;
		}
		e->v[j] = v;
	}
}

void entries_free(struct entries *e)
{
	for (size_t i = 0; i < e->n; i++)
		free(e->v[i].label);
	free(e->v);
	*e = (struct entries){ 0 };
}

/* Distinct values of column `col` among ok rows of `bench` (fill scenarios apart). */
static void distinct(struct run *r, const char *bench, enum row_col col, bool want_fill,
		     struct strlist *out)
{
	*out = (struct strlist){ 0 };
	for (size_t i = 0; i < r->nrows; i++) {
		struct row *w = &r->rows[i];

		if (is_ok(w) && !strcmp(w->f[COL_BENCH], bench) &&
		    is_fill(w->f[COL_SCENARIO]) == want_fill)
			sl_add(out, w->f[col]);
	}
	if (col == COL_PAGESIZE)
		sl_sort_known(out, pagesize_order);
	if (col == COL_SCENARIO)
		sl_sort_known(out, scenario_order);
}

/* The condition the headline table quotes: 4k/free if present, else the first. */
static bool pick_condition(struct run *r, const char *bench, const char *const *scen_pref,
			   const char **ps, const char **sc)
{
	struct strlist pss, scs;
	bool found = false;

	distinct(r, bench, COL_PAGESIZE, false, &pss);
	distinct(r, bench, COL_SCENARIO, false, &scs);
	for (int s = 0; scen_pref[s] && !found; s++)
		for (size_t p = 0; p < pss.n && !found; p++)
			for (size_t i = 0; i < r->nrows && !found; i++) {
				struct row *w = &r->rows[i];

				if (is_ok(w) && !strcmp(w->f[COL_BENCH], bench) &&
				    !strcmp(w->f[COL_PAGESIZE], pss.v[p]) &&
				    !strcmp(w->f[COL_SCENARIO], scen_pref[s])) {
					*ps = pss.v[p];
					*sc = w->f[COL_SCENARIO];
					found = true;
				}
			}
	if (!found && pss.n && scs.n) {
		for (size_t i = 0; i < r->nrows && !found; i++) {
			struct row *w = &r->rows[i];

			if (is_ok(w) && !strcmp(w->f[COL_BENCH], bench) &&
			    !is_fill(w->f[COL_SCENARIO])) {
				*ps = w->f[COL_PAGESIZE];
				*sc = w->f[COL_SCENARIO];
				found = true;
			}
		}
	}
	sl_free(&pss);
	sl_free(&scs);
	return found;
}

static double frac_of(const struct row *w)
{
	if (!w || !w->numeric)
		return NAN;
	if (!strcmp(w->f[COL_UNIT], "%") || !strcmp(w->f[COL_UNIT], "percent"))
		return w->num / 100.0;
	return w->num;
}

static double numval(const struct row *w)
{
	return w && w->numeric ? w->num : NAN;
}

void compute_headline(struct run *r, const struct entries *e, struct headline *h)
{
	static const char *const lat_pref[] = { "free", "full", "pressure", NULL };
	static const char *const fb_pref[] = { "full", "pressure", "free", NULL };

	*h = (struct headline){ 0 };
	h->lines = xcalloc(e->n, sizeof(*h->lines));
	h->have_lat = pick_condition(r, "latency", lat_pref, &h->lat_ps, &h->lat_sc);
	h->have_fb = pick_condition(r, "fallback", fb_pref, &h->fb_ps, &h->fb_sc);
	for (size_t i = 0; i < e->n; i++) {
		struct headline_line *l = &h->lines[i];
		const char *p = e->v[i].policy, *n = e->v[i].nodes;

		l->p50 = l->lo = l->hi = l->p99 = l->count = NAN;
		l->pref = l->model_lat = l->model_bw = NAN;
		if (h->have_lat) {
			l->p50 = numval(run_find(r, "latency", p, n, h->lat_ps, h->lat_sc, "p50_ns"));
			l->p99 = numval(run_find(r, "latency", p, n, h->lat_ps, h->lat_sc, "p99_ns"));
			l->lo = numval(run_find(r, "latency", p, n, h->lat_ps, h->lat_sc,
						"median_ci95_lo_ns"));
			l->hi = numval(run_find(r, "latency", p, n, h->lat_ps, h->lat_sc,
						"median_ci95_hi_ns"));
			l->count = numval(run_find(r, "latency", p, n, h->lat_ps, h->lat_sc, "count"));
		}
		if (h->have_fb)
			l->pref = frac_of(run_find(r, "fallback", p, n, h->fb_ps, h->fb_sc,
						   "preferred_frac"));
		l->model_lat = numval(run_find(r, "model", p, n, NULL, NULL, "model_read_latency_ns"));
		l->model_bw = numval(run_find(r, "model", p, n, NULL, NULL,
					      "model_read_bandwidth_mbps"));
		for (size_t k = 0; k < r->nrows; k++) {
			struct row *w = &r->rows[k];

			if (!is_ok(w) || strcmp(w->f[COL_BENCH], "oom") || strcmp(w->f[COL_POLICY], p) ||
			    strcmp(w->f[COL_NODES], n) || strcmp(w->f[COL_METRIC], "outcome"))
				continue;
			w->used = true;
			l->oom_tests++;
			/* killed or faulted: ENOMEM is a refusal the program can handle */
			if (oom_outcome_rank(w->f[COL_VALUE]) >= oom_outcome_rank("sigbus"))
				l->oom_bad++;
			if (!l->oom_worst || oom_outcome_rank(w->f[COL_VALUE]) >
						     oom_outcome_rank(l->oom_worst))
				l->oom_worst = w->f[COL_VALUE];
		}
	}
}

void headline_free(struct headline *h)
{
	free(h->lines);
	*h = (struct headline){ 0 };
}

/* "completed 6/9, oom-killed 3/9" for one entry */
void oom_summary(struct run *r, const struct entry *en, struct sbuf *b)
{
	struct strlist words = { 0 };
	size_t total = 0;

	for (size_t k = 0; k < r->nrows; k++) {
		struct row *w = &r->rows[k];

		if (is_ok(w) && !strcmp(w->f[COL_BENCH], "oom") &&
		    !strcmp(w->f[COL_POLICY], en->policy) && !strcmp(w->f[COL_NODES], en->nodes) &&
		    !strcmp(w->f[COL_METRIC], "outcome")) {
			sl_add(&words, w->f[COL_VALUE]);
			total++;
		}
	}
	if (!total) {
		sb_puts(b, "not measured");
		return;
	}
	for (size_t i = 0; i < words.n; i++) {
		size_t c = 0;

		for (size_t k = 0; k < r->nrows; k++) {
			struct row *w = &r->rows[k];

			if (is_ok(w) && !strcmp(w->f[COL_BENCH], "oom") &&
			    !strcmp(w->f[COL_POLICY], en->policy) &&
			    !strcmp(w->f[COL_NODES], en->nodes) &&
			    !strcmp(w->f[COL_METRIC], "outcome") && !strcmp(w->f[COL_VALUE], words.v[i]))
				c++;
		}
		sb_printf(b, "%s%s %zu/%zu", i ? ", " : "", words.v[i], c, total);
	}
	sl_free(&words);
}

/*
 * The honest recommendation: the non-reference policy that keeps the most
 * pages on its preferred nodes without an OOM outcome, and whether its
 * median fault latency differs from the others beyond the 95% CIs.
 */
void recommendation(struct run *r, const struct entries *e, const struct headline *h,
		    struct sbuf *b)
{
	ssize_t best = -1;
	bool refs_only = true;
	char v1[32], v2[32], v3[32];

	for (size_t i = 0; i < e->n; i++)
		if (!policy_is_reference(e->v[i].policy))
			refs_only = false;
	for (size_t i = 0; i < e->n; i++) {
		const struct headline_line *l = &h->lines[i];

		if ((!refs_only && policy_is_reference(e->v[i].policy)) || isnan(l->pref) ||
		    l->oom_bad)
			continue;
		if (best < 0 || l->pref > h->lines[best].pref)
			best = (ssize_t)i;
	}
	if (best < 0) {
		sb_puts(b, "No policy can be recommended from this run: ");
		sb_puts(b, h->have_fb ? "every policy with a placement figure was also OOM-killed or got "
					"SIGBUS in some OOM test."
				      : "it has no placement figures (bench fallback, metric preferred_frac).");
	} else {
		const struct headline_line *l = &h->lines[best];

		fmt_num(v1, sizeof(v1), 100 * l->pref);
		sb_printf(b, "**%s** keeps the largest share of its pages on the preferred nodes "
			     "without being OOM-killed or getting SIGBUS in any OOM test: %s%% (%s pages, "
			     "scenario %s)",
			  e->v[best].label, v1, h->fb_ps, h->fb_sc);
		sb_puts(b, l->oom_tests ? "" : " — but its OOM behaviour was not measured");
		sb_puts(b, ".");
		for (size_t i = 0; i < e->n; i++) {
			const struct headline_line *o = &h->lines[i];

			if (o->oom_bad && !isnan(o->pref) && o->pref > l->pref) {
				fmt_num(v1, sizeof(v1), 100 * o->pref);
				sb_printf(b, " %s keeps more (%s%%) but was OOM-killed or got SIGBUS in "
					     "%zu of %zu OOM tests.",
					  e->v[i].label, v1, o->oom_bad, o->oom_tests);
			}
		}
	}
	if (!h->have_lat) {
		sb_puts(b, " There are no fault-latency figures to compare.");
		return;
	}
	/* latency: the chosen policy (or the fastest) against every other */
	ssize_t ref = best;

	if (ref < 0 || isnan(h->lines[ref].p50)) {
		ref = -1;
		for (size_t i = 0; i < e->n; i++)
			if (!isnan(h->lines[i].p50) && (ref < 0 || h->lines[i].p50 < h->lines[ref].p50))
				ref = (ssize_t)i;
	}
	if (ref < 0)
		return;
	const struct headline_line *l = &h->lines[ref];
	struct sbuf same = { 0 }, lower = { 0 }, higher = { 0 }, noci = { 0 };

	fmt_num(v1, sizeof(v1), l->p50);
	sb_printf(b, " Median fault latency (%s pages, scenario %s) of %s: %s ns", h->lat_ps,
		  h->lat_sc, e->v[ref].label, v1);
	if (!isnan(l->lo) && !isnan(l->hi)) {
		fmt_num(v2, sizeof(v2), l->lo);
		fmt_num(v3, sizeof(v3), l->hi);
		sb_printf(b, " (95%% CI %s–%s)", v2, v3);
	}
	sb_puts(b, ".");
	for (size_t i = 0; i < e->n; i++) {
		const struct headline_line *o = &h->lines[i];
		struct sbuf *dst;

		if ((ssize_t)i == ref || isnan(o->p50))
			continue;
		if (isnan(l->lo) || isnan(l->hi) || isnan(o->lo) || isnan(o->hi))
			dst = &noci;
		else if (intervals_overlap(l->lo, l->hi, o->lo, o->hi))
			dst = &same;
		else
			dst = o->p50 > l->p50 ? &lower : &higher;
		sb_printf(dst, "%s%s", dst->len ? ", " : "", e->v[i].label);
	}
	if (lower.len)
		sb_printf(b, " It is lower than %s (the 95%% intervals do not overlap).", lower.s);
	if (higher.len)
		sb_printf(b, " It is higher than %s (the 95%% intervals do not overlap).", higher.s);
	if (same.len)
		sb_printf(b, " It cannot be told apart from %s: the 95%% intervals overlap, so no "
			     "difference is claimed.", same.s);
	if (noci.len)
		sb_printf(b, " No confidence interval was recorded for %s, so no difference is "
			     "claimed there.", noci.s);
	const char *acc = run_meta(r, "accelerator", NULL);

	if (!acc || !strcmp(acc, "tcg"))
		sb_puts(b, " These are emulation (TCG) timings: they rank policies within this run, "
			   "they are not hardware latencies.");
	sb_free(&same);
	sb_free(&lower);
	sb_free(&higher);
	sb_free(&noci);
}

/* ---- figures ---- */

struct plotctx {
	struct run *r;
	const struct entries *e;
	const char *scripts, *tmpdir, *title_suffix;
	bool no_plots;
	struct figures *figs;
};

/* Strings in .dat files are double-quoted; gnuplot has no escape for '"'. */
static void dat_str(struct sbuf *b, const char *s)
{
	sb_putc(b, '"');
	for (; *s; s++)
		sb_putc(b, *s == '"' ? '\'' : (*s == '\n' || *s == '\r') ? ' ' : *s);
	sb_puts(b, "\" ");
}

static void dat_num(struct sbuf *b, double v)
{
	if (isnan(v))
		sb_puts(b, "? ");
	else
		sb_printf(b, "%.9g ", v);
}

static char *unique_name(struct figures *f, const char *want)
{
	char *s = slugify(want);

	for (int k = 2;; k++) {
		size_t i;

		for (i = 0; i < f->n; i++)
			if (!strcmp(f->v[i].name, s))
				break;
		if (i == f->n)
			return s;
		free(s);
		char *base = slugify(want);

		s = xasprintf("%s-%d", base, k);
		free(base);
	}
}

/*
 * Writes data/<name>.dat and runs plots/<script> on it, giving the script
 * ARG1 = data file, ARG2 = output path without extension, ARG3 = title,
 * then the extra arguments.  Returns 0, or -1 after naming the failure.
 */
static int make_figure(struct plotctx *c, const char *kind, const char *want_name,
		       const char *what, const char *caption, const char *script,
		       const struct sbuf *data, const char *const *extra)
{
	struct figures *f = c->figs;
	char *name = unique_name(f, want_name);
	char *dat = xasprintf("%s/data/%s.dat", c->tmpdir, name);
	char *out = xasprintf("%s/%s", c->tmpdir, name);
	char *title = xasprintf("%s — %s", what, c->title_suffix);
	char *scr = xasprintf("%s/%s", c->scripts, script);
	int rc = -1;

	if (write_file_atomic(dat, data->s ? data->s : "", data->len) < 0) {
		fprintf(stderr, "labtool: %s: %s\n", dat, strerror(errno));
		goto out;
	}
	if (!c->no_plots) {
		char *argv[16] = { "gnuplot", "-c", scr, dat, out, title };
		int n = 6;
		char *log = xasprintf("%s/data/%s.log", c->tmpdir, name);

		for (int i = 0; extra && extra[i] && n < 15; i++)
			argv[n++] = (char *)extra[i];
		argv[n] = NULL;
		int st = run_program(argv, log);

		if (st != 0) {
			char *text;
			size_t len;

			fprintf(stderr, "labtool: gnuplot %s on %s failed (%s %d)\n", script, dat,
				st < 0 ? "cannot start," : "exit", st < 0 ? errno : st);
			if (st == 127)
				fprintf(stderr, "labtool: is gnuplot installed? (apt-get install gnuplot-nox)\n");
			if (read_file_all(log, &text, &len) == 0) {
				fputs(text, stderr);
				free(text);
			}
			free(log);
			goto out;
		}
		free(log);
		for (int k = 0; k < 2; k++) {
			char *p = xasprintf("%s.%s", out, k ? "png" : "svg");
			struct stat sb;

			if (stat(p, &sb) < 0 || sb.st_size == 0) {
				fprintf(stderr, "labtool: gnuplot %s did not write %s\n", script, p);
				free(p);
				goto out;
			}
			free(p);
		}
	}
	f->v = xrealloc(f->v, (f->n + 1) * sizeof(*f->v));
	f->v[f->n++] = (struct figure){ name, xstrdup(kind), xstrdup(caption), title };
	name = NULL;
	title = NULL;
	rc = 0;
out:
	free(name);
	free(dat);
	free(out);
	free(title);
	free(scr);
	return rc;
}

static const char *const pct_metric[] = { "p50_ns", "p90_ns", "p99_ns", "p999_ns", "max_ns", NULL };
static const char *const pct_label[] = { "p50", "p90", "p99", "p99.9", "max", NULL };

static int fig_latency(struct plotctx *c)
{
	struct strlist pss, scs;
	int rc = 0;

	distinct(c->r, "latency", COL_PAGESIZE, false, &pss);
	distinct(c->r, "latency", COL_SCENARIO, false, &scs);
	for (size_t p = 0; p < pss.n && !rc; p++) {
		for (size_t s = 0; s < scs.n && !rc; s++) {
			const char *ps = pss.v[p], *sc = scs.v[s];
			struct sbuf d = { 0 }, ci = { 0 };
			bool *has = xcalloc(c->e->n, sizeof(bool));
			size_t ncols = 0, nci = 0;

			for (size_t i = 0; i < c->e->n; i++)
				for (int k = 0; pct_metric[k]; k++)
					if (run_find(c->r, "latency", c->e->v[i].policy, c->e->v[i].nodes,
						     ps, sc, pct_metric[k]))
						has[i] = true;
			dat_str(&d, "percentile");
			for (size_t i = 0; i < c->e->n; i++)
				if (has[i]) {
					dat_str(&d, c->e->v[i].label);
					ncols++;
				}
			sb_putc(&d, '\n');
			for (int k = 0; pct_metric[k]; k++) {
				dat_str(&d, pct_label[k]);
				for (size_t i = 0; i < c->e->n; i++) {
					if (!has[i])
						continue;
					double v = numval(run_find(c->r, "latency", c->e->v[i].policy,
								   c->e->v[i].nodes, ps, sc,
								   pct_metric[k]));
					dat_num(&d, v > 0 ? v : NAN);
				}
				sb_putc(&d, '\n');
			}
			/* median with its confidence interval, one line per policy */
			sb_puts(&ci, "# policy p50_ns median_ci95_lo_ns median_ci95_hi_ns\n");
			for (size_t i = 0; i < c->e->n; i++) {
				const char *pol = c->e->v[i].policy, *nod = c->e->v[i].nodes;
				double m = numval(run_find(c->r, "latency", pol, nod, ps, sc, "p50_ns"));
				double lo = numval(run_find(c->r, "latency", pol, nod, ps, sc,
							    "median_ci95_lo_ns"));
				double hi = numval(run_find(c->r, "latency", pol, nod, ps, sc,
							    "median_ci95_hi_ns"));

				if (isnan(m))
					continue;
				dat_str(&ci, c->e->v[i].label);
				dat_num(&ci, m);
				dat_num(&ci, lo);
				dat_num(&ci, hi);
				sb_putc(&ci, '\n');
				nci++;
			}
			if (ncols) {
				char *name = xasprintf("latency-%s-%s", ps, sc);
				char *what = xasprintf("Fault latency percentiles, %s pages, scenario %s",
						       ps, sc);
				char *cap = xasprintf("Page-fault latency percentiles per policy (%s pages, "
						      "scenario %s), log scale.", ps, sc);
				char nc[24];
				const char *extra[] = { nc, NULL };

				snprintf(nc, sizeof(nc), "%zu", ncols);
				rc = make_figure(c, "latency", name, what, cap, "latency.gp", &d, extra);
				free(name);
				free(what);
				free(cap);
			}
			if (nci && !rc) {
				char *name = xasprintf("latency-median-%s-%s", ps, sc);
				char *what = xasprintf("Median fault latency with 95%% CI, %s pages, "
						       "scenario %s", ps, sc);
				char *cap = xasprintf("Median page-fault latency per policy with its 95%% "
						      "confidence interval (%s pages, scenario %s); "
						      "overlapping bars mean no claimed difference.", ps, sc);

				rc = make_figure(c, "latency-median", name, what, cap, "latency_ci.gp", &ci,
						 NULL);
				free(name);
				free(what);
				free(cap);
			}
			free(has);
			sb_free(&d);
			sb_free(&ci);
		}
	}
	sl_free(&pss);
	sl_free(&scs);
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int fig_fill(struct plotctx *c)
{
	struct strlist pss;
	int rc = 0;

	distinct(c->r, "fallback", COL_PAGESIZE, true, &pss);
	for (size_t p = 0; p < pss.n && !rc; p++) {
		double *xs = NULL;
		size_t nx = 0, ncols = 0;
		bool *has = xcalloc(c->e->n, sizeof(bool));
		struct sbuf d = { 0 };

		for (size_t i = 0; i < c->r->nrows; i++) {
			struct row *w = &c->r->rows[i];
			char *end;

			if (!is_ok(w) || strcmp(w->f[COL_BENCH], "fallback") ||
			    strcmp(w->f[COL_PAGESIZE], pss.v[p]) || !is_fill(w->f[COL_SCENARIO]) ||
			    (strcmp(w->f[COL_METRIC], FILL_METRIC) &&
			     strcmp(w->f[COL_METRIC], "preferred_frac")))
				continue;
			double x = strtod(w->f[COL_SCENARIO] + strlen(FILL_PREFIX), &end);

			if (end == w->f[COL_SCENARIO] + strlen(FILL_PREFIX) || !isfinite(x))
				continue;
			size_t k;

			for (k = 0; k < nx; k++)
				if (xs[k] == x)
					break;
			if (k == nx) {
				xs = xrealloc(xs, (nx + 1) * sizeof(*xs));
				xs[nx++] = x;
			}
			for (k = 0; k < c->e->n; k++)
				if (!strcmp(c->e->v[k].policy, w->f[COL_POLICY]) &&
				    !strcmp(c->e->v[k].nodes, w->f[COL_NODES]))
					has[k] = true;
		}
		qsort(xs, nx, sizeof(*xs), cmp_double);
		dat_str(&d, "MiB");
		for (size_t i = 0; i < c->e->n; i++)
			if (has[i]) {
				dat_str(&d, c->e->v[i].label);
				ncols++;
			}
		sb_putc(&d, '\n');
		for (size_t k = 0; k < nx; k++) {
			dat_num(&d, xs[k]);
			for (size_t i = 0; i < c->e->n; i++) {
				if (!has[i])
					continue;
				/* find the row whose scenario parses to xs[k] */
				double v = NAN;

				for (size_t j = 0; j < c->r->nrows && isnan(v); j++) {
					struct row *w = &c->r->rows[j];

					if (!is_ok(w) || strcmp(w->f[COL_BENCH], "fallback") ||
					    strcmp(w->f[COL_PAGESIZE], pss.v[p]) ||
					    !is_fill(w->f[COL_SCENARIO]) ||
					    strcmp(w->f[COL_POLICY], c->e->v[i].policy) ||
					    strcmp(w->f[COL_NODES], c->e->v[i].nodes) ||
					    (strcmp(w->f[COL_METRIC], FILL_METRIC) &&
					     strcmp(w->f[COL_METRIC], "preferred_frac")))
						continue;
					if (strtod(w->f[COL_SCENARIO] + strlen(FILL_PREFIX), NULL) == xs[k]) {
						v = 100 * frac_of(w);
						w->used = true;
					}
				}
				dat_num(&d, v);
			}
			sb_putc(&d, '\n');
		}
		if (ncols && nx) {
			char *name = xasprintf("fallback-fill-%s", pss.v[p]);
			char *what = xasprintf("Fallback fill curve, %s pages", pss.v[p]);
			char *cap = xasprintf("Share of newly faulted pages on the preferred nodes as "
					      "memory is filled (%s pages).", pss.v[p]);
			char nc[24];
			const char *extra[] = { nc, NULL };

			snprintf(nc, sizeof(nc), "%zu", ncols);
			rc = make_figure(c, "fallback-fill", name, what, cap, "fallback_fill.gp", &d, extra);
			free(name);
			free(what);
			free(cap);
		}
		free(xs);
		free(has);
		sb_free(&d);
	}
	sl_free(&pss);
	return rc;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

static const char *node_tier(struct run *r, long node)
{
	int cn = csv_col(&r->topo_csv, "node"), ct = csv_col(&r->topo_csv, "tier");

	if (!r->have_topo || cn < 0 || ct < 0)
		return NULL;
	for (size_t i = 0; i < r->topo_csv.nrows; i++) {
		char *end;
		long v = strtol(r->topo_csv.rows[i].field[cn], &end, 10);

		if (!*end && v == node)
			return r->topo_csv.rows[i].field[ct];
	}
	return NULL;
}

/*
 * Stacked per-node placement: one bar per (entry, condition value) of
 * `bench`, pages_node<N> as percent of the bar's pages.
 */
static int fig_stacked(struct plotctx *c, const char *bench, const char *ps, const char *sc,
		       bool sc_in_label, struct sbuf *d, size_t *nnodes)
{
	long *nodes = NULL;
	size_t nn = 0, bars = 0;
	struct strlist scs;

	if (sc_in_label)
		distinct(c->r, bench, COL_SCENARIO, false, &scs);
	else {
		scs = (struct strlist){ 0 };
		sl_add(&scs, sc);
	}
	for (size_t i = 0; i < c->r->nrows; i++) {
		struct row *w = &c->r->rows[i];
		long node;

		if (!is_ok(w) || strcmp(w->f[COL_BENCH], bench) || strcmp(w->f[COL_PAGESIZE], ps) ||
		    (!sc_in_label && strcmp(w->f[COL_SCENARIO], sc)) || is_fill(w->f[COL_SCENARIO]) ||
		    !is_node_metric(w->f[COL_METRIC], &node))
			continue;
		size_t k;

		for (k = 0; k < nn; k++)
			if (nodes[k] == node)
				break;
		if (k == nn) {
			nodes = xrealloc(nodes, (nn + 1) * sizeof(*nodes));
			nodes[nn++] = node;
		}
	}
	qsort(nodes, nn, sizeof(*nodes), cmp_long);
	dat_str(d, "bar");
	for (size_t k = 0; k < nn; k++) {
		const char *tier = node_tier(c->r, nodes[k]);
		bool numeric = tier && *tier && strspn(tier, "0123456789") == strlen(tier);
		char *h = numeric ? xasprintf("node %ld (tier %s)", nodes[k], tier)
			  : tier && *tier ? xasprintf("node %ld (%s)", nodes[k], tier)
					  : xasprintf("node %ld", nodes[k]);

		dat_str(d, h);
		free(h);
	}
	sb_putc(d, '\n');
	for (size_t i = 0; i < c->e->n && nn; i++) {
		for (size_t s = 0; s < scs.n; s++) {
			double *v = xcalloc(nn, sizeof(double)), total = 0;
			bool any = false;

			for (size_t k = 0; k < nn; k++) {
				char m[40];
				struct row *w;

				snprintf(m, sizeof(m), "pages_node%ld", nodes[k]);
				w = run_find(c->r, bench, c->e->v[i].policy, c->e->v[i].nodes, ps, scs.v[s], m);
				v[k] = w && w->numeric && w->num > 0 ? w->num : 0;
				any |= w != NULL;
				total += v[k];
			}
			if (any && total > 0) {
				char *label = sc_in_label ? xasprintf("%s · %s", c->e->v[i].label, scs.v[s])
							  : xstrdup(c->e->v[i].label);

				dat_str(d, label);
				free(label);
				for (size_t k = 0; k < nn; k++)
					dat_num(d, 100 * v[k] / total);
				sb_putc(d, '\n');
				bars++;
			}
			free(v);
		}
	}
	free(nodes);
	sl_free(&scs);
	*nnodes = nn;
	return bars ? 1 : 0;
}

static int fig_placement(struct plotctx *c)
{
	struct strlist pss, scs;
	int rc = 0;

	distinct(c->r, "fallback", COL_PAGESIZE, false, &pss);
	distinct(c->r, "fallback", COL_SCENARIO, false, &scs);
	for (size_t p = 0; p < pss.n && !rc; p++)
		for (size_t s = 0; s < scs.n && !rc; s++) {
			struct sbuf d = { 0 };
			size_t nn;

			if (fig_stacked(c, "fallback", pss.v[p], scs.v[s], false, &d, &nn) > 0) {
				char *name = xasprintf("placement-%s-%s", pss.v[p], scs.v[s]);
				char *what = xasprintf("Page placement per node, %s pages, scenario %s",
						       pss.v[p], scs.v[s]);
				char *cap = xasprintf("Where each policy's pages landed, per NUMA node, as a "
						      "share of its pages (%s pages, scenario %s).",
						      pss.v[p], scs.v[s]);
				char nc[24];
				const char *extra[] = { nc, NULL };

				snprintf(nc, sizeof(nc), "%zu", nn);
				rc = make_figure(c, "placement", name, what, cap, "placement.gp", &d, extra);
				free(name);
				free(what);
				free(cap);
			}
			sb_free(&d);
		}
	sl_free(&pss);
	sl_free(&scs);
	return rc;
}

static int fig_fallback_order(struct plotctx *c)
{
	struct strlist pss;
	int rc = 0;

	distinct(c->r, "fallback-order", COL_PAGESIZE, false, &pss);
	for (size_t p = 0; p < pss.n && !rc; p++) {
		struct sbuf d = { 0 };
		size_t nn;

		if (fig_stacked(c, "fallback-order", pss.v[p], NULL, true, &d, &nn) > 0) {
			char *name = xasprintf("fallback-order-%s", pss.v[p]);
			char *what = xasprintf("Fallback order settings, %s pages", pss.v[p]);
			char *cap = xasprintf("Where pages land once the preferred nodes are full, per "
					      "kernel fallback-order setting (%s pages).", pss.v[p]);
			char nc[24];
			const char *extra[] = { nc, NULL };

			snprintf(nc, sizeof(nc), "%zu", nn);
			rc = make_figure(c, "fallback-order", name, what, cap, "fallback_order.gp", &d,
					 extra);
			free(name);
			free(what);
			free(cap);
		}
		sb_free(&d);
	}
	sl_free(&pss);
	return rc;
}

/* Matches the key in plots/oom_matrix.gp; gnuplot reads the colour as a decimal. */
static unsigned long outcome_colour(const char *word)
{
	static const unsigned long colours[] = { 0x81c784, 0xffd54f, 0xffb74d, 0xe57373, 0xbdbdbd };

	return colours[oom_outcome_rank(word)];
}

static int fig_oom(struct plotctx *c)
{
	struct strlist pss, scs;
	struct sbuf d = { 0 };
	size_t nx = 0, ny = 0, cells = 0;
	int rc = 0;

	distinct(c->r, "oom", COL_PAGESIZE, false, &pss);
	distinct(c->r, "oom", COL_SCENARIO, false, &scs);
	sb_puts(&d, "# x y colour(0xRRGGBB as decimal) outcome xtic ytic\n");
	for (size_t i = 0, y = 0; i < c->e->n; i++) {
		bool row_has = false;

		nx = 0;
		for (size_t p = 0; p < pss.n; p++)
			for (size_t s = 0; s < scs.n; s++, nx++) {
				struct row *w = run_find(c->r, "oom", c->e->v[i].policy, c->e->v[i].nodes,
							 pss.v[p], scs.v[s], "outcome");
				char *xt = xasprintf("%s/%s", pss.v[p], scs.v[s]);

				sb_printf(&d, "%zu %zu %lu ", nx, y, w ? outcome_colour(w->f[COL_VALUE])
								      : 0xffffffUL);
				dat_str(&d, w ? w->f[COL_VALUE] : "");
				dat_str(&d, xt);
				dat_str(&d, c->e->v[i].label);
				sb_putc(&d, '\n');
				free(xt);
				if (w) {
					row_has = true;
					cells++;
					run_find(c->r, "oom", c->e->v[i].policy, c->e->v[i].nodes, pss.v[p],
						 scs.v[s], "mib_obtained");
					run_find(c->r, "oom", c->e->v[i].policy, c->e->v[i].nodes, pss.v[p],
						 scs.v[s], "secs");
				}
			}
		if (row_has) {
			y++;
			ny = y;
		} else {
			/* drop the lines just written for an entry with no OOM rows */
			char *last = d.s + d.len;

			for (size_t k = 0; k < nx; k++) {
				last--;
				while (last > d.s && last[-1] != '\n')
					last--;
			}
			d.len = (size_t)(last - d.s);
			d.s[d.len] = '\0';
		}
	}
	if (cells) {
		char sx[24], sy[24];
		const char *extra[] = { sx, sy, NULL };

		snprintf(sx, sizeof(sx), "%zu", nx);
		snprintf(sy, sizeof(sy), "%zu", ny);
		rc = make_figure(c, "oom", "oom-matrix", "OOM outcome per policy, page size and scenario",
				 "How each allocation run ended, per policy × page size × scenario "
				 "(green: completed; amber: ENOMEM; orange: SIGBUS; red: OOM-killed).",
				 "oom_matrix.gp", &d, extra);
	}
	sb_free(&d);
	sl_free(&pss);
	sl_free(&scs);
	return rc;
}

static int fig_model(struct plotctx *c)
{
	struct sbuf d = { 0 };
	size_t n = 0;
	int rc = 0;

	sb_puts(&d, "# policy model_read_latency_ns model_read_bandwidth_mbps\n");
	for (size_t i = 0; i < c->e->n; i++) {
		double lat = numval(run_find(c->r, "model", c->e->v[i].policy, c->e->v[i].nodes, NULL,
					     NULL, "model_read_latency_ns"));
		double bw = numval(run_find(c->r, "model", c->e->v[i].policy, c->e->v[i].nodes, NULL,
					    NULL, "model_read_bandwidth_mbps"));

		if (isnan(lat) && isnan(bw))
			continue;
		dat_str(&d, c->e->v[i].label);
		dat_num(&d, lat);
		dat_num(&d, bw);
		sb_putc(&d, '\n');
		n++;
	}
	if (n)
		rc = make_figure(c, "model", "model-cost", "Modeled access cost (from HMAT)",
				 "Read latency and bandwidth each policy's placement would see, "
				 "computed from the HMAT figures and the measured placement — not "
				 "measured: QEMU does not make slow nodes slow.",
				 "model.gp", &d, NULL);
	sb_free(&d);
	return rc;
}

static int fig_workloads(struct plotctx *c)
{
	struct strlist benches = { 0 };
	int rc = 0;

	for (size_t i = 0; i < c->r->nrows; i++)
		if (is_ok(&c->r->rows[i]) && !bench_is_micro(c->r->rows[i].f[COL_BENCH]))
			sl_add(&benches, c->r->rows[i].f[COL_BENCH]);
	for (size_t b = 0; b < benches.n && !rc; b++) {
		struct strlist metrics = { 0 };

		for (size_t i = 0; i < c->r->nrows; i++) {
			struct row *w = &c->r->rows[i];

			if (is_ok(w) && w->numeric && !strcmp(w->f[COL_BENCH], benches.v[b]))
				sl_add(&metrics, w->f[COL_METRIC]);
		}
		for (size_t m = 0; m < metrics.n && !rc; m++) {
			struct sbuf d = { 0 };
			const char *unit = "";
			size_t n = 0;
			struct strlist pols = { 0 };

			sb_puts(&d, "# policy value\n");
			/* every (policy, nodes, pagesize, scenario) with this metric, policy order */
			for (size_t i = 0; i < c->r->nrows; i++) {
				struct row *w = &c->r->rows[i];

				if (is_ok(w) && w->numeric && !strcmp(w->f[COL_BENCH], benches.v[b]) &&
				    !strcmp(w->f[COL_METRIC], metrics.v[m]))
					sl_add(&pols, w->f[COL_POLICY]);
			}
			for (size_t i = 1; i < pols.n; i++) {
				const char *v = pols.v[i];
				size_t j = i;

				while (j > 0 && policy_rank(pols.v[j - 1]) > policy_rank(v)) {
					pols.v[j] = pols.v[j - 1];
					j--;
				}
				pols.v[j] = v;
			}
			for (size_t pi = 0; pi < pols.n; pi++)
				for (size_t i = 0; i < c->r->nrows; i++) {
					struct row *w = &c->r->rows[i];

					if (!is_ok(w) || !w->numeric || strcmp(w->f[COL_BENCH], benches.v[b]) ||
					    strcmp(w->f[COL_METRIC], metrics.v[m]) ||
					    strcmp(w->f[COL_POLICY], pols.v[pi]))
						continue;
					char *label = entry_label(w->f[COL_POLICY], w->f[COL_NODES]);
					char *full = xasprintf("%s %s/%s", label, w->f[COL_PAGESIZE],
							       w->f[COL_SCENARIO]);

					dat_str(&d, full);
					dat_num(&d, w->num);
					sb_putc(&d, '\n');
					free(label);
					free(full);
					unit = w->f[COL_UNIT];
					w->used = true;
					n++;
				}
			if (n) {
				char *name = xasprintf("workload-%s-%s", benches.v[b], metrics.v[m]);
				char *what = xasprintf("Workload %s: %s", benches.v[b], metrics.v[m]);
				char *cap = xasprintf("Workload %s, metric %s (%s), per policy.", benches.v[b],
						      metrics.v[m], *unit ? unit : "no unit");
				char *ylabel = *unit ? xasprintf("%s (%s)", metrics.v[m], unit)
						     : xstrdup(metrics.v[m]);
				const char *extra[] = { ylabel, NULL };

				rc = make_figure(c, "workload", name, what, cap, "workload.gp", &d, extra);
				free(name);
				free(what);
				free(cap);
				free(ylabel);
			}
			sl_free(&pols);
			sb_free(&d);
		}
		sl_free(&metrics);
	}
	sl_free(&benches);
	return rc;
}

int make_figures(struct run *r, const struct entries *e, const char *scripts, const char *tmpdir,
		 const char *title_suffix, bool no_plots, struct figures *figs)
{
	struct plotctx c = { r, e, scripts, tmpdir, title_suffix, no_plots, figs };

	*figs = (struct figures){ 0 };
	if (fig_latency(&c) || fig_fill(&c) || fig_placement(&c) || fig_oom(&c) || fig_model(&c) ||
	    fig_fallback_order(&c) || fig_workloads(&c))
		return -1;
	return 0;
}

void figures_free(struct figures *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].name);
		free(f->v[i].kind);
		free(f->v[i].caption);
		free(f->v[i].title);
	}
	free(f->v);
	*f = (struct figures){ 0 };
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

int remove_tree(const char *path)
{
	struct stat sb;

	if (lstat(path, &sb) < 0)
		return errno == ENOENT ? 0 : -1;
	return nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}
