// SPDX-License-Identifier: GPL-2.0
/*
 * report.html and report.md of one run.  Both are built in memory from the
 * same facts, then written atomically; every value read from a file is
 * escaped for its target.  Nothing here reads the clock, so the same files
 * give the same report.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "modes.h"
#include "report_int.h"
#include "words.h"

static double numval_row(const struct row *w)
{
	return w && w->numeric ? w->num : NAN;
}

void doc_text(struct doc *d, const char *s)
{
	sb_html(&d->html, s);
	sb_md(&d->md, s);
}

/* Text whose only markup is **bold**. */
void doc_marked(struct doc *d, const char *s)
{
	bool bold = false;

	for (const char *p = s; *p;) {
		const char *q = strstr(p, "**");
		size_t n = q ? (size_t)(q - p) : strlen(p);
		char *part = xmalloc(n + 1);

		memcpy(part, p, n);
		part[n] = '\0';
		sb_html(&d->html, part);
		sb_md(&d->md, part);
		free(part);
		if (!q)
			break;
		sb_puts(&d->html, bold ? "</strong>" : "<strong>");
		sb_puts(&d->md, "**");
		bold = !bold;
		p = q + 2;
	}
	if (bold)
		sb_puts(&d->html, "</strong>");
}

void doc_heading(struct doc *d, int level, const char *id, const char *text)
{
	sb_printf(&d->html, "<h%d id=\"%s\">", level, id);
	sb_html(&d->html, text);
	sb_printf(&d->html, "</h%d>\n", level);
	sb_printf(&d->md, "\n%.*s ", level, "######");
	sb_md(&d->md, text);
	sb_puts(&d->md, "\n\n");
}

void doc_para(struct doc *d, const char *cls, const char *marked)
{
	if (cls) {
		sb_printf(&d->html, "<p class=\"%s\">", cls);
		sb_puts(&d->md, "> ");	/* boxes become block quotes */
	} else
		sb_puts(&d->html, "<p>");
	doc_marked(d, marked);
	sb_puts(&d->html, "</p>\n");
	sb_puts(&d->md, "\n\n");
}

void doc_table_start(struct doc *d, const char *const *cols, size_t n)
{
	/* a table wider than the page scrolls in its box, not the whole page */
	sb_puts(&d->html, "<div class=\"scroll\">\n<table>\n<thead><tr>");
	sb_puts(&d->md, "|");
	for (size_t i = 0; i < n; i++) {
		sb_puts(&d->html, "<th>");
		doc_text(d, cols[i]);
		sb_puts(&d->html, "</th>");
		sb_puts(&d->md, " |");
	}
	sb_puts(&d->html, "</tr></thead>\n<tbody>\n");
	sb_puts(&d->md, "\n|");
	for (size_t i = 0; i < n; i++)
		sb_puts(&d->md, "---|");
	sb_puts(&d->md, "\n");
}

void doc_paras(struct doc *d, char *text)
{
	for (char *line = text, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		doc_para(d, NULL, line);
	}
}

void doc_row_start(struct doc *d)
{
	sb_puts(&d->html, "<tr>");
	sb_puts(&d->md, "|");
}

void doc_cell(struct doc *d, const char *text)
{
	sb_puts(&d->html, "<td>");
	doc_text(d, text);
	sb_puts(&d->html, "</td>");
	sb_puts(&d->md, " |");
}

void doc_cell_num(struct doc *d, double v)
{
	char buf[32];

	fmt_num(buf, sizeof(buf), v);
	sb_puts(&d->html, "<td class=\"num\">");
	doc_text(d, buf);
	sb_puts(&d->html, "</td>");
	sb_puts(&d->md, " |");
}

void doc_row_end(struct doc *d)
{
	sb_puts(&d->html, "</tr>\n");
	sb_puts(&d->md, "\n");
}

void doc_table_end(struct doc *d)
{
	sb_puts(&d->html, "</tbody>\n</table>\n</div>\n");
	sb_puts(&d->md, "\n");
}

const char report_css[] =
	"body{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;max-width:1100px;margin:2em auto;"
	"padding:0 1em;color:#222;line-height:1.45}\n"
	"h1{font-size:1.6em;margin-bottom:.2em}h2{border-bottom:1px solid #ccc;margin-top:1.8em}\n"
	".sub{color:#555;margin-top:0}\n"
	"table{border-collapse:collapse;margin:.6em 0;font-size:.92em}.scroll{overflow-x:auto}\n"
	"th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}\n"
	"th{background:#f0f0f0}td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
	"tbody tr:nth-child(even){background:#fafafa}\n"
	".answer{background:#eef6ee;border-left:5px solid #4caf50;padding:.1em 1em}\n"
	".caveat{background:#fff6e0;border-left:5px solid #ffb300;padding:.7em 1em}\n"
	".warn{background:#fdecea;border-left:5px solid #d32f2f;padding:.7em 1em}\n"
	"figure{margin:1.2em 0}figure img{max-width:100%;height:auto;border:1px solid #ddd}\n"
	"h2#answer{margin-top:.8em}figure.lead{margin:.6em 0}figure.lead img{width:800px}\n"
	"figcaption{color:#444;font-size:.9em}\n"
	"nav a{margin-right:1em}footer{color:#666;font-size:.85em;margin-top:3em}\n"
	"code{background:#f4f4f4;padding:0 .2em}\n";

/* Marks the page when every embedded image decoded; the test reads the DOM. */
static const char image_check_js[] =
	"<script>\n"
	"window.addEventListener('load', function () {\n"
	"  var imgs = document.images, bad = 0;\n"
	"  for (var i = 0; i < imgs.length; i++)\n"
	"    if (!imgs[i].complete || imgs[i].naturalWidth === 0) bad++;\n"
	"  var m = document.getElementById('image-check');\n"
	"  m.setAttribute('data-state', bad ? 'broken' : 'ok');\n"
	"  m.textContent = bad ? bad + ' of ' + imgs.length + ' figures failed to load.'\n"
	"                      : 'All ' + imgs.length + ' figures loaded.';\n"
	"});\n"
	"</script>\n";

static const char *run_topology(const struct run *r)
{
	for (size_t i = 0; i < r->nrows; i++)
		if (r->rows[i].f[COL_TOPOLOGY][0])
			return r->rows[i].f[COL_TOPOLOGY];
	const char *t = run_meta_topology(r, 0, "file");

	return t ? t : r->name;
}

static void lat_cell_text(const struct lat_cell *c, bool with_cov, struct sbuf *s)
{
	char a[32], b[32], d[32];

	if (isnan(c->p50)) {
		if (c->outcome && strcmp(c->outcome, "completed")) {
			sb_puts(s, c->outcome);
			if (!isnan(c->mib_before)) {
				fmt_num(a, sizeof(a), c->mib_before);
				sb_printf(s, " at %s MiB", a);
			}
		} else
			sb_puts(s, "n/a");
		return;
	}
	fmt_num(a, sizeof(a), c->p50);
	if (c->boots == 1) {
		sb_printf(s, "%s [1 boot]", a);
		return;
	}
	if (!isnan(c->lo) && !isnan(c->hi)) {
		fmt_num(b, sizeof(b), c->lo);
		fmt_num(d, sizeof(d), c->hi);
		sb_printf(s, "%s [%s, %s]", a, b, d);
	} else
		sb_printf(s, "%s [no interval]", a);
	if (with_cov && !isnan(c->cov)) {
		fmt_num(a, sizeof(a), 100 * c->cov);
		sb_printf(s, " (cov %s%%)", a);
	}
}

