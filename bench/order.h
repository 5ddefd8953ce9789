/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The order cases run in: a small deterministic PRNG (splitmix64, Steele,
 * Lea and Flood 2014) and a Fisher-Yates shuffle driven by it, so that a
 * seed recorded in the rows gives the same order again.  Pure: also linked
 * into the host unit tests.
 */
#ifndef TIERBENCH_ORDER_H
#define TIERBENCH_ORDER_H

#include <stddef.h>
#include <stdint.h>

/* The next value of the splitmix64 sequence; advances *state. */
uint64_t splitmix64_next(uint64_t *state);
/* A value in [0, n) from the sequence (n > 0; multiply-shift, no modulo). */
uint64_t order_below(uint64_t *state, uint64_t n);
/*
 * The seed of one group of cases: @seed mixed with the group's key (via,
 * page size, scenario), so each group gets an order of its own.
 */
uint64_t order_group_seed(uint64_t seed, unsigned via, unsigned pagesize, unsigned scenario);
/* Shuffle v[0..n) in place (Fisher-Yates) with the sequence seeded by @seed. */
void order_shuffle(int *v, size_t n, uint64_t seed);
/* A seed from a text (a boot id): FNV-1a, folded to 32 bits so a row holds it exactly. */
uint32_t order_seed_of(const char *text);

#endif
