// SPDX-License-Identifier: GPL-2.0
/*
 * `labtool compare`: the same figures of several runs side by side (two
 * kernels, two fallback settings, two topologies), each difference taken
 * against the first run.  Every figure is the median over its run's boots.
 * A median fault latency (p50 of latency, latency_task) gets a verdict by
 * lab/report/verdict.h, unpaired over the boots of the two runs: "higher"/"lower"
 * only when the Hodges-Lehmann interval of the shift has 95 % coverage and
 * excludes 0 (4 boots a run), or under icount when every pair of boots
 * differs the same way by at least the runs' spread between identical cases
 * (the A/A pair and each case from boot to boot); otherwise "not
 * distinguishable" with the boots that could settle it.  Other figures get
 * a difference but no verdict.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_int.h"

/*
 * Rows are matched on everything but nodes when the runs are of different
 * topologies (node ids differ between them); when every run is of the same
 * topology the nodes must match too, so that cases of one benchmark on
 * different node sets (fallback-order's pmem:2 and pmem:3) stay apart.
 */
struct key {
	const char *bench, *policy, *nodes, *pagesize, *scenario, *metric, *unit;
	const struct row *first;	/* the row that made the key */
	int first_run;
};
static bool match_nodes;
/* A run has one key's figure on several node sets: only one is compared. */
static bool multi_nodes;

/* The topology a run is of: its rows' (meta.json has only the files); NULL unknown. */
static const char *run_topology(const struct run *r)
{
	return r->nrows ? r->rows[0].f[COL_TOPOLOGY] : NULL;
}

static bool key_eq(const struct key *k, const struct row *w)
{
	return !strcmp(k->bench, w->f[COL_BENCH]) && !strcmp(k->policy, w->f[COL_POLICY]) &&
	       (!k->nodes || !strcmp(k->nodes, w->f[COL_NODES])) &&
	       !strcmp(k->pagesize, w->f[COL_PAGESIZE]) && !strcmp(k->scenario, w->f[COL_SCENARIO]) &&
	       !strcmp(k->metric, w->f[COL_METRIC]);
}

static const struct row *find_key(const struct run *r, const struct key *k, const char *metric)
{
	struct key m = *k;

	if (metric)
		m.metric = metric;
	for (size_t i = 0; i < r->nrows; i++)
		if (!strcmp(r->rows[i].f[COL_BOOT_STATUS], "ok") && key_eq(&m, &r->rows[i]))
			return &r->rows[i];
	return NULL;
}

static bool is_ci_metric(const char *m)
{
	return !strcmp(m, M_CI_LO) || !strcmp(m, M_CI_HI) || !strcmp(m, M_CI_COV);
}

static bool is_latency_p50(const struct key *k)
{
	return (!strcmp(k->bench, "latency") || !strcmp(k->bench, "latency_task")) &&
	       !strcmp(k->metric, M_P50);
}

struct cmp {
	double a, b, d;
	struct verdict v;	/* VERDICT_NONE: not tested */
	size_t na, nb;		/* boots each side */
	bool have;
};

/*
 * The larger of the two runs' spreads between identical cases for the key's
 * condition (icount_floor), NAN when neither has an A/A pair.
 */
static double runs_icount_floor(struct run *ra, struct run *rb, const struct key *k)
{
	double x = icount_floor(ra, k->pagesize, k->scenario);
	double y = icount_floor(rb, k->pagesize, k->scenario);

	return isnan(x) ? y : isnan(y) ? x : x > y ? x : y;
}

static struct cmp compare_one(struct run *ra, struct run *rb, const struct key *k)
{
	const struct row *a = find_key(ra, k, NULL), *b = find_key(rb, k, NULL);
	struct cmp c = { NAN, NAN, NAN, { VERDICT_NONE, NAN, NAN, NAN, 0, false, NAN, NAN, 0 }, 0, 0, false };

