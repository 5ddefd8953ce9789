// SPDX-License-Identifier: GPL-2.0
/*
 * Small facts the report and compare share: numbers as text, intervals,
 * the policies' reading order, the ranks of case outcomes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

char *slugify(const char *s)
{
	char *p = xstrdup(*s ? s : "x");

	for (char *q = p; *q; q++) {
		if (*q >= 'A' && *q <= 'Z')
			*q = (char)(*q - 'A' + 'a');
		else if (!((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '.' ||
			   *q == '-'))
			*q = '-';
	}
	return p;
}

void fmt_num(char *buf, size_t n, double v)
{
	if (isnan(v)) {
		snprintf(buf, n, "n/a");
		return;
	}
	if (v == 0)
		v = 0; /* no "-0" */
	/* whole numbers from 1000 up read better without an exponent */
	if (fabs(v) >= 1000 && fabs(v) < 1e15)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.4g", v);
}

bool intervals_overlap(double lo1, double hi1, double lo2, double hi2)
{
	return !(hi1 < lo2 || hi2 < lo1);
}

const char *const known_policies[] = {
	"bind", "preferred", "preferred-many", "weighted-interleave", "interleave", "default",
	NULL,
};

int policy_rank(const char *policy)
{
	for (int i = 0; known_policies[i]; i++)
		if (!strcmp(policy, known_policies[i]))
			return i;
	return 100;
}

bool policy_is_reference(const char *policy)
{
	return !strcmp(policy, "default") || !strcmp(policy, "interleave") ||
	       !strcmp(policy, "weighted-interleave");
}

bool bench_is_micro(const char *bench)
{
	static const char *const micro[] = { "latency", "latency_task", "latency_aa", "fallback",
					     "oom", "model", "checks", "fallback-order", "check",
					     "single-node", "features", "chase", "threads_node",
					     "threads_2nodes", NULL };

	for (int i = 0; micro[i]; i++)
		if (!strcmp(bench, micro[i]))
			return true;
	return false;
}

/*
 * tierbench's outcome words (bench/README.md), best first: a case that
 * could not be set up (mmap, mbind) or an EFAULT before a harness error or timeout, before a
 * signal, before a kill.
 */
static const char *const outcome_order[] = {
	"completed", "setup_error", "efault", "error", "timeout", "sigsegv", "sigbus", "killed",
	"oom_killed", NULL,
};

int oom_outcome_rank(const char *word)
{
	for (int i = 0; outcome_order[i]; i++)
		if (!strcmp(word, outcome_order[i]))
			return i;
	return OUTCOME_UNKNOWN_RANK;
}

bool outcome_is_bad(const char *word)
{
	return oom_outcome_rank(word) >= oom_outcome_rank("error");
}

const char *row_outcome(const struct row *w)
{
	const char *m = w->f[COL_METRIC];

	if (strncmp(m, "outcome_", 8) || !m[8] || !w->numeric || w->num == 0)
		return NULL;
	return m + 8;
}
