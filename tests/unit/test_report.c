// SPDX-License-Identifier: GPL-2.0
/* The report's readers (CSV, JSON) and its small math: intervals, numbers. */
#include <math.h>
#include <stdlib.h>

#include "frame.h"
#include "harness.h"
#include "report.h"
#include "report_int.h"
#include "util.h"

static int parse(const char *text, struct csv *c, char *err, size_t n)
{
	return csv_parse(text, strlen(text), "t.csv", c, err, n);
}

TEST(report_csv_quotes_crlf_and_empty_lines)
{
	struct csv c;
	char err[128] = "";
	const char *t = "a,b,c\r\n1,\"x,y\",\"say \"\"hi\"\"\"\r\n\r\n2,,\"multi\nline\"\n";

	CHECK(parse(t, &c, err, sizeof(err)) == 0);
	CHECK(c.ncols == 3);
	CHECK(c.nrows == 2);
	if (c.nrows == 2) {
		CHECK_STR(c.rows[0].field[1], "x,y");
		CHECK_STR(c.rows[0].field[2], "say \"hi\"");
		CHECK_STR(c.rows[1].field[1], "");
		CHECK_STR(c.rows[1].field[2], "multi\nline");
		CHECK(c.rows[0].line == 2);
		CHECK(c.rows[1].line == 4);
	}
	CHECK(csv_col(&c, "c") == 2);
	CHECK(csv_col(&c, "d") == -1);
	csv_free(&c);
}

TEST(report_csv_no_trailing_newline)
{
	struct csv c;
	char err[128];

	CHECK(parse("a,b\n1,2", &c, err, sizeof(err)) == 0);
	CHECK(c.nrows == 1);
	if (c.nrows == 1)
		CHECK_STR(c.rows[0].field[1], "2");
	csv_free(&c);
}

TEST(report_csv_errors_name_line)
{
	struct csv c;
	char err[128];

	CHECK(parse("a,b\n1,2\n1,2,3\n", &c, err, sizeof(err)) == -1);
	CHECK_STR(err, "t.csv:3: expected 2 fields, got 3");
	CHECK(parse("a,b\n1,\"open\n", &c, err, sizeof(err)) == -1);
	CHECK_STR(err, "t.csv:2: unterminated quoted field");
	CHECK(parse("a,b\n1,\"x\"y\n", &c, err, sizeof(err)) == -1);
	CHECK_STR(err, "t.csv:2: text after a closing quote");
	CHECK(parse("a,b\n1,x\"y\n", &c, err, sizeof(err)) == -1);
	CHECK_STR(err, "t.csv:2: quote inside an unquoted field");
	CHECK(parse("", &c, err, sizeof(err)) == -1);
	CHECK_STR(err, "t.csv:1: empty file, expected a header line");
	CHECK(parse("a,,b\n", &c, err, sizeof(err)) == -1);
	CHECK_STR(err, "t.csv:1: header column 2 is empty");
	CHECK(csv_parse("a\nx\0y\n", 6, "t.csv", &c, err, sizeof(err)) == -1);
	CHECK_STR(err, "t.csv:2: NUL byte in field");
}

static int flat(const char *text, struct kvlist *l, char *err, size_t n)
{
	return json_flatten(text, strlen(text), "m.json", l, err, n);
}

TEST(report_json_flatten)
{
	struct kvlist l;
	char err[128] = "";
	const char *t = "{\"k\": \"6.12\", \"n\": 2, \"f\": -1.5e3, \"b\": true, \"z\": null,\n"
			"\"o\": {\"a\": [1, \"x\"], \"e\": {}}, \"s\": \"q\\\"\\\\\\n\\u00e9\\ud83d\\ude00\"}";

	CHECK(flat(t, &l, err, sizeof(err)) == 0);
	CHECK_STR(kv_get(&l, "k"), "6.12");
	CHECK_STR(kv_get(&l, "n"), "2");
	CHECK_STR(kv_get(&l, "f"), "-1.5e3");
	CHECK_STR(kv_get(&l, "b"), "true");
	CHECK_STR(kv_get(&l, "z"), "");
	CHECK_STR(kv_get(&l, "o.a.0"), "1");
	CHECK_STR(kv_get(&l, "o.a.1"), "x");
	CHECK_STR(kv_get(&l, "s"), "q\"\\\n\xc3\xa9\xf0\x9f\x98\x80");
	CHECK(kv_get(&l, "o.e") == NULL);
	kv_free(&l);
}

TEST(report_json_errors_name_line_and_column)
{
	struct kvlist l;
	char err[128];

	CHECK(flat("{\"a\": 1,\n \"b\": }", &l, err, sizeof(err)) == -1);
	CHECK_STR(err, "m.json:2:7: expected a value");
	CHECK(flat("{\"a\" 1}", &l, err, sizeof(err)) == -1);
	CHECK_STR(err, "m.json:1:6: expected ':'");
	CHECK(flat("{\"a\": 1} x", &l, err, sizeof(err)) == -1);
	CHECK_STR(err, "m.json:1:10: text after the JSON object");
	CHECK(flat("[1]", &l, err, sizeof(err)) == -1);
	CHECK(flat("{\"a\": \"\\ud800\"}", &l, err, sizeof(err)) == -1);
	CHECK(flat("{\"a\": 1-2}", &l, err, sizeof(err)) == -1);
	CHECK(flat("{\"a\": \"x", &l, err, sizeof(err)) == -1);
	CHECK_STR(err, "m.json:1:9: unterminated string");
}

TEST(report_intervals_overlap)
{
	CHECK(intervals_overlap(1, 2, 2, 3));	/* touching counts as overlap */
	CHECK(intervals_overlap(1, 5, 2, 3));
	CHECK(!intervals_overlap(1, 2, 2.5, 3));
	CHECK(!intervals_overlap(4, 5, 1, 3.9));
}

TEST(report_fmt_num)
{
	char b[32];

	fmt_num(b, sizeof(b), 11977.4);
	CHECK_STR(b, "11977");
	fmt_num(b, sizeof(b), 0.25);
	CHECK_STR(b, "0.25");
	fmt_num(b, sizeof(b), -0.0);
	CHECK_STR(b, "0");
	fmt_num(b, sizeof(b), NAN);
	CHECK_STR(b, "n/a");
	fmt_num(b, sizeof(b), 123.456);
	CHECK_STR(b, "123.5");
}

