// SPDX-License-Identifier: GPL-2.0
/*
 * `labtool report`: from a run's files alone, per-figure data files, gnuplot
 * SVG/PNG plots, report.html (self-contained) and report.md.  Output depends
 * only on the input files, so regenerating gives byte-identical results.
 *
 * Row names are tierbench's (bench/README.md):
 *   latency, latency_task (mbind / set_mempolicy): count mean p50 p90 p99
 *       p99_9 max (ns, pooled), p50_median_of_reps p50_ci95_low p50_ci95_high
 *       p50_ci_coverage reps; policy "-" rows are the case's context
 *       (filler_mib, free_mib_node<N>, clock_overhead, hugetlb_pool_node<N>,
 *       cpu, order_seed); case_order, warmup_reps per case
 *   every case: outcome_<word>=1 (flag), mib_before_outcome,
 *       oom_constraint_memory_policy
 *   fallback: in_mask_frac on_set_frac fallback_frac (ratio) pages_total pages_node<N>;
 *       fill curve: scenario fill@<MiB>, step_on_set_frac cum_on_set_frac step_frac_node<N>
 *   oom: asked mib_obtained secs_to_outcome + outcome
 *   model: model_read_latency_ns (page-weighted mean),
 *       model_read_bandwidth_serial_mbps (time-weighted),
 *       model_read_bandwidth_parallel_bound_mbps ... (4k, thp; scenario free);
 *       policy "-": hmat_read_{latency,bandwidth}_node<N>,
 *       model_cache_read_*_node<N>, model_cache_hit_frac_node<N>: with the
 *       fill curve's step_frac_node<N>, the model after the fill (report_model.c)
 *   boots/<boot>.hist: HIST lines, the latency histograms (CDF figures)
 *   other benches: workloads; every numeric metric is plotted per policy.
 * Rows nothing else shows end up in the "all figures" table.
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
#include "words.h"

#define FILL_PREFIX "fill@"

const struct lat_bench lat_benches[NR_LAT_BENCHES] = {
	{ "latency", "mbind()" },
	{ "latency_task", "set_mempolicy()" },
};


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

bool is_ok(const struct row *w)
{
	return !strcmp(w->f[COL_BOOT_STATUS], "ok");
}

bool is_fill(const char *scenario)
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

		/* policy "-": a case's context (filler, free memory, clock), not a policy */
		if (!is_ok(w) || !bench_is_micro(w->f[COL_BENCH]) ||
		    !strcmp(w->f[COL_BENCH], "check") || !strcmp(w->f[COL_BENCH], "checks") ||
		    !strcmp(w->f[COL_BENCH], "single-node") ||
		    /* rows of their own sections or tables, not policy entries */
		    !strcmp(w->f[COL_BENCH], "features") || !strcmp(w->f[COL_BENCH], "chase") ||
		    !strcmp(w->f[COL_BENCH], "tiering") || !strcmp(w->f[COL_BENCH], "tiers") ||
		    !strncmp(w->f[COL_BENCH], "threads_", 8) ||
		    !strcmp(w->f[COL_POLICY], "-") || !w->f[COL_POLICY][0])
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

/* Distinct values of column `col` among ok policy rows of `bench` (fill scenarios apart). */
static void distinct(struct run *r, const char *bench, enum row_col col, bool want_fill,
		     struct strlist *out)
{
	*out = (struct strlist){ 0 };
	for (size_t i = 0; i < r->nrows; i++) {
		struct row *w = &r->rows[i];

		if (is_ok(w) && !strcmp(w->f[COL_BENCH], bench) && strcmp(w->f[COL_POLICY], "-") &&
		    is_fill(w->f[COL_SCENARIO]) == want_fill)
			sl_add(out, w->f[col]);
	}
	if (col == COL_PAGESIZE)
		sl_sort_known(out, vocab_pagesize_names);
	if (col == COL_SCENARIO)
		sl_sort_known(out, vocab_scenario_names);
}

/*
 * The condition the headline table quotes: the first scenario of scen_pref,
 * then page sizes in order, for which some policy has `metric`; else the
 * first condition with it at all.
 */
static bool pick_condition(struct run *r, const char *bench, const char *metric,
			   const char *const *scen_pref, const char **ps, const char **sc)
{
	struct strlist pss;
	bool found = false;

	distinct(r, bench, COL_PAGESIZE, false, &pss);
	for (int s = 0; scen_pref[s] && !found; s++)
		for (size_t p = 0; p < pss.n && !found; p++)
			for (size_t i = 0; i < r->nrows && !found; i++) {
				struct row *w = &r->rows[i];

				if (is_ok(w) && !strcmp(w->f[COL_BENCH], bench) &&
				    !strcmp(w->f[COL_METRIC], metric) &&
				    !strcmp(w->f[COL_PAGESIZE], pss.v[p]) &&
				    !strcmp(w->f[COL_SCENARIO], scen_pref[s])) {
					*ps = pss.v[p];
					*sc = w->f[COL_SCENARIO];
					found = true;
				}
			}
	for (size_t i = 0; i < r->nrows && !found; i++) {
		struct row *w = &r->rows[i];

		if (is_ok(w) && !strcmp(w->f[COL_BENCH], bench) && !strcmp(w->f[COL_METRIC], metric) &&
		    !is_fill(w->f[COL_SCENARIO])) {
			*ps = w->f[COL_PAGESIZE];
			*sc = w->f[COL_SCENARIO];
			found = true;
		}
	}
	sl_free(&pss);
	return found;
}

double frac_of(const struct row *w)
{
	if (!w || !w->numeric)
		return NAN;
	if (!strcmp(w->f[COL_UNIT], "%") || !strcmp(w->f[COL_UNIT], "percent"))
		return w->num / 100.0;
	return w->num;
}

double numval(const struct row *w)
{
	return w && w->numeric ? w->num : NAN;
}

/* The outcome row of one case, marking it used; NULL when none. */
const char *run_case_outcome(struct run *r, const char *bench, const char *policy,
				const char *nodes, const char *ps, const char *sc)
{
	for (size_t i = 0; i < r->nrows; i++) {
		struct row *w = &r->rows[i];
		const char *o = row_outcome(w);

		if (o && is_ok(w) && !strcmp(w->f[COL_BENCH], bench) &&
		    !strcmp(w->f[COL_POLICY], policy) && !strcmp(w->f[COL_NODES], nodes) &&
		    !strcmp(w->f[COL_PAGESIZE], ps) && !strcmp(w->f[COL_SCENARIO], sc)) {
			w->used = true;
			return o;
		}
	}
	return NULL;
}

