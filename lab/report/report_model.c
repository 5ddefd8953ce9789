// SPDX-License-Identifier: GPL-2.0
/*
 * The cost model after the fill (#18 item 4).  Bench model prices only its
 * own case, with nothing full, where bind, preferred and preferred-many put
 * their pages in the same place; their placements differ once the preferred
 * nodes fill, and the fill curve measured where each step's pages went
 * (bench fallback, scenario fill@<MiB>, step_frac_node<N>).  So the report
 * prices that placement:
 *
 *   MiB on node N = sum over the steps of step_frac_node<N> * (x_k - x_k-1),
 *   x_k the step's <MiB> (the curve's MiB so far, x_0 = 0), to the curve's
 *   end: where a workload that grew as far as the curve would have its pages
 *   (4 KiB pages, as the curve faults them).
 *
 * The figures are the ones bench model printed (hmat_read_latency_node<N>,
 * hmat_read_bandwidth_node<N>: with --model-hmat, as the plan passes it, the
 * topology's figures from CPU 0's node; model_cache_read_*_node<N> and
 * model_cache_hit_frac_node<N> for a memory-side cache), the same node set's
 * step first, else any.  They are mixed by bench/costmodel.c, the guest's own
 * code: latency page-weighted, bandwidth serial (time-weighted) with its
 * parallel bound.  A model: QEMU does not make slow nodes slow.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "costmodel.h"
#include "report_int.h"

#define PAGES_PER_MIB 256.0	/* 4 KiB pages */

static const char step_frac_prefix[] = "step_frac_node";

/* "step_frac_node<N>" -> N; -1 for any other metric. */
static long step_frac_node(const char *metric)
{
	size_t len = sizeof(step_frac_prefix) - 1;
	const char *d = metric + len;
	char *end;
	long n;

	if (strncmp(metric, step_frac_prefix, len) || !isdigit((unsigned char)*d))
		return -1;
	n = strtol(d, &end, 10);
	return *end ? -1 : n;
}

struct fm_pt {
	double x, frac;
	long node;
	const struct row *w;
};

static int cmp_pt(const void *a, const void *b)
{
	const struct fm_pt *p = a, *q = b;

	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	return (p->node > q->node) - (p->node < q->node);
}

/* The entry's per-node shares of each 4 KiB fill step, by x; how many. */
static size_t fm_points(struct run *r, const struct entry *en, struct fm_pt **out)
{
	struct fm_pt *v = NULL;
	size_t n = 0;

	for (size_t i = 0; i < r->nrows; i++) {
		struct row *w = &r->rows[i];
		const char *sc = w->f[COL_SCENARIO];
		long node = step_frac_node(w->f[COL_METRIC]);
		double x, frac;
		char *end;

		if (node < 0 || !is_ok(w) || strcmp(w->f[COL_BENCH], "fallback") || !is_fill(sc) ||
		    strcmp(w->f[COL_POLICY], en->policy) || strcmp(w->f[COL_NODES], en->nodes) ||
		    strcmp(w->f[COL_PAGESIZE], "4k"))
			continue;
		x = strtod(strchr(sc, '@') + 1, &end);
		frac = frac_of(w);
		if (*end || !isfinite(x) || x <= 0 || !(frac >= 0))
			continue;
		w->used = true;
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n++] = (struct fm_pt){ x, frac, node, w };
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_pt);
	*out = v;
	return n;
}

/* Figure @what of node @n from bench model: the node set's own rows, else any set's. */
static struct row *node_figure(struct run *r, const char *nodes, const char *what, long n)
{
	char *metric = xasprintf("%s_node%ld", what, n);
	struct row *w = run_find(r, "model", "-", nodes, NULL, NULL, metric);

	if (!w || !w->numeric)
		w = run_find(r, "model", "-", NULL, NULL, NULL, metric);
	free(metric);
	return w && w->numeric ? w : NULL;
}

static const struct {
	enum cost_kind kind;
	const char *memory, *cache;	/* bench model's row names, before _node<N> */
} read_figures[] = {
	{ COST_LATENCY, "hmat_read_latency", "model_cache_read_latency" },
	{ COST_BANDWIDTH, "hmat_read_bandwidth", "model_cache_read_bandwidth" },
};

void fill_model_get(struct run *r, const struct entry *en, struct fill_model *m,
		    struct cites *c)
{
	struct cost_node cn[FILL_MODEL_NODES + 1];
	double prev = 0, cached = 0, hit_pages = 0, cache_given = 0;
	struct fm_pt *pt;
	size_t np = fm_points(r, en, &pt);

	*m = (struct fill_model){ .mib = NAN, .coverage = NAN, .lat = NAN, .bw = NAN,
				  .bw_bound = NAN, .cache_hit = NAN, .cache_coverage = NAN };
	if (!np) {
		free(pt);
		return;
	}
	m->mib = 0;
	for (size_t i = 0; i < np;) {
		double step = pt[i].x - prev;
		size_t j = i;

		for (; j < np && pt[j].x == pt[i].x; j++) {
			double mib = pt[j].frac * step;

			if (pt[j].node < FILL_MODEL_NODES)
				m->node_mib[pt[j].node] += mib;
			else
				m->other_mib += mib;
			m->mib += mib;
			if (c)
				cites_add(c, pt[j].w);
		}
		m->steps++;
		prev = pt[i].x;
		i = j;
	}
	free(pt);

