/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host's side of guest/vocab.h: the words' tables (NULL-terminated, in
 * the lists' order) and lookups, for parsing, planning and reporting.  A
 * word the guest prints and the host does not know would be dropped or
 * ranked as unknown; tests/unit/test_vocab.c checks every list through
 * these lookups.
 */
#ifndef TIERLAB_WORDS_H
#define TIERLAB_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "vocab.h"

extern const char *const vocab_policy_names[VOCAB_NPOLICIES + 1];
extern const char *const vocab_outcome_names[VOCAB_NOUTCOMES + 1];
extern const char *const vocab_profile_names[VOCAB_NPROFILES + 1];
extern const char *const vocab_scenario_names[VOCAB_NSCENARIOS + 1];
extern const char *const vocab_pagesize_names[VOCAB_NPAGESIZES + 1];
extern const char *const vocab_row_key_names[VOCAB_NROW_KEYS + 1];
extern const char *const vocab_row_bench_names[VOCAB_NROW_BENCHES + 1];

/* The index of @word in its list, -1 when the list lacks it. */
int vocab_policy(const char *word);
int vocab_outcome(const char *word);
int vocab_profile(const char *word);
int vocab_scenario(const char *word);
int vocab_pagesize(const char *word);
int vocab_row_key(const char *word);
int vocab_row_bench(const char *word);	/* tierbench's bench= words, not wlrun's workloads */

/* Columns of the lists, by index (as returned above). */
int vocab_policy_report_rank(int policy);
bool vocab_policy_is_reference(int policy);
int vocab_outcome_rank(int outcome);
int vocab_profile_step_timeout(int profile);	/* seconds */
int vocab_profile_wl_timeout(int profile);	/* seconds */

/* "a, b, c": the words of a NULL-terminated list, for messages. */
const char *vocab_join(const char *const *names, char *buf, size_t len);

#endif