void lat_cell_get(struct run *r, const char *bench, const char *policy, const char *nodes,
		  const char *ps, const char *sc, struct lat_cell *c)
{
	const struct row *p50 = run_find(r, bench, policy, nodes, ps, sc, M_P50);
	const struct over_boots *o = p50 && p50->numeric ? p50->over : NULL;

	c->p50_row = o ? p50 : NULL;
	c->p50 = numval(p50);
	c->p99 = numval(run_find(r, bench, policy, nodes, ps, sc, M_P99));
	c->lo = o ? o->lo : NAN;
	c->hi = o ? o->hi : NAN;
	c->cov = o ? o->cov : NAN;
	c->boots = o ? (double)o->n : NAN;
	c->count = numval(run_find(r, bench, policy, nodes, ps, sc, M_COUNT));
	c->outcome = run_case_outcome(r, bench, policy, nodes, ps, sc);
	c->mib_before = numval(run_find(r, bench, policy, nodes, ps, sc, "mib_before_outcome"));
}

void interval_words(double cov, double boots, struct sbuf *b)
{
	char c[32], n[32];

	fmt_num(n, sizeof(n), boots);
	fmt_num(c, sizeof(c), 100 * cov);
	if (isnan(boots)) {
		sb_puts(b, "interval of the median over boots");
		return;
	}
	if (boots == 1) {
		sb_puts(b, "one boot: no interval over boots");
		return;
	}
	if (!isnan(cov) && cov >= 0.95) {
		sb_printf(b, "%s%% interval of the median over %s boots (order statistics)", c, n);
		return;
	}
	sb_printf(b, "range of %s boots", n);
	if (!isnan(cov))
		sb_printf(b, ", coverage %s%%", c);
}

double aa_spread(struct run *r, const char *ps, const char *sc)
{
	double spread = NAN;

	for (size_t i = 0; i < r->nrows; i++) {
		struct row *w = &r->rows[i];

		if (!is_ok(w) || strcmp(w->f[COL_BENCH], "latency_aa") || strcmp(w->f[COL_METRIC], M_P50) ||
		    strcmp(w->f[COL_PAGESIZE], ps) || strcmp(w->f[COL_SCENARIO], sc) || !w->over)
			continue;
		struct row *base = run_find(r, "latency", w->f[COL_POLICY], w->f[COL_NODES], ps, sc,
					    M_P50);
		size_t n = w->over->n;
		double *va = xcalloc(n, sizeof(double)), *vb = xcalloc(n, sizeof(double));

		w->used = true;
		n = over_pair(base, w, va, vb);
		for (size_t k = 0; k < n; k++)
			if (isnan(spread) || fabs(vb[k] - va[k]) > spread)
				spread = fabs(vb[k] - va[k]);
		free(va);
		free(vb);
	}
	return spread;
}

static bool is_latency_bench(const char *bench)
{
	return !strcmp(bench, "latency") || !strcmp(bench, "latency_task") ||
	       !strcmp(bench, "latency_aa");
}

double icount_floor(struct run *r, const char *ps, const char *sc)
{
	double floor = aa_spread(r, ps, sc);

	if (isnan(floor))
		return floor;
	for (size_t i = 0; i < r->nrows; i++) {
		const struct row *w = &r->rows[i];
		double lo = INFINITY, hi = -INFINITY;

		if (!is_ok(w) || !is_latency_bench(w->f[COL_BENCH]) || strcmp(w->f[COL_METRIC], M_P50) ||
		    strcmp(w->f[COL_PAGESIZE], ps) || strcmp(w->f[COL_SCENARIO], sc) || !w->over ||
		    !w->over->v)
			continue;
		for (size_t k = 0; k < w->over->n; k++) {
			lo = fmin(lo, w->over->v[k]);
			hi = fmax(hi, w->over->v[k]);
		}
		if (w->over->n >= 2 && hi - lo > floor)
			floor = hi - lo;
	}
	return floor;
}

struct verdict lat_verdict(struct run *r, const struct lat_cell *a, const struct lat_cell *b,
			   const char *ps, const char *sc)
{
	struct verdict v = { VERDICT_NONE, NAN, NAN, NAN, 0, false, NAN, NAN, 0 };
	size_t n;

	if (!a->p50_row || !b->p50_row)
		return v;
	n = a->p50_row->over->n;
	double *va = xcalloc(n, sizeof(double)), *vb = xcalloc(n, sizeof(double));

	n = over_pair(a->p50_row, b->p50_row, va, vb);
	struct verdict_in in = { va, vb, n, n, true, !strcmp(run_time_unit(r), "insn"),
				 icount_floor(r, ps, sc) };

	v = verdict_decide(&in);
	free(va);
	free(vb);
	return v;
}

void verdict_why(const struct verdict *v, size_t boots, const char *unit, struct sbuf *b)
{
	char lo[32], hi[32], c[32], d[32];

	/* the size of the difference, whichever way it goes */
	fmt_num(lo, sizeof(lo), v->diff < 0 ? -v->hi : v->lo);
	fmt_num(hi, sizeof(hi), v->diff < 0 ? -v->lo : v->hi);
	fmt_num(c, sizeof(c), 100 * v->coverage);
	fmt_num(d, sizeof(d), fabs(v->diff));
	if (v->kind == VERDICT_HIGHER || v->kind == VERDICT_LOWER) {
		if (v->by_aa)
			sb_printf(b, "by %s %s (median over boots; every boot the same way), at least "
				     "the spread between identical cases (icount)", d, unit);
		else
			sb_printf(b, "by %s %s, %s%% interval over boots [%s, %s]", d, unit, c, lo, hi);
	} else if (v->kind == VERDICT_SAME) {
		sb_printf(b, "not distinguishable with %zu boot%s", boots, boots == 1 ? "" : "s");
		if (v->boots_needed > VERDICT_MAX_BOOTS)
			sb_printf(b, "; more than %d boots would be needed", VERDICT_MAX_BOOTS);
		else if (v->boots_needed)
			sb_printf(b, "; run --boots %zu", v->boots_needed);
		else if (v->dmin == 0 && v->dmax == 0)
			sb_puts(b, ": the same in every boot");
		else
			sb_puts(b, ": the median difference over boots is 0");
	}
}

struct fill_pt {
	double x, frac;
};

static int cmp_fill(const void *a, const void *b)
{
	double x = ((const struct fill_pt *)a)->x, y = ((const struct fill_pt *)b)->x;

	return x < y ? -1 : x > y;
}

/* The fill curve of one entry: steps sorted by x; returns how many. */
static size_t fill_points(struct run *r, const struct entry *en, const char *ps,
			  struct fill_pt **out)
{
	struct fill_pt *v = NULL;
	size_t n = 0;

