/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reports: reading a run's files (summary.csv, guest-topology.csv, meta.json,
 * raw/channel-*.log) into memory, and the small helpers the report and
 * compare commands share.  Every file is parsed completely before anything
 * is written, so bad input never leaves a half-written report behind.
 */
#ifndef TIERLAB_REPORT_H
#define TIERLAB_REPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "util.h"

/* ---- CSV (RFC 4180: quoted fields, "" inside quotes, CRLF tolerated) ---- */
struct csv_row {
	char **field;
	unsigned line;	/* line on which the record starts */
};

struct csv {
	char **header;
	size_t ncols;
	struct csv_row *rows;
	size_t nrows;
};

/*
 * Parses text; on error writes "<name>:<line>: <what>" into err (errlen
 * bytes) and returns -1.  Every record must have as many fields as the
 * header; empty lines are skipped.
 */
int csv_parse(const char *text, size_t len, const char *name, struct csv *out,
	      char *err, size_t errlen);
int csv_col(const struct csv *c, const char *name);	/* -1 when absent */
void csv_free(struct csv *c);

/* ---- JSON, flattened: {"a":{"b":1},"c":[2,3]} -> a.b=1 c.0=2 c.1=3 ---- */
struct kv {
	char *key, *value;
};

struct kvlist {
	struct kv *v;
	size_t n;
};

int json_flatten(const char *text, size_t len, const char *name, struct kvlist *out,
		 char *err, size_t errlen);
const char *kv_get(const struct kvlist *l, const char *key);
void kv_free(struct kvlist *l);

/* ---- a run ---- */
enum row_col {
	COL_TOPOLOGY, COL_BENCH, COL_POLICY, COL_NODES, COL_PAGESIZE, COL_SCENARIO,
	COL_METRIC, COL_VALUE, COL_UNIT, COL_RUN_ID, COL_BOOT_ID, COL_BOOT_STATUS,
	NR_ROW_COLS
};

extern const char *const row_col_names[NR_ROW_COLS];

struct row {
	const char *f[NR_ROW_COLS];
	double num;	/* value as a number; NAN when it is a word */
	bool numeric;
	bool used;	/* shown in a headline table or a figure */
	unsigned line;
};

struct tap {
	char *boot, *text, *directive;	/* directive: "SKIP reason" or "" */
	char *group;	/* the plan step that printed it ("checks-pmem"), or "set N" */
	bool ok;
	long number;
};

/* One HIST line of boots/<boot>.hist (bench/README.md): buckets by lower bound. */
struct hist {
	char *bench, *policy, *nodes, *pagesize, *scenario, *unit, *boot;
	long rep;
	size_t nb;
	double *lo, *count;	/* ascending lower bounds (ns) and their counts */
};

/* Parses "bench=.. ... buckets=lo:n+lo:n"; -1 (and *h untouched) when malformed. */
int hist_parse(const char *line, const char *boot, struct hist *h);
void hist_free(struct hist *h);

struct run {
	char *dir, *name;
	struct csv summary_csv, topo_csv;
	struct row *rows;
	size_t nrows;
	bool have_topo, have_meta;
	struct kvlist meta;
	struct tap *taps;
	size_t ntaps;
	char *tap_source;	/* "boots/<boot>.tap" or "raw/channel-<boot>.log" */
	struct hist *hists;
	size_t nhists;
	/* when meta.json is missing: facts found in the run's other files */
	struct kvlist derived;
};

/* Loads a run directory; prints one error line and returns -1 on bad input. */
int run_load(const char *dir, struct run *r);
void run_free(struct run *r);
/*
 * First meta.json value among the keys (NULL-terminated list), else the same
 * key among the facts derived from the run's other files, else NULL.
 */
const char *run_meta(const struct run *r, ...);

/*
 * First ok-boot row matching; NULL fields match anything.  Marks it used.
 */
struct row *run_find(struct run *r, const char *bench, const char *policy,
		     const char *nodes, const char *pagesize, const char *scenario,
		     const char *metric);

/* ---- small facts the report and compare share ---- */

/* The lab's policies in reading order; references after the subjects. */
extern const char *const known_policies[];
bool policy_is_reference(const char *policy);
int policy_rank(const char *policy);

/* bench names whose rows the microbenchmark figures understand */
bool bench_is_micro(const char *bench);

/* Whether two closed intervals overlap (then no difference is claimed). */
bool intervals_overlap(double lo1, double hi1, double lo2, double hi2);

/* A compact, deterministic rendering of a number (%.4g, no "-0"). */
void fmt_num(char *buf, size_t n, double v);

/*
 * How a case ended: tierbench writes metric=outcome_<word> value=1 unit=flag
 * (completed, enomem, efault, error, timeout, sigsegv, sigbus, killed,
 * oom_killed).  Ranks go from best to worst; unknown words rank last.
 */
#define OUTCOME_UNKNOWN_RANK 9
int oom_outcome_rank(const char *word);
/* The case did not end by itself or with a refusal it could handle. */
bool outcome_is_bad(const char *word);
/* "oom_killed" for an outcome_oom_killed=1 row, else NULL. */
const char *row_outcome(const struct row *w);

/* Runs argv (no shell) with stdout/stderr to logpath; 0 if it exited 0. */
int run_program(char *const argv[], const char *logpath);
/*
 * Runs gnuplot's argv (argv[2] the script, argv[3] the data) via
 * run_program(); on failure names both and the cause, prefixed "WHO: ", and
 * copies gnuplot's log to stderr.  0 or -1.
 */
int run_gnuplot(char *const argv[], const char *logpath, const char *who);

/* A file name fragment: [a-z0-9.-], everything else becomes '-'. */
char *slugify(const char *s);

#endif