TEST(report_escaping_and_base64)
{
	struct sbuf b = { 0 };

	sb_html(&b, "<a href=\"x\">&'</a>");
	CHECK_STR(b.s, "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
	b.len = 0;
	sb_md(&b, "a|b_c\nd");
	CHECK_STR(b.s, "a\\|b\\_c d");
	b.len = 0;
	sb_base64(&b, (const unsigned char *)"Man", 3);
	sb_base64(&b, (const unsigned char *)"Ma", 2);
	sb_base64(&b, (const unsigned char *)"M", 1);
	CHECK_STR(b.s, "TWFuTWE=TQ==");
	sb_free(&b);
	char *s = slugify("Fio/Rand Read_1");

	CHECK_STR(s, "fio-rand-read-1");
	free(s);
}

TEST(report_oom_and_policy_order)
{
	/* tierbench's words (bench/README.md), best first */
	CHECK(oom_outcome_rank("completed") < oom_outcome_rank("setup_error"));
	CHECK(oom_outcome_rank("setup_error") < oom_outcome_rank("sigbus"));
	CHECK(oom_outcome_rank("sigbus") < oom_outcome_rank("oom_killed"));
	CHECK(oom_outcome_rank("weird") > oom_outcome_rank("oom_killed"));
	CHECK(!outcome_is_bad("completed"));
	CHECK(!outcome_is_bad("setup_error"));	/* not a kill; no survival either */
	/* the old word for a setup failure is no longer tierbench's: ranked unknown */
	CHECK(oom_outcome_rank("enomem") == oom_outcome_rank("weird"));
	CHECK(case_is_invalid("invalid") && case_is_invalid("killed_other"));
	CHECK(!case_is_invalid("oom_killed") && !case_is_invalid("setup_error"));
	CHECK(!outcome_is_bad("efault"));
	CHECK(outcome_is_bad("timeout"));
	CHECK(outcome_is_bad("sigsegv"));
	CHECK(outcome_is_bad("killed"));
	CHECK(outcome_is_bad("oom_killed"));
	CHECK(policy_rank("bind") < policy_rank("preferred-many"));
	CHECK(policy_rank("preferred-many") < policy_rank("default"));
	CHECK(policy_rank("mystery") > policy_rank("default"));
	CHECK(policy_is_reference("interleave"));
	CHECK(!policy_is_reference("preferred"));
	CHECK(bench_is_micro("latency_task"));
	CHECK(!bench_is_micro("fio"));
}

TEST(report_hist_parse)
{
	struct hist h;

	CHECK(hist_parse("HIST bench=latency policy=bind nodes=pmem:1 pagesize=4k scenario=free "
			 "rep=1 unit=ns buckets=9984:5+10240:777+8650752:1", "1", &h) == 0);
	CHECK_STR(h.bench, "latency");
	CHECK_STR(h.nodes, "pmem:1");
	CHECK_STR(h.boot, "1");
	CHECK(h.rep == 1);
	CHECK(h.nb == 3);
	if (h.nb == 3) {
		CHECK_NEAR(h.lo[0], 9984, 0);
		CHECK_NEAR(h.count[1], 777, 0);
		CHECK_NEAR(h.lo[2], 8650752, 0);
	}
	hist_free(&h);
	/* malformed: no buckets, a bucket without a count, descending bounds */
	CHECK(hist_parse("bench=latency policy=bind pagesize=4k scenario=free", "1", &h) == -1);
	CHECK(hist_parse("bench=latency policy=bind pagesize=4k scenario=free buckets=10:", "1", &h) == -1);
	CHECK(hist_parse("bench=latency policy=bind pagesize=4k scenario=free buckets=10:1+5:1", "1",
			 &h) == -1);
}

/* ---- the recommendation: no claim without the boots to carry it ---- */

static const char *mk_boot = "b1";

static struct row mkrow(const char *bench, const char *policy, const char *nodes,
			const char *ps, const char *sc, const char *metric, const char *value)
{
	struct row w = { 0 };
	char *end;

	w.f[COL_TOPOLOGY] = "t";
	w.f[COL_BENCH] = bench;
	w.f[COL_POLICY] = policy;
	w.f[COL_NODES] = nodes;
	w.f[COL_PAGESIZE] = ps;
	w.f[COL_SCENARIO] = sc;
	w.f[COL_METRIC] = metric;
	w.f[COL_VALUE] = value;
	w.f[COL_UNIT] = "";
	w.f[COL_RUN_ID] = "r";
	w.f[COL_BOOT_ID] = mk_boot;
	w.f[COL_BOOT_STATUS] = "ok";
	w.num = strtod(value, &end);
	w.numeric = !*end;
	if (!w.numeric)
		w.num = NAN;
	return w;
}

static void interval_of(struct sbuf *b, double cov, double reps)
{
	b->len = 0;
	sb_puts(b, "");
	interval_words(cov, reps, b);
}

TEST(report_interval_words_state_coverage)
{
	struct sbuf b = { 0 };

	interval_of(&b, 0.5, 2);
	CHECK_STR(b.s, "range of 2 boots, coverage 50%");
	interval_of(&b, 0.9375, 5);
	CHECK_STR(b.s, "range of 5 boots, coverage 93.75%");
	interval_of(&b, 0.988, 11);
	CHECK_STR(b.s, "98.8% interval of the median over 11 boots (order statistics)");
	interval_of(&b, 0, 1);
	CHECK_STR(b.s, "one boot: no interval over boots");
	sb_free(&b);
}

/* Rows as tierbench writes them (bench/README.md), from the dram-pmem run. */
TEST(report_recommendation_is_honest)
{
	struct row rows[] = {
		mkrow("latency", "-", "pmem:1", "-", "free", "filler_mib", "0"),
		mkrow("latency", "bind", "pmem:1", "4k", "free", "p50", "10752"),
		mkrow("latency", "bind", "pmem:1", "4k", "free", "p50_ci95_low", "10752"),
		mkrow("latency", "bind", "pmem:1", "4k", "free", "p50_ci95_high", "10752"),
		mkrow("latency", "bind", "pmem:1", "4k", "free", "p50_ci_coverage", "0.5"),
		mkrow("latency", "bind", "pmem:1", "4k", "free", "reps", "2"),
		mkrow("latency", "preferred", "pmem:1", "4k", "free", "p50", "16384"),
		mkrow("latency", "preferred", "pmem:1", "4k", "free", "p50_ci95_low", "16128"),
		mkrow("latency", "preferred", "pmem:1", "4k", "free", "p50_ci95_high", "16896"),
		mkrow("latency", "preferred", "pmem:1", "4k", "free", "p50_ci_coverage", "0.5"),
		mkrow("latency", "preferred", "pmem:1", "4k", "free", "reps", "2"),
		mkrow("latency", "preferred-many", "pmem:1+3", "4k", "free", "p50", "16384"),
		mkrow("latency", "preferred-many", "pmem:1+3", "4k", "free", "p50_ci95_low", "15616"),
		mkrow("latency", "preferred-many", "pmem:1+3", "4k", "free", "p50_ci95_high", "16896"),
		mkrow("latency", "preferred-many", "pmem:1+3", "4k", "free", "p50_ci_coverage", "0.5"),
		mkrow("latency", "preferred-many", "pmem:1+3", "4k", "free", "reps", "2"),
		mkrow("latency_task", "preferred", "pmem:1", "4k", "free", "p50", "16896"),
		mkrow("fallback", "bind", "pmem:1", "4k", "full", "on_set_frac", "1"),
		mkrow("fallback", "preferred", "pmem:1", "4k", "full", "on_set_frac", "1"),
		mkrow("fallback", "preferred-many", "pmem:1+3", "4k", "full", "on_set_frac", "1"),
		mkrow("fallback", "bind", "pmem:1", "4k", "fill@16", "step_on_set_frac", "1"),
		mkrow("fallback", "bind", "pmem:1", "4k", "fill@32", "step_on_set_frac", "1"),
		mkrow("fallback", "bind", "pmem:1", "4k", "fill", "outcome_oom_killed", "1"),
		mkrow("fallback", "bind", "pmem:1", "4k", "fill", "mib_before_outcome", "40"),
		mkrow("fallback", "preferred", "pmem:1", "4k", "fill@16", "step_on_set_frac", "1"),
		mkrow("fallback", "preferred", "pmem:1", "4k", "fill@32", "step_on_set_frac", "0.5"),
		mkrow("fallback", "preferred", "pmem:1", "4k", "fill@48", "step_on_set_frac", "0"),
		mkrow("fallback", "preferred-many", "pmem:1+3", "4k", "fill@16", "step_on_set_frac", "1"),
		mkrow("fallback", "preferred-many", "pmem:1+3", "4k", "fill@32", "step_on_set_frac", "1"),
		mkrow("fallback", "preferred-many", "pmem:1+3", "4k", "fill@48", "step_on_set_frac", "0.75"),
		mkrow("oom", "bind", "pmem:1", "4k", "-", "outcome_oom_killed", "1"),
		mkrow("oom", "bind", "pmem:1", "4k", "-", "mib_obtained", "884.719"),
		mkrow("oom", "bind", "pmem:1", "4k", "-", "asked", "1257"),
		mkrow("oom", "bind", "pmem:1", "4k", "-", "oom_constraint_memory_policy", "1"),
		mkrow("oom", "bind", "pmem:1", "2m", "-", "outcome_sigbus", "1"),
		mkrow("oom", "preferred", "pmem:1", "4k", "-", "outcome_completed", "1"),
		mkrow("oom", "preferred", "pmem:1", "thp", "-", "outcome_setup_error", "1"),
		mkrow("oom", "preferred-many", "pmem:1+3", "4k", "-", "outcome_completed", "1"),
		/* a second boot: the wall clock's other mode for bind and preferred */
		(mk_boot = "b2", mkrow("latency", "bind", "pmem:1", "4k", "free", "p50", "10752")),
		mkrow("latency", "preferred", "pmem:1", "4k", "free", "p50", "10496"),
		mkrow("latency", "preferred-many", "pmem:1+3", "4k", "free", "p50", "16896"),
	};
	struct run r = { 0 };
	struct entries e;
	struct headline h;
	struct sbuf b = { 0 };

	mk_boot = "b1";
	r.boot_rows = rows;
	r.nboot_rows = sizeof(rows) / sizeof(rows[0]);
	run_aggregate(&r);
	CHECK(r.nboots == 2);
	collect_entries(&r, &e);
	CHECK(e.n == 3);	/* policy "-" is context, not an entry */
	compute_headline(&r, &e, &h);
	CHECK_STR(h.lat_ps, "4k");
	CHECK_STR(h.lat_sc, "free");
	CHECK_STR(h.fb_sc, "full");
	CHECK(h.have_fill);
	CHECK_NEAR(h.fill_step, 16, 1e-9);
	/* the median over the two boots, their range, its coverage */
	CHECK_NEAR(h.lines[0].lat[0].p50, 10752, 0);
	CHECK_NEAR(h.lines[1].lat[0].p50, (16384 + 10496) / 2.0, 0);
	CHECK_NEAR(h.lines[1].lat[0].lo, 10496, 0);
	CHECK_NEAR(h.lines[1].lat[0].hi, 16384, 0);
	CHECK_NEAR(h.lines[0].lat[0].cov, 0.5, 1e-9);
	CHECK_NEAR(h.lines[0].lat[0].boots, 2, 0);
	CHECK_NEAR(h.lines[1].lat[1].p50, 16896, 0);	/* latency_task: set_mempolicy */
	CHECK_NEAR(h.lines[0].pref, 1.0, 1e-9);
	CHECK(h.lines[0].oom_tests == 2 && h.lines[0].oom_bad == 2);
	CHECK_STR(h.lines[0].oom_worst, "oom_killed");
	CHECK(h.lines[1].oom_bad == 0);	/* a setup error is not a kill */
	CHECK(h.lines[1].oom_tests == 2 && h.lines[1].oom_done == 1);
	CHECK(!oom_survivor(&h.lines[1], true));	/* ... nor a survival */
	CHECK(oom_survivor(&h.lines[2], true));
	CHECK_NEAR(h.lines[1].fill_mib, 24, 1e-9);	/* 16 + 8 + 0 */
	CHECK_NEAR(h.lines[1].fill_first, 32, 0);
	CHECK_NEAR(h.lines[2].fill_mib, 44, 1e-9);	/* 16 + 16 + 12 */
	CHECK(isnan(h.lines[0].fill_first));		/* bind never fell back */
	CHECK_STR(h.lines[0].fill_outcome, "oom_killed");
	oom_summary(&r, &e.v[0], &b);
	CHECK_STR(b.s, "4k oom_killed at 884.7 of 1257 MiB (memory-policy constraint); 2m sigbus");
	b.len = 0;
	fill_summary(&h, &h.lines[1], &b);
	CHECK_STR(b.s, "all there until 16 MiB (24 MiB there in all)");
	b.len = 0;
	fill_summary(&h, &h.lines[0], &b);
	CHECK_STR(b.s, "never fell back (32 MiB there); oom_killed at 40 MiB");
	b.len = 0;
	recommendation(&r, &e, &h, FITS_UNKNOWN, &b, &b);
	/* preferred-many put 20 MiB more on its nodes: more than one 16 MiB step */
	CHECK(strstr(b.s, "**preferred-many pmem:1+3**: it put 44 MiB on its preferred nodes over the "
			  "fill curve (all of it until 32 MiB), the most of the policies that completed every OOM test.") != NULL);
	CHECK(strstr(b.s, "not distinguishable by placement") == NULL);
	CHECK(strstr(b.s, "bind pmem:1 is out: oom_killed (4k) at 884.7 of 1257 MiB asked, sigbus "
			  "(2m) in the OOM tests.") != NULL);
	CHECK(strstr(b.s, "preferred pmem:1 is out: it did not complete its OOM tests (1 of 2 "
			  "completed).") != NULL);
	/* the other case beside it: bind kept its pages, and how it ends past its nodes */
	CHECK(strstr(b.s, "**If it fits (--fits yes):** **bind pmem:1**: 100% of its pages on its "
			  "nodes (4k pages, scenario full); the fill curve had every step there up to "
			  "32 MiB. It did not fall back, so it is safe only while the workload fits: past "
			  "its nodes this run saw oom_killed (4k), sigbus (2m) (the OOM tests above).")
	      != NULL);
	/*
	 * bind lies below preferred-many in both boots, but two boots give an
	 * interval of 50 % coverage: nothing is claimed, and the report says
	 * how many boots would do.
	 */
	CHECK(strstr(b.s, "cannot be told apart from bind pmem:1") != NULL);
	CHECK(strstr(b.s, "not distinguishable with 2 boots; run --boots 6") != NULL);
	CHECK(strstr(b.s, "higher than") == NULL);
	CHECK(strstr(b.s, "lower than") == NULL);
	CHECK(strstr(b.s, "range of 2 boots, coverage 50%") != NULL);
	sb_free(&b);
	headline_free(&h);
	entries_free(&e);
	run_aggregate_free(&r);
}

/* Latency p50 rows of one boot for bind and preferred-many, and a fallback row. */
static size_t lat_boot(struct row *rows, size_t n, const char *boot, const char *bind,
		       const char *many, const char *unit)
{
	static char ids[16][8];

	snprintf(ids[n / 3 % 16], sizeof(ids[0]), "%s", boot);
	mk_boot = ids[n / 3 % 16];
	rows[n] = mkrow("latency", "bind", "pmem:1", "4k", "free", "p50", bind);
	rows[n++].f[COL_UNIT] = unit;
	rows[n] = mkrow("latency", "preferred-many", "pmem:1", "4k", "free", "p50", many);
	rows[n++].f[COL_UNIT] = unit;
	rows[n++] = mkrow("fallback", "preferred-many", "pmem:1", "4k", "full", "on_set_frac", "1");
	mk_boot = "b1";
	return n;
}

static void rule_text(struct row *rows, size_t n, enum fits fits, struct sbuf *b);

/* The verdict of a run of @rows when the user did not say whether it fits. */
static void recommend(struct row *rows, size_t n, struct sbuf *b)
{
	rule_text(rows, n, FITS_UNKNOWN, b);
}

TEST(report_boots_are_the_replicate)
{
	struct row rows[64];
	struct run r = { 0 };
	size_t n = 0;

	/* boot 1 is the outlier: the figure is the median of the three */
	n = lat_boot(rows, n, "1", "18432", "16896", "ns");
	n = lat_boot(rows, n, "2", "10496", "10752", "ns");
	n = lat_boot(rows, n, "3", "10496", "10752", "ns");
	r.boot_rows = rows;
	r.nboot_rows = n;
	run_aggregate(&r);
	CHECK(r.nboots == 3);
	struct row *w = run_find(&r, "latency", "bind", NULL, "4k", "free", "p50");

	CHECK(w && w->over && w->over->n == 3);
	CHECK_NEAR(w ? w->num : 0, 10496, 0);
	CHECK_STR(w ? w->f[COL_VALUE] : "", "10496");
	CHECK_STR(w ? w->f[COL_BOOT_ID] : "", "median of 3 boots");
	CHECK_NEAR(w ? w->over->v[0] : 0, 18432, 0);	/* each boot's value, in boot order */
	CHECK_NEAR(w ? w->over->lo : 0, 10496, 0);
	CHECK_NEAR(w ? w->over->hi : 0, 18432, 0);
	CHECK_NEAR(w ? w->over->cov : 0, 0.75, 1e-12);
	/* every raw row points at its figure */
	CHECK(rows[0].agg == w && rows[3].agg == w && rows[6].agg == w);
	run_aggregate_free(&r);
}

TEST(report_verdict_needs_six_boots)
{
	struct row rows[64];
	struct sbuf b = { 0 };
	size_t n = 0;
	char id[8];

	/* bind below preferred-many in every boot, by 256 to 6400 ns */
	static const char *const bind[6] = { "10496", "10496", "10752", "10496", "10240", "10496" };
	static const char *const many[6] = { "16896", "10752", "16896", "16384", "10496", "16896" };

	for (int i = 0; i < 5; i++) {
		snprintf(id, sizeof(id), "%d", i + 1);
		n = lat_boot(rows, n, id, bind[i], many[i], "ns");
	}
	recommend(rows, n, &b);
	CHECK(strstr(b.s, "cannot be told apart from bind pmem:1") != NULL);
	CHECK(strstr(b.s, "not distinguishable with 5 boots; run --boots 6") != NULL);
	n = lat_boot(rows, n, "6", bind[5], many[5], "ns");
	recommend(rows, n, &b);
	CHECK(strstr(b.s, "It is higher than bind pmem:1") != NULL);
	CHECK(strstr(b.s, "96.88% interval over boots") != NULL);
	/* contrary data: a seventh boot where bind is the slower one */
	n = lat_boot(rows, n, "7", "16896", "10496", "ns");
	recommend(rows, n, &b);
	CHECK(strstr(b.s, "higher than") == NULL);
	CHECK(strstr(b.s, "cannot be told apart from bind pmem:1") != NULL);
	sb_free(&b);
}

TEST(report_verdict_icount_aa)
{
	struct row rows[64];
	struct sbuf b = { 0 };
	size_t n = 0;

	n = lat_boot(rows, n, "1", "6340", "6366", "insn");
	n = lat_boot(rows, n, "2", "6340", "6366", "insn");
	/* without an A/A pair, two boots cannot carry a claim */
	recommend(rows, n, &b);
	CHECK(strstr(b.s, "not distinguishable with 2 boots") != NULL);
	CHECK(strstr(b.s, "6366 insn") != NULL);
	/* the A/A pair: bind again in each boot, 2 instructions apart at most */
	mk_boot = "1";
	rows[n] = mkrow("latency_aa", "bind", "pmem:1", "4k", "free", "p50", "6342");
	rows[n++].f[COL_UNIT] = "insn";
	mk_boot = "2";
	rows[n] = mkrow("latency_aa", "bind", "pmem:1", "4k", "free", "p50", "6340");
	rows[n++].f[COL_UNIT] = "insn";
	mk_boot = "b1";
	recommend(rows, n, &b);
	CHECK(strstr(b.s, "It is higher than bind pmem:1") != NULL);
	CHECK(strstr(b.s, "by 26 insn (median over boots; every boot the same way), at least the spread between identical cases (icount)") != NULL);
	CHECK(strstr(b.s, "A/A spread here: 2 insn; between identical cases: 2 insn") != NULL);
	/*
	 * A case of the same condition that moves by more than the gap from
	 * boot to boot: the boots are identical cases too, so no claim (two
	 * identical quick runs gave 2m/pressure 86 insn apart over boots with
	 * an A/A spread of 0).
	 */
	mk_boot = "1";
	rows[n] = mkrow("latency_task", "default", "pmem:1", "4k", "free", "p50", "6300");
	rows[n++].f[COL_UNIT] = "insn";
	mk_boot = "2";
	rows[n] = mkrow("latency_task", "default", "pmem:1", "4k", "free", "p50", "6330");
	rows[n++].f[COL_UNIT] = "insn";
	mk_boot = "b1";
	recommend(rows, n, &b);
	CHECK(strstr(b.s, "higher than") == NULL);
	CHECK(strstr(b.s, "between identical cases: 30 insn") != NULL);
	n -= 2;
	/* an A/A pair as far apart as the policies: no claim */
	rows[n - 2].f[COL_VALUE] = "6380";
	rows[n - 2].num = 6380;
	recommend(rows, n, &b);
	CHECK(strstr(b.s, "higher than") == NULL);
	sb_free(&b);
}

/* A median difference of 0 over boots that differ is not "the same in every boot". */
TEST(report_verdict_zero_median_difference)
{
	struct row rows[32];
	struct sbuf b = { 0 };
	size_t n = 0;

	n = lat_boot(rows, n, "1", "100", "110", "ns");
	n = lat_boot(rows, n, "2", "100", "100", "ns");
	n = lat_boot(rows, n, "3", "110", "100", "ns");
	recommend(rows, n, &b);
	CHECK(strstr(b.s, "not distinguishable with 3 boots: the median difference over boots is 0") != NULL);
	CHECK(strstr(b.s, "the same in every boot") == NULL);
	n = 0;
	n = lat_boot(rows, n, "1", "100", "100", "ns");
	n = lat_boot(rows, n, "2", "110", "110", "ns");
	recommend(rows, n, &b);
	CHECK(strstr(b.s, "not distinguishable with 2 boots: the same in every boot") != NULL);
	/* 10 boots: the 95 % interval [0, 0], but two boots differ: not "every boot" */
	n = 0;
	for (int i = 1; i <= 10; i++) {
		char id[8];

		snprintf(id, sizeof(id), "%d", i);
		n = lat_boot(rows, n, id, "100", i == 1 ? "95" : i == 10 ? "105" : "100", "ns");
	}
	recommend(rows, n, &b);
	CHECK(strstr(b.s, "the median difference over boots is 0") != NULL);
	CHECK(strstr(b.s, "the same in every boot") == NULL);
	sb_free(&b);
}

/* #17: a policy is an OOM survivor only when its OOM cases ran and completed. */
TEST(report_survivor_needs_completed_oom_cases)
{
	struct headline_line none = { 0 }, done = { 0 }, setup = { 0 };
	struct row rows[] = {
		mkrow("fallback", "bind", "pmem:1", "4k", "full", "on_set_frac", "0.5"),
		mkrow("fallback", "preferred", "pmem:1", "4k", "full", "on_set_frac", "1"),
		mkrow("fallback", "preferred-many", "pmem:1", "4k", "full", "on_set_frac", "0.9"),
		mkrow("oom", "bind", "pmem:1", "4k", "-", "outcome_completed", "1"),
		/* preferred's only OOM case never allocated: the best placement, no survival */
		mkrow("oom", "preferred", "pmem:1", "4k", "-", "outcome_setup_error", "1"),
		/* preferred-many has no OOM row at all */
	};
	struct run r = { 0 };
	struct entries e;
	struct headline h;
	struct sbuf b = { 0 };

	done.oom_tests = done.oom_done = 2;
	setup.oom_tests = 1;
	CHECK(oom_survivor(&done, true));
	CHECK(!oom_survivor(&setup, true));
	CHECK(!oom_survivor(&none, true));	/* no OOM case ran */
	CHECK(oom_survivor(&none, false));	/* OOM not measured in this run */
	r.rows = rows;
	r.nrows = sizeof(rows) / sizeof(rows[0]);
	collect_entries(&r, &e);
	compute_headline(&r, &e, &h);
	recommendation(&r, &e, &h, FITS_NO, &b, &b);
	CHECK(strstr(b.s, "**bind pmem:1**: 50% of its pages landed on its preferred nodes (4k pages, "
			  "scenario full), the most of the policies that completed every OOM test")
	      != NULL);
	CHECK(strstr(b.s, "**preferred pmem:1**") == NULL);
	CHECK(strstr(b.s, "**preferred-many pmem:1**") == NULL);
	CHECK(strstr(b.s, "preferred pmem:1 is out: it did not complete its OOM tests (0 of 1 "
			  "completed).") != NULL);
	CHECK(strstr(b.s, "Not compared, for want of an OOM test of it: preferred-many pmem:1.")
	      != NULL);
	CHECK(strstr(b.s, "preferred-many pmem:1 is out") == NULL);
	/* fits: bind is chosen only where its pages stayed on its nodes; here they did not */
	b.len = 0;
	recommendation(&r, &e, &h, FITS_YES, &b, &b);
	CHECK(strstr(b.s, "bind pmem:1 did not keep its pages on its nodes in this run: 50% there "
			  "(4k, full)") != NULL);
	CHECK(strstr(b.s, "**bind pmem:1**") == NULL);
	sb_free(&b);
	headline_free(&h);
	entries_free(&e);
}

/*
 * #17: an OOM case that every policy tried and none could set up (THP
 * unavailable in the guest) is the machine's: named, and it decides nothing.
 * One that a policy did not try still disqualifies the one whose setup failed.
 */
TEST(report_oom_case_no_policy_could_set_up)
{
	struct row rows[] = {
		mkrow("fallback", "preferred", "pmem:1", "4k", "full", "on_set_frac", "1"),
		mkrow("fallback", "preferred-many", "pmem:1", "4k", "full", "on_set_frac", "0.9"),
		mkrow("oom", "preferred", "pmem:1", "4k", "-", "outcome_completed", "1"),
		mkrow("oom", "preferred", "pmem:1", "thp", "-", "outcome_setup_error", "1"),
		mkrow("oom", "preferred-many", "pmem:1", "4k", "-", "outcome_completed", "1"),
		mkrow("oom", "preferred-many", "pmem:1", "thp", "-", "outcome_setup_error", "1"),
		mkrow("oom", "preferred-many", "pmem:1", "2m", "-", "outcome_setup_error", "1"),
	};
	struct run r = { 0 };
	struct entries e;
	struct headline h;
	struct sbuf b = { 0 };

	r.rows = rows;
	r.nrows = sizeof(rows) / sizeof(rows[0]);
	CHECK(oom_case_unrunnable(&r, "thp", "-"));
	CHECK(!oom_case_unrunnable(&r, "2m", "-"));	/* preferred did not try it */
	CHECK(!oom_case_unrunnable(&r, "4k", "-"));
	CHECK(!oom_case_unrunnable(&r, "1g", "-"));	/* no such case */
	collect_entries(&r, &e);
	compute_headline(&r, &e, &h);
	CHECK(h.lines[0].oom_tests == 1 && h.lines[0].oom_done == 1);
	CHECK(oom_survivor(&h.lines[0], true));
	CHECK(!oom_survivor(&h.lines[1], true));	/* its 2m setup failed alone */
	recommendation(&r, &e, &h, FITS_NO, &b, &b);
	CHECK(strstr(b.s, "The OOM test thp could not be set up for any policy") != NULL);
	CHECK(strstr(b.s, "**preferred pmem:1**: 100% of its pages landed on its preferred nodes "
			  "(4k pages, scenario full), the most of the policies that completed every "
			  "OOM test") != NULL);
	CHECK(strstr(b.s, "**preferred-many pmem:1**") == NULL);
	sb_free(&b);
	headline_free(&h);
	entries_free(&e);
}

/*
 * #17 item 5, #18 item 2: with one preferred node, whether preferred and
 * preferred-many are the same request is the run's single-node rows' to
 * say; contrary rows change the sentence.
 */
static size_t single_node_text(const char *pm_node, const char *pm_outcome, bool with_rows,
			       struct sbuf *b)
{
	struct row rows[] = {
		mkrow("fallback", "preferred", "pmem:3", "4k", "full", "on_set_frac", "1"),
		mkrow("fallback", "preferred-many", "pmem:3", "4k", "full", "on_set_frac", "1"),
		mkrow("single-node", "preferred", "pmem:3", "4k", "full", "cpu", "0"),
		mkrow("single-node", "preferred", "pmem:3", "4k", "full", "cpu_node", "0"),
		mkrow("single-node", "preferred", "pmem:3", "4k", "full", "fallback_node", "1"),
		mkrow("single-node", "preferred", "pmem:3", "4k", "full", "outcome_completed", "1"),
		mkrow("single-node", "preferred-many", "pmem:3", "4k", "full", "cpu", "0"),
		mkrow("single-node", "preferred-many", "pmem:3", "4k", "full", "cpu_node", "0"),
		mkrow("single-node", "preferred-many", "pmem:3", "4k", "full", "fallback_node", pm_node),
		mkrow("single-node", "preferred-many", "pmem:3", "4k", "full", pm_outcome, "1"),
	};
	struct run r = { 0 };
	struct entries e;
	struct headline h;
	size_t n;

	r.rows = rows;
	r.nrows = with_rows ? sizeof(rows) / sizeof(rows[0]) : 2;
	collect_entries(&r, &e);
	n = e.n;
	compute_headline(&r, &e, &h);
	recommendation(&r, &e, &h, FITS_UNKNOWN, b, b);
	headline_free(&h);
	entries_free(&e);
	return n;
}

TEST(report_single_node_sentence_from_the_rows)
{
	struct sbuf differ = { 0 }, same = { 0 }, none = { 0 }, killed = { 0 };

	/* single-node rows make no headline entry */
	CHECK(single_node_text("0", "outcome_completed", true, &differ) == 2);
	CHECK(strstr(differ.s, "Preferring pmem:3 alone from CPU 0 (node 0): preferred's overflow "
			       "went to node 1, preferred-many's to node 0 — not the same request") != NULL);
	single_node_text("1", "outcome_completed", true, &same);
	CHECK(strstr(same.s, "both went to node 1 — the same on this machine") != NULL);
	CHECK(strstr(same.s, "not the same request") == NULL);
	single_node_text("0", "outcome_oom_killed", true, &killed);
	CHECK(strstr(killed.s, "preferred completed, preferred-many oom_killed") != NULL);
	single_node_text("0", "outcome_completed", false, &none);
	CHECK(strstr(none.s, "is not measured in this run") != NULL);
	sb_free(&differ);
	sb_free(&same);
	sb_free(&none);
	sb_free(&killed);
}

/* A node id is a word: two boots that overflowed to nodes 1 and 3 are not "node 2". */
TEST(report_single_node_boots_that_disagree)
{
	struct row rows[] = {
		mkrow("single-node", "preferred", "pmem:3", "4k", "full", "fallback_node", "1"),
		mkrow("single-node", "preferred", "pmem:3", "4k", "full", "outcome_completed", "1"),
		mkrow("single-node", "preferred-many", "pmem:3", "4k", "full", "fallback_node", "1"),
		mkrow("single-node", "preferred-many", "pmem:3", "4k", "full", "outcome_completed", "1"),
		(mk_boot = "b2", mkrow("single-node", "preferred", "pmem:3", "4k", "full",
				       "fallback_node", "1")),
		mkrow("single-node", "preferred", "pmem:3", "4k", "full", "outcome_completed", "1"),
		mkrow("single-node", "preferred-many", "pmem:3", "4k", "full", "fallback_node", "3"),
		mkrow("single-node", "preferred-many", "pmem:3", "4k", "full", "outcome_completed", "1"),
	};
	struct run r = { 0 };
	struct sbuf b = { 0 };

	mk_boot = "b1";
	r.boot_rows = rows;
	r.nboot_rows = sizeof(rows) / sizeof(rows[0]);
	run_aggregate(&r);
	CHECK(single_node_summary(&r, &b) == 1);
	CHECK(strstr(b.s, "different nodes from boot to boot (preferred: node 1; preferred-many: "
			  "node 1 in 1 boot, node 3 in 1 boot)") != NULL);
	CHECK(strstr(b.s, "node 2") == NULL);
	sb_free(&b);
	run_aggregate_free(&r);
}

/* #17 item 6: a step whose every check skipped checked nothing; it is named. */
TEST(report_all_skipped_step_named)
{
	struct tap taps[] = {
		{ "1", "checks pmem:1", "", "checks-pmem", true, 1 },
		{ "1", "fallback-order", "SKIP needs 3 memory nodes", "fallback-order-pmem", true, 2 },
		{ "1", "single-node", "SKIP needs a node with CPUs", "fallback-order-pmem", true, 3 },
		{ "1", "latency thp", "SKIP THP disabled", "latency-pmem", true, 4 },
		{ "1", "latency 4k", "", "latency-pmem", false, 5 },
		{ "2", "fallback-order", "", "fallback-order-pmem", true, 1 },
	};
	struct run r = { 0 };
	struct sbuf b = { 0 };

	r.taps = taps;
	r.ntaps = sizeof(taps) / sizeof(taps[0]);
	CHECK(all_skipped_steps(&r, &b) == 1);
	CHECK_STR(b.s, "boot 1 fallback-order-pmem (2 skipped: needs 3 memory nodes)");
	sb_free(&b);
	r.ntaps = 1;	/* one check that ran: nothing to name */
	CHECK(all_skipped_steps(&r, &b) == 0 && b.s == NULL);
}

/* #17: an invalid case's rows and histograms are left out; others stay. */
TEST(report_invalid_cases_left_out)
{
	struct row rows[] = {
		mkrow("latency", "bind", "pmem:1", "4k", "pressure", "p50", "10752"),
		mkrow("latency", "bind", "pmem:1", "4k", "pressure", "outcome_invalid", "1"),
		mkrow("latency", "bind", "pmem:1", "4k", "pressure", "invalid_filler_gone", "1"),
		mkrow("latency", "bind", "pmem:1", "4k", "full", "p50", "9000"),
		mkrow("latency", "bind", "pmem:1", "4k", "full", "outcome_completed", "1"),
		mkrow("oom", "preferred", "pmem:1", "4k", "-", "outcome_killed_other", "1"),
		mkrow("oom", "preferred", "pmem:1", "4k", "-", "mib_obtained", "100"),
		mkrow("oom", "preferred", "pmem:1", "thp", "-", "mib_obtained", "90"),
	};
	struct run r = { 0 };

	r.rows = rows;
	r.nrows = sizeof(rows) / sizeof(rows[0]);
	r.hists = xcalloc(2, sizeof(*r.hists));
	CHECK(hist_parse("HIST bench=latency policy=bind nodes=pmem:1 pagesize=4k scenario=pressure "
			 "rep=0 unit=ns buckets=1024:3", "b1", &r.hists[0]) == 0);
	CHECK(hist_parse("HIST bench=latency policy=bind nodes=pmem:1 pagesize=4k scenario=full "
			 "rep=0 unit=ns buckets=1024:3", "b1", &r.hists[1]) == 0);
	r.nhists = 2;
	mark_invalid_cases(&r);
	for (size_t i = 0; i < 3; i++)
		CHECK_STR(rows[i].f[COL_BOOT_STATUS], "invalid");
	CHECK_STR(rows[3].f[COL_BOOT_STATUS], "ok");
	CHECK_STR(rows[4].f[COL_BOOT_STATUS], "ok");
	CHECK_STR(rows[5].f[COL_BOOT_STATUS], "invalid");
	CHECK_STR(rows[6].f[COL_BOOT_STATUS], "invalid");
	CHECK_STR(rows[7].f[COL_BOOT_STATUS], "ok");	/* another page size: another case */
	CHECK(r.nhists == 1);
	if (r.nhists == 1)
		CHECK_STR(r.hists[0].scenario, "full");
	for (size_t i = 0; i < r.nhists; i++)
		hist_free(&r.hists[i]);
	free(r.hists);
}

/* #14 item 6: the report's reader of raw/channel-*.log checks the CRC too. */
TEST(report_channel_payload_checks_the_crc)
{
	const char *payload = "TAP ok 1 - checks";
	char *line = xasprintf("3 %08x %s", frame_crc32(payload, strlen(payload)), payload);

	CHECK_STR(channel_payload(line), payload);
	line[strlen(line) - 1] = 'X';	/* damaged in transit */
	CHECK(channel_payload(line) == NULL);
	CHECK(channel_payload("TAP ok 1 - unframed") == NULL);
	free(line);
}

/* ---- #18: the decision rule, fed contrary data ---- */

static void rule_text(struct row *rows, size_t n, enum fits fits, struct sbuf *b)
{
	struct run r = { 0 };
	struct entries e;
	struct headline h;

	r.boot_rows = rows;
	r.nboot_rows = n;
	run_aggregate(&r);
	collect_entries(&r, &e);
	compute_headline(&r, &e, &h);
	b->len = 0;
	sb_puts(b, "");
	recommendation(&r, &e, &h, fits, b, b);
	headline_free(&h);
	entries_free(&e);
	run_aggregate_free(&r);
}

TEST(report_rule_fits_words)
{
	enum fits f = FITS_YES;

	CHECK(fits_parse("no", &f) == 0 && f == FITS_NO);
	CHECK(fits_parse("unknown", &f) == 0 && f == FITS_UNKNOWN);
	CHECK(fits_parse("yes", &f) == 0 && f == FITS_YES);
	CHECK(fits_parse("Yes", &f) == -1 && f == FITS_YES);
	CHECK(fits_parse("", &f) == -1);
	CHECK(fits_parse(NULL, &f) == -1);
	CHECK_STR(fits_name(FITS_NO), "no");
}

/*
 * One boot of a two-way tie on placement (the same fill curve, each OOM
 * test completed) with the fault cost of each with the nodes full, and
 * bind killed in its OOM test.
 */
static size_t tie_boot(struct row *rows, size_t n, int boot, const char *pref_ns,
		       const char *many_ns, const char *bind_oom)
{
	static char ids[8][16];
	static const char *const pols[2] = { "preferred", "preferred-many" };

	snprintf(ids[boot % 8], sizeof(ids[0]), "%d", boot);
	mk_boot = ids[boot % 8];
	for (int p = 0; p < 2; p++) {
		rows[n++] = mkrow("fallback", pols[p], "pmem:1", "4k", "fill@16", "step_on_set_frac", "1");
		rows[n++] = mkrow("fallback", pols[p], "pmem:1", "4k", "fill@32", "step_on_set_frac", "1");
		rows[n++] = mkrow("fallback", pols[p], "pmem:1", "4k", "fill@48", "step_on_set_frac",
				  p ? "0.75" : "0.5");
		rows[n++] = mkrow("oom", pols[p], "pmem:1", "4k", "-", "outcome_completed", "1");
		rows[n++] = mkrow("latency", pols[p], "pmem:1", "4k", "full", "p50", p ? many_ns : pref_ns);
	}
	rows[n++] = mkrow("fallback", "bind", "pmem:1", "4k", "fill@16", "step_on_set_frac", "1");
	rows[n++] = mkrow("fallback", "bind", "pmem:1", "4k", "fill@32", "step_on_set_frac", "1");
	rows[n++] = mkrow("fallback", "bind", "pmem:1", "4k", "fill@48", "step_on_set_frac", "1");
	rows[n++] = mkrow("fallback", "bind", "pmem:1", "4k", "free", "on_set_frac", "1");
	rows[n++] = mkrow("oom", "bind", "pmem:1", "4k", "-", bind_oom, "1");
	mk_boot = "b1";
	return n;
}

TEST(report_rule_tie_goes_to_fault_cost_with_nodes_full)
{
	struct row rows[128];
	struct sbuf b = { 0 };
	size_t n = 0;

	/* preferred-many cheaper with the nodes full in every one of 6 boots */
	for (int i = 1; i <= 6; i++)
		n = tie_boot(rows, n, i, i % 2 ? "12000" : "12500", i % 3 ? "10000" : "10200",
			     "outcome_oom_killed");
	rule_text(rows, n, FITS_NO, &b);
	CHECK(strstr(b.s, "**preferred pmem:1** and **preferred-many pmem:1** are not "
			  "distinguishable by placement: 40 MiB, 44 MiB on the preferred nodes over the "
			  "fill curve, within one 16 MiB fill step of each other") != NULL);
	CHECK(strstr(b.s, "(4k pages, scenario full): preferred pmem:1 12250 ns [12000, 12500]; "
			  "preferred-many pmem:1 10000 ns [10000, 10200].") != NULL);
	CHECK(strstr(b.s, "So **preferred-many pmem:1**, by the lower fault cost with the nodes "
			  "full (preferred-many pmem:1 against preferred pmem:1: lower by 2150 ns, 96.88% interval over boots [1800, 2500]).")
	      != NULL);
	CHECK(strstr(b.s, "bind pmem:1 is out: oom_killed (4k) in the OOM tests.") != NULL);
	CHECK(strstr(b.s, "If it fits") == NULL);
	/* contrary data: preferred the cheaper one */
	n = 0;
	for (int i = 1; i <= 6; i++)
		n = tie_boot(rows, n, i, "10000", "12000", "outcome_oom_killed");
	rule_text(rows, n, FITS_NO, &b);
	CHECK(strstr(b.s, "So **preferred pmem:1**, by the lower fault cost") != NULL);
	CHECK(strstr(b.s, "preferred pmem:1 against preferred-many pmem:1: lower by 2000 ns") != NULL);
	/* one boot the other way: nothing separates them, and the report says what would */
	n = 0;
	for (int i = 1; i <= 6; i++)
		n = tie_boot(rows, n, i, i == 3 ? "13000" : "10000", "12000", "outcome_oom_killed");
	rule_text(rows, n, FITS_NO, &b);
	CHECK(strstr(b.s, "So **") == NULL);
	CHECK(strstr(b.s, "Not distinguishable by placement or by fault cost in this run") != NULL);
	CHECK(strstr(b.s, "Not distinguishable by placement or by fault cost in this run "
			  "(preferred pmem:1 against preferred-many pmem:1: not distinguishable with 6 "
			  "boots") != NULL);
	CHECK(strstr(b.s, "What would separate them: more boots, or --clock icount") != NULL);
	CHECK(strstr(b.s, "--profile full") == NULL);	/* the steps are 16 MiB already */
	sb_free(&b);
}

TEST(report_rule_bind_follows_fits_and_oom)
{
	struct row rows[128];
	struct sbuf b = { 0 };
	size_t n = 0;

	for (int i = 1; i <= 2; i++)
		n = tie_boot(rows, n, i, "10000", "10000", "outcome_oom_killed");
	/* fits: bind, with its placement and how it ends past its nodes */
	rule_text(rows, n, FITS_YES, &b);
	CHECK(strstr(b.s, "**Your case (--fits yes):** the workload fits the nodes it is given. "
			  "**bind pmem:1**: 100% of its pages on its nodes (4k pages, scenario free); "
			  "the fill curve had every step there up to 48 MiB") != NULL);
	CHECK(strstr(b.s, "past its nodes this run saw oom_killed (4k). When in doubt, say --fits "
			  "no.") != NULL);
	CHECK(strstr(b.s, "**preferred") == NULL);
	/* unknown: the safe answer, the fits answer beside it */
	rule_text(rows, n, FITS_UNKNOWN, &b);
	CHECK(strstr(b.s, "bind pmem:1 is out: oom_killed (4k)") != NULL);
	CHECK(strstr(b.s, "**If it fits (--fits yes):** **bind pmem:1**") != NULL);
	CHECK(strstr(b.s, "Not distinguishable by placement or by fault cost") != NULL);
	/* contrary data: bind completes its OOM test and keeps the most: chosen when it may not fit */
	n = 0;
	for (int i = 1; i <= 2; i++)
		n = tie_boot(rows, n, i, "10000", "10000", "outcome_completed");
	/* within one step of bind's 48 MiB all three tie (tested below); make the others fall back early */
	rule_text(rows, n, FITS_NO, &b);
	CHECK(strstr(b.s, "**bind pmem:1**, **preferred pmem:1** and **preferred-many pmem:1** are "
			  "not distinguishable by placement: 48 MiB, 40 MiB, 44 MiB") != NULL);
	CHECK(strstr(b.s, "Their fault cost with the preferred nodes full is not measured") != NULL);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i].f[COL_SCENARIO], "fill@32") && strcmp(rows[i].f[COL_POLICY], "bind")) {
			rows[i].f[COL_VALUE] = "0";
			rows[i].num = 0;
		}
	rule_text(rows, n, FITS_NO, &b);
	CHECK(strstr(b.s, "**bind pmem:1**: it put 48 MiB on its preferred nodes over the fill "
			  "curve, the most of the policies that completed every OOM test; then "
			  "preferred pmem:1 24 MiB, preferred-many pmem:1 28 MiB.") != NULL);
	CHECK(strstr(b.s, "is out") == NULL);
	sb_free(&b);
}