	for (size_t i = 0; i < r->nrows; i++) {
		struct row *w = &r->rows[i];
		const char *xs = w->f[COL_SCENARIO] + strlen(FILL_PREFIX);
		char *end;

		if (!is_ok(w) || strcmp(w->f[COL_BENCH], "fallback") || !is_fill(w->f[COL_SCENARIO]) ||
		    strcmp(w->f[COL_METRIC], M_FILL) || strcmp(w->f[COL_POLICY], en->policy) ||
		    strcmp(w->f[COL_NODES], en->nodes) || (ps && strcmp(w->f[COL_PAGESIZE], ps)) ||
		    !w->numeric)
			continue;
		double x = strtod(xs, &end);

		if (end == xs || *end || !isfinite(x))
			continue;
		w->used = true;
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n++] = (struct fill_pt){ x, frac_of(w) };
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_fill);
	*out = v;
	return n;
}

void compute_headline(struct run *r, const struct entries *e, struct headline *h)
{
	static const char *const lat_pref[] = { "free", "full", "pressure", NULL };
	static const char *const fb_pref[] = { "full", "pressure", "free", NULL };

	*h = (struct headline){ 0 };
	h->lines = xcalloc(e->n, sizeof(*h->lines));
	h->have_lat = pick_condition(r, "latency", M_P50, lat_pref, &h->lat_ps, &h->lat_sc) ||
		      pick_condition(r, "latency_task", M_P50, lat_pref, &h->lat_ps, &h->lat_sc);
	h->have_fb = pick_condition(r, "fallback", M_PREF, fb_pref, &h->fb_ps, &h->fb_sc);
	for (size_t i = 0; i < e->n; i++) {
		struct headline_line *l = &h->lines[i];
		const char *p = e->v[i].policy, *n = e->v[i].nodes;
		struct fill_pt *pts;
		size_t np;

		for (int b = 0; b < NR_LAT_BENCHES; b++) {
			if (h->have_lat)
				lat_cell_get(r, lat_benches[b].bench, p, n, h->lat_ps, h->lat_sc, &l->lat[b]);
			else
				l->lat[b] = (struct lat_cell){ NAN, NAN, NAN, NAN, NAN, NAN, NAN, NULL,
							       NULL, NAN };
		}
		l->pref = h->have_fb ? frac_of(run_find(r, "fallback", p, n, h->fb_ps, h->fb_sc, M_PREF))
				     : NAN;
		/* the fill curve: MiB that landed on the preferred nodes, where it first fell back */
		l->fill_mib = l->fill_first = l->fill_last = l->fill_outcome_mib = NAN;
		l->fill_before = 0;
		np = fill_points(r, &e->v[i], NULL, &pts);
		if (np) {
			double prev = 0, sum = 0;

			h->have_fill = true;
			for (size_t k = 0; k < np; k++) {
				double step = pts[k].x - prev;

				if (step > h->fill_step)
					h->fill_step = step;
				if (!isnan(pts[k].frac))
					sum += pts[k].frac * step;
				if (isnan(l->fill_first) && pts[k].frac < 0.99) {
					l->fill_first = pts[k].x;
					l->fill_before = prev;
				}
				prev = pts[k].x;
			}
			l->fill_mib = sum;
			l->fill_last = prev;
			l->fill_outcome = run_case_outcome(r, "fallback", p, n, "4k", "fill");
			for (size_t k = 0; !l->fill_outcome && k < r->nrows; k++) {
				struct row *w = &r->rows[k];

				if (is_ok(w) && !strcmp(w->f[COL_BENCH], "fallback") &&
				    !strcmp(w->f[COL_SCENARIO], "fill") && !strcmp(w->f[COL_POLICY], p) &&
				    !strcmp(w->f[COL_NODES], n) && row_outcome(w)) {
					w->used = true;
					l->fill_outcome = row_outcome(w);
				}
			}
			l->fill_outcome_mib = numval(run_find(r, "fallback", p, n, NULL, "fill",
							      "mib_before_outcome"));
		}
		free(pts);
		/* an older run's model_read_bandwidth_mbps (an arithmetic mean) is not shown */
		l->free_lat = numval(model_free_row(r, p, n, "model_read_latency_ns"));
		l->free_bw = numval(model_free_row(r, p, n, "model_read_bandwidth_serial_mbps"));
		l->free_bw_bound = numval(model_free_row(r, p, n,
							 "model_read_bandwidth_parallel_bound_mbps"));
		fill_model_get(r, &e->v[i], &l->fm, NULL);
		h->have_fill_nodes |= !isnan(l->fm.mib);
		l->model_after_fill = !isnan(l->fm.lat) || !isnan(l->fm.bw);
		h->have_fill_model |= l->model_after_fill;
		l->model_lat = l->model_after_fill ? l->fm.lat : l->free_lat;
		l->model_bw = l->model_after_fill ? l->fm.bw : l->free_bw;
		l->model_bw_bound = l->model_after_fill ? l->fm.bw_bound : l->free_bw_bound;
		for (size_t k = 0; k < r->nrows; k++) {
			struct row *w = &r->rows[k];
			const char *o = row_outcome(w);

			if (!o || !is_ok(w) || strcmp(w->f[COL_BENCH], "oom") || strcmp(w->f[COL_POLICY], p) ||
			    strcmp(w->f[COL_NODES], n))
				continue;
			w->used = true;
			/* the machine's, not the policy's: it decides nothing */
			if (oom_case_unrunnable(r, w->f[COL_PAGESIZE], w->f[COL_SCENARIO]))
				continue;
			l->oom_tests++;
			if (!strcmp(o, "completed"))
				l->oom_done++;
			if (outcome_is_bad(o))
				l->oom_bad++;
			if (!l->oom_worst || oom_outcome_rank(o) > oom_outcome_rank(l->oom_worst))
				l->oom_worst = o;
		}
	}
}

void headline_free(struct headline *h)
{
	free(h->lines);
	*h = (struct headline){ 0 };
}