	/* node ids above the array have no figures: the last slot, unknown */
	cn[FILL_MODEL_NODES] = (struct cost_node){ llround(m->other_mib * PAGES_PER_MIB), -1, -1, 0 };
	for (long n = 0; n < FILL_MODEL_NODES; n++) {
		long pages = llround(m->node_mib[n] * PAGES_PER_MIB);
		const struct row *hit = pages > 0 ? node_figure(r, en->nodes, "model_cache_hit_frac", n)
						  : NULL;

		cn[n] = (struct cost_node){ pages, -1, -1, hit ? hit->num : 0 };
		if (!hit)
			continue;
		cached += (double)pages;
		hit_pages += hit->num * (double)pages;
		if (node_figure(r, en->nodes, read_figures[0].cache, n))
			cache_given += (double)pages;
		if (c)
			cites_add(c, hit);
	}
	if (cached > 0) {
		m->cache_hit = hit_pages / cached;
		m->cache_coverage = cache_given / cached;
	}
	for (size_t f = 0; f < sizeof(read_figures) / sizeof(read_figures[0]); f++) {
		struct cost_mix mix;

		for (long n = 0; n < FILL_MODEL_NODES; n++) {
			const struct row *fig, *cfig;

			if (cn[n].pages <= 0)
				continue;
			fig = node_figure(r, en->nodes, read_figures[f].memory, n);
			cfig = node_figure(r, en->nodes, read_figures[f].cache, n);
			cn[n].figure = fig ? fig->num : -1;
			cn[n].cache_figure = cfig ? cfig->num : -1;
			if (c) {
				cites_add(c, fig);
				cites_add(c, cfig);
			}
		}
		cost_mix(read_figures[f].kind, cn, FILL_MODEL_NODES + 1, &mix);
		if (read_figures[f].kind == COST_LATENCY) {
			m->lat = mix.value;
			m->coverage = mix.coverage;
		} else {
			m->bw = mix.value;
			m->bw_bound = mix.parallel_bound;
		}
	}
}

void fill_model_placement(const struct fill_model *m, struct sbuf *b)
{
	bool done[FILL_MODEL_NODES] = { false };
	size_t shown = 0;
	char pct[32];

	if (!(m->mib > 0)) {
		sb_puts(b, "no pages");
		return;
	}
	for (;;) {
		long best = -1;

		for (long n = 0; n < FILL_MODEL_NODES; n++)
			if (!done[n] && m->node_mib[n] > 0 &&
			    (best < 0 || m->node_mib[n] > m->node_mib[best]))
				best = n;
		if (best < 0)
			break;
		done[best] = true;
		fmt_num(pct, sizeof(pct), 100 * m->node_mib[best] / m->mib);
		sb_printf(b, "%snode %ld %s%%", shown++ ? ", " : "", best, pct);
	}
	if (m->other_mib > 0) {
		fmt_num(pct, sizeof(pct), 100 * m->other_mib / m->mib);
		sb_printf(b, "%snodes above %d %s%%", shown ? ", " : "", FILL_MODEL_NODES - 1, pct);
	}
}

struct row *model_free_row(struct run *r, const char *policy, const char *nodes,
			   const char *metric)
{
	struct row *w = run_find(r, "model", policy, nodes, "4k", NULL, metric);

	if (!w || !w->numeric)
		w = run_find(r, "model", policy, nodes, NULL, NULL, metric);
	return w && w->numeric ? w : NULL;
}

/* "43 ns lower" / "the same", from the figures as the report prints them. */
static void delta_words(double after, double before, const char *unit, const char *less,
			const char *more, struct sbuf *b)
{
	char a[32], z[32], d[32];

	if (isnan(after) || isnan(before)) {
		sb_puts(b, "not modeled in both");
		return;
	}
	fmt_num(a, sizeof(a), after);
	fmt_num(z, sizeof(z), before);
	if (!strcmp(a, z)) {
		sb_puts(b, "the same");
		return;
	}
	fmt_num(d, sizeof(d), fabs(after - before));
	sb_printf(b, "%s %s %s", d, unit, after < before ? less : more);
}

size_t fill_model_summary(struct run *r, const struct entries *e, const struct headline *h,
			  struct sbuf *b)
{
	size_t n = 0;