	if (!a || !b || !a->numeric || !b->numeric)
		return c;
	c.have = true;
	c.a = a->num;
	c.b = b->num;
	c.d = b->num - a->num;
	if (is_latency_p50(k) && a->over && b->over && a->over->v && b->over->v) {
		struct verdict_in in = { a->over->v, b->over->v, a->over->n, b->over->n, false,
					 !strcmp(run_time_unit(ra), "insn") &&
					 !strcmp(run_time_unit(rb), "insn"),
					 runs_icount_floor(ra, rb, k) };

		c.na = a->over->n;
		c.nb = b->over->n;
		c.v = verdict_decide(&in);
	}
	return c;
}

/* "higher (...)", "not distinguishable with 2+2 boots; run --boots 4", "" */
static void verdict_text(const struct cmp *c, const char *unit, struct sbuf *b)
{
	char lo[32], hi[32], cov[32];

	if (c->v.kind == VERDICT_NONE)
		return;
	if (c->v.kind == VERDICT_SAME) {
		sb_printf(b, "≈ not distinguishable with %zu+%zu boots", c->na, c->nb);
		if (c->v.boots_needed > VERDICT_MAX_BOOTS)
			sb_printf(b, "; more than %d boots would be needed", VERDICT_MAX_BOOTS);
		else if (c->v.boots_needed)
			sb_printf(b, "; run --boots %zu", c->v.boots_needed);
		else if (c->v.dmin == 0 && c->v.dmax == 0)
			sb_puts(b, ": the same in every boot");
		else
			sb_puts(b, ": the median difference over boots is 0");
		return;
	}
	fmt_num(cov, sizeof(cov), 100 * c->v.coverage);
	fmt_num(lo, sizeof(lo), c->v.lo);
	fmt_num(hi, sizeof(hi), c->v.hi);
	sb_puts(b, verdict_word(c->v.kind));
	if (c->v.by_aa)
		sb_printf(b, " (every boot the same way; the median difference at least the spread "
			     "between identical cases, %s)", unit);
	else
		sb_printf(b, " (%s%% interval over boots [%s, %s])", cov, lo, hi);
}

static void value_text(const struct run *r, const struct key *k, struct sbuf *b)
{
	const struct row *w = find_key(r, k, NULL);
	char v[32], lo[32], hi[32];

	b->len = 0;
	sb_puts(b, "");
	if (!w) {
		sb_puts(b, "—");
		return;
	}
	if (!w->numeric) {
		sb_puts(b, w->f[COL_VALUE]);
		return;
	}
	fmt_num(v, sizeof(v), w->num);
	sb_puts(b, v);
	if (w->over && w->over->n > 1 && w->over->v) {
		fmt_num(lo, sizeof(lo), w->over->lo);
		fmt_num(hi, sizeof(hi), w->over->hi);
		sb_printf(b, " [%s, %s]", lo, hi);
	}
}

static void diff_text(struct run *ra, struct run *rb, const struct key *k,
		      struct sbuf *b, struct cmp *out)
{
	struct cmp c = compare_one(ra, rb, k);
	char d[32];

	b->len = 0;
	sb_puts(b, "");
	*out = c;
	if (!c.have) {
		const struct row *x = find_key(ra, k, NULL), *y = find_key(rb, k, NULL);

		if (x && y && !x->numeric && !y->numeric)
			sb_puts(b, strcmp(x->f[COL_VALUE], y->f[COL_VALUE]) ? "differs" : "same");
		else
			sb_puts(b, "—");
		return;
	}
	fmt_num(d, sizeof(d), c.d);
	sb_printf(b, "%s%s", c.d > 0 ? "+" : "", d);
	if (c.a != 0) {
		fmt_num(d, sizeof(d), 100 * c.d / fabs(c.a));
		sb_printf(b, " (%s%s%%)", c.d > 0 ? "+" : "", d);
	}
	if (c.v.kind != VERDICT_NONE) {
		sb_putc(b, ' ');
		verdict_text(&c, run_time_unit(ra), b);
	}
}

