// SPDX-License-Identifier: GPL-2.0
/*
 * bench/outcome.c: a case's outcome from its wait status, the oom_kill
 * delta and the victims the kernel log names (#17 item 4), on records as
 * 6.12 prints them to /dev/kmsg.
 */
#include "harness.h"
#include "outcome.h"

#include <signal.h>

/* wait statuses as the kernel encodes them (exit code << 8, or the signal) */
#define EXITED(code) ((code) << 8)
#define KILLED(sig) (sig)

static const char kill_rec[] =
	"3,1234,5678901,-;Out of memory: Killed process 4242 (tierbench) total-vm:1050000kB, "
	"anon-rss:880000kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:1800kB oom_score_adj:500";
static const char dump_rec[] =
	"6,1233,5678900,-;oom-kill:constraint=CONSTRAINT_MEMORY_POLICY,nodemask=1,cpuset=/,"
	"mems_allowed=0-3,global_oom,task_memcg=/,task=tierbench,pid=4242,uid=0";

TEST(outcome_kmsg_records)
{
	char c[48] = "";

	CHECK(kmsg_oom_victim(kill_rec) == 4242);
	CHECK(kmsg_oom_victim(dump_rec) == 0);
	CHECK(kmsg_oom_victim("6,1,2,-;oom_reaper: reaped process 4242 (tierbench)") == 0);
	CHECK(kmsg_oom_victim("3,1,2,-;Out of memory: Killed process x") == 0);
	CHECK(kmsg_oom_constraint(dump_rec, 4242, c, sizeof(c)));
	CHECK_STR(c, "CONSTRAINT_MEMORY_POLICY");
	CHECK(!kmsg_oom_constraint(dump_rec, 424, c, sizeof(c)));	/* ,pid=424, is not 4242 */
	CHECK(!kmsg_oom_constraint(kill_rec, 4242, c, sizeof(c)));
	/* a short buffer truncates, never overflows */
	char tiny[8];

	CHECK(kmsg_oom_constraint(dump_rec, 4242, tiny, sizeof(tiny)));
	CHECK_STR(tiny, "CONSTRA");
}

TEST(outcome_exit_codes)
{
	struct case_oom none = { 0 };

	CHECK(case_outcome(EXITED(0), &none) == OUT_COMPLETED);
	/* a failed mmap or mbind is a setup error, never enomem */
	CHECK(case_outcome(EXITED(CASE_EXIT_SETUP), &none) == OUT_SETUP_ERROR);
	CHECK(case_outcome(EXITED(CASE_EXIT_EFAULT), &none) == OUT_EFAULT);
	CHECK(case_outcome(EXITED(1), &none) == OUT_ERROR);
	CHECK(case_outcome(KILLED(SIGBUS), &none) == OUT_SIGBUS);
	CHECK(case_outcome(KILLED(SIGSEGV), &none) == OUT_SIGSEGV);
	CHECK_STR(outcome_names[OUT_SETUP_ERROR], "setup_error");
	CHECK_STR(outcome_names[OUT_KILLED_OTHER], "killed_other");
	CHECK_STR(outcome_names[OUT_INVALID], "invalid");
	for (int i = 0; i < OUT_COUNT; i++)
		CHECK(outcome_names[i] != NULL);
}

TEST(outcome_oom_kill_matched_to_the_case)
{
	struct case_oom mine = { .kill_delta = 1, .victim = true };
	struct case_oom unnamed = { .kill_delta = 1 };
	struct case_oom other = { .kill_delta = 1, .other = 77 };
	struct case_oom both = { .kill_delta = 2, .victim = true, .other = 77 };
	struct case_oom two_unnamed = { .kill_delta = 2, .victim = true };
	struct case_oom logged_only = { .kill_delta = 0, .victim = true };

	CHECK(case_outcome(KILLED(SIGKILL), &mine) == OUT_OOM_KILLED);
	/* a SIGKILL without the counter and the log naming the child is no OOM kill */
	CHECK(case_outcome(KILLED(SIGKILL), &logged_only) == OUT_KILLED);
	/* the counter rose but the log did not name the child: someone else's kill */
	CHECK(case_outcome(KILLED(SIGKILL), &unnamed) == OUT_KILLED_OTHER);
	/* the filler (or anything else) was the victim: the case is not measured */
	CHECK(case_outcome(EXITED(0), &other) == OUT_KILLED_OTHER);
	CHECK(case_outcome(KILLED(SIGKILL), &both) == OUT_KILLED_OTHER);
	CHECK(case_outcome(KILLED(SIGKILL), &two_unnamed) == OUT_KILLED_OTHER);
	/* killed first, then another OOM took someone else: the case's kill stands */
	{
		struct case_oom after = { .kill_delta = 2, .victim = true, .other = 77, .other_after = true };
		struct case_oom after_three = { .kill_delta = 3, .victim = true, .other = 77, .other_after = true };

		CHECK(case_outcome(KILLED(SIGKILL), &after) == OUT_OOM_KILLED);
		/* not when the case completed, nor with a third kill unaccounted for */
		CHECK(case_outcome(EXITED(0), &after) == OUT_KILLED_OTHER);
		CHECK(case_outcome(KILLED(SIGKILL), &after_three) == OUT_KILLED_OTHER);
	}
	CHECK(case_oom_complete(&mine) && case_oom_complete(&both) && case_oom_complete(&other));
	CHECK(!case_oom_complete(&unnamed) && !case_oom_complete(&two_unnamed));
}