/* Each quoted figure names the summary.csv lines behind it, one per boot. */
TEST(report_rule_cites_summary_lines)
{
	struct row rows[128];
	struct sbuf b = { 0 };
	size_t n = 0;

	for (int i = 1; i <= 2; i++)
		n = tie_boot(rows, n, i, "10000", "10000", "outcome_oom_killed");
	for (size_t i = 0; i < n; i++)
		rows[i].line = (unsigned)(i + 2);	/* after the header */
	rule_text(rows, n, FITS_YES, &b);
	/* bind's free placement is row 13 of each boot's 15 */
	CHECK(strstr(b.s, "100% of its pages on its nodes (4k pages, scenario free) (summary.csv "
			  "lines 15, 30)") != NULL);
	/* its fill curve: 3 consecutive steps in each of 2 boots */
	CHECK(strstr(b.s, "up to 48 MiB (summary.csv lines 12–14, 27–29)") != NULL);
	CHECK(strstr(b.s, "oom_killed (4k) (summary.csv lines 16, 31)") != NULL);
	/* six boots: four runs of lines shown, the rest counted */
	n = 0;
	for (int i = 1; i <= 6; i++)
		n = tie_boot(rows, n, i, "10000", "10000", "outcome_oom_killed");
	for (size_t i = 0; i < n; i++)
		rows[i].line = (unsigned)(i + 2);
	rule_text(rows, n, FITS_YES, &b);
	CHECK(strstr(b.s, "(summary.csv lines 15, 30, 45, 60 and 2 more)") != NULL);
	CHECK(strstr(b.s, "(summary.csv lines 12–14, 27–29, 42–44, 57–59 and 6 more)") != NULL);
	/* a line of its own */
	n = tie_boot(rows, 0, 1, "10000", "10000", "outcome_oom_killed");
	for (size_t i = 0; i < n; i++)
		rows[i].line = (unsigned)(i + 2);
	rule_text(rows, n, FITS_YES, &b);
	CHECK(strstr(b.s, "scenario free) (summary.csv line 15)") != NULL);
	sb_free(&b);
}

