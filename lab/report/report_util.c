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
#include "words.h"

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

/* guest/vocab.h's policies in their report_rank order. */
#define X(id, name, rank, ref) [rank] = name,
const char *const known_policies[VOCAB_NPOLICIES + 1] = { VOCAB_POLICIES(X) [VOCAB_NPOLICIES] = NULL };
#undef X

int policy_rank(const char *policy)
{
	int p = vocab_policy(policy);

	return p < 0 ? 100 : vocab_policy_report_rank(p);
}

bool policy_is_reference(const char *policy)
{
	return vocab_policy_is_reference(vocab_policy(policy));
}

/*
 * tierbench's rows (guest/vocab.h, VOCAB_ROW_BENCHES), not a workload's;
 * "check" too, which the report's checks section reads (report_write.c)
 * and no guest of this tree prints.
 */
bool bench_is_micro(const char *bench)
{
	return vocab_row_bench(bench) >= 0 || !strcmp(bench, "check");
}

/* tierbench's and wlrun's outcome words ranked by guest/vocab.h; unknown words last. */
int oom_outcome_rank(const char *word)
{
	return vocab_outcome_rank(vocab_outcome(word));
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