static void sec_headline(struct doc *d, struct run *r, const struct entries *e,
			 const struct headline *h)
{
	bool have_model = false, same_cov = true;
	double cov = NAN, boots = NAN;
	char *c1, *c2, *c3, *c4;
	const char *cols[10];
	size_t nc = 0;

	doc_heading(d, 2, "headline", "Headline per policy");
	if (!e->n) {
		doc_para(d, NULL, "No microbenchmark rows (latency, latency_task, fallback, oom, model) "
			      "in this run.");
		return;
	}
	for (size_t i = 0; i < e->n; i++) {
		const struct headline_line *l = &h->lines[i];

		have_model |= !isnan(l->model_lat) || !isnan(l->model_bw) || !isnan(l->model_bw_bound);
		for (int b = 0; b < NR_LAT_BENCHES; b++) {
			if (isnan(l->lat[b].p50))
				continue;
			if (!isnan(cov) && (l->lat[b].cov != cov || l->lat[b].boots != boots))
				same_cov = false;
			cov = l->lat[b].cov;
			boots = l->lat[b].boots;
		}
	}
	const char *tu = time_unit_words(run_time_unit(r));

	c1 = h->have_lat ? xasprintf("p50 fault latency, %s [interval], %s (%s, %s)", tu,
				     lat_benches[0].via, h->lat_ps, h->lat_sc)
			 : xasprintf("p50 fault latency, %s", tu);
	c2 = h->have_lat ? xasprintf("p50, %s [interval], %s", tu, lat_benches[1].via)
			 : xasprintf("p50, %s, set_mempolicy()", tu);
	c3 = h->have_lat ? xasprintf("p99, %s, %s", tu, lat_benches[0].via)
			 : xasprintf("p99, %s", tu);
	c4 = h->have_fb ? xasprintf("on-set share, %% (%s, %s)", h->fb_ps, h->fb_sc)
			: xstrdup("on-set share, %");
	cols[nc++] = "policy";
	cols[nc++] = "preferred set";
	cols[nc++] = c1;
	cols[nc++] = c2;
	cols[nc++] = c3;
	cols[nc++] = c4;
	cols[nc++] = "fill curve (4k): MiB on the set before the first fallback";
	cols[nc++] = "OOM test (bench oom)";
	if (have_model && h->have_fill_model) {
		cols[nc++] = "model after the fill: read latency, ns (page-weighted)";
		cols[nc++] = "model after the fill: read bandwidth, MB/s (serial, time-weighted; "
			     "parallel bound)";
	} else if (have_model) {
		cols[nc++] = "model: read latency, ns (page-weighted)";
		cols[nc++] = "model: read bandwidth, MB/s (serial, time-weighted; parallel bound)";
	}
	doc_table_start(d, cols, nc);
	for (size_t i = 0; i < e->n; i++) {
		const struct headline_line *l = &h->lines[i];
		struct sbuf s = { 0 };
		char a[32], b[32];

		doc_row_start(d);
		sb_printf(&s, "%s%s", e->v[i].policy,
			  policy_is_reference(e->v[i].policy) ? " (reference)" : "");
		doc_cell(d, s.s);
		doc_cell(d, e->v[i].nodes);
		for (int k = 0; k < NR_LAT_BENCHES; k++) {
			s.len = 0;
			lat_cell_text(&l->lat[k], !same_cov, &s);
			doc_cell(d, s.s);
		}
		doc_cell_num(d, l->lat[0].p99);
		doc_cell_num(d, 100 * l->pref);
		s.len = 0;
		fill_summary(h, l, &s);
		doc_cell(d, s.s);
		s.len = 0;
		oom_summary(r, &e->v[i], &s);
		doc_cell(d, s.s);
		if (have_model) {
			/* in a column after the fill, bench model's own case says so */
			const char *free_mark = h->have_fill_model && !l->model_after_fill &&
							!isnan(l->model_lat) ? " (free)" : "";

			fmt_num(a, sizeof(a), l->model_lat);
			s.len = 0;
			sb_printf(&s, "%s%s", a, free_mark);
			doc_cell(d, s.s);
			fmt_num(a, sizeof(a), l->model_bw);
			fmt_num(b, sizeof(b), l->model_bw_bound);
			s.len = 0;
			sb_printf(&s, "%s (parallel bound %s)%s", a, b,
				  h->have_fill_model && !l->model_after_fill && !isnan(l->model_bw)
					  ? " (free)" : "");
			doc_cell(d, s.s);
		}
		doc_row_end(d);
		sb_free(&s);
	}
	doc_table_end(d);
	{
		struct sbuf note = { 0 }, iw = { 0 };
		char st[32];

		if (h->have_lat && same_cov && boots == 1) {
			sb_printf(&note, "Latencies come from one boot: there is no interval over boots and "
					 "no difference is claimed (run --boots %zu for 95%% intervals). The "
					 "interval of that boot's repetitions (p50_ci95_low, p50_ci95_high) is "
					 "under \"All figures\". ", verdict_min_boots(true));
		} else if (h->have_lat && same_cov && !isnan(cov)) {
			interval_words(cov, boots, &iw);
			sb_printf(&note, "Latencies are the median over boots of each boot's p50; the "
					 "brackets [low, high] are the %s%s. Each boot's own values and the "
					 "interval of its repetitions (p50_ci95_low, p50_ci95_high) are under "
					 "\"All figures\". ", iw.s,
				  boots > 1 && cov < 0.95 ? " — not a 95% interval" : "");
		} else if (h->have_lat)
			sb_puts(&note, "Latencies are the median over boots of each boot's p50; brackets: "
				       "the interval of that median over boots, with its coverage (cov). ");
		sb_puts(&note, "\"On-set share\" is bench fallback's on_set_frac: the share of the "
			       "case's resident pages on the node set it was given (for preferred the "
			       "whole set, although the kernel prefers its first node only: the "
			       "series' counter calls pages past that node fallback, row "
			       "fallback_frac). The words are defined in README, \"Words the lab "
			       "uses\". ");
		if (h->have_fill) {
			fmt_num(st, sizeof(st), h->fill_step);
			sb_printf(&note, "The fill curve faults %s MiB per step until the other nodes are "
					 "nearly full too; \"all there until\" is the last step with at "
					 "least 99%% on the preferred nodes. ", st);
		}
		if (!have_model)
			sb_puts(&note, "Modeled access cost: not measured (bench model did not run). ");
		else if (h->have_fill_model)
			sb_puts(&note, "The \"model after the fill\" columns are a model, not a "
				       "measurement (QEMU does not make slow nodes slow): where the "
				       "policy's pages went over its fill curve (each step's "
				       "step_frac_node<N> times its MiB) priced with the HMAT figures "
				       "(bench model's hmat_* rows); \"(free)\" marks a policy without "
				       "such a curve, priced at bench model's own placement with "
				       "nothing full. ");
		else
			sb_puts(&note, "The \"model:\" columns are a model, not a measurement (QEMU "
				       "does not make slow nodes slow): bench model's own placement, "
				       "with nothing full, with the HMAT figures. ");
		if (have_model) {
			sb_puts(&note, "Latency is the page-weighted mean; bandwidth is the serial, "
				       "time-weighted figure 1 / Σ(share / bandwidth) of one stream "
				       "touching the pages in turn, with the parallel bound min(bandwidth "
				       "/ share), the most every node's channel busy at once could give, "
				       "beside it (bench/README.md, model). ");
			cache_hit_summary(r, e, &note);
		}
		sb_puts(&note, "\"n/a\": the run has no such row.");
		doc_para(d, NULL, note.s);
		sb_free(&note);
		sb_free(&iw);
	}
	free(c1);
	free(c2);
	free(c3);
	free(c4);
}

/*
 * The model after the fill: where each policy's pages went as its preferred
 * nodes filled, priced with the HMAT figures (report_model.c), beside bench
 * model's own case with nothing full.
 */
static void sec_model_fill(struct doc *d, struct run *r, const struct entries *e,
			   const struct headline *h)
{
	struct sbuf b = { 0 };
	char *line, *nl;

	if (!h->have_fill)
		return;
	doc_heading(d, 2, "model-fill", "Modeled access cost after the fill (a model)");
	if (!h->have_fill_nodes) {
		doc_para(d, NULL, "Not modeled: this run's fill curve has no per-node shares of its "
			      "steps (step_frac_node<N>), so the only model is bench model's own "
			      "case with nothing full, which does not show where the pages go once "
			      "the preferred nodes fill.");
		return;
	}
	if (!h->have_fill_model) {
		doc_para(d, NULL, "Not modeled: the run has no HMAT figures to price the fill "
			      "curve's placement with (hmat_read_latency_node<N>, "
			      "hmat_read_bandwidth_node<N>: bench model did not run).");
		return;
	}
	doc_para(d, NULL, "A model, not a measurement (QEMU does not make slow nodes slow). For "
		      "each policy with a fill curve, the pages on node N are the sum over the "
		      "curve's steps of the step's share there (step_frac_node<N>) times the "
		      "step's MiB, to the end of the curve: where a workload that grew that far "
		      "would have its pages. They are priced with bench model's HMAT figures "
		      "(hmat_*_node<N>) by the guest's own cost model (bench/costmodel.c): read "
		      "latency page-weighted, read bandwidth serial (time-weighted) with the "
		      "parallel bound beside it. Each policy is quoted with the MiB its own curve "
		      "placed.");
	fill_model_summary(r, e, h, &b);
	for (line = b.s; line && *line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		doc_para(d, NULL, line);
	}
	sb_free(&b);
}

/*
 * A wall-clock run: meta.json's clock, else (runs from before --clock, all
 * wall) timings in ns.
 */
static bool run_is_wall(const struct run *r)
{
	const char *clock = run_meta(r, META_clock);

	return clock ? !strcmp(clock, "wall") : !strcmp(run_time_unit(r), "ns");
}