/* #18 item 3: a run of summary format 1 is read under format 2's names. */
TEST(report_metric_renames)
{
	CHECK_STR(metric_current_name("preferred_frac"), "on_set_frac");
	CHECK_STR(metric_current_name("inside_frac"), "in_mask_frac");
	CHECK_STR(metric_current_name("step_preferred_frac"), "step_on_set_frac");
	CHECK_STR(metric_current_name("pages_preferred_frac"), "alloc_on_set_frac");
	CHECK_STR(metric_current_name("on_set_frac"), "on_set_frac");
	CHECK_STR(metric_current_name("p50"), "p50");
}

/* Review of #18: bind whose fill curve fell back late is not "safe if it fits". */
TEST(report_rule_fits_needs_every_fill_step_on_the_set)
{
	struct row rows[128];
	struct sbuf b = { 0 };
	size_t n = 0;

	n = tie_boot(rows, n, 1, "10000", "10000", "outcome_oom_killed");
	rule_text(rows, n, FITS_YES, &b);
	CHECK(strstr(b.s, "**bind pmem:1**") != NULL);
	CHECK(strstr(b.s, "It did not fall back") != NULL);
	/* contrary data: bind's last step only half on its node */
	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i].f[COL_POLICY], "bind") && !strcmp(rows[i].f[COL_SCENARIO], "fill@48")) {
			rows[i].f[COL_VALUE] = "0.5";
			rows[i].num = 0.5;
		}
	rule_text(rows, n, FITS_YES, &b);
	CHECK(strstr(b.s, "**bind pmem:1**") == NULL);
	CHECK(strstr(b.s, "bind pmem:1 did not keep its pages on its nodes in this run: its fill "
			  "curve's step at 48 MiB was below 99% there") != NULL);
	CHECK(strstr(b.s, "did not fall back") == NULL);
	sb_free(&b);
}