	for (size_t i = 0; i < e->n; i++) {
		const struct entry *en = &e->v[i];
		const struct headline_line *l = &h->lines[i];
		const struct fill_model *m = &l->fm;
		struct row *fl = model_free_row(r, en->policy, en->nodes, "model_read_latency_ns");
		struct row *fb = model_free_row(r, en->policy, en->nodes,
						"model_read_bandwidth_serial_mbps");
		struct cites c = { 0 };
		struct fill_model again;
		char mib[32], lat[32], bw[32], bound[32], cov[32];

		if (isnan(m->lat) && isnan(m->bw))
			continue;
		fill_model_get(r, en, &again, &c);	/* the same figures, with their rows */
		fmt_num(mib, sizeof(mib), m->mib);
		fmt_num(lat, sizeof(lat), m->lat);
		fmt_num(bw, sizeof(bw), m->bw);
		fmt_num(bound, sizeof(bound), m->bw_bound);
		sb_printf(b, "**%s**: its fill curve placed %s MiB (%zu steps", en->label, mib,
			  m->steps);
		if (l->fill_outcome && strcmp(l->fill_outcome, "completed"))
			sb_printf(b, "; it ended %s", l->fill_outcome);
		sb_puts(b, "): ");
		fill_model_placement(m, b);
		sb_printf(b, ". Modeled read latency %s ns, read bandwidth %s MB/s serial "
			     "(parallel bound %s MB/s)", lat, bw, bound);
		if (m->coverage < 1) {
			fmt_num(cov, sizeof(cov), 100 * m->coverage);
			sb_printf(b, ", over the %s%% of the pages on nodes with figures", cov);
		}
		cites_put(r, &c, b);
		sb_puts(b, ".");
		if (!isnan(m->cache_hit)) {
			fmt_num(cov, sizeof(cov), 100 * m->cache_hit);
			sb_printf(b, " A memory-side cache is assumed to serve %s%% of the accesses to "
				     "the pages on its nodes (model_cache_hit_frac_node<N>)", cov);
			if (m->cache_coverage == 0)
				sb_puts(b, "; the run gives no figures for it, so those pages are "
					   "priced as their memory");
			sb_puts(b, ".");
		}
		if (fl || fb) {
			struct row *src = fl ? fl : fb;

			sb_printf(b, " With nothing full (bench model's own case, %s pages, scenario "
				     "%s): ", src->f[COL_PAGESIZE], src->f[COL_SCENARIO]);
			fmt_num(lat, sizeof(lat), numval(fl));
			fmt_num(bw, sizeof(bw), numval(fb));
			sb_printf(b, "%s ns, %s MB/s", lat, bw);
			cites_add(&c, fl);
			cites_add(&c, fb);
			cites_put(r, &c, b);
			sb_puts(b, "; after the fill: read latency ");
			delta_words(m->lat, numval(fl), "ns", "lower", "higher", b);
			sb_puts(b, ", serial bandwidth ");
			delta_words(m->bw, numval(fb), "MB/s", "lower", "higher", b);
			sb_puts(b, ".");
		}
		sb_puts(b, "\n");
		n++;
	}
	return n;
}

size_t cache_hit_summary(struct run *r, const struct entries *e, struct sbuf *b)
{
	struct cites c = { 0 };
	struct sbuf bare = { 0 };
	char (*val)[32] = xcalloc(e->n ? e->n : 1, sizeof(*val));
	bool *done = xcalloc(e->n ? e->n : 1, sizeof(*done));
	size_t n = 0, nbare = 0;

	for (size_t i = 0; i < e->n; i++) {
		struct row *w = model_free_row(r, e->v[i].policy, e->v[i].nodes, "model_cache_hit_frac");
		struct row *cov = model_free_row(r, e->v[i].policy, e->v[i].nodes,
						 "model_cache_coverage_frac");

		done[i] = !w;
		if (!w)
			continue;
		fmt_num(val[i], sizeof(val[i]), 100 * w->num);
		cites_add(&c, w);
		if (cov && cov->num == 0) {
			sb_printf(&bare, "%s%s", nbare++ ? ", " : "", e->v[i].label);
			cites_add(&c, cov);
		}
		n++;
	}
	if (!n)
		goto out;
	sb_puts(b, "Memory-side cache: bench model assumed it serves ");
	/* one group per share, in the order of the policies */
	for (size_t i = 0, groups = 0; i < e->n; i++) {
		if (done[i])
			continue;
		sb_printf(b, "%s%s%% of the accesses to the pages on its nodes for ",
			  groups++ ? "; " : "", val[i]);
		for (size_t k = i, m = 0; k < e->n; k++)
			if (!done[k] && !strcmp(val[k], val[i])) {
				sb_printf(b, "%s%s", m++ ? ", " : "", e->v[k].label);
				if (k != i)
					done[k] = true;
			}
		done[i] = true;
	}
	sb_puts(b, " (model_cache_hit_frac: an assumption, tierbench --model-cache-hit, else the "
		   "cache's size over the node's)");
	if (nbare)
		sb_printf(b, "; the run has no figures for the cache of the pages of %s, priced as "
			     "their memory (model_cache_coverage_frac 0)", bare.s);
	cites_put(r, &c, b);
	sb_puts(b, ". ");
out:
	free(c.v);
	sb_free(&bare);
	free(val);
	free(done);
	return n;
}