static void add_key(struct key **keys, size_t *n, const struct row *w, int run)
{
	for (size_t i = 0; i < *n; i++)
		if (key_eq(&(*keys)[i], w)) {
			const struct row *f = (*keys)[i].first;

			multi_nodes |= (*keys)[i].first_run == run &&
				       !strcmp(f->f[COL_BOOT_ID], w->f[COL_BOOT_ID]) &&
				       strcmp(f->f[COL_NODES], w->f[COL_NODES]);
			return;
		}
	*keys = xrealloc(*keys, (*n + 1) * sizeof(**keys));
	(*keys)[(*n)++] = (struct key){ w->f[COL_BENCH], w->f[COL_POLICY],
					 match_nodes ? w->f[COL_NODES] : NULL, w->f[COL_PAGESIZE],
					 w->f[COL_SCENARIO], w->f[COL_METRIC], w->f[COL_UNIT], w, run };
}

static void nodes_text(struct run *runs, int n, const struct key *k, struct sbuf *b)
{
	struct strlist l = { 0 };

	b->len = 0;
	sb_puts(b, "");
	for (int i = 0; i < n; i++) {
		const struct row *w = find_key(&runs[i], k, NULL);

		if (w)
			sl_add(&l, w->f[COL_NODES]);
	}
	for (size_t i = 0; i < l.n; i++)
		sb_printf(b, "%s%s", i ? " / " : "", l.v[i]);
	sl_free(&l);
}

static void metric_table(struct doc *d, struct sbuf *csv, struct run *runs, int n,
			 const struct key *keys, size_t nkeys, bool latency_medians)
{
	size_t ncols = 6 + (size_t)n + (size_t)(n - 1);
	const char **cols = xcalloc(ncols, sizeof(*cols));
	char **owned = xcalloc(ncols, sizeof(*owned));
	struct sbuf t = { 0 };
	size_t c = 0;

	cols[c++] = "bench";
	cols[c++] = "policy";
	cols[c++] = "nodes";
	cols[c++] = "page size";
	cols[c++] = "scenario";
	cols[c++] = "metric (unit)";
	for (int i = 0; i < n; i++) {
		owned[c] = xasprintf("run %d", i + 1);
		cols[c] = owned[c];
		c++;
	}
	for (int i = 1; i < n; i++) {
		owned[c] = xasprintf("run %d − run 1", i + 1);
		cols[c] = owned[c];
		c++;
	}
	doc_table_start(d, cols, ncols);
	for (size_t k = 0; k < nkeys; k++) {
		const struct key *key = &keys[k];
		bool is_p50 = is_latency_p50(key);

		if (is_p50 != latency_medians || is_ci_metric(key->metric))
			continue;
		doc_row_start(d);
		doc_cell(d, key->bench);
		doc_cell(d, key->policy);
		nodes_text(runs, n, key, &t);
		doc_cell(d, t.s);
		doc_cell(d, key->pagesize);
		doc_cell(d, key->scenario);
		char *m = *key->unit && strcmp(key->unit, "-") ? xasprintf("%s (%s)", key->metric, key->unit)
							       : xstrdup(key->metric);

		doc_cell(d, m);
		free(m);
		for (int i = 0; i < n; i++) {
			value_text(&runs[i], key, &t);
			doc_cell(d, t.s);
		}
		for (int i = 1; i < n; i++) {
			struct cmp cm;

			diff_text(&runs[0], &runs[i], key, &t, &cm);
			doc_cell(d, t.s);
			{
				const struct row *w = find_key(&runs[i], key, NULL);

				sb_printf(csv, "%s,%s,%s,%s,%s,%s,%d,", key->bench, key->policy,
					  w ? w->f[COL_NODES] : "-", key->pagesize, key->scenario,
					  key->metric, i + 1);
			}
			if (cm.have)
				sb_printf(csv, "%.9g,%.9g,%.9g,", cm.a, cm.b, cm.d);
			else
				sb_puts(csv, ",,,");
			if (cm.v.kind != VERDICT_NONE)
				sb_printf(csv, "%.9g,%.9g,", cm.v.lo, cm.v.hi);
			else
				sb_puts(csv, ",,");
			sb_printf(csv, "%s\n", !cm.have ? "" : cm.v.kind == VERDICT_SAME ? "same"
						   : cm.v.kind == VERDICT_HIGHER ? "higher"
						   : cm.v.kind == VERDICT_LOWER ? "lower" : "not-tested");
		}
		doc_row_end(d);
	}
	doc_table_end(d);
	for (size_t i = 0; i < ncols; i++)
		free(owned[i]);
	free(owned);
	free(cols);
	sb_free(&t);
}