/* The fault cost quoted is the user's case's: nodes full unless the workload fits. */
TEST(report_rule_fault_cost_condition_follows_fits)
{
	struct row rows[128];
	struct sbuf b = { 0 };
	size_t n = 0;

	n = tie_boot(rows, n, 1, "12000", "10000", "outcome_oom_killed");
	rows[n++] = mkrow("latency", "preferred", "pmem:1", "4k", "free", "p50", "6000");
	rows[n++] = mkrow("latency", "preferred-many", "pmem:1", "4k", "free", "p50", "6100");
	rows[n++] = mkrow("latency", "bind", "pmem:1", "4k", "free", "p50", "5900");
	rows[n++] = mkrow("latency", "bind", "pmem:1", "4k", "full", "outcome_oom_killed", "1");
	rule_text(rows, n, FITS_NO, &b);
	CHECK(strstr(b.s, "Median fault latency (4k pages, scenario full: the preferred nodes held "
			  "full, policy set with mbind()) of preferred pmem:1: 12000 ns") != NULL);
	CHECK(strstr(b.s, "No fault latency in this scenario for bind pmem:1 oom_killed.") != NULL);
	rule_text(rows, n, FITS_YES, &b);
	CHECK(strstr(b.s, "Median fault latency (4k pages, scenario free: no node full, policy set "
			  "with mbind()) of bind pmem:1: 5900 ns") != NULL);
	CHECK(strstr(b.s, "scenario full: the preferred nodes held") == NULL);
	sb_free(&b);
}

/*
 * #17 item 2: the fill-level sentences come from the rows.  Under low,
 * preferred off the set and the others on it gives two groups; the same
 * rows with preferred on the set give one; a level without rows says
 * nothing.
 */
static size_t level_text(const char *pref_frac, struct sbuf *b)
{
	struct row rows[] = {
		mkrow("fallback", "bind", "pmem:1", "4k", "level-min-low", "on_set_frac", "1"),
		mkrow("fallback", "preferred", "pmem:1", "4k", "level-min-low", "on_set_frac", pref_frac),
		mkrow("fallback", "preferred-many", "pmem:1", "4k", "level-min-low", "on_set_frac", "1"),
		mkrow("fallback", "preferred", "pmem:1", "4k", "level-low-high", "on_set_frac", "1"),
	};
	struct run r = { 0 };
	size_t n;

	mk_boot = "b1";
	r.boot_rows = rows;
	r.nboot_rows = sizeof(rows) / sizeof(rows[0]);
	for (size_t i = 0; i < r.nboot_rows; i++)
		rows[i].line = (unsigned)i + 2;
	run_aggregate(&r);
	n = level_summary(&r, b);
	run_aggregate_free(&r);
	return n;
}

TEST(report_fill_level_sentences_from_the_rows)
{
	struct sbuf differ = { 0 }, same = { 0 };

	CHECK(level_text("0", &differ) == 2);
	CHECK(strstr(differ.s, "With pmem:1 held between the min and low watermarks, bind and "
			       "preferred-many put 100 % of the probe on them (summary.csv lines 2, 4); "
			       "preferred put 0 % of the probe on them (summary.csv line 3).") != NULL);
	CHECK(strstr(differ.s, "With pmem:1 held between the low and high watermarks, preferred put "
			       "100 % of the probe on them (summary.csv line 5).") != NULL);
	CHECK(strstr(differ.s, "above the high") == NULL);
	level_text("1", &same);
	CHECK(strstr(same.s, "bind, preferred and preferred-many put 100 %") != NULL);
	CHECK(strstr(same.s, "put 0 %") == NULL);
	sb_free(&differ);
	sb_free(&same);
}

/*
 * #18 item 4, the model after the fill: preferred pmem:1 fills node 1 (300
 * ns, 25000 MB/s) in 16 MiB steps and overflows to node @over, half of its
 * second step and all of its third; bind stays on node 1 and is killed;
 * interleave has no fill curve.  Node 0 is 100 ns / 100000 MB/s, node 2 500
 * ns / 10000 MB/s, node 3 has no figures.  A memory-side cache on node 1
 * (60 ns) with hit share @hit when given, its figures when @cache_figs.
 * The model's sentences into @b; preferred's headline line into @pref,
 * interleave's into @il; whether the headline's model is after the fill.
 */
static bool fill_model_text(const char *over, const char *hit, bool cache_figs,
			    struct headline_line *pref, struct headline_line *il, struct sbuf *b)
{
	char metric[32];
	struct row rows[40];
	size_t n = 0;
	struct run r = { 0 };
	struct entries e;
	struct headline h;