/* Per OOM case of one entry: "4k oom_killed at 885 of 1257 MiB (memory-policy constraint)". */
void oom_summary(struct run *r, const struct entry *en, struct sbuf *b)
{
	size_t total = 0;

	for (size_t k = 0; k < r->nrows; k++) {
		struct row *w = &r->rows[k];
		const char *o = row_outcome(w);
		const char *ps = w->f[COL_PAGESIZE], *sc = w->f[COL_SCENARIO];
		char got[32], asked[32];

		if (!o || !is_ok(w) || strcmp(w->f[COL_BENCH], "oom") ||
		    strcmp(w->f[COL_POLICY], en->policy) || strcmp(w->f[COL_NODES], en->nodes))
			continue;
		w->used = true;
		sb_puts(b, total++ ? "; " : "");
		sb_puts(b, ps);
		if (strcmp(sc, "-"))
			sb_printf(b, "/%s", sc);
		sb_printf(b, " %s", o);
		if (strcmp(o, "completed")) {
			double mib = numval(run_find(r, "oom", en->policy, en->nodes, ps, sc, "mib_obtained"));
			double ask = numval(run_find(r, "oom", en->policy, en->nodes, ps, sc, "asked"));

			if (isnan(mib))
				mib = numval(run_find(r, "oom", en->policy, en->nodes, ps, sc,
						      "mib_before_outcome"));
			fmt_num(got, sizeof(got), mib);
			fmt_num(asked, sizeof(asked), ask);
			if (!isnan(mib))
				sb_printf(b, isnan(ask) ? " at %s MiB" : " at %s of %s MiB", got, asked);
			if (numval(run_find(r, "oom", en->policy, en->nodes, ps, sc,
					    "oom_constraint_memory_policy")) == 1)
				sb_puts(b, " (memory-policy constraint)");
		}
		run_find(r, "oom", en->policy, en->nodes, ps, sc, "secs_to_outcome");
	}
	if (!total)
		sb_puts(b, "not measured");
}

void fill_summary(const struct headline *h, const struct headline_line *l, struct sbuf *b)
{
	char a[32], c[32];

	(void)h;
	if (isnan(l->fill_mib)) {
		sb_puts(b, "not measured");
		return;
	}
	fmt_num(c, sizeof(c), l->fill_mib);
	if (isnan(l->fill_first)) {
		fmt_num(a, sizeof(a), l->fill_last);
		sb_printf(b, "never fell back (%s MiB there)", c);
	} else if (l->fill_before <= 0) {
		sb_printf(b, "elsewhere from the first step (%s MiB there in all)", c);
	} else {
		fmt_num(a, sizeof(a), l->fill_before);
		sb_printf(b, "all there until %s MiB (%s MiB there in all)", a, c);
	}
	if (l->fill_outcome && strcmp(l->fill_outcome, "completed")) {
		fmt_num(a, sizeof(a), l->fill_outcome_mib);
		sb_printf(b, "; %s", l->fill_outcome);
		if (!isnan(l->fill_outcome_mib))
			sb_printf(b, " at %s MiB", a);
	}
}

/*
 * The steps (boot, TAP group) whose every check skipped: nothing was checked
 * there, which is not a pass.  "boot 1 fallback-order-pmem (3 skipped:
 * needs 3 memory nodes)", the first skip's reason; returns how many.
 */
size_t all_skipped_steps(const struct run *r, struct sbuf *b)
{
	size_t n = 0;

	for (size_t i = 0; i < r->ntaps; i++) {
		const struct tap *t = &r->taps[i];
		const char *g = t->group ? t->group : "";
		size_t skips = 0;
		bool first = true, checked = false;

		for (size_t j = 0; j < r->ntaps; j++) {
			const struct tap *u = &r->taps[j];

			if (strcmp(u->boot, t->boot) || strcmp(u->group ? u->group : "", g))
				continue;
			if (j < i)
				first = false;
			if (!strncmp(u->directive, "SKIP", 4))
				skips++;
			else
				checked = true;
		}
		if (!first || checked || !skips)
			continue;
		sb_printf(b, "%sboot %s %s (%zu skipped: %s)", n++ ? "; " : "", t->boot,
			  g[0] ? g : "(no step)", skips,
			  t->directive[4] == ' ' ? t->directive + 5 : "no reason given");
	}
	return n;
}

/*
 * "node 1", "no other node", or "node 1 in 2 boots, node 3 in 1": a node id
 * is a word, not a quantity, so never the median over boots; NULL without a
 * row.  @same: every boot gave the same node (then *@node is it).
 */
char *node_word(const struct row *w, bool *same, double *node)
{
	const struct over_boots *o = w ? w->over : NULL;
	struct sbuf b = { 0 };
	size_t n = o && o->v ? o->n : 0;

	*same = false;
	*node = NAN;
	if (!w)
		return NULL;
	if (!n) {
		*same = !isnan(numval(w));
		*node = numval(w);
	} else {
		*same = true;
		*node = o->v[0];
		for (size_t i = 1; i < n; i++)
			*same &= o->v[i] == o->v[0];
	}
	if (*same)
		return *node < 0 ? xstrdup("no other node") : xasprintf("node %.0f", *node);
	for (size_t i = 0; i < n; i++) {
		size_t k = 0, first = i;

		for (size_t j = 0; j < i && first == i; j++)
			if (o->v[j] == o->v[i])
				first = j;
		if (first != i)
			continue;
		for (size_t j = 0; j < n; j++)
			k += o->v[j] == o->v[i];
		sb_printf(&b, "%s%s %.0f in %zu boot%s", b.s ? ", " : "",
			  o->v[i] < 0 ? "none" : "node", o->v[i] < 0 ? 0.0 : o->v[i], k,
			  k == 1 ? "" : "s");
	}
	return b.s;
}

/*
 * Bench single-node (fallback-order): per one-node preferred set, where
 * PREFERRED's and PREFERRED_MANY's overflow went from the same CPU, one
 * sentence each, computed from the rows: "Preferring pmem:3 alone from CPU
 * 0 (node 0): preferred's overflow went to node 1, preferred-many's to node
 * 0 — not the same request on this machine."  Returns how many sets.
 */