static int cmp_pair(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The modes of one case's histogram pooled over its HIST lines (every
 * repetition of every boot, as the CDF figure pools them).  Returns the
 * number of modes (at most @max written), 0 when the case has no
 * histogram; *faults and *lines say what was pooled.
 */
static int case_modes(struct run *r, const char *bench, const char *pol, const char *nodes,
		      const char *ps, const char *sc, struct mode *m, size_t max, double *faults,
		      size_t *lines)
{
	double *pairs = NULL, *lo, *cnt;
	size_t n = 0, k = 0;
	int nm;

	*faults = 0;
	*lines = 0;
	for (size_t i = 0; i < r->nhists; i++) {
		const struct hist *h = &r->hists[i];

		if (strcmp(h->bench, bench) || strcmp(h->policy, pol) || strcmp(h->nodes, nodes) ||
		    strcmp(h->pagesize, ps) || strcmp(h->scenario, sc))
			continue;
		(*lines)++;
		pairs = xrealloc(pairs, (n + h->nb) * 2 * sizeof(double));
		for (size_t j = 0; j < h->nb; j++, n++) {
			pairs[2 * n] = h->lo[j];
			pairs[2 * n + 1] = h->count[j];
			*faults += h->count[j];
		}
	}
	if (!n) {
		free(pairs);
		return 0;
	}
	qsort(pairs, n, 2 * sizeof(double), cmp_pair);
	lo = xcalloc(n, sizeof(double));
	cnt = xcalloc(n, sizeof(double));
	for (size_t j = 0; j < n; j++) {
		if (!k || lo[k - 1] != pairs[2 * j])
			lo[k++] = pairs[2 * j];
		cnt[k - 1] += pairs[2 * j + 1];
	}
	nm = modes_find(lo, cnt, k, m, max);
	free(pairs);
	free(lo);
	free(cnt);
	return nm;
}

#define MODES_SHOWN 8

/*
 * Wall clock only: the cases of @bench whose pooled histogram has two or
 * more modes (lab/report/modes.h), with each mode's share, in a short table after
 * the bench's latency table.  Returns how many.
 */
static size_t lat_modes_table(struct doc *d, struct run *r, const struct entries *e,
			      const char *bench, const struct strlist *pss, const struct strlist *scs)
{
	static const char *const cols[] = { "page size", "scenario", "policy", "faults pooled",
					    "modes" };
	size_t shown = 0;

	for (size_t p = 0; p < pss->n; p++)
		for (size_t s = 0; s < scs->n; s++)
			for (size_t i = 0; i < e->n; i++) {
				struct mode m[MODES_SHOWN];
				struct sbuf x = { 0 };
				double faults;
				size_t lines;
				int nm = case_modes(r, bench, e->v[i].policy, e->v[i].nodes, pss->v[p],
						    scs->v[s], m, MODES_SHOWN, &faults, &lines);

				if (nm < 2)
					continue;
				if (!shown++) {
					char *t = xasprintf("Wall-clock cases of bench %s whose pooled "
							    "fault-latency histogram is multimodal:", bench);

					doc_para(d, NULL, t);
					free(t);
					doc_table_start(d, cols, sizeof(cols) / sizeof(cols[0]));
				}
				doc_row_start(d);
				doc_cell(d, pss->v[p]);
				doc_cell(d, scs->v[s]);
				doc_cell(d, e->v[i].label);
				sb_printf(&x, "%.0f (%zu histogram%s)", faults, lines, lines == 1 ? "" : "s");
				doc_cell(d, x.s);
				x.len = 0;
				modes_text(m, nm < MODES_SHOWN ? (size_t)nm : MODES_SHOWN,
					   run_time_unit(r), &x);
				doc_cell(d, x.s);
				doc_row_end(d);
				sb_free(&x);
			}
	if (shown)
		doc_table_end(d);
	return shown;
}

/*
 * A THP case's faults are of two kinds: a huge page (2 MiB zeroed, ~2.1
 * million instructions) or, when none could be had, one base page (~6,300);
 * the main table's percentiles pool both.  Apart, per case, from the rows
 * huge_fault_* and base_fault_* (the kernel's thp_fault_alloc and
 * thp_fault_fallback deltas beside them).  Returns how many rows.
 */
static size_t lat_thp_table(struct doc *d, struct run *r, const struct entries *e,
			    const char *bench, const struct strlist *scs)
{
	static const char *const cols[] = { "scenario", "policy", "huge-page faults", "p50",
					    "base-page faults", "p50", "thp_fault_alloc",
					    "thp_fault_fallback" };
	static const char *const m[] = { "huge_fault_count", "huge_fault_p50", "base_fault_count",
					 "base_fault_p50", "thp_fault_alloc_delta",
					 "thp_fault_fallback_delta" };
	size_t shown = 0;

	for (size_t s = 0; s < scs->n; s++)
		for (size_t i = 0; i < e->n; i++) {
			const char *pol = e->v[i].policy, *nod = e->v[i].nodes;

			if (!run_find(r, bench, pol, nod, "thp", scs->v[s], "huge_fault_count"))
				continue;
			if (!shown++) {
				doc_para(d, NULL, "THP cases, huge-page and base-page faults apart (a "
					      "fault that finds no huge page maps one base page; the "
					      "table above pools both), with the kernel's THP fault "
					      "counters over the case:");
				doc_table_start(d, cols, sizeof(cols) / sizeof(cols[0]));
			}
			doc_row_start(d);
			doc_cell(d, scs->v[s]);
			doc_cell(d, e->v[i].label);
			for (size_t k = 0; k < sizeof(m) / sizeof(m[0]); k++)
				doc_cell_num(d, numval_row(run_find(r, bench, pol, nod, "thp",
								    scs->v[s], m[k])));
			doc_row_end(d);
		}
	if (shown)
		doc_table_end(d);
	return shown;
}

