/* SPDX-License-Identifier: GPL-2.0 */
/* Internals shared by report.c (figures), report_write.c (HTML/Markdown) and compare.c. */
#ifndef TIERLAB_REPORT_INT_H
#define TIERLAB_REPORT_INT_H

#include <sys/types.h>

#include "report.h"
#include "verdict.h"

struct strlist {
	const char **v;
	size_t n;
};

void sl_add(struct strlist *l, const char *s);
void sl_free(struct strlist *l);

/* The rows behind a figure of several rows: add them (NULL is skipped, a row once), then put. */
struct cites {
	const struct row **v;
	size_t n;
};
void cites_add(struct cites *c, const struct row *w);
/* Appends " (summary.csv lines ...)" for the rows of @c, then empties it. */
void cites_put(const struct run *r, struct cites *c, struct sbuf *b);

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

/* The two ways tierbench sets the policy for the latency benchmark. */
struct lat_bench {
	const char *bench, *via;	/* "latency", "mbind()" */
};
#define NR_LAT_BENCHES 2
extern const struct lat_bench lat_benches[NR_LAT_BENCHES];

/* tierbench latency row names (bench/README.md) */
#define M_P50 "p50"
#define M_P99 "p99"
#define M_CI_LO "p50_ci95_low"
#define M_CI_HI "p50_ci95_high"
#define M_CI_COV "p50_ci_coverage"
#define M_REPS "reps"
#define M_COUNT "count"
#define M_FILL "step_on_set_frac"
#define M_PREF "on_set_frac"

/*
 * A latency case: the median over boots of each boot's pooled p50 (and p99),
 * with the interval of that median over boots (struct over_boots).
 */
struct lat_cell {
	double p50, lo, hi, cov, boots, p99, count;	/* NAN when absent */
	const struct row *p50_row;			/* its boots' values */
	const char *outcome;				/* "completed", ..., or NULL */
	double mib_before;				/* MiB before a bad outcome */
};

void lat_cell_get(struct run *r, const char *bench, const char *policy, const char *nodes,
		  const char *ps, const char *sc, struct lat_cell *c);
/* "96.9% interval over 6 boots" or "range of 2 boots, coverage 50%" */
void interval_words(double cov, double boots, struct sbuf *b);
/*
 * The spread of the A/A pair of a condition (bench latency_aa: a case run
 * twice in each boot): the largest |p50 - p50'| over boots, NAN when the run
 * has none.  Marks its rows used.
 */
double aa_spread(struct run *r, const char *ps, const char *sc);
/*
 * What icount's A/A rule compares a difference with: the spread between
 * identical cases of the condition -- the A/A pair, and each latency case
 * from boot to boot (the guest's layout is seeded at random, so a case's
 * count moves between boots by more than within one, at 2m/pressure by
 * 86 insn in one of two identical quick runs and 0 in the other).  NAN when
 * the run has no A/A pair.
 */
double icount_floor(struct run *r, const char *ps, const char *sc);
/* "higher", "lower" or "not distinguishable ..." of B against A, paired over boots. */
struct verdict lat_verdict(struct run *r, const struct lat_cell *a, const struct lat_cell *b,
			   const char *ps, const char *sc);
/* " (why)" for a verdict: its interval and coverage, or the boots that would settle it. */
void verdict_why(const struct verdict *v, size_t boots, const char *unit, struct sbuf *b);

/*
 * The cost model after the fill (report_model.c): where an entry's pages
 * went over its fill curve -- each step's per-node share (bench fallback,
 * scenario fill@<MiB>, step_frac_node<N>) times the step's MiB -- priced
 * with the HMAT figures of bench model's rows by bench/costmodel.c.
 */
#define FILL_MODEL_NODES 64	/* node ids 0..63: tierbench's MAX_NODE */
struct fill_model {
	double mib;		/* MiB the curve placed on a node; NAN: no per-node rows */
	double node_mib[FILL_MODEL_NODES];
	double other_mib;	/* on node ids above the array: no figures */
	size_t steps;		/* the curve's steps with a per-node share */
	double coverage;	/* share of mib on nodes with read latency figures */
	double lat, bw, bw_bound;	/* read; NAN without figures */
	double cache_hit;	/* the hit share assumed over pages on cached nodes; NAN: none */
	double cache_coverage;	/* share of those pages whose cache has figures */
};

/* @en's model after the fill; with @c, the rows behind it are added there too. */
void fill_model_get(struct run *r, const struct entry *en, struct fill_model *m,
		    struct cites *c);
/* "node 1 82.4%, node 0 17.6%": the placement by share, largest first. */
void fill_model_placement(const struct fill_model *m, struct sbuf *b);
/*
 * "Memory-side cache: bench model assumed it serves 25% of the accesses to
 * the pages on its nodes for bind pmem:1, ... (rows). ": the assumed hit
 * share of bench model's own cases, grouped by value, and the policies whose
 * cache had no figures; nothing without such rows.  Returns how many policies.
 */
