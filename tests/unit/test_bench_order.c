// SPDX-License-Identifier: GPL-2.0
/*
 * bench/order.c: the seeded case order (#16 item 4) -- splitmix64 as
 * published, the shuffle a permutation, the same seed the same order,
 * every order reachable about equally often.
 */
#include "harness.h"
#include "order.h"

#include <stdbool.h>

TEST(order_splitmix64_reference)
{
	uint64_t s = 0;

	/* the reference sequence from seed 0 (Vigna's splitmix64.c) */
	CHECK(splitmix64_next(&s) == 0xe220a8397b1dcdafull);
	CHECK(splitmix64_next(&s) == 0x6e789e6aa1b965f4ull);
	CHECK(splitmix64_next(&s) == 0x06c45d188009454full);
	for (int i = 0; i < 1000; i++)
		CHECK(order_below(&s, 6) < 6);
}

static bool is_permutation(const int *v, int n)
{
	bool seen[16] = { false };

	for (int i = 0; i < n; i++) {
		if (v[i] < 0 || v[i] >= n || seen[v[i]])
			return false;
		seen[v[i]] = true;
	}
	return true;
}

TEST(order_shuffle_same_seed_same_order)
{
	int a[6] = { 0, 1, 2, 3, 4, 5 }, b[6] = { 0, 1, 2, 3, 4, 5 };
	int differs = 0;

	order_shuffle(a, 6, 12345);
	order_shuffle(b, 6, 12345);
	CHECK(is_permutation(a, 6));
	CHECK(!memcmp(a, b, sizeof(a)));
	/* another seed, another order (for at least one of a few seeds) */
	for (uint64_t seed = 1; seed <= 4; seed++) {
		int c[6] = { 0, 1, 2, 3, 4, 5 };

		order_shuffle(c, 6, seed);
		CHECK(is_permutation(c, 6));
		differs += memcmp(a, c, sizeof(a)) != 0;
	}
	CHECK(differs > 0);
	/* one element, none: nothing moves, nothing read past the end */
	int one[1] = { 7 };

	order_shuffle(one, 1, 99);
	CHECK(one[0] == 7);
	order_shuffle(one, 0, 99);
	CHECK(one[0] == 7);
}

TEST(order_shuffle_uniform)
{
	/* 4 items: each of the 24 orders about 1000 times in 24000 seeds */
	int count[24] = { 0 }, lo = 1 << 30, hi = 0;

	for (uint64_t seed = 0; seed < 24000; seed++) {
		int v[4] = { 0, 1, 2, 3 }, code = 0;

		order_shuffle(v, 4, order_group_seed(seed, 0, 0, 0));
		/* Lehmer code of the permutation */
		for (int i = 0; i < 4; i++) {
			int smaller = 0;

			for (int j = i + 1; j < 4; j++)
				smaller += v[j] < v[i];
			code = code * (4 - i) + smaller;
		}
		count[code]++;
	}
	for (int k = 0; k < 24; k++) {
		lo = count[k] < lo ? count[k] : lo;
		hi = count[k] > hi ? count[k] : hi;
	}
	/* sd of one count ~ 31: +-150 is ~5 sd */
	CHECK(lo > 850);
	CHECK(hi < 1150);
}

TEST(order_group_and_boot_seeds)
{
	uint64_t g = order_group_seed(7, 0, 0, 0);

	CHECK(g == order_group_seed(7, 0, 0, 0));
	CHECK(g != order_group_seed(7, 1, 0, 0));
	CHECK(g != order_group_seed(7, 0, 1, 0));
	CHECK(g != order_group_seed(7, 0, 0, 1));
	CHECK(g != order_group_seed(8, 0, 0, 0));
	/* a seed differing in a group bit is not the next group's seed */
	CHECK(order_group_seed(7 ^ (1u << 20), 0, 0, 0) != order_group_seed(7, 0, 1, 0));
	CHECK(order_group_seed(7 ^ 1u, 0, 0, 0) != order_group_seed(7, 0, 0, 1));
	CHECK(order_seed_of("1") == order_seed_of("1"));
	CHECK(order_seed_of("1") != order_seed_of("2"));
	CHECK(order_seed_of("") == (uint32_t)(0xcbf29ce484222325ull ^ (0xcbf29ce484222325ull >> 32)));
}