size_t single_node_summary(struct run *r, struct sbuf *b)
{
	struct strlist sets = { 0 };
	size_t n = 0;

	for (size_t i = 0; i < r->nrows; i++)
		if (is_ok(&r->rows[i]) && !strcmp(r->rows[i].f[COL_BENCH], "single-node"))
			sl_add(&sets, r->rows[i].f[COL_NODES]);
	for (size_t s = 0; s < sets.n; s++) {
		const char *set = sets.v[s];
		const char *op = run_case_outcome(r, "single-node", "preferred", set, "4k", "full");
		const char *om = run_case_outcome(r, "single-node", "preferred-many", set, "4k", "full");
		struct row *wp = run_find(r, "single-node", "preferred", set, "4k", "full",
					  "fallback_node");
		struct row *wm = run_find(r, "single-node", "preferred-many", set, "4k", "full",
					  "fallback_node");
		double cpu = numval(run_find(r, "single-node", NULL, set, "4k", "full", "cpu"));
		double cnode = numval(run_find(r, "single-node", NULL, set, "4k", "full", "cpu_node"));
		char *tp, *tm;
		bool sp, sm;
		double np, nm;

		if (!op && !om)
			continue;
		sb_printf(b, "%sPreferring %s alone", n++ ? "\n" : "", set);
		if (!isnan(cpu) && !isnan(cnode))
			sb_printf(b, " from CPU %.0f (node %.0f)", cpu, cnode);
		if (!op || !om || strcmp(op, "completed") || strcmp(om, "completed")) {
			sb_printf(b, ": preferred %s, preferred-many %s — the overflow nodes cannot "
				     "be compared.", op ? op : "did not run", om ? om : "did not run");
			continue;
		}
		tp = node_word(wp, &sp, &np);
		tm = node_word(wm, &sm, &nm);
		if (!tp || !tm)
			sb_puts(b, ": a fallback node is missing from the rows.");
		else if (!sp || !sm)
			sb_printf(b, ": the overflow went to different nodes from boot to boot "
				     "(preferred: %s; preferred-many: %s) — run more boots before "
				     "calling them the same or not.", tp, tm);
		else if (!strcmp(tp, tm))
			sb_printf(b, ": the overflow of preferred and of preferred-many both went to "
				     "%s — the same on this machine.", tp);
		else
			sb_printf(b, ": preferred's overflow went to %s, preferred-many's to %s — not "
				     "the same request on this machine.", tp, tm);
		if (tp && tm && sp && sm) {
			double ep = numval(run_find(r, "single-node", "preferred", set, "4k", "full",
						    "expected_node"));
			double em = numval(run_find(r, "single-node", "preferred-many", set, "4k",
						    "full", "expected_node"));

			if (ep == np && em == nm)
				sb_puts(b, " Each went where the SLIT says: preferred to the node "
					   "nearest the preferred node, preferred-many to the node nearest "
					   "the CPU.");
			else if (!isnan(ep) && !isnan(em))
				sb_printf(b, " The SLIT puts node %.0f nearest to the preferred node and "
					     "node %.0f nearest to the CPU's node.", ep, em);
		}
		free(tp);
		free(tm);
	}
	sl_free(&sets);
	return n;
}

/*
 * An OOM case (page size, scenario) that no policy could set up: every
 * policy with OOM rows in the run has this case, and every row of it is
 * setup_error (e.g. THP unavailable in this guest).  A case that some
 * policy did not try is not the machine's to excuse.
 */
static bool is_oom_row(struct row *w)
{
	return row_outcome(w) && is_ok(w) && !strcmp(w->f[COL_BENCH], "oom");
}

static bool oom_case_tried(struct run *r, const char *pol, const char *nodes, const char *ps,
			   const char *sc)
{
	for (size_t k = 0; k < r->nrows; k++) {
		struct row *w = &r->rows[k];

		if (is_oom_row(w) && !strcmp(w->f[COL_POLICY], pol) &&
		    !strcmp(w->f[COL_NODES], nodes) && !strcmp(w->f[COL_PAGESIZE], ps) &&
		    !strcmp(w->f[COL_SCENARIO], sc))
			return true;
	}
	return false;
}

bool oom_case_unrunnable(struct run *r, const char *ps, const char *sc)
{
	size_t n = 0;

	for (size_t k = 0; k < r->nrows; k++) {
		struct row *w = &r->rows[k];

		if (!is_oom_row(w))
			continue;
		if (!oom_case_tried(r, w->f[COL_POLICY], w->f[COL_NODES], ps, sc))
			return false;
		if (strcmp(w->f[COL_PAGESIZE], ps) || strcmp(w->f[COL_SCENARIO], sc))
			continue;
		if (strcmp(row_outcome(w), "setup_error"))
			return false;
		n++;
	}
	return n > 0;
}

/* "thp, 2m (scenario full)": each OOM case no policy could set up; nothing if none */
void unrunnable_oom_cases(struct run *r, struct sbuf *b)
{
	size_t n = 0;

	for (size_t k = 0; k < r->nrows; k++) {
		struct row *w = &r->rows[k];
		bool seen = false;

		if (!is_oom_row(w) || !oom_case_unrunnable(r, w->f[COL_PAGESIZE], w->f[COL_SCENARIO]))
			continue;
		for (size_t j = 0; j < k && !seen; j++) {
			struct row *v = &r->rows[j];

			seen = is_oom_row(v) && !strcmp(v->f[COL_PAGESIZE], w->f[COL_PAGESIZE]) &&
			       !strcmp(v->f[COL_SCENARIO], w->f[COL_SCENARIO]);
		}
		if (seen)
			continue;
		sb_printf(b, "%s%s", n++ ? ", " : "", w->f[COL_PAGESIZE]);
		if (strcmp(w->f[COL_SCENARIO], "-"))
			sb_printf(b, " (scenario %s)", w->f[COL_SCENARIO]);
	}
}

/*
 * A policy survived the OOM test only when its OOM cases ran and every one
 * completed: a setup_error, an EFAULT or no OOM row at all is no survival.
 * Without any OOM row in the run, OOM behaviour was not measured and does
 * not decide.
 */
bool oom_survivor(const struct headline_line *l, bool any_oom)
{
	if (!any_oom)
		return true;
	return l->oom_tests > 0 && l->oom_done == l->oom_tests;
}

/* ---- figures ---- */

struct plotctx {
	struct run *r;
	const struct entries *e;
	const struct headline *h;
	const char *scripts, *tmpdir, *title_suffix;
	bool no_plots;
	bool secondary;	/* the figure being made is folded away in the report */
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
		/* every script labels its time axis with this (ns when unset) */
		char *unit = xasprintf("timeunit=\"%s\"", time_unit_words(run_time_unit(c->r)));
		char *argv[18] = { "gnuplot", "-e", unit, "-c", scr, dat, out, title };
		int n = 8;
		char *log = xasprintf("%s/data/%s.log", c->tmpdir, name);