/* One table per latency bench: every condition, policies side by side. */
static void sec_latency(struct doc *d, struct run *r, const struct entries *e)
{
	static const char *const cols[] = { "page size", "scenario", "policy", "p50", "interval of p50",
					    "p90", "p99", "p99.9", "max", "mean", "faults",
					    "outcome" };
	static const char *const m[] = { "p90", "p99", "p99_9", "max", "mean", "count" };
	const char *const *ps_order = vocab_pagesize_names;
	const char *const *sc_order = vocab_scenario_names;
	bool heading = false;
	size_t multimodal = 0;

	for (int b = 0; b < NR_LAT_BENCHES; b++) {
		const char *bench = lat_benches[b].bench;
		struct strlist pss = { 0 }, scs = { 0 };

		for (int k = 0; ps_order[k]; k++)
			for (size_t j = 0; j < r->nrows; j++)
				if (!strcmp(r->rows[j].f[COL_BENCH], bench) &&
				    !strcmp(r->rows[j].f[COL_PAGESIZE], ps_order[k]))
					sl_add(&pss, ps_order[k]);
		for (size_t j = 0; j < r->nrows; j++)
			if (!strcmp(r->rows[j].f[COL_BENCH], bench) &&
			    strcmp(r->rows[j].f[COL_PAGESIZE], "-"))
				sl_add(&pss, r->rows[j].f[COL_PAGESIZE]);
		for (int k = 0; sc_order[k]; k++)
			for (size_t j = 0; j < r->nrows; j++)
				if (!strcmp(r->rows[j].f[COL_BENCH], bench) &&
				    !strcmp(r->rows[j].f[COL_SCENARIO], sc_order[k]))
					sl_add(&scs, sc_order[k]);
		for (size_t j = 0; j < r->nrows; j++)
			if (!strcmp(r->rows[j].f[COL_BENCH], bench) &&
			    strcmp(r->rows[j].f[COL_SCENARIO], "-"))
				sl_add(&scs, r->rows[j].f[COL_SCENARIO]);
		if (!pss.n) {
			sl_free(&pss);
			sl_free(&scs);
			continue;
		}
		if (!heading) {
			char *ht = xasprintf("Fault latency by condition (%s)",
					     time_unit_words(run_time_unit(r)));

			doc_heading(d, 2, "latency", ht);
			free(ht);
			doc_para(d, NULL, time_unit_includes(run_time_unit(r)));
			heading = true;
		}
		char *t = xasprintf("Bench %s: policy set with %s", bench, lat_benches[b].via);

		doc_heading(d, 3, lat_benches[b].bench, t);
		free(t);
		doc_table_start(d, cols, sizeof(cols) / sizeof(cols[0]));
		for (size_t p = 0; p < pss.n; p++)
			for (size_t s = 0; s < scs.n; s++)
				for (size_t i = 0; i < e->n; i++) {
					const char *pol = e->v[i].policy, *nod = e->v[i].nodes;
					struct lat_cell lc;
					struct sbuf x = { 0 };
					char a1[32], a2[32];

					lat_cell_get(r, bench, pol, nod, pss.v[p], scs.v[s], &lc);
					if (isnan(lc.p50) && !lc.outcome)
						continue;
					doc_row_start(d);
					doc_cell(d, pss.v[p]);
					doc_cell(d, scs.v[s]);
					doc_cell(d, e->v[i].label);
					doc_cell_num(d, lc.p50);
					if (!isnan(lc.lo) && !isnan(lc.hi)) {
						fmt_num(a1, sizeof(a1), lc.lo);
						fmt_num(a2, sizeof(a2), lc.hi);
						sb_printf(&x, "%s – %s", a1, a2);
						if (!isnan(lc.cov)) {
							fmt_num(a1, sizeof(a1), 100 * lc.cov);
							sb_printf(&x, " (cov %s%%)", a1);
						}
					} else
						sb_puts(&x, "n/a");
					doc_cell(d, x.s);
					for (size_t k = 0; k < sizeof(m) / sizeof(m[0]); k++)
						doc_cell_num(d, numval_row(run_find(r, bench, pol, nod, pss.v[p],
										    scs.v[s], m[k])));
					x.len = 0;
					sb_puts(&x, lc.outcome ? lc.outcome : "—");
					if (lc.outcome && strcmp(lc.outcome, "completed") && !isnan(lc.mib_before)) {
						fmt_num(a1, sizeof(a1), lc.mib_before);
						sb_printf(&x, " at %s MiB", a1);
					}
					if (run_find(r, bench, pol, nod, pss.v[p], scs.v[s],
						     "oom_constraint_memory_policy"))
						sb_puts(&x, " (memory-policy constraint)");
					doc_cell(d, x.s);
					doc_row_end(d);
					sb_free(&x);
				}
		doc_table_end(d);
		lat_thp_table(d, r, e, bench, &scs);
		if (run_is_wall(r))
			multimodal += lat_modes_table(d, r, e, bench, &pss, &scs);
		sl_free(&pss);
		sl_free(&scs);
	}
	if (heading && run_is_wall(r))
		doc_para(d, NULL, multimodal ?
			 "Mode shares (wall clock): under TCG the host's time per fault can fall in "
			 "two or more modes, and a case's median lands in either, so a p50 alone can "
			 "differ between policies by the mode it fell in. A case's histogram, pooled "
			 "over its repetitions and boots, is laid on its log buckets and smoothed "
			 "over ±2 buckets; a mode is a peak holding at least 10% of the faults and "
			 "at least 50, separated from its neighbour by a valley below half the "
			 "smaller peak (lab/report/modes.h); its share counts every fault of its span, "
			 "\"near\" names its highest bucket." :
			 "Mode shares (wall clock): no case's pooled histogram had two modes by the "
			 "rule of lab/report/modes.h (peaks holding at least 10% of the faults and at least "
			 "50, separated by a valley below half the smaller peak).");
	else if (heading)
		doc_para(d, NULL, "Mode shares are shown for wall-clock runs only: an icount count "
			 "holds none of the host's timing noise that makes the wall clock "
			 "multimodal; a case whose kernel path varies can still spread (README, "
			 "\"Clocks\").");
	if (heading)
		doc_para(d, NULL, "Percentiles are pooled over the repetitions; \"interval of p50\" is "
			      "p50_ci95_low – p50_ci95_high, the order-statistic interval of the "
			      "per-repetition medians, with its true coverage (cov): below 95% with "
			      "fewer than 6 repetitions. \"faults\": pages timed. Scenario full holds "
			      "the preferred nodes full; pressure holds them full and leaves every "
			      "other node only what an overflow needs (bench/README.md).");
}

/* Cases of every bench that ended other than "completed" (the OOM test apart),
 * one line per (bench, page size, scenario, outcome, MiB) with its policies. */
static void sec_incomplete(struct doc *d, struct run *r, const struct entries *e)
{
	static const char *const cols[] = { "bench", "page size", "scenario", "outcome",
					    "MiB before it", "policies" };
	bool *done = xcalloc(r->nrows, sizeof(bool));
	size_t n = 0;

	for (size_t i = 0; i < r->nrows; i++) {
		struct row *w = &r->rows[i];
		const char *o = row_outcome(w);
		struct sbuf pols = { 0 };

		if (done[i] || !o || !strcmp(o, "completed") || !strcmp(w->f[COL_BENCH], "oom") ||
		    strcmp(w->f[COL_BOOT_STATUS], "ok"))
			continue;
		if (!n++) {
			doc_heading(d, 2, "incomplete", "Cases that did not complete (outside the OOM test)");
			doc_table_start(d, cols, sizeof(cols) / sizeof(cols[0]));
		}
		const struct row *mb = run_find(r, w->f[COL_BENCH], w->f[COL_POLICY], w->f[COL_NODES],
						w->f[COL_PAGESIZE], w->f[COL_SCENARIO],
						"mib_before_outcome");
		const struct row *cons = run_find(r, w->f[COL_BENCH], w->f[COL_POLICY], w->f[COL_NODES],
						  w->f[COL_PAGESIZE], w->f[COL_SCENARIO],
						  "oom_constraint_memory_policy");
		bool is_cons = cons && cons->numeric && cons->num == 1;
		double mib = numval_row(mb);
		size_t npol = 0;

		/* every policy whose same case ended the same way */
		for (size_t j = i; j < r->nrows; j++) {
			struct row *x = &r->rows[j];
			const char *ox = row_outcome(x);

			if (done[j] || !ox || strcmp(ox, o) || strcmp(x->f[COL_BENCH], w->f[COL_BENCH]) ||
			    strcmp(x->f[COL_PAGESIZE], w->f[COL_PAGESIZE]) ||
			    strcmp(x->f[COL_SCENARIO], w->f[COL_SCENARIO]) ||
			    strcmp(x->f[COL_BOOT_STATUS], "ok"))
				continue;
			const struct row *mbx = run_find(r, x->f[COL_BENCH], x->f[COL_POLICY],
							 x->f[COL_NODES], x->f[COL_PAGESIZE],
							 x->f[COL_SCENARIO], "mib_before_outcome");
			const struct row *cx = run_find(r, x->f[COL_BENCH], x->f[COL_POLICY],
							x->f[COL_NODES], x->f[COL_PAGESIZE],
							x->f[COL_SCENARIO], "oom_constraint_memory_policy");
			double mx = numval_row(mbx);

			if ((isnan(mx) != isnan(mib)) || (!isnan(mib) && mx != mib) ||
			    (cx && cx->numeric && cx->num == 1) != is_cons)
				continue;
			done[j] = true;
			x->used = true;
			sb_printf(&pols, "%s%s", npol++ ? ", " : "", x->f[COL_POLICY]);
		}
		char *out = is_cons ? xasprintf("%s (memory-policy constraint)", o) : xstrdup(o);
		bool all = npol == e->n && npol > 1;

		doc_row_start(d);
		doc_cell(d, w->f[COL_BENCH]);
		doc_cell(d, w->f[COL_PAGESIZE]);
		doc_cell(d, w->f[COL_SCENARIO]);
		doc_cell(d, out);
		doc_cell_num(d, mib);
		if (all) {
			char *t = xasprintf("all %zu", npol);

			doc_cell(d, t);
			free(t);
		} else
			doc_cell(d, pols.s);
		doc_row_end(d);
		free(out);
		sb_free(&pols);
	}
	free(done);
	if (n) {
		doc_table_end(d);
		doc_para(d, NULL, "Every case runs in a forked child; these ended early. setup_error "
			      "means the case never allocated (mmap or mbind failed); an OOM kill "
			      "of bind once its nodes are full is the expected behaviour.");
	}
}

/*
 * Bench fallback-order: per (policy, node set) and fallback order (the
 * scenario field: the mode flag the case's task put on its own policy), the
 * share on the preferred nodes, where the overflow went and the modeled read
 * latency of the placement.
 */
