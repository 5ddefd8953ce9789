/* SPDX-License-Identifier: GPL-2.0 */
/* Internals shared by report.c (figures), report_write.c (HTML/Markdown) and compare.c. */
#ifndef TIERLAB_REPORT_INT_H
#define TIERLAB_REPORT_INT_H

#include <sys/types.h>

#include "report.h"

struct strlist {
	const char **v;
	size_t n;
};

void sl_add(struct strlist *l, const char *s);
void sl_free(struct strlist *l);

/* One line of the headline table: a policy with its node set. */
struct entry {
	const char *policy, *nodes;
	char *label;	/* "bind pmem:1+3" */
};

struct entries {
	struct entry *v;
	size_t n;
};

void collect_entries(struct run *r, struct entries *e);
void entries_free(struct entries *e);

struct headline_line {
	double p50, lo, hi, p99, count;	/* NAN when absent */
	double pref;			/* fraction on the preferred nodes */
	double model_lat, model_bw;
	size_t oom_tests, oom_bad;
	const char *oom_worst;
};

struct headline {
	bool have_lat, have_fb;
	const char *lat_ps, *lat_sc;	/* condition the latency columns quote */
	const char *fb_ps, *fb_sc;	/* condition the placement column quotes */
	struct headline_line *lines;	/* parallel to entries */
};

void compute_headline(struct run *r, const struct entries *e, struct headline *h);
void headline_free(struct headline *h);
void oom_summary(struct run *r, const struct entry *en, struct sbuf *b);
/* Markdown-ish text: **bold** is the only markup (rendered by both writers). */
void recommendation(struct run *r, const struct entries *e, const struct headline *h,
		    struct sbuf *b);

struct figure {
	char *name, *kind, *caption, *title;
};

struct figures {
	struct figure *v;
	size_t n;
};

int make_figures(struct run *r, const struct entries *e, const char *scripts, const char *tmpdir,
		 const char *title_suffix, bool no_plots, struct figures *figs);
void figures_free(struct figures *f);
int remove_tree(const char *path);

struct report_opts {
	const char *scripts;	/* directory holding the gnuplot scripts */
	bool no_plots;
};

int report_run(const char *dir, const struct report_opts *o);
/* The plots/ directory with the gnuplot scripts, or NULL (cmd_report.c). */
char *find_plot_scripts(const char *given);

/* Both documents at once: every helper writes to html and md (report_write.c). */
struct doc {
	struct sbuf html, md;
};

extern const char report_css[];
void doc_text(struct doc *d, const char *s);
void doc_marked(struct doc *d, const char *s);	/* **bold** is the only markup */
void doc_heading(struct doc *d, int level, const char *id, const char *text);
void doc_para(struct doc *d, const char *cls, const char *marked);
void doc_table_start(struct doc *d, const char *const *cols, size_t n);
void doc_row_start(struct doc *d);
void doc_cell(struct doc *d, const char *text);
void doc_cell_num(struct doc *d, double v);
void doc_row_end(struct doc *d);
void doc_table_end(struct doc *d);

int compare_runs(char **dirs, int n, const char *outdir);

#endif