		for (int i = 0; extra && extra[i] && n < 17; i++)
			argv[n++] = (char *)extra[i];
		argv[n] = NULL;
		if (run_gnuplot(argv, log, "labtool") < 0) {
			free(log);
			free(unit);
			goto out;
		}
		free(log);
		free(unit);
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
	f->v[f->n++] = (struct figure){ name, xstrdup(kind), xstrdup(caption), title, c->secondary };
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

static const char *const pct_metric[] = { "p50", "p90", "p99", "p99_9", "max", NULL };
static const char *const pct_label[] = { "p50", "p90", "p99", "p99.9", "max", NULL };

/* Slug of a latency bench: "latency" and "latency-task" */
static const char *lat_slug(int b)
{
	return b ? "latency-task" : "latency";
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The CDF of one case from its HIST lines, pooled over repetitions: one
 * block per policy, "ns fraction-at-or-below(%)" at each bucket's lower
 * bound.  Returns the number of blocks.
 */
static size_t cdf_data(struct plotctx *c, const char *bench, const char *ps, const char *sc,
		       struct sbuf *d)
{
	size_t blocks = 0;

	sb_printf(d, "# fault-latency CDF per policy from boots/*.hist, bench %s, %s pages, "
		     "scenario %s: %s, %% of faults in buckets up to this lower bound\n", bench, ps, sc,
		  run_time_unit(c->r));
	for (size_t i = 0; i < c->e->n; i++) {
		double *lo = NULL, *cnt = NULL, total = 0, cum = 0;
		size_t n = 0, reps = 0;

		for (size_t k = 0; k < c->r->nhists; k++) {
			const struct hist *h = &c->r->hists[k];

			if (strcmp(h->bench, bench) || strcmp(h->policy, c->e->v[i].policy) ||
			    strcmp(h->nodes, c->e->v[i].nodes) || strcmp(h->pagesize, ps) ||
			    strcmp(h->scenario, sc))
				continue;
			reps++;
			for (size_t j = 0; j < h->nb; j++) {
				size_t q;

				for (q = 0; q < n; q++)
					if (lo[q] == h->lo[j])
						break;
				if (q == n) {
					lo = xrealloc(lo, (n + 1) * sizeof(*lo));
					cnt = xrealloc(cnt, (n + 1) * sizeof(*cnt));
					lo[n] = h->lo[j];
					cnt[n++] = 0;
				}
				cnt[q] += h->count[j];
				total += h->count[j];
			}
		}
		if (n && total > 0) {
			/* sort the buckets by lower bound, counts along */
			double *pairs = xcalloc(2 * n, sizeof(double));

			for (size_t q = 0; q < n; q++) {
				pairs[2 * q] = lo[q];
				pairs[2 * q + 1] = cnt[q];
			}
			qsort(pairs, n, 2 * sizeof(double), cmp_double);
			if (blocks)
				sb_puts(d, "\n\n");
			char *t = xasprintf("%s (%zu rep%s, %.0f faults)", c->e->v[i].label, reps,
					    reps == 1 ? "" : "s", total);

			dat_str(d, t);
			dat_str(d, "");
			sb_putc(d, '\n');
			free(t);
			for (size_t q = 0; q < n; q++) {
				cum += pairs[2 * q + 1];
				dat_num(d, pairs[2 * q]);
				dat_num(d, 100 * cum / total);
				sb_putc(d, '\n');
			}
			free(pairs);
			blocks++;
		}
		free(lo);
		free(cnt);
	}
	return blocks;
}

static int fig_latency_case(struct plotctx *c, int b, const char *ps, const char *sc)
{
	const char *bench = lat_benches[b].bench, *via = lat_benches[b].via;
	struct sbuf d = { 0 }, ci = { 0 }, cdf = { 0 };
	bool *has = xcalloc(c->e->n, sizeof(bool));
	size_t ncols = 0, nci = 0, ncdf;
	int rc = 0;

	for (size_t i = 0; i < c->e->n; i++)
		for (int k = 0; pct_metric[k]; k++)
			if (run_find(c->r, bench, c->e->v[i].policy, c->e->v[i].nodes, ps, sc,
				     pct_metric[k]))
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
			double v = numval(run_find(c->r, bench, c->e->v[i].policy, c->e->v[i].nodes, ps,
						   sc, pct_metric[k]));

			dat_num(&d, v > 0 ? v : NAN);
		}
		sb_putc(&d, '\n');
	}
	/* median with the interval of the per-repetition medians, one line per policy */
	double cov = NAN, boots = NAN;

	size_t maxboots = 0;

	sb_puts(&ci, "# policy p50 lo hi v1..vN: the median over boots, its interval over boots, "
		     "each boot's p50 (boot order)\n");
	for (size_t i = 0; i < c->e->n; i++) {
		struct lat_cell lc;

		lat_cell_get(c->r, bench, c->e->v[i].policy, c->e->v[i].nodes, ps, sc, &lc);
		if (isnan(lc.p50))
			continue;
		dat_str(&ci, c->e->v[i].label);
		dat_num(&ci, lc.p50);
		dat_num(&ci, lc.boots > 1 ? lc.lo : NAN);
		dat_num(&ci, lc.boots > 1 ? lc.hi : NAN);
		if (lc.p50_row) {
			const struct over_boots *o = lc.p50_row->over;

			for (size_t k = 0; k < o->n; k++)
				dat_num(&ci, o->v[k]);
			if (o->n > maxboots)
				maxboots = o->n;
		}
		sb_putc(&ci, '\n');
		if (!isnan(lc.cov) && (isnan(cov) || lc.cov < cov))
			cov = lc.cov;
		if (!isnan(lc.boots) && (isnan(boots) || lc.boots < boots))
			boots = lc.boots;
		nci++;
	}
	ncdf = cdf_data(c, bench, ps, sc, &cdf);
	if (ncdf) {
		char *name = xasprintf("%s-cdf-%s-%s", lat_slug(b), ps, sc);
		char *what = xasprintf("Fault-latency CDF, %s pages, scenario %s, policy via %s", ps, sc,
				       via);
		char *cap = xasprintf("Distribution of first-touch fault latency per policy (%s pages, "
				      "scenario %s, policy set with %s), pooled over the repetitions "
				      "from the raw histograms (boots/*.hist); log x axis. A curve "
				      "further left is faster; the top of each curve is the tail.",
				      ps, sc, via);
		char nb[24];
		const char *extra[] = { nb, NULL };

		snprintf(nb, sizeof(nb), "%zu", ncdf);
		rc = make_figure(c, "latency-cdf", name, what, cap, "latency_cdf.gp", &cdf, extra);
		free(name);
		free(what);
		free(cap);
	}
	if (ncols && !rc) {
		char *name = xasprintf("%s-%s-%s", lat_slug(b), ps, sc);
		char *what = xasprintf("Fault-latency percentiles, %s pages, scenario %s, policy via %s",
				       ps, sc, via);
		char *cap = xasprintf("Page-fault latency percentiles per policy (%s pages, scenario %s, "
				      "policy set with %s), pooled over the repetitions; log scale.",
				      ps, sc, via);
		char nc[24];
		const char *extra[] = { nc, NULL };

		snprintf(nc, sizeof(nc), "%zu", ncols);
		rc = make_figure(c, "latency", name, what, cap, "latency.gp", &d, extra);
		free(name);
		free(what);
		free(cap);
	}
	if (nci && !rc) {
		struct sbuf iw = { 0 };

		interval_words(cov, boots, &iw);
		char *name = xasprintf("%s-median-%s-%s", lat_slug(b), ps, sc);
		char *what = xasprintf("Median fault latency, %s pages, scenario %s, policy via %s", ps,
				       sc, via);
		char *cap = xasprintf("Median over boots of each boot's page-fault p50 per policy (%s "
				      "pages, scenario %s, policy set with %s), the bar its interval "
				      "(%s), the open circles each boot's own p50. A difference is "
				      "claimed only by the rule in the recommendation, never from "
				      "the bars alone.", ps, sc, via, iw.s);
		char *key = xasprintf("median over boots, bars: %s", iw.s);
		char nb[24];
		const char *extra[] = { key, nb, NULL };

		snprintf(nb, sizeof(nb), "%zu", maxboots);

		rc = make_figure(c, "latency-median", name, what, cap, "latency_ci.gp", &ci, extra);
		free(name);
		free(what);
		free(cap);
		free(key);
		sb_free(&iw);
	}
	free(has);
	sb_free(&d);
	sb_free(&ci);
	sb_free(&cdf);
	return rc;
}