static void fallback_order_table(struct doc *d, struct run *r, const struct entries *e,
				 const struct strlist *settings, const char *metric)
{
	const char **cols = xcalloc(settings->n + 2, sizeof(*cols));

	cols[0] = "policy";
	cols[1] = "nodes";
	for (size_t s = 0; s < settings->n; s++)
		cols[s + 2] = settings->v[s];
	doc_table_start(d, cols, settings->n + 2);
	for (size_t i = 0; i < e->n; i++) {
		bool any = false;

		for (size_t s = 0; s < settings->n; s++)
			any |= run_find(r, "fallback-order", e->v[i].policy, e->v[i].nodes, NULL,
					settings->v[s], metric) != NULL;
		if (!any)
			continue;
		doc_row_start(d);
		doc_cell(d, e->v[i].policy);
		doc_cell(d, e->v[i].nodes);
		for (size_t s = 0; s < settings->n; s++) {
			const struct row *w = run_find(r, "fallback-order", e->v[i].policy,
						       e->v[i].nodes, NULL, settings->v[s], metric);
			double v = w && w->numeric ? w->num : NAN;

			if (!strcmp(metric, "fallback_node")) {
				char *text = isnan(v) ? xstrdup("-") : v < 0 ? xstrdup("none")
					     : xasprintf("node %.0f", v);

				doc_cell(d, text);
				free(text);
				continue;
			}
			if (!strcmp(metric, M_PREF))
				v *= w && (!strcmp(w->f[COL_UNIT], "%") ||
					   !strcmp(w->f[COL_UNIT], "percent")) ? 1 : 100;
			doc_cell_num(d, v);
		}
		doc_row_end(d);
	}
	doc_table_end(d);
	free(cols);
}

static void sec_fallback_order(struct doc *d, struct run *r, const struct entries *e)
{
	struct strlist settings = { 0 };

	for (size_t i = 0; i < r->nrows; i++)
		if (!strcmp(r->rows[i].f[COL_BENCH], "fallback-order") &&
		    !strcmp(r->rows[i].f[COL_BOOT_STATUS], "ok") &&
		    !strcmp(r->rows[i].f[COL_METRIC], M_PREF))
			sl_add(&settings, r->rows[i].f[COL_SCENARIO]);
	if (!settings.n)
		return;
	doc_heading(d, 2, "fallback-order", "Fallback orders, per task");
	doc_para(d, NULL, "An MPOL_PREFERRED_MANY allocation larger than the free memory of its "
		      "nodes, once per fallback order (columns), each by a task of its own that "
		      "puts its order on its own policy: local is no flag (the kernel's default), "
		      "nearest and tier the kernel series' mode flags MPOL_F_FALLBACK_NEAREST and "
		      "MPOL_F_FALLBACK_TIER; no system setting changes, and a kernel without the "
		      "series has only local. Pages on the preferred nodes (%):");
	fallback_order_table(d, r, e, &settings, M_PREF);
	doc_para(d, NULL, "Where the overflow went (the node outside the set with most of it):");
	fallback_order_table(d, r, e, &settings, "fallback_node");
	if (run_find(r, "fallback-order", NULL, NULL, NULL, NULL, "model_read_latency_ns")) {
		doc_para(d, NULL, "Modeled read latency of the whole placement (ns, page-weighted "
			      "HMAT figures from CPU 0's node; a model, not a measurement):");
		fallback_order_table(d, r, e, &settings, "model_read_latency_ns");
	}
	sl_free(&settings);
}

/*
 * Bench single-node: preferred against preferred-many with one CPU-less
 * preferred node, from a CPU away from it; where each one's overflow went
 * (rows fallback_node, and expected_node: the first node the SLIT gives).
 */
static void sec_single_node(struct doc *d, struct run *r)
{
	static const char *const cols[] = { "nodes", "policy", "from CPU (node)", "overflow to",
					    "nearest by SLIT", "pages outside" };
	static const char *const pols[] = { "preferred", "preferred-many" };
	struct strlist sets = { 0 };
	struct sbuf b = { 0 };

	if (!single_node_summary(r, &b)) {
		sb_free(&b);
		return;
	}
	doc_heading(d, 2, "single-node", "One preferred node: preferred and preferred-many");
	doc_para(d, NULL, "The node alone, held full; the same allocation past its free memory "
		      "under each policy, from the same CPU (one whose node is not the nearest "
		      "to the preferred node).");
	doc_paras(d, b.s);
	for (size_t i = 0; i < r->nrows; i++)
		if (!strcmp(r->rows[i].f[COL_BOOT_STATUS], "ok") && !strcmp(r->rows[i].f[COL_BENCH], "single-node"))
			sl_add(&sets, r->rows[i].f[COL_NODES]);
	doc_table_start(d, cols, sizeof(cols) / sizeof(cols[0]));
	for (size_t s = 0; s < sets.n; s++)
		for (size_t p = 0; p < sizeof(pols) / sizeof(pols[0]); p++) {
			const char *set = sets.v[s];
			struct row *wc = run_find(r, "single-node", pols[p], set, NULL, NULL, "cpu");
			struct row *wn = run_find(r, "single-node", pols[p], set, NULL, NULL, "cpu_node");
			struct row *wf = run_find(r, "single-node", pols[p], set, NULL, NULL,
						  "fallback_node");
			double ex = numval_row(run_find(r, "single-node", pols[p], set, NULL, NULL,
							"expected_node"));
			bool same;
			double v;
			char *t, *tc, *tn;

			if (!wc)
				continue;
			doc_row_start(d);
			doc_cell(d, set);
			doc_cell(d, pols[p]);
			/* ids are words: per boot when the boots disagree, never a median */
			tc = node_word(wc, &same, &v);
			t = same ? xasprintf("%.0f", v) : xasprintf("%s", tc);
			tn = node_word(wn, &same, &v);
			if (tn) {
				char *u = same ? xasprintf("%s (%.0f)", t, v) : xasprintf("%s (%s)", t, tn);

				free(t);
				t = u;
			}
			doc_cell(d, t);
			free(t);
			free(tc);
			free(tn);
			t = node_word(wf, &same, &v);
			doc_cell(d, t ? t : "-");
			free(t);
			t = isnan(ex) || ex < 0 ? xstrdup("-") : xasprintf("node %.0f", ex);
			doc_cell(d, t);
			free(t);
			doc_cell_num(d, numval_row(run_find(r, "single-node", pols[p], set, NULL, NULL,
							    "pages_fallback")));
			doc_row_end(d);
		}
	doc_table_end(d);
	sl_free(&sets);
	sb_free(&b);
}

/*
 * @lead: one of the figures under the verdict, sized so that a short verdict
 * and the first of them fit a 1280x800 window together.
 */
static int embed_figure(struct doc *d, const char *tmpdir, const struct figure *f, bool no_plots,
			bool lead)
{
	char *path = xasprintf("%s/%s.svg", tmpdir, f->name);
	char *data;
	size_t len;

	sb_puts(&d->html, "<figure id=\"fig-");
	sb_html(&d->html, f->name);
	sb_puts(&d->html, lead ? "\" class=\"lead\">\n" : "\">\n");
	sb_printf(&d->md, "**%s**", f->name);
	if (!no_plots) {
		if (read_file_all(path, &data, &len) < 0) {
			fprintf(stderr, "labtool: %s: %s\n", path, strerror(errno));
			free(path);
			return -1;
		}
		sb_puts(&d->html, "<img width=\"960\" height=\"540\" alt=\"");
		sb_html(&d->html, f->title);
		sb_puts(&d->html, "\" src=\"data:image/svg+xml;base64,");
		sb_base64(&d->html, (const unsigned char *)data, len);
		sb_puts(&d->html, "\">\n");
		free(data);
		sb_printf(&d->md, "\n\n![%s](plots/%s.png)\n\n", f->name, f->name);
	} else {
		sb_puts(&d->md, " (plots not generated)\n\n");
	}
	sb_puts(&d->html, "<figcaption>");
	doc_text(d, f->caption);
	if (!no_plots)
		sb_printf(&d->html, " <a href=\"plots/%s.svg\">SVG</a> <a href=\"plots/%s.png\">PNG</a>",
			  f->name, f->name);
	sb_printf(&d->html, " Data: <code>plots/data/%s.dat</code>.", f->name);
	sb_puts(&d->html, "</figcaption>\n</figure>\n");
	sb_puts(&d->md, "\n\n");
	free(path);
	return 0;
}

static void sec_topology(struct doc *d, struct run *r)
{
	doc_heading(d, 2, "topology", "Topology as the guest saw it");
	if (!r->have_topo) {
		doc_para(d, "warn", "guest-topology.csv is missing from this run, so the guest's view of "
				"its nodes is unknown.");
		return;
	}
	doc_para(d, NULL, "From the guest's own TOPO lines (guest-topology.csv): one row per NUMA node.");
	doc_table_start(d, (const char *const *)r->topo_csv.header, r->topo_csv.ncols);
	for (size_t i = 0; i < r->topo_csv.nrows; i++) {
		doc_row_start(d);
		for (size_t k = 0; k < r->topo_csv.ncols; k++)
			doc_cell(d, r->topo_csv.rows[i].field[k]);
		doc_row_end(d);
	}
	doc_table_end(d);
}