size_t cache_hit_summary(struct run *r, const struct entries *e, struct sbuf *b);
/* Bench model's own row for a policy (4k, else any page size); NULL unless numeric. */
struct row *model_free_row(struct run *r, const char *policy, const char *nodes,
			   const char *metric);

struct headline_line {
	struct lat_cell lat[NR_LAT_BENCHES];	/* at the headline condition */
	double pref;			/* fallback: fraction on the preferred nodes */
	double fill_mib;		/* fill curve: MiB that landed on the preferred nodes */
	double fill_first;		/* x of the first step below 99 % there (NAN: never) */
	double fill_before;		/* x of the step before it (0: the first step) */
	double fill_last;		/* last x of the curve */
	const char *fill_outcome;	/* how the fill ended */
	double fill_outcome_mib;
	/*
	 * The model the headline quotes: after the fill (fm) where the entry
	 * has one, else bench model's own case (scenario free, 4k else any
	 * page size): read latency (page-weighted mean), read bandwidth serial
	 * (time-weighted) and its parallel bound.  NAN when not modeled.
	 */
	double model_lat, model_bw, model_bw_bound;
	bool model_after_fill;
	double free_lat, free_bw, free_bw_bound;	/* bench model, scenario free */
	struct fill_model fm;
	size_t oom_tests, oom_bad, oom_done;
	const char *oom_worst;
};

struct headline {
	bool have_lat, have_fb, have_fill;
	bool have_fill_model;		/* some entry's model is after the fill */
	bool have_fill_nodes;		/* some fill curve has per-node shares */
	const char *lat_ps, *lat_sc;	/* condition the latency columns quote */
	const char *fb_ps, *fb_sc;	/* condition the placement column quotes */
	double fill_step;		/* MiB per fill step (largest seen) */
	struct headline_line *lines;	/* parallel to entries */
};

void compute_headline(struct run *r, const struct entries *e, struct headline *h);
/*
 * Per entry with a model after the fill, a line: where its pages went over
 * the fill curve, the modeled read cost, and bench model's own case with
 * nothing full beside it, each with its rows.  Returns how many.
 */
size_t fill_model_summary(struct run *r, const struct entries *e, const struct headline *h,
			  struct sbuf *b);
void headline_free(struct headline *h);
/* "4k oom_killed at 885 of 1257 MiB (memory-policy constraint); 2m completed" */
void oom_summary(struct run *r, const struct entry *en, struct sbuf *b);
/* "on the preferred nodes until 880 MiB (896 MiB in all); oom_killed at 897 MiB" */
void fill_summary(const struct headline *h, const struct headline_line *l, struct sbuf *b);
/* Steps whose every TAP check skipped, named with the first reason; count. */
size_t all_skipped_steps(const struct run *r, struct sbuf *b);
/*
 * A node id row as words: "node 1", "no other node", or per boot when the
 * boots disagree ("node 1 in 2 boots, node 3 in 1 boot"); NULL without a row.
 */
char *node_word(const struct row *w, bool *same, double *node);
/* Per one-node preferred set, where preferred's and preferred-many's overflow went; count. */
size_t single_node_summary(struct run *r, struct sbuf *b);
/* The fill-level sentences (report_levels.c), one a line; returns how many. */
size_t level_summary(struct run *r, struct sbuf *b);
/*
 * --memory-timing count (report_access.c), one paragraph a line, each with
 * the summary.csv lines it comes from; each returns how many it wrote.
 * Per entry, the access cost the emulator counted over its fill curve and
 * in bench fallback's 4k/free case, beside the placement-only model (after
 * the fill; bench model's own case), and a fault's counted cost per page.
 */
size_t access_summary(struct run *r, const struct entries *e, const struct headline *h,
		      struct sbuf *b);
/* Per workload (wlrun), the counted access cost of each policy, most and least named. */
size_t workload_access_summary(struct run *r, struct sbuf *b);
/* The cases that ran with no phase counted, by boot, and phases no PHASE line labelled. */
size_t missing_phase_summary(struct run *r, struct sbuf *b);
/* The run counted accesses: meta.json memory_timing count, else phase rows. */
bool run_counts_access(const struct run *r);
/* A memory-timing row too detailed for a figure of its own (per node, phase counts). */
bool access_detail_metric(const char *metric);
/* Every row of this OOM case (page size, scenario) is setup_error. */
bool oom_case_unrunnable(struct run *r, const char *ps, const char *sc);
/* Ran its OOM cases and completed each (any_oom: the run has OOM rows at all). */
bool oom_survivor(const struct headline_line *l, bool any_oom);
/* Rows and histograms of the cases tierbench found invalid: status "invalid". */
void mark_invalid_cases(struct run *r);
/* Small readers of rows (report.c) */
bool is_ok(const struct row *w);			/* boot_status ok */
bool is_fill(const char *scenario);			/* "fill@N" */
double frac_of(const struct row *w);			/* 0..1, "%" rows divided; NAN */
double numval(const struct row *w);			/* NAN without a numeric row */
/* The outcome word of one case ("completed", "oom_killed", ...), NULL if none. */
const char *run_case_outcome(struct run *r, const char *bench, const char *policy,
			 const char *nodes, const char *ps, const char *sc);