/*
 * The comparison's figure: every median fault latency that has an interval
 * in both runs, as "run k − run 1" in percent of run 1's median, with the
 * bracket of the difference; coloured by verdict.  Returns the rows written
 * to @dat (0: no figure).
 */
static size_t latency_figure_data(struct run *runs, int n, const struct key *keys, size_t nkeys,
				  struct sbuf *dat)
{
	size_t rows = 0;

	sb_puts(dat, "# label delta_pct lo_pct hi_pct colour (run k - run 1, % of run 1)\n");
	for (size_t k = 0; k < nkeys; k++) {
		const struct key *key = &keys[k];

		if ((strcmp(key->bench, "latency") && strcmp(key->bench, "latency_task")) ||
		    strcmp(key->metric, M_P50))
			continue;
		for (int i = 1; i < n; i++) {
			struct cmp c = compare_one(&runs[0], &runs[i], key);
			const struct row *w = find_key(&runs[i], key, NULL);
			struct sbuf label = { 0 };

			if (!c.have || c.v.kind == VERDICT_NONE || c.a == 0)
				continue;
			sb_printf(&label, "%s%s %s %s %s", strcmp(key->bench, "latency") ? "task " : "",
				  key->policy, w ? w->f[COL_NODES] : "", key->pagesize, key->scenario);
			if (n > 2)
				sb_printf(&label, " · run %d", i + 1);
			sb_putc(dat, '"');
			for (const char *q = label.s; *q; q++)
				sb_putc(dat, *q == '"' ? '\'' : *q);
			sb_printf(dat, "\" %.6g %.6g %.6g %lu\n", 100 * c.d / fabs(c.a),
				  100 * c.v.lo / fabs(c.a), 100 * c.v.hi / fabs(c.a),
				  c.v.kind == VERDICT_HIGHER ? 0xc0392bUL
				  : c.v.kind == VERDICT_LOWER ? 0x1e8449UL : 0x7f8c8dUL);
			sb_free(&label);
			rows++;
		}
	}
	return rows;
}

#define FIG_NAME "compare-latency"

/* No file of the figure, nor gnuplot's temporary output, stays in @outdir. */
static void unlink_figure(const char *outdir)
{
	static const char *const files[] = { FIG_NAME ".dat", FIG_NAME ".svg", FIG_NAME ".png",
					     "." FIG_NAME ".tmp.svg", "." FIG_NAME ".tmp.png",
					     "." FIG_NAME ".log" };

	for (size_t k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
		char *p = xasprintf("%s/%s", outdir, files[k]);

		unlink(p);
		free(p);
	}
}

/*
 * Writes OUTDIR/compare-latency.{dat,svg,png} (gnuplot's output under a
 * temporary name first) and returns the SVG in @svg; -1 after naming the
 * failure, with no file of the figure left in OUTDIR.
 */