/* Every latency condition; the headline's is shown, the others folded away. */
static int fig_latency(struct plotctx *c)
{
	int rc = 0;

	for (int b = 0; b < NR_LAT_BENCHES && !rc; b++) {
		struct strlist pss, scs;

		distinct(c->r, lat_benches[b].bench, COL_PAGESIZE, false, &pss);
		distinct(c->r, lat_benches[b].bench, COL_SCENARIO, false, &scs);
		for (int pass = 0; pass < 2 && !rc; pass++)
			for (size_t p = 0; p < pss.n && !rc; p++)
				for (size_t s = 0; s < scs.n && !rc; s++) {
					bool head = c->h->have_lat && !strcmp(pss.v[p], c->h->lat_ps) &&
						    !strcmp(scs.v[s], c->h->lat_sc);

					if (head != (pass == 0))
						continue;
					c->secondary = !head;
					rc = fig_latency_case(c, b, pss.v[p], scs.v[s]);
				}
		c->secondary = false;
		sl_free(&pss);
		sl_free(&scs);
	}
	return rc;
}

static int fig_fill(struct plotctx *c)
{
	struct strlist pss;
	int rc = 0;

	distinct(c->r, "fallback", COL_PAGESIZE, true, &pss);
	for (size_t p = 0; p < pss.n && !rc; p++) {
		struct fill_pt **pts = xcalloc(c->e->n, sizeof(*pts));
		size_t *np = xcalloc(c->e->n, sizeof(*np));
		double *xs = NULL;
		size_t nx = 0, ncols = 0;
		struct sbuf d = { 0 };

		for (size_t i = 0; i < c->e->n; i++) {
			np[i] = fill_points(c->r, &c->e->v[i], pss.v[p], &pts[i]);
			for (size_t k = 0; k < np[i]; k++) {
				size_t q;

				for (q = 0; q < nx; q++)
					if (xs[q] == pts[i][k].x)
						break;
				if (q == nx) {
					xs = xrealloc(xs, (nx + 1) * sizeof(*xs));
					xs[nx++] = pts[i][k].x;
				}
			}
		}
		if (nx)
			qsort(xs, nx, sizeof(*xs), cmp_double);
		dat_str(&d, "MiB");
		for (size_t i = 0; i < c->e->n; i++)
			if (np[i]) {
				const struct headline_line *l = &c->h->lines[i];
				char *t = l->fill_outcome && strcmp(l->fill_outcome, "completed")
						  ? xasprintf("%s (%s)", c->e->v[i].label, l->fill_outcome)
						  : xstrdup(c->e->v[i].label);

				dat_str(&d, t);
				free(t);
				ncols++;
			}
		sb_putc(&d, '\n');
		for (size_t k = 0; k < nx; k++) {
			dat_num(&d, xs[k]);
			for (size_t i = 0; i < c->e->n; i++) {
				double v = NAN;

				if (!np[i])
					continue;
				for (size_t q = 0; q < np[i]; q++)
					if (pts[i][q].x == xs[k])
						v = 100 * pts[i][q].frac;
				dat_num(&d, v);
			}
			sb_putc(&d, '\n');
		}
		if (ncols && nx) {
			char *name = xasprintf("fallback-fill-%s", pss.v[p]);
			char *what = xasprintf("Fallback fill curve, %s pages", pss.v[p]);
			char *cap = xasprintf("Share of each new step's pages that landed on the preferred "
					      "nodes as the benchmark keeps faulting memory (%s pages; "
					      "x = MiB allocated so far). A drop to 0 is the point where the "
					      "preferred nodes are full; a curve that ends early was killed "
					      "(named in the key).", pss.v[p]);
			char nc[24];
			const char *extra[] = { nc, NULL };

			snprintf(nc, sizeof(nc), "%zu", ncols);
			rc = make_figure(c, "fallback-fill", name, what, cap, "fallback_fill.gp", &d, extra);
			free(name);
			free(what);
			free(cap);
		}
		for (size_t i = 0; i < c->e->n; i++)
			free(pts[i]);
		free(pts);
		free(np);
		free(xs);
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
	if (nn)
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
			char *what = xasprintf("Fallback orders per task, %s pages", pss.v[p]);
			char *cap = xasprintf("Where pages land once the preferred nodes are full, per "
					      "fallback order: each a task of its own with the "
					      "order's mode flag on its policy (%s pages).", pss.v[p]);
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
	/* completed enomem efault error timeout sigsegv sigbus killed oom_killed other */
	static const unsigned long colours[OUTCOME_UNKNOWN_RANK + 1] = {
		0x81c784, 0xffd54f, 0xffd54f, 0xb39ddb, 0xb39ddb, 0xffb74d, 0xffb74d, 0xe57373,
		0xe57373, 0xbdbdbd,
	};

	return colours[oom_outcome_rank(word)];
}

/* The designed OOM test (bench oom): policy × page size × scenario. */
static int fig_oom(struct plotctx *c)
{
	struct strlist pss, scs;
	struct sbuf d = { 0 };
	size_t nx = 0, ny = 0, cells = 0;
	int rc = 0;

	distinct(c->r, "oom", COL_PAGESIZE, false, &pss);
	distinct(c->r, "oom", COL_SCENARIO, false, &scs);
	sb_puts(&d, "# x y colour(0xRRGGBB as decimal) label xtic ytic\n");
	for (size_t i = 0; i < c->e->n; i++) {
		const char *pol = c->e->v[i].policy, *nod = c->e->v[i].nodes;
		struct sbuf line = { 0 };
		bool row_has = false;

		nx = 0;
		for (size_t p = 0; p < pss.n; p++)
			for (size_t s = 0; s < scs.n; s++, nx++) {
				const char *o = run_case_outcome(c->r, "oom", pol, nod, pss.v[p], scs.v[s]);
				char *xt = strcmp(scs.v[s], "-") ? xasprintf("%s/%s", pss.v[p], scs.v[s])
								  : xstrdup(pss.v[p]);
				char *label = NULL;

				if (o) {
					double got = numval(run_find(c->r, "oom", pol, nod, pss.v[p], scs.v[s],
								     "mib_obtained"));
					double ask = numval(run_find(c->r, "oom", pol, nod, pss.v[p], scs.v[s],
								     "asked"));
					char g[32], a2[32];

					fmt_num(g, sizeof(g), got);
					fmt_num(a2, sizeof(a2), ask);
					label = isnan(got) ? xstrdup(o)
						: isnan(ask) ? xasprintf("%s, %s MiB", o, g)
							     : xasprintf("%s, %s/%s MiB", o, g, a2);
					run_find(c->r, "oom", pol, nod, pss.v[p], scs.v[s], "secs_to_outcome");
					row_has = true;
					cells++;
				}
				sb_printf(&line, "%zu %zu %lu ", nx, ny, o ? outcome_colour(o) : 0xffffffUL);
				dat_str(&line, label ? label : "");
				dat_str(&line, xt);
				dat_str(&line, c->e->v[i].label);
				sb_putc(&line, '\n');
				free(xt);
				free(label);
			}
		if (row_has) {
			sb_puts(&d, line.s);
			ny++;
		}
		sb_free(&line);
	}
	if (cells) {
		char sx[24], sy[24];
		const char *extra[] = { sx, sy, NULL };

		snprintf(sx, sizeof(sx), "%zu", nx);
		snprintf(sy, sizeof(sy), "%zu", ny);
		rc = make_figure(c, "oom", "oom-matrix", "OOM test outcome per policy and page size",
				 "How each allocation past the preferred nodes' capacity ended (bench "
				 "oom), per policy × page size, with the MiB obtained of the MiB asked "
				 "(green: completed; amber: ENOMEM/EFAULT; orange: SIGBUS/SIGSEGV; red: "
				 "killed or OOM-killed; purple: timeout or error).",
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
	bool have_lat = false, have_bw = false;
	/* gnuplot cannot draw a panel without one valid point: it says so instead */
	char sn[24];
	const char *extra[] = { sn, "1", "1", NULL };
	int rc = 0;

	sb_puts(&d, "# policy model_read_latency_ns model_read_bandwidth_serial_mbps "
		    "model_read_bandwidth_parallel_bound_mbps\n");
	for (size_t i = 0; i < c->e->n; i++) {
		const struct headline_line *l = &c->h->lines[i];

		if (isnan(l->model_lat) && isnan(l->model_bw) && isnan(l->model_bw_bound))
			continue;
		if (c->h->have_fill_model && !l->model_after_fill) {
			char *t = xasprintf("%s (free)", c->e->v[i].label);

			dat_str(&d, t);
			free(t);
		} else {
			dat_str(&d, c->e->v[i].label);
		}
		dat_num(&d, l->model_lat);
		dat_num(&d, l->model_bw);
		dat_num(&d, l->model_bw_bound);
		sb_putc(&d, '\n');
		have_lat |= !isnan(l->model_lat);
		have_bw |= !isnan(l->model_bw) || !isnan(l->model_bw_bound);
		n++;
	}
	snprintf(sn, sizeof(sn), "%zu", n);
	extra[1] = have_lat ? "1" : "0";
	extra[2] = have_bw ? "1" : "0";
	if (n && c->h->have_fill_model)
		rc = make_figure(c, "model", "model-cost",
				 "Modeled access cost after the fill (a model, from HMAT)",
				 "A model, not a measurement (QEMU does not make slow nodes slow): "
				 "the read latency and bandwidth of where each policy's pages went "
				 "over its fill curve, with the HMAT figures; \"(free)\": a policy "
				 "without such a curve, at bench model's own placement with nothing "
				 "full. Latency is the page-weighted mean (time per access adds up). "
				 "Bandwidth is the serial, time-weighted figure 1 / Σ(share_i / "
				 "bandwidth_i) of one stream touching the pages in turn (bars); the "
				 "marks are the parallel bound min_i(bandwidth_i / share_i), the most "
				 "every node's channel busy at once could give.",
				 "model.gp", &d, extra);
	else if (n)
		rc = make_figure(c, "model", "model-cost", "Modeled access cost (a model, from HMAT)",
				 "A model, not a measurement (QEMU does not make slow nodes slow): "
				 "the read latency and bandwidth of bench model's own placement of "
				 "each policy, with nothing full, with the HMAT figures. Latency is "
				 "the page-weighted mean (time per access adds up). Bandwidth is the "
				 "serial, time-weighted figure 1 / Σ(share_i / bandwidth_i) of one "
				 "stream touching the pages in turn (bars); the marks are the parallel "
				 "bound min_i(bandwidth_i / share_i), the most every node's channel "
				 "busy at once could give.",
				 "model.gp", &d, extra);
	sb_free(&d);
	return rc;
}

static int fig_workloads(struct plotctx *c)
{
	struct strlist benches = { 0 };
	int rc = 0;

	/* bench phase: a memory-timing phase no PHASE line labelled (the report says so) */
	for (size_t i = 0; i < c->r->nrows; i++)
		if (is_ok(&c->r->rows[i]) && !bench_is_micro(c->r->rows[i].f[COL_BENCH]) &&
		    strcmp(c->r->rows[i].f[COL_BENCH], "phase"))
			sl_add(&benches, c->r->rows[i].f[COL_BENCH]);
	for (size_t b = 0; b < benches.n && !rc; b++) {
		struct strlist metrics = { 0 };

		/* of the counted accesses, the cost and the misses' latency have figures */
		for (size_t i = 0; i < c->r->nrows; i++) {
			struct row *w = &c->r->rows[i];

			if (is_ok(w) && w->numeric && !strcmp(w->f[COL_BENCH], benches.v[b]) &&
			    !access_detail_metric(w->f[COL_METRIC]))
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

int make_figures(struct run *r, const struct entries *e, const struct headline *h,
		 const char *scripts, const char *tmpdir, const char *title_suffix, bool no_plots,
		 struct figures *figs)
{
	struct plotctx c = { r, e, h, scripts, tmpdir, title_suffix, no_plots, false, figs };

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