static void sec_environment(struct doc *d, struct run *r)
{
	static const char *const cols[] = { "what", "value" };

	doc_heading(d, 2, "environment", "Environment");
	if (!r->have_meta) {
		doc_para(d, "warn", "**meta.json is missing from this run.** The values below that are "
				"not \"not recorded\" come from the run's other files: the kernel release "
				"from the guest's META line (raw/channel-*.log), the accelerator as "
				"requested in run.args, the start time from started.");
	}
	doc_table_start(d, cols, 2);
	/* the labelled keys of lab/rundir/meta.h, in its order */
	for (int k = 0; k < META_NR; k++) {
		const char *v = run_meta(r, (enum meta_key)k);

		if (!meta_keys[k].label || meta_keys[k].type == META_TOPOLOGIES)
			continue;
		doc_row_start(d);
		doc_cell(d, meta_keys[k].label);
		doc_cell(d, v ? v : "not recorded");
		doc_row_end(d);
	}
	/* topologies: [{hash, file}, ...] */
	for (int i = 0;; i++) {
		const char *f = run_meta_topology(r, i, "file"), *hsh = run_meta_topology(r, i, "hash");

		if (!f && !hsh)
			break;
		char *v = xasprintf("%s (hash %s)", f ? f : "?", hsh ? hsh : "?");

		doc_row_start(d);
		doc_cell(d, meta_keys[META_topologies].label);
		doc_cell(d, v);
		doc_row_end(d);
		free(v);
	}
	/* the others (meta_format, clock, ...) under their own names */
	for (size_t i = 0; i < r->meta.n; i++) {
		int k = meta_key_lookup(r->meta.v[i].key);

		if (!strncmp(r->meta.v[i].key, "topologies.", 11) || (k >= 0 && meta_keys[k].label))
			continue;
		doc_row_start(d);
		doc_cell(d, r->meta.v[i].key);
		doc_cell(d, r->meta.v[i].value);
		doc_row_end(d);
	}
	/* what the guest measured about its own clock */
	for (size_t i = 0; i < r->nrows; i++) {
		struct row *w = &r->rows[i];

		if (strcmp(w->f[COL_METRIC], "clock_overhead") || strcmp(w->f[COL_BOOT_STATUS], "ok"))
			continue;
		char *v = xasprintf("%s %s per clock read (bench %s, boot %s)", w->f[COL_VALUE],
				    w->f[COL_UNIT], w->f[COL_BENCH], w->f[COL_BOOT_ID]);

		w->used = true;
		doc_row_start(d);
		doc_cell(d, "guest clock overhead");
		doc_cell(d, v);
		doc_row_end(d);
		free(v);
	}
	doc_table_end(d);
}

static void tcg_caveat(struct doc *d, struct run *r)
{
	const char *acc = run_meta(r, META_accelerator);

	if (acc && strcmp(acc, "tcg"))
		return;
	doc_para(d, "caveat",
	     acc ? "**Emulated CPU (TCG).** Every timing in this report is an emulation timing: "
		   "the guest's instructions are translated by QEMU, so latencies are far larger "
		   "than on hardware and include translation overhead. Compare policies within "
		   "this run, not with hardware numbers. QEMU does not make the \"slow\" nodes "
		   "slow either, so tier differences are modeled from the HMAT figures, not "
		   "measured."
		 : "**Accelerator not recorded.** Treat every timing as an emulation timing until "
		   "meta.json says otherwise.");
}

static void sec_limits(struct doc *d)
{
	doc_heading(d, 2, "limits", "What the emulation can and cannot show");
	sb_puts(&d->html, "<ul>\n");
	static const char *const items[] = {
		"The NUMA layout, node sizes and the HMAT latency/bandwidth tables are real to "
		"the guest kernel: policy decisions, fallback order, placement and OOM behaviour "
		"are the kernel's genuine behaviour on that layout.",
		"Every guest page is ordinary host memory. A PMEM or CXL node is exactly as fast "
		"as a DRAM node here, so measured timings cannot show tier differences; the "
		"\"modeled\" figures combine the measured placement with the HMAT numbers.",
		"Under TCG the CPU is emulated: fault latencies include translation overhead and "
		"host effects (host page faults on first touch, scheduling on a shared host). "
		"Confidence intervals capture run-to-run noise, not the emulation bias.",
		"The machine is small: capacities are in MiB, so fill curves and OOM thresholds "
		"are scaled-down versions of what a real machine would show.",
	};
	for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
		sb_puts(&d->html, "<li>");
		sb_html(&d->html, items[i]);
		sb_puts(&d->html, "</li>\n");
		sb_puts(&d->md, "- ");
		sb_md(&d->md, items[i]);
		sb_puts(&d->md, "\n");
	}
	sb_puts(&d->html, "</ul>\n");
	sb_puts(&d->md, "\n");
}

static void sec_checks(struct doc *d, struct run *r)
{
	static const char *const cols[] = { "boot", "step", "result", "#", "check", "note" };
	size_t ok = 0, fail = 0, skip = 0, rows = 0;

	for (size_t i = 0; i < r->nrows; i++)
		if (!strcmp(r->rows[i].f[COL_BENCH], "check"))
			rows++;
	doc_heading(d, 2, "checks", "Semantic checks (TAP)");
	if (!r->ntaps && !rows) {
		doc_para(d, NULL, "This run recorded no TAP checks (no boots/*.tap, no TAP lines in "
			      "raw/channel-*.log, no bench=check rows).");
		return;
	}
	for (size_t i = 0; i < r->ntaps; i++) {
		if (!strncmp(r->taps[i].directive, "SKIP", 4))
			skip++;
		else if (r->taps[i].ok)
			ok++;
		else
			fail++;
	}
	if (r->ntaps) {
		char *s = xasprintf("%s%zu passed, %zu failed, %zu skipped (from %s).%s",
				    fail ? "**" : "", ok, fail, skip,
				    r->tap_source ? r->tap_source : "TAP lines", fail ? "**" : "");

		doc_para(d, fail ? "warn" : NULL, s);
		free(s);
		{
			struct sbuf none = { 0 };

			if (all_skipped_steps(r, &none)) {
				s = xasprintf("**Checked nothing** (every check skipped, which is not a "
					      "pass): %s.", none.s);
				doc_para(d, "warn", s);
				free(s);
			}
			sb_free(&none);
		}
		doc_table_start(d, cols, 6);
		for (size_t i = 0; i < r->ntaps; i++) {
			const struct tap *t = &r->taps[i];
			char num[24];

			snprintf(num, sizeof(num), "%ld", t->number);
			doc_row_start(d);
			doc_cell(d, t->boot);
			doc_cell(d, t->group ? t->group : "");
			doc_cell(d, !strncmp(t->directive, "SKIP", 4) ? "skip" : t->ok ? "ok" : "NOT OK");
			doc_cell(d, num);
			doc_cell(d, t->text);
			doc_cell(d, t->directive);
			doc_row_end(d);
		}
		doc_table_end(d);
	}
	if (rows) {
		static const char *const c2[] = { "boot", "boot status", "policy", "metric", "value" };

		doc_para(d, NULL, "Check counts from summary.csv (bench=check):");
		doc_table_start(d, c2, 5);
		for (size_t i = 0; i < r->nrows; i++) {
			struct row *w = &r->rows[i];

			if (strcmp(w->f[COL_BENCH], "check"))
				continue;
			w->used = true;
			doc_row_start(d);
			doc_cell(d, w->f[COL_BOOT_ID]);
			doc_cell(d, w->f[COL_BOOT_STATUS]);
			doc_cell(d, w->f[COL_POLICY]);
			doc_cell(d, w->f[COL_METRIC]);
			doc_cell(d, w->f[COL_VALUE]);
			doc_row_end(d);
		}
		doc_table_end(d);
	}
}

/* a boot's rows the report leaves out (an invalid case's are named apart) */
static bool boot_bad(const struct row *w)
{
	return strcmp(w->f[COL_BOOT_STATUS], "ok") && strcmp(w->f[COL_BOOT_STATUS], "invalid");
}

