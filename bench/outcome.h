/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a case ended, from the facts the harness gathers (pure: also built
 * for the host unit tests, tests/unit/test_bench_outcome.c).
 */
#ifndef TIERBENCH_OUTCOME_H
#define TIERBENCH_OUTCOME_H

#include <stdbool.h>
#include <stddef.h>
#include "vocab.h"

/*
 * Result of a case run in a forked child (bench/README.md, "Output"), or of
 * a workload (wlrun: completed, oom_killed, failed, timeout); guest/vocab.h.
 */
#define X(id, name, rank) OUT_##id,
enum outcome { VOCAB_OUTCOMES(X) OUT_COUNT };
#undef X
extern const char *const outcome_names[OUT_COUNT];

/* Child exit codes of a case function. */
enum { CASE_EXIT_OK = 0, CASE_EXIT_SETUP = 3, CASE_EXIT_EFAULT = 4 };

/* What the kernel said about OOM kills while a case ran. */
struct case_oom {
	long long kill_delta;	/* /proc/vmstat oom_kill after - before */
	bool victim;		/* the log named the case's pid as a victim */
	int other;		/* first other victim pid the log named, or 0 */
	bool other_after;	/* ...named after the case's own kill */
};

/*
 * One /dev/kmsg record: the pid of "Killed process <pid>" (printed for
 * every OOM victim, not rate-limited), else 0.
 */
int kmsg_oom_victim(const char *rec);
/*
 * One /dev/kmsg record "oom-kill:constraint=<C>,...,pid=<pid>,..." of
 * @pid: copies <C> to @out and returns true.
 */
bool kmsg_oom_constraint(const char *rec, int pid, char *out, size_t len);

/*
 * The outcome of a case child that ended with wait status @status:
 * SIGKILL is oom_killed only when oom_kill rose and the log named the
 * child; any OOM kill that was not the child's (another victim named, or
 * more kills than the child's) makes it killed_other.
 */
enum outcome case_outcome(int status, const struct case_oom *s);
/* Has the kernel said all it will about @s (every counted kill named)? */
bool case_oom_complete(const struct case_oom *s);

#endif
