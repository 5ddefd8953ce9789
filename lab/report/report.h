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

#include "csv.h"
#include "json.h"
#include "meta.h"
#include "runfiles.h"
#include "util.h"
#include "vocab.h"

/* ---- a run ---- */
/* summary.csv's columns (enum row_col, row_col_names): runfiles.h */

/*
 * One figure over the ok boots of a run: boots are the replicate, so what
 * the report and compare show is the median over boots, with the
 * order-statistic interval of that median (bench/stats.h: [min, max] up to
 * 5 boots, coverage 1 - 2^(1-n); a 95 % interval from 6 boots).
 */
struct over_boots {
	size_t n;		/* boots with the figure */
	double *v;		/* their values in boot order; NULL when a word */
	const char **boot;	/* their boot ids, in boot order */
	double lo, hi, cov;	/* interval of the median over boots (cov 0 for one boot) */
	char value[40], label[48];	/* the median as text; "1" or "median of 3 boots" */
};

struct row {
	const char *f[NR_ROW_COLS];
	double num;	/* value as a number; NAN when it is a word */
	bool numeric;
	bool used;	/* shown in a headline table or a figure */
	unsigned line;
	struct over_boots *over;	/* run.rows: the boots behind the figure (ok boots) */
	struct row *agg;		/* run.boot_rows: the figure this row went into */
};

struct run;
/*
 * run.rows from run.boot_rows (run_load does it): the k-th row of a key in
 * one ok boot goes with the k-th of that key in every other; the figure is
 * their median.  run_aggregate_free() undoes it (run.boot_rows stay).
 */
void run_aggregate(struct run *r);
void run_aggregate_free(struct run *r);

/* The values of the boots two figures share, aligned by boot id; returns how many. */
size_t over_pair(const struct row *a, const struct row *b, double *va, double *vb);

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
	/*
	 * rows: one per figure, the median over the ok boots (row.over); the
	 * rows of failed boots as they are.  boot_rows: summary.csv as it is.
	 */
	struct row *rows;
	size_t nrows;
	struct row *boot_rows;
	size_t nboot_rows;
	size_t nboots;		/* ok boots with rows */
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

/* The row's name in summary format 2: "preferred_frac" (format 1) is "on_set_frac". */
const char *metric_current_name(const char *metric);

/* Loads a run directory; prints one error line and returns -1 on bad input. */
int run_load(const char *dir, struct run *r);
void run_free(struct run *r);
/*
 * meta.json's value of key k (lab/rundir/meta.h), else the same key among the facts
 * derived from the run's other files when meta.json is missing, else NULL.
 */
const char *run_meta(const struct run *r, enum meta_key k);
/* Field "file" or "hash" of the run's i-th topology (meta.json topologies), or NULL. */
const char *run_meta_topology(const struct run *r, int i, const char *field);
/* The guest's CPUs, from guest-topology.csv's cpus column; -1 without it, or when malformed. */
int run_guest_ncpus(const struct run *r);

/*
 * What the run's timings count: "insn" (--clock icount: guest instructions)
 * or "ns": meta.json's time_unit, else the unit of its latency rows, else "ns".
 */
const char *run_time_unit(const struct run *r);
/* The unit spelled out for headings and axes: "guest instructions" or "ns". */
const char *time_unit_words(const char *unit);
/* One sentence on what a fault-latency figure of this unit includes. */
const char *time_unit_includes(const char *unit);

/*
 * The payload of a framed channel line "<seq> <crc32> <payload>" whose
 * CRC-32 matches, else NULL (a damaged or unframed line says nothing).
 */
const char *channel_payload(const char *line);

/*
 * The first matching figure of the ok boots (the median over boots); NULL
 * fields match anything.  Marks it used.
 */
struct row *run_find(struct run *r, const char *bench, const char *policy,
		     const char *nodes, const char *pagesize, const char *scenario,
		     const char *metric);

/* ---- small facts the report and compare share ---- */

/* The lab's policies in reading order; references after the subjects (guest/vocab.h). */
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
 * (the words of guest/vocab.h's VOCAB_OUTCOMES, each with its rank).  Ranks
 * go from best to worst; unknown and unranked words rank last.
 */
#define OUTCOME_UNKNOWN_RANK VOCAB_OUTCOME_UNRANKED
int oom_outcome_rank(const char *word);
/* The case did not end by itself or with a refusal it could handle. */
bool outcome_is_bad(const char *word);
/* invalid, killed_other: the case measured something else; left out of everything */
bool case_is_invalid(const char *outcome);
/* "oom_killed" for an outcome_oom_killed=1 row, else NULL. */
const char *row_outcome(const struct row *w);

/* A file name fragment: [a-z0-9.-], everything else becomes '-'. */
char *slugify(const char *s);

#endif