	snprintf(metric, sizeof(metric), "step_frac_node%s", over);
	rows[n++] = mkrow("fallback", "preferred", "pmem:1", "4k", "fill@16", "step_frac_node1", "1");
	rows[n++] = mkrow("fallback", "preferred", "pmem:1", "4k", "fill@16", metric, "0");
	rows[n++] = mkrow("fallback", "preferred", "pmem:1", "4k", "fill@32", "step_frac_node1", "0.5");
	rows[n++] = mkrow("fallback", "preferred", "pmem:1", "4k", "fill@32", metric, "0.5");
	rows[n++] = mkrow("fallback", "preferred", "pmem:1", "4k", "fill@48", "step_frac_node1", "0");
	rows[n++] = mkrow("fallback", "preferred", "pmem:1", "4k", "fill@48", metric, "1");
	rows[n++] = mkrow("fallback", "bind", "pmem:1", "4k", "fill@16", "step_frac_node1", "1");
	rows[n++] = mkrow("fallback", "bind", "pmem:1", "4k", "fill@32", "step_frac_node1", "1");
	rows[n++] = mkrow("fallback", "bind", "pmem:1", "4k", "fill", "outcome_oom_killed", "1");
	rows[n++] = mkrow("model", "-", "pmem:1", "-", "-", "hmat_read_latency_node0", "100");
	rows[n++] = mkrow("model", "-", "pmem:1", "-", "-", "hmat_read_bandwidth_node0", "100000");
	rows[n++] = mkrow("model", "-", "pmem:1", "-", "-", "hmat_read_latency_node1", "300");
	rows[n++] = mkrow("model", "-", "pmem:1", "-", "-", "hmat_read_bandwidth_node1", "25000");
	rows[n++] = mkrow("model", "-", "pmem:1", "-", "-", "hmat_read_latency_node2", "500");
	rows[n++] = mkrow("model", "-", "pmem:1", "-", "-", "hmat_read_bandwidth_node2", "10000");
	if (hit)
		rows[n++] = mkrow("model", "-", "pmem:1", "-", "-", "model_cache_hit_frac_node1", hit);
	if (cache_figs)
		rows[n++] = mkrow("model", "-", "pmem:1", "-", "-", "model_cache_read_latency_node1", "60");
	rows[n++] = mkrow("model", "bind", "pmem:1", "4k", "free", "model_read_latency_ns", "300");
	rows[n++] = mkrow("model", "bind", "pmem:1", "4k", "free", "model_read_bandwidth_serial_mbps",
			  "25000");
	rows[n++] = mkrow("model", "preferred", "pmem:1", "4k", "free", "model_read_latency_ns", "300");
	rows[n++] = mkrow("model", "preferred", "pmem:1", "4k", "free",
			  "model_read_bandwidth_serial_mbps", "25000");
	rows[n++] = mkrow("model", "interleave", "pmem:1", "4k", "free", "model_read_latency_ns", "200");
	/* the on-set shares of the same steps, as the guest prints them beside */
	rows[n++] = mkrow("fallback", "preferred", "pmem:1", "4k", "fill@16", "step_on_set_frac", "1");
	rows[n++] = mkrow("fallback", "preferred", "pmem:1", "4k", "fill@32", "step_on_set_frac", "0.5");
	rows[n++] = mkrow("fallback", "preferred", "pmem:1", "4k", "fill@48", "step_on_set_frac", "0");
	rows[n++] = mkrow("fallback", "bind", "pmem:1", "4k", "fill@16", "step_on_set_frac", "1");
	rows[n++] = mkrow("fallback", "bind", "pmem:1", "4k", "fill@32", "step_on_set_frac", "1");
	for (size_t i = 0; i < n; i++)
		rows[i].line = (unsigned)i + 2;
	r.boot_rows = rows;
	r.nboot_rows = n;
	run_aggregate(&r);
	collect_entries(&r, &e);
	compute_headline(&r, &e, &h);
	b->len = 0;
	sb_puts(b, "");
	fill_model_summary(&r, &e, &h, b);
	for (size_t i = 0; i < e.n; i++) {
		if (!strcmp(e.v[i].policy, "preferred"))
			*pref = h.lines[i];
		if (!strcmp(e.v[i].policy, "interleave"))
			*il = h.lines[i];
	}
	bool after = h.have_fill_model;

	headline_free(&h);
	entries_free(&e);
	run_aggregate_free(&r);
	return after;
}

TEST(report_model_after_the_fill_follows_the_overflow)
{
	struct sbuf b = { 0 };
	struct headline_line l, il;

	/* the overflow to faster node 0: 24 MiB on each node */
	CHECK(fill_model_text("0", NULL, false, &l, &il, &b));
	CHECK(l.model_after_fill);
	/* no fill curve: bench model's own case, marked so in the headline */
	CHECK(!il.model_after_fill);
	CHECK_NEAR(il.model_lat, 200, 0);
	CHECK_NEAR(l.fm.node_mib[0], 24, 1e-9);
	CHECK_NEAR(l.fm.node_mib[1], 24, 1e-9);
	CHECK_NEAR(l.model_lat, 200, 1e-9);
	CHECK_NEAR(l.model_bw, 40000, 1e-6);		/* 1 / (0.5/100000 + 0.5/25000) */
	CHECK_NEAR(l.model_bw_bound, 50000, 1e-6);	/* min(100000, 25000) / 0.5 */
	CHECK_NEAR(l.free_lat, 300, 0);
	CHECK(strstr(b.s, "**preferred pmem:1**: its fill curve placed 48 MiB (3 steps): node 0 50%, "
			  "node 1 50%. Modeled read latency 200 ns, read bandwidth 40000 MB/s serial "
			  "(parallel bound 50000 MB/s) (summary.csv lines 2–7, 11–14).") != NULL);
	CHECK(strstr(b.s, "With nothing full (bench model's own case, 4k pages, scenario free): 300 "
			  "ns, 25000 MB/s (summary.csv lines 19, 20); after the fill: read latency 100 "
			  "ns lower, serial bandwidth 15000 MB/s higher.") != NULL);
	CHECK(strstr(b.s, "**bind pmem:1**: its fill curve placed 32 MiB (2 steps; it ended "
			  "oom_killed): node 1 100%. Modeled read latency 300 ns") != NULL);
	CHECK(strstr(b.s, "read latency the same, serial bandwidth the same.") != NULL);
	CHECK(strstr(b.s, "**interleave") == NULL);
	CHECK(strstr(b.s, "memory-side cache") == NULL);

	/* contrary data: the same steps overflow to slower node 2 */
	fill_model_text("2", NULL, false, &l, &il, &b);
	CHECK_NEAR(l.model_lat, 400, 1e-9);
	CHECK_NEAR(l.model_bw, 1 / (0.5 / 10000 + 0.5 / 25000), 1e-6);
	CHECK_NEAR(l.model_bw_bound, 20000, 1e-6);
	CHECK(strstr(b.s, "node 1 50%, node 2 50%. Modeled read latency 400 ns, read bandwidth 14286 "
			  "MB/s serial (parallel bound 20000 MB/s)") != NULL);
	CHECK(strstr(b.s, "after the fill: read latency 100 ns higher, serial bandwidth 10714 MB/s "
			  "lower.") != NULL);
	CHECK(strstr(b.s, "100 ns lower") == NULL);

	/* to node 3, which has no figures: the mean is over the pages that have them */
	fill_model_text("3", NULL, false, &l, &il, &b);
	CHECK_NEAR(l.fm.coverage, 0.5, 1e-9);
	CHECK_NEAR(l.model_lat, 300, 1e-9);
	CHECK(strstr(b.s, "Modeled read latency 300 ns, read bandwidth 25000 MB/s serial (parallel "
			  "bound 25000 MB/s), over the 50% of the pages on nodes with figures") != NULL);
	sb_free(&b);
}

/* The memory-side cache's hit share is an assumption the report states, from its row. */
TEST(report_model_after_the_fill_states_the_cache_hit_share)
{
	struct sbuf b = { 0 };
	struct headline_line l, il;

	/* node 1: 0.25 * 60 + 0.75 * 300 = 240 ns; half the pages there, half on node 0 */
	fill_model_text("0", "0.25", true, &l, &il, &b);
	CHECK_NEAR(l.fm.cache_hit, 0.25, 1e-9);
	CHECK_NEAR(l.model_lat, (240 + 100) / 2.0, 1e-9);
	CHECK(strstr(b.s, "A memory-side cache is assumed to serve 25% of the accesses to the pages "
			  "on its nodes (model_cache_hit_frac_node<N>).") != NULL);
	/* contrary data: another hit share, another latency */
	fill_model_text("0", "0.5", true, &l, &il, &b);
	CHECK_NEAR(l.model_lat, (180 + 100) / 2.0, 1e-9);
	CHECK(strstr(b.s, "assumed to serve 50% of the accesses") != NULL);
	/* a cache without figures is priced as its memory, and the report says so */
	fill_model_text("0", "0.5", false, &l, &il, &b);
	CHECK_NEAR(l.model_lat, 200, 1e-9);
	CHECK(strstr(b.s, "the run gives no figures for it, so those pages are priced as their "
			  "memory") != NULL);
	sb_free(&b);
}

/* bench model's own cases: the cache's assumed hit share, said where a cache exists */
static size_t cache_text(const char *bind_hit, const char *pm_cov, struct sbuf *b)
{
	struct row rows[] = {
		mkrow("model", "bind", "pmem:1", "4k", "free", "model_read_latency_ns", "240"),
		mkrow("model", "bind", "pmem:1", "4k", "free", "model_cache_hit_frac", bind_hit),
		mkrow("model", "bind", "pmem:1", "4k", "free", "model_cache_coverage_frac", "1"),
		mkrow("model", "preferred", "pmem:1", "4k", "free", "model_read_latency_ns", "240"),
		mkrow("model", "preferred", "pmem:1", "4k", "free", "model_cache_hit_frac", "0.25"),
		mkrow("model", "preferred", "pmem:1", "4k", "free", "model_cache_coverage_frac", "1"),
		mkrow("model", "preferred-many", "pmem:1", "4k", "free", "model_read_latency_ns", "300"),
		mkrow("model", "preferred-many", "pmem:1", "4k", "free", "model_cache_hit_frac", "0.25"),
		mkrow("model", "preferred-many", "pmem:1", "4k", "free", "model_cache_coverage_frac",
		      pm_cov),
		/* no pages on a cached node: no hit share */
		mkrow("model", "default", "pmem:1", "4k", "free", "model_read_latency_ns", "100"),
	};
	struct run r = { 0 };
	struct entries e;
	size_t n;

	r.rows = rows;
	r.nrows = sizeof(rows) / sizeof(rows[0]);
	collect_entries(&r, &e);
	b->len = 0;
	sb_puts(b, "");
	n = cache_hit_summary(&r, &e, b);
	entries_free(&e);
	return n;
}

TEST(report_model_cache_hit_share_from_the_rows)
{
	struct sbuf b = { 0 };

	CHECK(cache_text("0.25", "1", &b) == 3);
	CHECK_STR(b.s, "Memory-side cache: bench model assumed it serves 25% of the accesses to the "
		       "pages on its nodes for bind pmem:1, preferred pmem:1, preferred-many pmem:1 "
		       "(model_cache_hit_frac: an assumption, tierbench --model-cache-hit, else the "
		       "cache's size over the node's). ");
	/* contrary data: another share for bind, no figures for preferred-many's cache */
	CHECK(cache_text("0.5", "0", &b) == 3);
	CHECK(strstr(b.s, "serves 50% of the accesses to the pages on its nodes for bind pmem:1; 25% "
			  "of the accesses to the pages on its nodes for preferred pmem:1, "
			  "preferred-many pmem:1 (") != NULL);
	CHECK(strstr(b.s, "the run has no figures for the cache of the pages of preferred-many "
			  "pmem:1, priced as their memory (model_cache_coverage_frac 0)") != NULL);
	sb_free(&b);
}

/*
 * bench features: each sentence says what the rows say.  The home node
 * honoured, then not (home 3 landing on node 2); a move of 60 %.
 */
static size_t features_text(const char *home3, const char *moved, struct sbuf *b)
{
	struct row rows[] = {
		mkrow("features", "preferred-many", "pmem:2+3", "4k", "free", "landing_node_nohome", "2"),
		mkrow("features", "preferred-many", "pmem:2+3", "4k", "free", "landing_node_home3", home3),
		mkrow("features", "bind", "pmem:2+3", "4k", "free", "moved_frac", moved),
		mkrow("features", "bind", "pmem:2+3", "4k", "free", "move_cost_per_page", "8355"),
		mkrow("features", "weighted-interleave", "pmem:2+3", "4k", "free", "wi_frac_node2", "0.5"),
		mkrow("features", "weighted-interleave", "pmem:2+3", "4k", "free", "wi_expected_frac", "0.75"),
	};
	struct run r = { 0 };
	size_t n;

	mk_boot = "b1";
	rows[3].f[COL_UNIT] = "insn";
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		rows[i].line = (unsigned)i + 2;
	r.boot_rows = rows;
	r.nboot_rows = sizeof(rows) / sizeof(rows[0]);
	run_aggregate(&r);
	n = features_summary(&r, b);
	run_aggregate_free(&r);
	return n;
}

