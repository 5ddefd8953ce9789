// SPDX-License-Identifier: GPL-2.0
/*
 * guest/vocab.h (issue 14 item 3): the host knows every word the guest can
 * print, through the lookups it parses, plans and reports with; the lists'
 * columns are consistent (ranks a permutation, timeouts that nest); the
 * guest's own outcome table (bench/outcome.c) reads back on the host.
 * The ROW keys: test_channel.c.
 */
#include "harness.h"
#include "outcome.h"
#include "report.h"
#include "words.h"

/* A word fit for a ROW field: non-empty, none of " ,=@\"". */
static int row_word(const char *w)
{
	return w && *w && !strpbrk(w, " ,=@\"\n");
}

/* Every entry a distinct row word, found at its own index by @find. */
static int list_ok(const char *const *names, int n, int (*find)(const char *))
{
	int ok = names[n] == NULL;

	for (int i = 0; i < n; i++) {
		ok &= row_word(names[i]) && find(names[i]) == i;
		for (int j = 0; j < i; j++)
			ok &= strcmp(names[i], names[j]) != 0;
	}
	return ok;
}

/*
 * The host's tables and its lookups come from the same X-macro lists, so
 * this fails only on a duplicate or an empty word in a list, or a lookup
 * that does not search its whole table.  That the host knows every word
 * tierbench really prints is checked against the binary: labtool plan's
 * reader of tierbench --list=machine (lab/boot/benchlist.c, check_word) and
 * tests/test_bench_cli.sh.
 */
TEST(vocab_host_finds_every_word)
{
	CHECK(list_ok(vocab_policy_names, VOCAB_NPOLICIES, vocab_policy));
	CHECK(list_ok(vocab_outcome_names, VOCAB_NOUTCOMES, vocab_outcome));
	CHECK(list_ok(vocab_profile_names, VOCAB_NPROFILES, vocab_profile));
	CHECK(list_ok(vocab_scenario_names, VOCAB_NSCENARIOS, vocab_scenario));
	CHECK(list_ok(vocab_pagesize_names, VOCAB_NPAGESIZES, vocab_pagesize));
	CHECK(list_ok(vocab_row_key_names, VOCAB_NROW_KEYS, vocab_row_key));
	CHECK(list_ok(vocab_row_bench_names, VOCAB_NROW_BENCHES, vocab_row_bench));
	CHECK(vocab_policy("nosuch") < 0 && vocab_outcome(NULL) < 0 && vocab_profile("") < 0);
}

TEST(vocab_policies_ranked_for_the_report)
{
	int seen[VOCAB_NPOLICIES] = { 0 };

	for (int p = 0; p < VOCAB_NPOLICIES; p++) {
		int r = policy_rank(vocab_policy_names[p]);

		CHECK(r >= 0 && r < VOCAB_NPOLICIES);
		if (r >= 0 && r < VOCAB_NPOLICIES)
			seen[r]++;
		/* known_policies is the report's order: a hole would end it early */
		CHECK(known_policies[r] && !strcmp(known_policies[r], vocab_policy_names[p]));
	}
	for (int r = 0; r < VOCAB_NPOLICIES; r++)
		CHECK(seen[r] == 1);
	CHECK(known_policies[VOCAB_NPOLICIES] == NULL);
	CHECK(policy_rank("nosuch") == 100);
	/* the subjects first, the references after */
	CHECK(!policy_is_reference("bind") && !policy_is_reference("preferred-many"));
	CHECK(policy_is_reference("default") && policy_is_reference("weighted-interleave"));
	CHECK(!policy_is_reference("nosuch"));
}

TEST(vocab_outcomes_ranked_for_the_report)
{
	int seen[OUTCOME_UNKNOWN_RANK] = { 0 };

	/* the guest's table (bench/outcome.c), read by the host */
	for (int o = 0; o < OUT_COUNT; o++) {
		int r = oom_outcome_rank(outcome_names[o]);

		CHECK(vocab_outcome(outcome_names[o]) == o);
		CHECK(r >= 0 && r <= OUTCOME_UNKNOWN_RANK);
		if (r >= 0 && r < OUTCOME_UNKNOWN_RANK)
			seen[r]++;
	}
	/* each rank once: the OOM matrix's colours are one per rank */
	for (int r = 0; r < OUTCOME_UNKNOWN_RANK; r++)
		CHECK(seen[r] == 1);
	CHECK(OUT_COUNT == VOCAB_NOUTCOMES);
	CHECK(oom_outcome_rank("nosuch") == OUTCOME_UNKNOWN_RANK);
	CHECK(outcome_is_bad("oom_killed") && !outcome_is_bad("completed"));
	/* judged apart: the scenario broke, the policy did not */
	CHECK(case_is_invalid("invalid") && case_is_invalid("killed_other"));
	CHECK(oom_outcome_rank("invalid") == OUTCOME_UNKNOWN_RANK);
}

TEST(vocab_profile_timeouts_nest)
{
	for (int p = 0; p < VOCAB_NPROFILES; p++) {
		CHECK(vocab_profile_step_timeout(p) > 0);
		/* the plan's workload step outlives wlrun's own timeout by 30 s */
		CHECK(vocab_profile_wl_timeout(p) + 30 <= vocab_profile_step_timeout(p));
	}
	CHECK(vocab_profile_step_timeout(-1) < 0 && vocab_profile_wl_timeout(VOCAB_NPROFILES) < 0);
	CHECK(vocab_profile("default") >= 0);
}

TEST(vocab_join_words)
{
	char buf[64];

	CHECK_STR(vocab_join(vocab_profile_names, buf, sizeof(buf)), "quick, default, full");
	CHECK_STR(vocab_join(vocab_profile_names, buf, 8), "quick, ");
}

/*
 * The bench= of every ROW tierbench prints is a microbenchmark's to the
 * report (it was a second list in report_util.c, which lacked "threads":
 * the mpol_* counter rows of bench threads were drawn as a workload's).
 * That tierbench prints no other: benchlist.c refuses a benchmark whose
 * name is not in the list, tests/test_bench_cli.sh every bench= it printed.
 */
TEST(vocab_row_benches_are_tierbench_rows)
{
	for (int b = 0; b < VOCAB_NROW_BENCHES; b++)
		CHECK(bench_is_micro(vocab_row_bench_names[b]));
	CHECK(bench_is_micro("threads") && bench_is_micro("threads_2nodes") &&
	      bench_is_micro("latency_task") && bench_is_micro("single-node"));
	/* wlrun's workloads and the host's own phase rows are not */
	CHECK(!bench_is_micro("fio-randrw") && !bench_is_micro("phase") && !bench_is_micro(""));
	CHECK(vocab_row_bench("latency") == 0 && vocab_row_bench("nosuch") < 0);
}
