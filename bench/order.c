// SPDX-License-Identifier: GPL-2.0
/*
 * Deterministic case order (order.h): splitmix64 and a Fisher-Yates shuffle.
 */
#include "order.h"

uint64_t splitmix64_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t order_below(uint64_t *state, uint64_t n)
{
	/* Lemire's multiply-shift: the high 64 bits of x * n */
	return (uint64_t)(((unsigned __int128)splitmix64_next(state) * n) >> 64);
}

uint64_t order_group_seed(uint64_t seed, unsigned via, unsigned pagesize, unsigned scenario)
{
	/* the seed mixed first: its bits must not cancel the group's */
	uint64_t h = seed, s;

	s = splitmix64_next(&h) ^ ((uint64_t)via << 40 | (uint64_t)pagesize << 20 | scenario);
	return splitmix64_next(&s);
}

void order_shuffle(int *v, size_t n, uint64_t seed)
{
	uint64_t s = seed;

	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)order_below(&s, i);
		int t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}

uint32_t order_seed_of(const char *text)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a, 64 bits */

	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		h ^= *p;
		h *= 0x100000001b3ull;
	}
	return (uint32_t)(h ^ (h >> 32));
}