TEST(report_features_sentences_from_the_rows)
{
	struct sbuf kept = { 0 }, ignored = { 0 };

	CHECK(features_text("3", "1", &kept) == 3);
	CHECK(strstr(kept.s, "From CPU 0, preferred-many over pmem:2+3 landed on node 2 without a home "
			     "node (summary.csv line 2); with home node 3 on node 3 (summary.csv line 3).") != NULL);
	CHECK(strstr(kept.s, "moved 100 % of a populated bound range, at 8355 insn per page "
			     "(summary.csv lines 4, 5).") != NULL);
	CHECK(strstr(kept.s, "put 50 % on node 2 (summary.csv line 6); the weights ask 75 % on the "
			     "first (summary.csv line 7).") != NULL);
	features_text("2", "0.6", &ignored);
	CHECK(strstr(ignored.s, "with home node 3 on node 2 (summary.csv line 3)") != NULL);
	CHECK(strstr(ignored.s, "moved 60 % of") != NULL);
	sb_free(&kept);
	sb_free(&ignored);
}

/*
 * bench threads (issue 20): two threads on two nodes, each sentence says
 * where this run's rows put each thread.  @pm1: the landing node of
 * preferred-many's thread 1 (node 1's CPU), @def1 default's.
 */
static size_t threads_text(const char *pm1, const char *def1, struct sbuf *b)
{
#define TH(pol, m, v) mkrow("threads_2nodes", pol, "pmem:2+3", "4k", "free", m, v)
	struct row rows[] = {
		TH("preferred-many", "threads", "2"),
		TH("preferred-many", "thread0_cpu", "0"), TH("preferred-many", "thread0_node", "0"),
		TH("preferred-many", "thread0_top_node", "2"), TH("preferred-many", "thread0_top_frac", "1"),
		TH("preferred-many", "thread1_cpu", "2"), TH("preferred-many", "thread1_node", "1"),
		TH("preferred-many", "thread1_top_node", pm1), TH("preferred-many", "thread1_top_frac", "1"),
		TH("preferred-many", "p50", "6424"),
		TH("default", "threads", "2"),
		TH("default", "thread0_cpu", "0"), TH("default", "thread0_node", "0"),
		TH("default", "thread0_top_node", "0"), TH("default", "thread0_top_frac", "1"),
		TH("default", "thread1_cpu", "2"), TH("default", "thread1_node", "1"),
		TH("default", "thread1_top_node", def1), TH("default", "thread1_top_frac", "0.995"),
		TH("preferred", "threads", "2"),
		TH("preferred", "thread0_cpu", "0"), TH("preferred", "thread0_node", "0"),
		TH("preferred", "thread0_top_node", "2"),
		TH("preferred", "thread1_cpu", "2"), TH("preferred", "thread1_node", "1"),
		TH("preferred", "thread1_top_node", "2"),
		/* an interleave spreads: no landing node is claimed for it */
		TH("interleave", "threads", "2"),
		TH("interleave", "thread0_cpu", "0"), TH("interleave", "thread0_node", "0"),
		TH("interleave", "thread0_top_node", "0"), TH("interleave", "thread0_top_frac", "0.25"),
	};
#undef TH
	struct run r = { 0 };
	size_t n;

	mk_boot = "b1";
	rows[9].f[COL_UNIT] = "insn";
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		rows[i].line = (unsigned)i + 2;
	r.boot_rows = rows;
	r.nboot_rows = sizeof(rows) / sizeof(rows[0]);
	run_aggregate(&r);
	n = threads_summary(&r, b);
	run_aggregate_free(&r);
	return n;
}

TEST(report_threads_sentences_from_the_rows)
{
	struct sbuf kept = { 0 }, one = { 0 };

	CHECK(threads_text("3", "1", &kept) == 3);
	CHECK(strstr(kept.s, "With 2 threads on the CPUs of two nodes, alternating, preferred-many over "
			     "pmem:2+3 put thread 0 (CPU 0, node 0) 100 % on node 2 (summary.csv lines 3–6), "
			     "thread 1 (CPU 2, node 1) 100 % on node 3 (summary.csv lines 7–10); the median fault of all threads cost 6424 insn (summary.csv line 11).")
	      != NULL);
	CHECK(strstr(kept.s, "thread 1 (CPU 2, node 1) 99.5 % on node 1 (summary.csv lines 17–20)")
	      != NULL);
	CHECK(strstr(kept.s, "Threads on different nodes (pmem:2+3) landed on different nodes under "
			     "preferred-many and default, on one node under preferred (the rows above).")
	      != NULL);
	CHECK(strstr(kept.s, "interleave") == NULL);
	/* contrary rows: both of preferred-many's threads on node 2, default's on node 0 */
	threads_text("2", "0", &one);
	CHECK(strstr(one.s, "landed on different nodes under no policy, on one node under preferred, "
			    "preferred-many and default") != NULL);
	sb_free(&kept);
	sb_free(&one);
}

/*
 * #21, --memory-timing count: the counted access cost beside the model.
 * bind pmem:1's fill curve (2 steps, OOM-killed) counted 1000 misses, a
 * share @node0 of them on DRAM node 0 (81 ns) and the rest on PMEM node 1
 * (305 ns), their mean read latency @miss_lat; its model after the fill
 * is 305 ns (every step on node 1).  Workload stress-vm: bind's counted
 * cost @wl_bind ns against default's 2 ms.  preferred's fallback 4k/free
 * case ran; with @pref_phase it has its phase rows, else none.
 */
/* With this set, bind's fill curve has an msc_hits_node1 row of it (a memory-side cache). */
static const char *access_msc_hits;

static bool access_text(const char *node0, const char *miss_lat, const char *wl_bind,
			bool pref_phase, struct sbuf *cases, struct sbuf *wl, struct sbuf *miss)
{
	bool counts;
	char node1[32];
	struct row rows[48];
	size_t n = 0;
	struct run r = { 0 };
	struct entries e;
	struct headline h;

	snprintf(node1, sizeof(node1), "%g", 1 - atof(node0));
	mk_boot = "b1";
	rows[n++] = mkrow("fallback", "bind", "pmem:1", "4k", "fill@16", "step_frac_node1", "1");
	rows[n++] = mkrow("fallback", "bind", "pmem:1", "4k", "fill@32", "step_frac_node1", "1");
	rows[n++] = mkrow("fallback", "bind", "pmem:1", "4k", "fill", "outcome_oom_killed", "1");
	rows[n++] = mkrow("fallback", "bind", "pmem:1", "4k", "fill", "mem_phases", "2");
	rows[n++] = mkrow("fallback", "bind", "pmem:1", "4k", "fill", "llc_misses", "1000");
	rows[n++] = mkrow("fallback", "bind", "pmem:1", "4k", "fill", "llc_miss_share_node0", node0);
	rows[n++] = mkrow("fallback", "bind", "pmem:1", "4k", "fill", "llc_miss_share_node1", node1);
	rows[n++] = mkrow("fallback", "bind", "pmem:1", "4k", "fill", "miss_latency_ns", miss_lat);
	rows[n++] = mkrow("model", "-", "pmem:1", "-", "-", "hmat_read_latency_node0", "81");
	rows[n++] = mkrow("model", "-", "pmem:1", "-", "-", "hmat_read_bandwidth_node0", "100000");
	rows[n++] = mkrow("model", "-", "pmem:1", "-", "-", "hmat_read_latency_node1", "305");
	rows[n++] = mkrow("model", "-", "pmem:1", "-", "-", "hmat_read_bandwidth_node1", "39400");
	rows[n++] = mkrow("model", "bind", "pmem:1", "4k", "free", "model_read_latency_ns", "305");
	rows[n++] = mkrow("fallback", "bind", "pmem:1", "4k", "free", "outcome_completed", "1");
	rows[n++] = mkrow("fallback", "bind", "pmem:1", "4k", "free", "mem_phases", "1");
	rows[n++] = mkrow("fallback", "bind", "pmem:1", "4k", "free", "llc_misses", "500");
	rows[n++] = mkrow("fallback", "bind", "pmem:1", "4k", "free", "llc_miss_share_node1", "1");
	rows[n++] = mkrow("fallback", "bind", "pmem:1", "4k", "free", "miss_latency_ns", "305");
	rows[n++] = mkrow("latency", "bind", "pmem:1", "4k", "free", "p50", "6341");
	rows[n++] = mkrow("latency", "bind", "pmem:1", "4k", "free", "outcome_completed", "1");
	rows[n++] = mkrow("latency", "bind", "pmem:1", "4k", "free", "mem_phases", "2");
	rows[n++] = mkrow("latency", "bind", "pmem:1", "4k", "free", "access_ns_per_page", "19600");
	rows[n++] = mkrow("latency", "bind", "pmem:1", "4k", "free", "miss_latency_ns", "300");
	rows[n++] = mkrow("fallback", "preferred", "pmem:1", "4k", "free", "outcome_completed", "1");
	if (pref_phase)
		rows[n++] = mkrow("fallback", "preferred", "pmem:1", "4k", "free", "mem_phases", "1");
	rows[n++] = mkrow("stress-vm", "bind", "pmem:1", "-", "quick", "outcome_completed", "1");
	rows[n++] = mkrow("stress-vm", "bind", "pmem:1", "-", "quick", "mem_phases", "1");
	rows[n++] = mkrow("stress-vm", "bind", "pmem:1", "-", "quick", "access_cost_ns", wl_bind);
	rows[n++] = mkrow("stress-vm", "bind", "pmem:1", "-", "quick", "llc_misses", "100");
	rows[n++] = mkrow("stress-vm", "bind", "pmem:1", "-", "quick", "llc_miss_share_node1", "1");
	rows[n++] = mkrow("stress-vm", "bind", "pmem:1", "-", "quick", "miss_latency_ns", "305");
	rows[n++] = mkrow("stress-vm", "default", "pmem:1", "-", "quick", "outcome_completed", "1");
	rows[n++] = mkrow("stress-vm", "default", "pmem:1", "-", "quick", "mem_phases", "1");
	rows[n++] = mkrow("stress-vm", "default", "pmem:1", "-", "quick", "access_cost_ns", "2000000");
	rows[n++] = mkrow("stress-vm", "default", "pmem:1", "-", "quick", "llc_misses", "100");
	rows[n++] = mkrow("stress-vm", "default", "pmem:1", "-", "quick", "llc_miss_share_node0", "1");
	rows[n++] = mkrow("stress-vm", "default", "pmem:1", "-", "quick", "miss_latency_ns", "81");
	if (access_msc_hits)
		rows[n++] = mkrow("fallback", "bind", "pmem:1", "4k", "fill", "msc_hits_node1", access_msc_hits);
	for (size_t i = 0; i < n; i++)
		rows[i].line = (unsigned)i + 2;
	r.boot_rows = rows;
	r.nboot_rows = n;
	run_aggregate(&r);
	collect_entries(&r, &e);
	compute_headline(&r, &e, &h);
	counts = run_counts_access(&r);
	cases->len = wl->len = miss->len = 0;
	sb_puts(cases, "");
	sb_puts(wl, "");
	sb_puts(miss, "");
	access_summary(&r, &e, &h, cases);
	workload_access_summary(&r, wl);
	missing_phase_summary(&r, miss);
	headline_free(&h);
	entries_free(&e);
	run_aggregate_free(&r);
	return counts;
}