/* "thp, 2m (scenario full)": the OOM cases no policy could set up; nothing if none. */
void unrunnable_oom_cases(struct run *r, struct sbuf *b);

/*
 * What the user says of the workload (--fits, meta.json "fits"): it fits
 * the nodes it is given, it may not, or not said.  The decision rule
 * (report_rule.c, README "Which policy? The decision rule") answers each.
 */
enum fits { FITS_UNKNOWN, FITS_YES, FITS_NO };
/* "yes", "no", "unknown" -> 0 and *f; -1 for anything else. */
int fits_parse(const char *s, enum fits *f);
const char *fits_name(enum fits f);
/* " (summary.csv line 12)", " (summary.csv lines 12, 40 and 3 more)": the rows behind a figure. */
void cite(const struct run *r, const struct row *w, struct sbuf *b);
/* The same for several figures at once: one parenthesis, lines in order. */
void cite_rows(const struct run *r, const struct row *const *w, size_t n, struct sbuf *b);
/*
 * The verdict for the user's case into @b, the rule and the fault cost
 * behind it into @why (which may be @b), from this run's rows; Markdown-ish
 * text, **bold** the only markup (both writers render it), a paragraph a line.
 */
void recommendation(struct run *r, const struct entries *e, const struct headline *h,
		    enum fits fits, struct sbuf *b, struct sbuf *why);

struct figure {
	char *name, *kind, *caption, *title;
	bool secondary;	/* a condition other than the headline's: folded away */
};

struct figures {
	struct figure *v;
	size_t n;
};

int make_figures(struct run *r, const struct entries *e, const struct headline *h,
		 const char *scripts, const char *tmpdir, const char *title_suffix, bool no_plots,
		 struct figures *figs);
void figures_free(struct figures *f);
int remove_tree(const char *path);

struct report_opts {
	const char *scripts;	/* directory holding the gnuplot scripts */
	bool no_plots;
	const char *fits;	/* --fits; NULL: meta.json "fits", else unknown */
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
/* One paragraph per line of @text (which it cuts at its newlines). */
void doc_paras(struct doc *d, char *text);
void doc_table_start(struct doc *d, const char *const *cols, size_t n);
void doc_row_start(struct doc *d);
void doc_cell(struct doc *d, const char *text);
void doc_cell_num(struct doc *d, double v);
void doc_row_end(struct doc *d);
void doc_table_end(struct doc *d);
/* bench features' section (report_features.c); nothing without its rows. */
void sec_features(struct doc *d, struct run *r);
size_t features_summary(struct run *r, struct sbuf *b);
/* bench threads' section (report_threads.c); nothing without its rows. */
void sec_threads(struct doc *d, struct run *r);
/* bench tiers and tiering (run-lab --tiering): the mode, the tiers, demotion per policy */
void sec_tiering(struct doc *d, struct run *r);
size_t tiering_summary(struct run *r, struct sbuf *b);
size_t threads_summary(struct run *r, struct sbuf *b);
/* bench reclaim's section (report_reclaim.c); nothing without its rows. */
void sec_reclaim(struct doc *d, struct run *r);
size_t reclaim_summary(struct run *r, struct sbuf *b);
/* The fill-level section (bench fallback's level-* cases); nothing without them. */
void sec_fill_levels(struct doc *d, struct run *r);
/* The counted access cost (report_access.c); nothing when the run did not count accesses. */
void sec_access(struct doc *d, struct run *r, const struct entries *e, const struct headline *h);
/* --memory-timing delay (experimental): the run's caveat and the chase's measured ratios. */
bool run_delays(const struct run *r);
/*
 * One line per boot's chase pair with delay rows (guest ns per load, the
 * ratio against HMAT's, dilation, calibration, its summary.csv lines),
 * then the mean over the pairs; returns the pairs' lines.
 */
size_t delay_summary(const struct run *r, struct sbuf *b);
void delay_caveat(struct doc *d, const struct run *r);
void sec_delay(struct doc *d, struct run *r);

/* @scripts: the gnuplot scripts' directory, NULL for no figure */
int compare_runs(char **dirs, int n, const char *outdir, const char *scripts);

#endif
