// SPDX-License-Identifier: GPL-2.0
/* The host's tables and lookups of guest/vocab.h's lists (words.h). */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "words.h"

const char *const vocab_policy_names[VOCAB_NPOLICIES + 1] = { VOCAB_POLICIES(VOCAB_NAME4) NULL };
const char *const vocab_outcome_names[VOCAB_NOUTCOMES + 1] = { VOCAB_OUTCOMES(VOCAB_NAME3) NULL };
const char *const vocab_profile_names[VOCAB_NPROFILES + 1] = { VOCAB_PROFILES(VOCAB_NAME4) NULL };
const char *const vocab_scenario_names[VOCAB_NSCENARIOS + 1] = { VOCAB_SCENARIOS(VOCAB_NAME2) NULL };
const char *const vocab_pagesize_names[VOCAB_NPAGESIZES + 1] = { VOCAB_PAGESIZES(VOCAB_NAME2) NULL };
const char *const vocab_row_key_names[VOCAB_NROW_KEYS + 1] = { VOCAB_ROW_KEYS(VOCAB_NAME2) NULL };
const char *const vocab_row_bench_names[VOCAB_NROW_BENCHES + 1] = { VOCAB_ROW_BENCHES(VOCAB_NAME2) NULL };

static int find(const char *const *names, const char *word)
{
	for (int i = 0; word && names[i]; i++)
		if (!strcmp(names[i], word))
			return i;
	return -1;
}

int vocab_policy(const char *word) { return find(vocab_policy_names, word); }
int vocab_outcome(const char *word) { return find(vocab_outcome_names, word); }
int vocab_profile(const char *word) { return find(vocab_profile_names, word); }
int vocab_scenario(const char *word) { return find(vocab_scenario_names, word); }
int vocab_pagesize(const char *word) { return find(vocab_pagesize_names, word); }
int vocab_row_key(const char *word) { return find(vocab_row_key_names, word); }
int vocab_row_bench(const char *word) { return find(vocab_row_bench_names, word); }

int vocab_policy_report_rank(int policy)
{
#define X(id, name, rank, ref) rank,
	static const int ranks[] = { VOCAB_POLICIES(X) };
#undef X
	return policy >= 0 && policy < VOCAB_NPOLICIES ? ranks[policy] : VOCAB_NPOLICIES;
}

bool vocab_policy_is_reference(int policy)
{
#define X(id, name, rank, ref) ref,
	static const bool refs[] = { VOCAB_POLICIES(X) };
#undef X
	return policy >= 0 && policy < VOCAB_NPOLICIES && refs[policy];
}

int vocab_outcome_rank(int outcome)
{
#define X(id, name, rank) rank,
	static const int ranks[] = { VOCAB_OUTCOMES(X) };
#undef X
	return outcome >= 0 && outcome < VOCAB_NOUTCOMES ? ranks[outcome] : VOCAB_OUTCOME_UNRANKED;
}

int vocab_profile_step_timeout(int profile)
{
#define X(id, name, step, wl) step,
	static const int secs[] = { VOCAB_PROFILES(X) };
#undef X
	return profile >= 0 && profile < VOCAB_NPROFILES ? secs[profile] : -1;
}

int vocab_profile_wl_timeout(int profile)
{
#define X(id, name, step, wl) wl,
	static const int secs[] = { VOCAB_PROFILES(X) };
#undef X
	return profile >= 0 && profile < VOCAB_NPROFILES ? secs[profile] : -1;
}

const char *vocab_join(const char *const *names, char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (int i = 0; names[i] && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);

		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}