/* Cases tierbench marked invalid: named, with their reason, and left out. */
static void sec_invalid(struct doc *d, struct run *r)
{
	static const char *const cols[] = { "bench", "policy", "nodes", "page size", "scenario",
					    "boot", "outcome", "reason" };
	size_t n = 0;

	for (size_t i = 0; i < r->nrows; i++) {
		const struct row *w = &r->rows[i];
		const char *o = row_outcome(w);
		struct sbuf why = { 0 };

		if (!o || !case_is_invalid(o) || strcmp(w->f[COL_BOOT_STATUS], "invalid"))
			continue;
		if (!n++) {
			doc_heading(d, 2, "invalid", "Invalid cases (left out of every table and figure)");
			doc_table_start(d, cols, sizeof(cols) / sizeof(cols[0]));
		}
		for (size_t j = 0; j < r->nrows; j++) {
			const struct row *x = &r->rows[j];

			if (!strncmp(x->f[COL_METRIC], "invalid_", 8) &&
			    !strcmp(x->f[COL_BOOT_ID], w->f[COL_BOOT_ID]) &&
			    !strcmp(x->f[COL_BENCH], w->f[COL_BENCH]) &&
			    !strcmp(x->f[COL_POLICY], w->f[COL_POLICY]) &&
			    !strcmp(x->f[COL_NODES], w->f[COL_NODES]) &&
			    !strcmp(x->f[COL_PAGESIZE], w->f[COL_PAGESIZE]) &&
			    !strcmp(x->f[COL_SCENARIO], w->f[COL_SCENARIO]))
				sb_printf(&why, "%s%s", why.s ? ", " : "", x->f[COL_METRIC] + 8);
		}
		doc_row_start(d);
		doc_cell(d, w->f[COL_BENCH]);
		doc_cell(d, w->f[COL_POLICY]);
		doc_cell(d, w->f[COL_NODES]);
		doc_cell(d, w->f[COL_PAGESIZE]);
		doc_cell(d, w->f[COL_SCENARIO]);
		doc_cell(d, w->f[COL_BOOT_ID]);
		doc_cell(d, o);
		doc_cell(d, why.s ? why.s : "-");
		doc_row_end(d);
		sb_free(&why);
	}
	if (n)
		doc_table_end(d);
}

static void sec_boot_problems(struct doc *d, struct run *r)
{
	struct strlist boots = { 0 };

	for (size_t i = 0; i < r->nrows; i++)
		if (boot_bad(&r->rows[i]))
			sl_add(&boots, r->rows[i].f[COL_BOOT_ID]);
	for (size_t b = 0; b < boots.n; b++) {
		size_t n = 0;
		const char *status = "";

		for (size_t i = 0; i < r->nrows; i++)
			if (!strcmp(r->rows[i].f[COL_BOOT_ID], boots.v[b]) && boot_bad(&r->rows[i])) {
				n++;
				status = r->rows[i].f[COL_BOOT_STATUS];
			}
		char *s = xasprintf("**Boot %s ended %s.** Its rows (%zu) are left out of the tables and "
				    "figures and listed under \"All figures\".",
				    boots.v[b], status, n);

		doc_para(d, "warn", s);
		free(s);
	}
	sl_free(&boots);
}

/* A row of summary.csv is shown when it, or the figure over boots it is part of, is. */
static bool row_shown(const struct row *w)
{
	return w->used || (w->agg && w->agg->used);
}

static void all_rows_table(struct doc *d, struct run *r)
{
	static const char *const cols[] = { "bench", "policy", "nodes", "page size", "scenario",
					    "metric", "value", "unit", "boot", "boot status" };
	static const enum row_col cc[] = { COL_BENCH, COL_POLICY, COL_NODES, COL_PAGESIZE,
					   COL_SCENARIO, COL_METRIC, COL_VALUE, COL_UNIT,
					   COL_BOOT_ID, COL_BOOT_STATUS };
	size_t unused = 0;
	struct doc only_html = { 0 }, only_md = { 0 };

	/* summary.csv's own rows, per boot: a row is shown when its figure is */
	for (size_t i = 0; i < r->nboot_rows; i++)
		unused += !row_shown(&r->boot_rows[i]);
	doc_heading(d, 2, "all-figures", "All figures");
	/* HTML: every row; Markdown: only the rows shown nowhere else. */
	char *s = xasprintf("summary.csv holds %zu rows; %zu of them appear in no table or figure "
			    "above (unknown benchmarks or metrics, or rows of failed boots).",
			    r->nboot_rows, unused);

	doc_para(d, NULL, s);
	free(s);
	doc_table_start(&only_html, cols, 10);
	for (size_t i = 0; i < r->nboot_rows; i++) {
		const struct row *w = &r->boot_rows[i];

		sb_printf(&only_html.html, "<tr%s>", row_shown(w) ? "" : " class=\"unshown\"");
		for (size_t k = 0; k < 10; k++) {
			sb_puts(&only_html.html, k == 6 && w->numeric ? "<td class=\"num\">" : "<td>");
			sb_html(&only_html.html, w->f[cc[k]]);
			sb_puts(&only_html.html, "</td>");
		}
		sb_puts(&only_html.html, "</tr>\n");
	}
	doc_table_end(&only_html);
	sb_puts(&d->html, "<details><summary>Show all rows</summary>\n");
	sb_puts(&d->html, only_html.html.s);
	sb_puts(&d->html, "</details>\n");
	if (unused) {
		sb_puts(&d->md, "Rows shown nowhere above (report.html lists all rows):\n\n");
		doc_table_start(&only_md, cols, 10);
		for (size_t i = 0; i < r->nboot_rows; i++) {
			if (row_shown(&r->boot_rows[i]))
				continue;
			doc_row_start(&only_md);
			for (size_t k = 0; k < 10; k++)
				doc_cell(&only_md, r->boot_rows[i].f[cc[k]]);
			doc_row_end(&only_md);
		}
		doc_table_end(&only_md);
		sb_puts(&d->md, only_md.md.s);
	}
	sb_free(&only_html.html);
	sb_free(&only_html.md);
	sb_free(&only_md.html);
	sb_free(&only_md.md);
}

/*
 * The figures an engineer looks for first, right under the verdict: where
 * each policy's pages went as the preferred nodes filled, then how each
 * allocation past them ended.  The tables follow them.
 */
static const char *const lead_kinds[] = { "fallback-fill", "oom" };

static bool figure_is_lead(const struct figure *f)
{
	for (size_t k = 0; k < sizeof(lead_kinds) / sizeof(lead_kinds[0]); k++)
		if (!strcmp(f->kind, lead_kinds[k]))
			return true;
	return false;
}

static int sec_lead_figures(struct doc *d, const char *tmpdir, const struct figures *figs,
			    bool no_plots)
{
	static const char *const missing[] = {
		"No fill curve: this run has no bench fallback fill@ rows.",
		"No OOM matrix: this run has no bench oom rows.",
	};

	for (size_t k = 0; k < sizeof(lead_kinds) / sizeof(lead_kinds[0]); k++) {
		size_t n = 0;

		for (size_t i = 0; i < figs->n; i++) {
			if (strcmp(figs->v[i].kind, lead_kinds[k]))
				continue;
			if (embed_figure(d, tmpdir, &figs->v[i], no_plots, true) < 0)
				return -1;
			n++;
		}
		if (!n)
			doc_para(d, NULL, missing[k]);
	}
	return 0;
}

/* Marked text in a box of class @cls, a paragraph per line. */
static void answer_box(struct doc *d, const char *cls, char *text)
{
	sb_printf(&d->html, "<div class=\"%s\">\n", cls);
	for (char *line = text, *nl; line && *line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		doc_para(d, NULL, line);
	}
	sb_puts(&d->html, "</div>\n");
}