static int render_figure(const char *outdir, const char *scripts, const struct sbuf *dat,
			 size_t rows, char **svg, size_t *svg_len)
{
	char *datp = xasprintf("%s/" FIG_NAME ".dat", outdir);
	char *tmp = xasprintf("%s/." FIG_NAME ".tmp", outdir);
	char *scr = xasprintf("%s/compare.gp", scripts);
	char *log = xasprintf("%s/." FIG_NAME ".log", outdir);
	char nrows[24];
	int rc = -1;

	snprintf(nrows, sizeof(nrows), "%zu", rows);
	if (write_file_atomic(datp, dat->s, dat->len) < 0) {
		fprintf(stderr, "labtool compare: %s: %s\n", datp, strerror(errno));
		goto out;
	}
	{
		char *argv[] = { "gnuplot", "-c", scr, datp, tmp,
				 "median fault latency: run k − run 1", nrows, NULL };

		if (run_gnuplot(argv, log, "labtool compare") < 0)
			goto out;
	}
	for (int k = 0; k < 2; k++) {
		const char *ext = k ? "png" : "svg";
		char *from = xasprintf("%s.%s", tmp, ext);
		char *to = xasprintf("%s/" FIG_NAME ".%s", outdir, ext);
		struct stat sb;
		int bad = stat(from, &sb) < 0 || sb.st_size == 0 || rename(from, to) < 0;

		if (bad)
			fprintf(stderr, "labtool compare: gnuplot did not write %s\n", from);
		free(from);
		free(to);
		if (bad)
			goto out;
	}
	{
		char *p = xasprintf("%s/" FIG_NAME ".svg", outdir);
		int r = read_file_all(p, svg, svg_len);

		if (r < 0)
			fprintf(stderr, "labtool compare: %s: %s\n", p, strerror(errno));
		free(p);
		if (r < 0)
			goto out;
	}
	rc = 0;
out:
	if (rc < 0)
		unlink_figure(outdir);
	unlink(log);
	free(datp);
	free(tmp);
	free(scr);
	free(log);
	return rc;
}

/* CSV fields come from CSV files; keep them parseable. */
static bool csv_safe(const struct run *r)
{
	for (size_t i = 0; i < r->nrows; i++)
		for (int k = 0; k < NR_ROW_COLS; k++)
			if (strpbrk(r->rows[i].f[k], ",\"\n\r"))
				return false;
	return true;
}