TEST(report_access_cost_counted_beside_the_model)
{
	struct sbuf c = { 0 }, w = { 0 }, m = { 0 };

	/* 1 % of the misses on DRAM: 302.76 ns per miss, under the model's 305 */
	CHECK(access_text("0.01", "302.76", "8000000", true, &c, &w, &m));
	CHECK(strstr(c.s, "**bind pmem:1**: over its fill curve (2 steps counted; it ended oom_killed) "
			  "the emulator counted 1000 LLC misses, 99% on pmem:1 (node 1 99%, node 0 1%): "
			  "302.8 ns per miss at the HMAT read latencies, 2.24 ns lower than the "
			  "placement-only model after the fill (305 ns per access) (summary.csv lines "
			  "2–9, 12, 13); ") != NULL);
	CHECK(strstr(c.s, "; in bench fallback's 4k/free case 500 LLC misses, 100% on pmem:1 (node 1 "
			  "100%): 305 ns per miss at the HMAT read latencies, the same as bench model's "
			  "own case with nothing full (305 ns per access) (summary.csv lines 14, 17–19)") != NULL);
	CHECK(strstr(c.s, "; its first-touch faults (bench latency, 4k/free) cost 19600 ns of counted "
			  "memory access per 4 KiB page written, 300 ns per miss (summary.csv lines 23, 24).") != NULL);
	CHECK(strstr(w.s, "**stress-vm** (pmem:1, scenario quick), counted memory access per policy: "
			  "bind 8 ms (100% of its misses on the set, 305 ns per miss), default 2 ms (0% "
			  "of its misses on the set, 81 ns per miss); the most under bind, 4 times the "
			  "least, under default (summary.csv lines 29–32, 35–38).") != NULL);
	CHECK(m.len == 0);

	/* contrary data: half the misses on DRAM, and another cost per miss */
	access_text("0.5", "400", "1000000", false, &c, &w, &m);
	CHECK(strstr(c.s, "1000 LLC misses, 50% on pmem:1 (node 0 50%, node 1 50%): 400 ns per miss at "
			  "the HMAT read latencies, 95 ns higher than the placement-only model after the "
			  "fill (305 ns per access)") != NULL);
	CHECK(strstr(c.s, "2.24 ns lower") == NULL);
	CHECK(strstr(w.s, "; the most under default, 2 times the least, under bind (") != NULL);
	/* the case without its phase is said, with its outcome and boot */
	CHECK(strstr(m.s, "No access phase was counted for 1 case that ran: fallback preferred pmem:1 "
			  "4k/free (completed, boot b1)") != NULL);
	CHECK(strstr(m.s, "(summary.csv line 25).") != NULL);
	sb_free(&c);
	sb_free(&w);
	sb_free(&m);
}

/*
 * #21, --memory-timing delay (experimental): the chase pairs only, each
 * boot's ratio against HMAT's with its dilation and calibration, the mean.
 */
TEST(report_delay_chase_pairs)
{
	struct row rows[16];
	struct run r = { 0 };
	struct sbuf b = { 0 };
	size_t n = 0;
	const char *boots[2] = { "1", "2" }, *load1[2] = { "7800", "7600" };

	for (int k = 0; k < 2; k++) {
		mk_boot = boots[k];
		rows[n++] = mkrow("chase", "bind", "node:0", "4k", "chase", "guest_ns_per_load", "2000");
		rows[n++] = mkrow("chase", "bind", "node:1", "4k", "chase", "guest_ns_per_load", load1[k]);
		rows[n++] = mkrow("chase", "bind", "node:1", "4k", "chase", "delay_dilation", "24");
		rows[n++] = mkrow("chase", "bind", "node:1", "4k", "chase", "delay_calib_ns_per_miss", "306.013");
		rows[n++] = mkrow("chase", "bind", "node:1", "4k", "chase", "delay_ratio_vs_node0", k ? "3.8" : "3.9");
		rows[n++] = mkrow("chase", "bind", "node:1", "4k", "chase", "hmat_ratio_vs_node0", "3.76543");
		/* a workload's timing in the same run: never a pair */
		rows[n++] = mkrow("stress-vm", "bind", "pmem:1", "-", "quick", "delay_ratio_vs_node0", "9");
	}
	mk_boot = "b1";
	for (size_t i = 0; i < n; i++)
		rows[i].line = (unsigned)i + 2;
	r.boot_rows = rows;
	r.nboot_rows = n;
	CHECK(delay_summary(&r, &b) == 2);
	CHECK(b.s && strstr(b.s, "Boot 1: node:1 7800 ns per load, node:0 2000 (guest clock; undilated 325.0 "
			    "and 83.3 ns), ratio 3.900 against HMAT's 3.765 (+3.6 %); dilation 24, "
			    "calibration 306.013 host ns per miss (summary.csv lines 2, 3, 4, 5, 6, 7).\n") != NULL);
	CHECK(b.s && strstr(b.s, "Boot 2: node:1 7600 ns per load") != NULL);
	CHECK(b.s && strstr(b.s, "Over 2 pairs: mean ratio 3.850 against HMAT's 3.765 (+2.2 %), the farthest pair 3.6 % off.") != NULL);
	CHECK(b.s && !strstr(b.s, "stress-vm") && !strstr(b.s, "9.000"));
	if (b.s && !strstr(b.s, "Over 2 pairs"))
		fprintf(stderr, "  got: %s", b.s);
	sb_free(&b);
	/* no delay rows: nothing said here (the section says so) */
	r.nboot_rows = 2;
	CHECK(delay_summary(&r, &b) == 0 && b.len == 0);
	sb_free(&b);
	/*
	 * Two node pairs against different HMAT ratios (three-tier): the pairs'
	 * deviations are averaged (+3.6 % and -5 %), never their ratios against
	 * the last pair's HMAT.
	 */
	n = 0;
	mk_boot = "1";
	rows[n++] = mkrow("chase", "bind", "node:1", "4k", "chase", "delay_ratio_vs_node0", "3.9");
	rows[n++] = mkrow("chase", "bind", "node:1", "4k", "chase", "hmat_ratio_vs_node0", "3.76543");
	rows[n++] = mkrow("chase", "bind", "node:2", "4k", "chase", "delay_ratio_vs_node0", "0.57");
	rows[n++] = mkrow("chase", "bind", "node:2", "4k", "chase", "hmat_ratio_vs_node0", "0.6");
	for (size_t i = 0; i < n; i++)
		rows[i].line = (unsigned)i + 2;
	r.nboot_rows = n;
	CHECK(delay_summary(&r, &b) == 2);
	CHECK(b.s && strstr(b.s, "Over 2 pairs, each against its own nodes' HMAT ratio: mean deviation "
			    "-0.7 %, the farthest pair 5.0 % off.") != NULL);
	CHECK(b.s && !strstr(b.s, "mean ratio"));
	if (b.s && !strstr(b.s, "mean deviation"))
		fprintf(stderr, "  got: %s", b.s);
	sb_free(&b);
	mk_boot = "b1";
}

/* A memory-side cache's hits: the share of the case's misses it served, cited. */
TEST(report_access_memory_side_cache_share)
{
	struct sbuf c = { 0 }, w = { 0 }, m = { 0 };

	access_msc_hits = "250";
	access_text("0.01", "250", "8000000", true, &c, &w, &m);
	access_msc_hits = NULL;
	CHECK(strstr(c.s, "the emulator counted 1000 LLC misses, 99% on pmem:1 (node 1 99%, node 0 1%), "
			  "25% of them served by memory-side caches: 250 ns per miss") != NULL);
	CHECK(strstr(c.s, "(summary.csv lines 2–9, 12, 13, 39); ") != NULL);
	/* without the rows: not a word of it */
	access_text("0.01", "250", "8000000", true, &c, &w, &m);
	CHECK(strstr(c.s, "memory-side") == NULL);
	sb_free(&c);
	sb_free(&w);
	sb_free(&m);
}

/*
 * bench reclaim (issue 20): the preferred nodes full of clean page cache.
 * @pm_wake: kswapd's wakes on node 2 in preferred-many's case; @pm_on:
 * its share on the preferred nodes; @bind_stall: bind's allocstall and
 * direct scans; @pm_max its longest fault; @pref_steal: kswapd's steal on
 * node 2 in preferred's case.  The sentences follow the rows.
 */
static size_t reclaim_text(const char *pm_wake, const char *pm_on, const char *bind_stall,
			   const char *pm_max, const char *pref_steal, struct sbuf *b)
{
#define RC(pol, m, v) mkrow("reclaim", pol, "pmem:2+3", "4k", "full-reclaimable-cache", m, v)
#define RC_POL(pol, on, stall, wake2, max, steal2)                                                 \
	RC(pol, "on_set_frac", on), RC(pol, "allocstall_delta", stall),                           \
	RC(pol, "pgscan_direct_node2", stall), RC(pol, "pgscan_direct_node3", "0"),               \
	RC(pol, "pgsteal_direct_node2", "0"), RC(pol, "pgsteal_direct_node3", "0"),               \
	RC(pol, "node_reclaim_node2", "0"), RC(pol, "node_reclaim_node3", "0"),                   \
	RC(pol, "trace_lost_events", "0"), RC(pol, "start_kswapd_active", "0"),                   \
	RC(pol, "kswapd_wake_node2", wake2), RC(pol, "kswapd_wake_node3", "0"),                   \
	RC(pol, "pgsteal_kswapd_node2", steal2), RC(pol, "pgsteal_kswapd_node3", "0"),            \
	RC(pol, "p50", "6784"), RC(pol, "p99", "17408"), RC(pol, "max", max),                     \
	RC(pol, "outcome_completed", "1")
	struct row rows[] = {
		RC_POL("bind", "1", bind_stall, "2", "5000000", "100"),
		RC_POL("preferred", "0.173", "0", "0", "200000", pref_steal),
		RC_POL("preferred-many", pm_on, "0", pm_wake, pm_max, "100"),
	};
#undef RC_POL
#undef RC
	struct run r = { 0 };
	size_t n;

	mk_boot = "b1";
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		rows[i].line = (unsigned)i + 2;
	r.boot_rows = rows;
	r.nboot_rows = sizeof(rows) / sizeof(rows[0]);
	run_aggregate(&r);
	n = reclaim_summary(&r, b);
	run_aggregate_free(&r);
	return n;
}

TEST(report_reclaim_sentences_from_the_rows)
{
	struct sbuf kept = { 0 }, one = { 0 }, none = { 0 };

	CHECK(reclaim_text("2", "1", "0", "7000000", "100", &kept) == 3);
	CHECK(strstr(kept.s, "With the preferred nodes pmem:2+3 full of clean page cache (scenario "
			     "full-reclaimable-cache): **bind** put 100 % of its pages on the preferred "
			     "nodes (completed); direct reclaim: 0 stalls, 0 pages scanned directly there; "
			     "kswapd woken 2 times there and 100 pages reclaimed by it") != NULL);
	/* no wake, no direct scan, but kswapd took 100 pages in preferred's case */
	CHECK(strstr(kept.s, "preferred reclaimed nothing") == NULL);
	CHECK(strstr(kept.s, "preferred did reclaim on the preferred nodes") != NULL);
	/* a quantile is a histogram bucket's lower bound: said as the bucket */
	CHECK(strstr(kept.s, "fault p99 in the histogram bucket 17408-17919 ") != NULL);
	CHECK(strstr(kept.s, "preferred-many reclaimed there only through kswapd") != NULL);
	CHECK(strstr(kept.s, "So they differ: preferred-many kept 100 % on the preferred nodes, "
			     "preferred 17.3 %.") != NULL);
	CHECK(strstr(kept.s, "preferred-many's longest fault took 35 times preferred's") != NULL);
	CHECK(strstr(kept.s, "bind and preferred-many did not differ by direct reclaim (0 stalls and "
			     "0 pages scanned directly on the preferred nodes each") != NULL);
	CHECK(strstr(kept.s, "not distinguishable in this run. (A suggestion, not a finding:") != NULL);
	CHECK(strstr(kept.s, "kept ahead") == NULL);
	CHECK(strstr(kept.s, "summary.csv line") != NULL);
	/* contrary rows: preferred-many woke nothing, stayed off the set, bind stalled */
	/* every reclaim figure of preferred's case 0, nothing lost: reclaimed nothing */
	CHECK(reclaim_text("2", "1", "0", "7000000", "0", &none) == 3);
	CHECK(strstr(none.s, "preferred reclaimed nothing on the preferred nodes") != NULL);
	CHECK(reclaim_text("0", "0.18", "7", "190000", "100", &one) == 3);
	CHECK(strstr(one.s, "preferred-many woke no kswapd there either") != NULL);
	CHECK(strstr(one.s, "By placement they are not distinguishable (18 % against 17.3 %)") != NULL);
	CHECK(strstr(one.s, "By their longest fault they are not distinguishable") != NULL);
	CHECK(strstr(one.s, "bind reclaimed directly (7 stalls, 7 pages scanned directly on the "
			    "preferred nodes), preferred-many did not. bind's longest fault took 5000000 , "
			    "preferred-many's 190000.") != NULL);
	CHECK(strstr(one.s, "So they differ") == NULL);
	sb_free(&kept);
	sb_free(&one);
	sb_free(&none);
}