static int build_docs(struct run *r, const struct report_opts *o, enum fits fits,
		      const char *tmpdir, const struct entries *e, const struct headline *h,
		      const struct figures *figs, struct doc *d)
{
	const char *topo = run_topology(r);
	const char *kernel = run_meta(r, META_kernel_release);
	const char *acc = run_meta(r, META_accelerator);
	struct sbuf rec = { 0 }, why = { 0 };
	char *s;

	sb_puts(&d->html, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			  "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
			  "img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
			  "<title>tierlab report: ");
	sb_html(&d->html, r->name);
	sb_puts(&d->html, "</title>\n<style>\n");
	sb_puts(&d->html, report_css);
	sb_puts(&d->html, "</style>\n</head>\n<body>\n<h1>");
	s = xasprintf("tierlab: %s, kernel %s", topo, kernel ? kernel : "not recorded");
	sb_html(&d->html, s);
	sb_puts(&d->html, "</h1>\n<p class=\"sub\">");
	sb_puts(&d->md, "# ");
	sb_md(&d->md, s);
	sb_puts(&d->md, "\n\n");
	free(s);
	{
		const char *start = run_meta(r, META_start);
		const char *series = run_meta(r, META_series_hash);

		s = xasprintf("Run %s · topology %s · kernel %s%s%s · accelerator %s%s · %zu policies · "
			      "%zu summary rows%s%s",
			      r->name, topo, kernel ? kernel : "(not recorded)",
			      series ? ", series " : "", series ? series : "",
			      acc ? acc : "(not recorded)",
			      acc && !r->have_meta ? " (requested, run.args)" : "", e->n, r->nrows,
			      start ? " · started " : "", start ? start : "");
	}
	doc_text(d, s);
	free(s);
	sb_puts(&d->html, "</p>\n<nav><a href=\"#headline\">headline</a><a href=\"#figures\">"
			  "figures</a><a href=\"#topology\">topology</a><a href=\"#environment\">"
			  "environment</a><a href=\"#limits\">limits</a><a href=\"#checks\">checks"
			  "</a><a href=\"#all-figures\">all figures</a></nav>\n");
	sb_puts(&d->md, "\n\n");

	delay_caveat(d, r);
	doc_heading(d, 2, "answer", "Which policy?");
	recommendation(r, e, h, fits, &rec, &why);
	/* the verdict in one box, a paragraph per line; its figures; then the rule and the fault cost */
	answer_box(d, "answer", rec.s);
	sb_free(&rec);
	if (sec_lead_figures(d, tmpdir, figs, o->no_plots) < 0) {
		sb_free(&why);
		return -1;
	}
	doc_heading(d, 3, "why", "The rule, and the fault cost behind it");
	answer_box(d, "answer why", why.s);
	sb_free(&why);
	tcg_caveat(d, r);
	sec_boot_problems(d, r);
	sec_invalid(d, r);
	sec_headline(d, r, e, h);
	sec_model_fill(d, r, e, h);
	sec_access(d, r, e, h);
	sec_delay(d, r);
	sec_incomplete(d, r, e);
	sec_latency(d, r, e);
	sec_fallback_order(d, r, e);
	sec_single_node(d, r);
	sec_fill_levels(d, r);
	sec_features(d, r);
	sec_tiering(d, r);
	sec_threads(d, r);
	sec_reclaim(d, r);

	doc_heading(d, 2, "figures", "Figures");
	{
		size_t nlead = 0;

		for (size_t i = 0; i < figs->n; i++)
			nlead += figure_is_lead(&figs->v[i]);
		if (!figs->n)
			doc_para(d, NULL, "This run has no data for any figure.");
		else if (nlead == figs->n)
			doc_para(d, NULL, "The figures under the verdict are this run's only ones.");
		else if (nlead)
			doc_para(d, NULL, "The fill curve and the OOM matrix are under the verdict; "
				      "the other figures follow.");
	}
	if (o->no_plots && figs->n)
		doc_para(d, NULL, "Plots were not generated (--no-plots); the data files are in plots/data/.");
	for (size_t i = 0; i < figs->n; i++)
		if (!figs->v[i].secondary && !figure_is_lead(&figs->v[i]) &&
		    embed_figure(d, tmpdir, &figs->v[i], o->no_plots, false) < 0)
			return -1;
	{
		size_t nsec = 0;

		for (size_t i = 0; i < figs->n; i++)
			nsec += figs->v[i].secondary && !figure_is_lead(&figs->v[i]);
		if (nsec) {
			char *t = xasprintf("Fault latency under the other conditions (%zu figures)", nsec);

			sb_puts(&d->html, "<details><summary>");
			sb_html(&d->html, t);
			sb_puts(&d->html, "</summary>\n");
			sb_puts(&d->md, "<details><summary>");
			sb_md(&d->md, t);
			sb_puts(&d->md, "</summary>\n\n");
			free(t);
			for (size_t i = 0; i < figs->n; i++)
				if (figs->v[i].secondary && !figure_is_lead(&figs->v[i]) &&
				    embed_figure(d, tmpdir, &figs->v[i], o->no_plots, false) < 0)
					return -1;
			sb_puts(&d->html, "</details>\n");
			sb_puts(&d->md, "</details>\n\n");
		}
	}
	sec_topology(d, r);
	sec_environment(d, r);
	sec_limits(d);
	sec_checks(d, r);
	all_rows_table(d, r);

	sb_puts(&d->html, "<footer><p>Generated by <code>labtool report</code> from this run's "
			  "summary.csv, guest-topology.csv, meta.json and raw/ alone; regenerate "
			  "with <code>make report RUN=results/");
	sb_html(&d->html, r->name);
	sb_puts(&d->html, "</code>.</p>\n<p id=\"image-check\" data-state=\"pending\">Figures not "
			  "checked yet.</p></footer>\n");
	sb_puts(&d->html, image_check_js);
	sb_puts(&d->html, "</body>\n</html>\n");
	sb_puts(&d->md, "\n---\nGenerated by `labtool report` from this run's files alone; "
			"regenerate with `make report RUN=results/");
	sb_md(&d->md, r->name);
	sb_puts(&d->md, "`.\n");
	return 0;
}

/* Replace <run>/plots by the freshly built directory, never leaving a mix. */
static int swap_plots(const char *dir, const char *tmpdir)
{
	char *final = xasprintf("%s/plots", dir);
	char *old = xasprintf("%s/.plots.old-%ld", dir, (long)getpid());
	struct stat sb;
	int rc = -1;
	bool had_old = stat(final, &sb) == 0;

	if (had_old && rename(final, old) < 0) {
		fprintf(stderr, "labtool: cannot move %s aside: %s\n", final, strerror(errno));
		goto out;
	}
	if (rename(tmpdir, final) < 0) {
		fprintf(stderr, "labtool: cannot rename %s to %s: %s\n", tmpdir, final,
			strerror(errno));
		if (had_old && rename(old, final) < 0)
			fprintf(stderr, "labtool: old plots left in %s\n", old);
		goto out;
	}
	if (had_old && remove_tree(old) < 0)
		fprintf(stderr, "labtool: warning: cannot remove %s: %s\n", old, strerror(errno));
	rc = 0;
out:
	free(final);
	free(old);
	return rc;
}

int report_run(const char *dir, const struct report_opts *o)
{
	struct run r;
	struct entries e;
	struct headline h;
	struct figures figs = { 0 };
	struct doc d = { 0 };
	char *tmpdir = NULL, *datadir = NULL, *suffix = NULL;
	const char *fits_word;
	enum fits fits = FITS_UNKNOWN;
	int rc = 1;

	if (run_load(dir, &r) < 0)
		return 65;
	/* what the user said of the workload: --fits, else the run's own */
	fits_word = o->fits ? o->fits : run_meta(&r, META_fits);
	if (fits_word && fits_parse(fits_word, &fits) < 0) {
		fprintf(stderr, "labtool report: %s%s: fits: '%s' is not yes, no or unknown\n",
			o->fits ? "--fits" : dir, o->fits ? "" : "/meta.json", fits_word);
		run_free(&r);
		return 65;
	}
	/* a newer format's rows may mean something else under the same name */
	{
		const char *fmt = run_meta(&r, META_summary_format);
		char *end;
		long v = fmt ? strtol(fmt, &end, 10) : 1;

		if (fmt && (end == fmt || *end || v < 1 || v > SUMMARY_FORMAT)) {
			fprintf(stderr, "labtool report: %s/meta.json: summary_format: '%s' is not "
					"1 to %d (a run of a newer lab?)\n", dir, fmt, SUMMARY_FORMAT);
			run_free(&r);
			return 65;
		}
	}
	collect_entries(&r, &e);
	compute_headline(&r, &e, &h);
	{
		const char *kernel = run_meta(&r, META_kernel_release);

		suffix = xasprintf("%s, kernel %s", run_topology(&r), kernel ? kernel : "not recorded");
	}
	tmpdir = xasprintf("%s/.plots.tmp-%ld", r.dir, (long)getpid());
	datadir = xasprintf("%s/data", tmpdir);
	if (remove_tree(tmpdir) < 0 || mkdir(tmpdir, 0755) < 0 || mkdir(datadir, 0755) < 0) {
		fprintf(stderr, "labtool: cannot create %s: %s\n", datadir, strerror(errno));
		rc = 74;
		goto out;
	}
	if (make_figures(&r, &e, &h, o->scripts, tmpdir, suffix, o->no_plots, &figs) < 0) {
		rc = 70;
		goto out;
	}
	if (build_docs(&r, o, fits, tmpdir, &e, &h, &figs, &d) < 0) {
		rc = 70;
		goto out;
	}
	if (swap_plots(r.dir, tmpdir) < 0) {
		rc = 74;
		goto out;
	}
	free(tmpdir);
	tmpdir = NULL;
	for (int k = 0; k < 2; k++) {
		char *path = xasprintf("%s/report.%s", r.dir, k ? "md" : "html");
		struct sbuf *b = k ? &d.md : &d.html;

		if (write_file_atomic(path, b->s, b->len) < 0) {
			fprintf(stderr, "labtool: %s: %s\n", path, strerror(errno));
			free(path);
			rc = 74;
			goto out;
		}
		printf("%s\n", path);
		free(path);
	}
	rc = 0;
out:
	if (tmpdir)
		remove_tree(tmpdir);
	free(tmpdir);
	free(datadir);
	free(suffix);
	sb_free(&d.html);
	sb_free(&d.md);
	figures_free(&figs);
	headline_free(&h);
	entries_free(&e);
	run_free(&r);
	return rc;
}