int compare_runs(char **dirs, int n, const char *outdir, const char *scripts)
{
	struct run *runs = xcalloc((size_t)n, sizeof(*runs));
	struct doc d = { 0 };
	struct sbuf csv = { 0 };
	struct key *keys = NULL;
	struct sbuf dat = { 0 };
	char *svg = NULL;
	size_t nkeys = 0, fig_rows, svg_len = 0;
	int loaded = 0, rc = 65;
	bool safe = true, created = false;

	for (; loaded < n; loaded++)
		if (run_load(dirs[loaded], &runs[loaded]) < 0)
			goto out;
	/* guest instructions and nanoseconds are not one quantity */
	for (int i = 1; i < n; i++)
		if (strcmp(run_time_unit(&runs[i]), run_time_unit(&runs[0]))) {
			fprintf(stderr, "labtool compare: %s: timings in %s, but %s has them in %s "
				"(--clock %s vs %s): compare runs of one clock\n", dirs[i],
				time_unit_words(run_time_unit(&runs[i])), dirs[0],
				time_unit_words(run_time_unit(&runs[0])),
				!strcmp(run_time_unit(&runs[i]), "insn") ? "icount" : "wall",
				!strcmp(run_time_unit(&runs[0]), "insn") ? "icount" : "wall");
			goto out;
		}
	{
		const char *t0 = run_topology(&runs[0]);

		multi_nodes = false;
		match_nodes = t0 != NULL;
		for (int i = 1; i < n && match_nodes; i++)
			match_nodes = run_topology(&runs[i]) && !strcmp(run_topology(&runs[i]), t0);
	}
	for (int i = 0; i < n; i++) {
		safe &= csv_safe(&runs[i]);
		for (size_t k = 0; k < runs[i].nrows; k++)
			if (!strcmp(runs[i].rows[k].f[COL_BOOT_STATUS], "ok"))
				add_key(&keys, &nkeys, &runs[i].rows[k], i);
	}

	fig_rows = latency_figure_data(runs, n, keys, nkeys, &dat);
	rc = 74;
	if (mkdir(outdir, 0755) == 0)
		created = true;
	else if (errno != EEXIST) {
		fprintf(stderr, "labtool compare: %s: %s\n", outdir, strerror(errno));
		goto out;
	}
	if (fig_rows && scripts) {
		if (render_figure(outdir, scripts, &dat, fig_rows, &svg, &svg_len) < 0) {
			rc = 70;
			goto out;
		}
	} else {
		/* nothing of an earlier comparison's figure stays beside this one */
		unlink_figure(outdir);
		if (fig_rows) {
			char *p = xasprintf("%s/" FIG_NAME ".dat", outdir);
			int r = write_file_atomic(p, dat.s, dat.len);

			if (r < 0)
				fprintf(stderr, "labtool compare: %s: %s\n", p, strerror(errno));
			free(p);
			if (r < 0)
				goto out;
		}
	}

	sb_puts(&d.html, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			 "<title>tierlab comparison</title>\n<style>\n");
	sb_puts(&d.html, report_css);
	sb_puts(&d.html, "td{white-space:nowrap}</style>\n</head>\n<body>\n<h1>tierlab comparison</h1>\n");
	sb_puts(&d.md, "# tierlab comparison\n\n");
	{
		static const char *const cols[] = { "run", "directory", "topology", "kernel release",
						    "series hash", "accelerator", "QEMU" };
		struct strlist accs = { 0 }, topos = { 0 }, kernels = { 0 };

		doc_heading(&d, 2, "runs", "Runs");
		doc_table_start(&d, cols, 7);
		for (int i = 0; i < n; i++) {
			const struct run *r = &runs[i];
			const char *topo = run_topology(r);
			const char *acc = run_meta(r, META_accelerator);
			const char *kr = run_meta(r, META_kernel_release);
			char num[16];

			sl_add(&accs, acc ? acc : "?");
			sl_add(&topos, topo ? topo : "?");
			sl_add(&kernels, kr ? kr : "?");
			snprintf(num, sizeof(num), "%d", i + 1);
			doc_row_start(&d);
			doc_cell(&d, num);
			doc_cell(&d, r->name);
			doc_cell(&d, topo ? topo : "not recorded");
			doc_cell(&d, kr ? kr : "not recorded");
			doc_cell(&d, run_meta(r, META_series_hash) ? run_meta(r, META_series_hash) : "—");
			doc_cell(&d, acc ? acc : "not recorded");
			doc_cell(&d, run_meta(r, META_qemu_version) ? run_meta(r, META_qemu_version) : "—");
			doc_row_end(&d);
		}
		doc_table_end(&d);
		doc_para(&d, NULL, match_nodes ? "All runs are of one topology: rows are matched on "
						 "bench, policy, node set, page size, scenario and metric."
					       : "Rows are matched on bench, policy, page size, scenario "
						 "and metric — not on node ids, which differ between "
						 "topologies.");
		doc_para(&d, NULL, "Every difference is \"run k − run 1\". For median fault latency the bracket is "
			       "[lo_k − hi_1, hi_k − lo_1] from the two runs' intervals of the median "
			       "(p50_ci95_low/high; with fewer than 6 repetitions their true coverage, "
			       "p50_ci_coverage, is below 95%); it contains 0 exactly when the "
			       "intervals overlap, and then **no difference is claimed**. Other "
			       "figures carry no interval, so their differences are not "
			       "tested.");
		if (accs.n > 1)
			doc_para(&d, "warn", "**The runs used different accelerators** (TCG vs KVM): their "
					 "timings are not comparable; only placement and OOM figures are.");
		if (multi_nodes)
			doc_para(&d, "warn", "**Different topologies, several node sets per figure** "
					 "(e.g. fallback-order's single-node cases): rows are matched "
					 "without their node set, so only the first node set of each "
					 "figure is compared.");
		if (topos.n > 1 && kernels.n > 1)
			doc_para(&d, "warn", "**Both the topology and the kernel differ** between runs: a "
					 "difference mixes the two effects.");
		if (accs.v && (!strcmp(accs.v[0], "tcg") || !strcmp(accs.v[0], "?")))
			doc_para(&d, "caveat", "**Emulated CPU (TCG).** Timings are emulation timings; QEMU "
					   "does not make slow nodes slow, so tier costs are modeled, "
					   "not measured.");
		sl_free(&accs);
		sl_free(&topos);
		sl_free(&kernels);
	}
	doc_heading(&d, 2, "figure", "Median fault latency, run k − run 1");
	if (!fig_rows) {
		doc_para(&d, NULL, "No figure: no median fault latency has an interval in both runs.");
	} else if (!svg) {
		doc_para(&d, NULL, "Figure not generated (--no-plots); its data: " FIG_NAME ".dat.");
	} else {
		static const char *const caption =
			"Each median fault latency with an interval in both runs, as run k − run 1 in "
			"percent of run 1's median; the bar is the bracket [lo_k − hi_1, hi_k − lo_1]. "
			"Red: higher, green: lower (intervals disjoint); grey: the intervals overlap and "
			"no difference is claimed.";

		sb_puts(&d.html, "<figure>\n<img alt=\"median fault latency, run k − run 1\" "
				 "src=\"data:image/svg+xml;base64,");
		sb_base64(&d.html, (const unsigned char *)svg, svg_len);
		sb_puts(&d.html, "\">\n<figcaption>");
		doc_text(&d, caption);
		sb_puts(&d.html, " <a href=\"" FIG_NAME ".svg\">SVG</a> <a href=\"" FIG_NAME
				 ".png\">PNG</a> Data: <code>" FIG_NAME ".dat</code>.</figcaption>\n</figure>\n");
		sb_printf(&d.md, "![median fault latency, run k − run 1](" FIG_NAME ".png)\n\n%s\n\n",
			  caption);
	}
	sb_puts(&csv, "bench,policy,nodes,pagesize,scenario,metric,run,base_value,value,delta,"
		      "delta_lo,delta_hi,verdict\n");
	{
		char *t = xasprintf("Median fault latency (%s) with its interval",
				    time_unit_words(run_time_unit(&runs[0])));

		doc_heading(&d, 2, "latency", t);
		free(t);
		doc_para(&d, NULL, time_unit_includes(run_time_unit(&runs[0])));
	}
	metric_table(&d, &csv, runs, n, keys, nkeys, true);
	doc_heading(&d, 2, "other", "Every other figure");
	metric_table(&d, &csv, runs, n, keys, nkeys, false);
	sb_puts(&d.html, "</body>\n</html>\n");

	rc = 74;
	static const char *const names[] = { "compare.html", "compare.md", "compare.csv" };

	for (int k = 0; k < 3; k++) {
		struct sbuf *b = k == 0 ? &d.html : k == 1 ? &d.md : &csv;
		char *path = xasprintf("%s/%s", outdir, names[k]);

		if (k == 2 && !safe) {
			fprintf(stderr, "labtool compare: a field holds a comma or quote; %s not written\n",
				path);
			free(path);
			continue;
		}
		if (write_file_atomic(path, b->s, b->len) < 0) {
			fprintf(stderr, "labtool compare: %s: %s\n", path, strerror(errno));
			free(path);
			goto out;
		}
		printf("%s\n", path);
		free(path);
	}
	if (svg)
		printf("%s/" FIG_NAME ".svg\n", outdir);
	rc = 0;
out:
	if (rc && created) {
		/* nothing of a failed comparison is left behind */
		static const char *const files[] = { "compare.html", "compare.md", "compare.csv" };

		unlink_figure(outdir);
		for (int k = 0; k < 3; k++) {
			char *p = xasprintf("%s/%s", outdir, files[k]);

			unlink(p);
			free(p);
		}
		rmdir(outdir);
	}
	free(svg);
	sb_free(&dat);
	for (int i = 0; i < loaded; i++)
		run_free(&runs[i]);
	free(runs);
	free(keys);
	sb_free(&d.html);
	sb_free(&d.md);
	sb_free(&csv);
	return rc;
}
