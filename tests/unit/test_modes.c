// SPDX-License-Identifier: GPL-2.0
/*
 * lab/report/modes.c: the modes of a fault-latency histogram (#16) -- one peak, two
 * peaks with their shares, a shallow valley, a small bump, a jagged single
 * peak, the fixture's real wall-clock case, and the text.
 */
#include "harness.h"
#include "modes.h"

#include <math.h>
#include <stdint.h>

/* bench/hist.h's lower bound of bucket @idx (32 buckets per power of two) */
static double lo_of(unsigned idx)
{
	if (idx < 64)
		return idx;
	return (double)((uint64_t)(idx % 32 + 32) << (idx / 32 - 1));
}

#define NB 200
#define BASE 400	/* bucket 400: 4096 ns; 10.5 us is ~443, 17 us ~466 */

struct h {
	double lo[NB], count[NB];
};

static void h_init(struct h *h)
{
	for (unsigned i = 0; i < NB; i++) {
		h->lo[i] = lo_of(BASE + i);
		h->count[i] = 0;
	}
}

/* @n samples in a bell of width @sd buckets around bucket @c (absolute index) */
static void h_bell(struct h *h, double n, double c, double sd)
{
	double sum = 0, w[NB];

	for (unsigned i = 0; i < NB; i++)
		sum += w[i] = exp(-pow(BASE + i - c, 2) / (2 * sd * sd));
	for (unsigned i = 0; i < NB; i++)
		h->count[i] += round(n * w[i] / sum);
}

static double h_total(const struct h *h)
{
	double t = 0;

	for (unsigned i = 0; i < NB; i++)
		t += h->count[i];
	return t;
}

TEST(modes_empty_and_bad_input)
{
	struct mode m[4];
	double lo[3] = { 10240, 10496, 10752 }, zero[3] = { 0, 0, 0 }, bad_lo[2] = { 10496, 10240 };
	double odd[1] = { 10497 }, one[1] = { 5 };

	CHECK(modes_find(lo, zero, 3, m, 4) == 0);
	CHECK(modes_find(lo, zero, 0, m, 4) == 0);
	CHECK(modes_find(bad_lo, one, 2, m, 4) == -1);	/* not ascending */
	CHECK(modes_find(odd, one, 1, m, 4) == -1);	/* not a bucket's lower bound */
}

TEST(modes_one_peak)
{
	struct h h;
	struct mode m[4];

	h_init(&h);
	h_bell(&h, 8000, 443, 3);
	CHECK(modes_find(h.lo, h.count, NB, m, 4) == 1);
	CHECK(m[0].at == lo_of(443));
	CHECK_NEAR(m[0].share, 1, 1e-12);
	CHECK_NEAR(m[0].count, h_total(&h), 1e-9);
}

TEST(modes_two_peaks_with_shares)
{
	struct h h;
	struct mode m[4];

	h_init(&h);
	h_bell(&h, 6100, 443, 2);	/* ~10.5 us */
	h_bell(&h, 3900, 466, 3);	/* ~17 us */
	CHECK(modes_find(h.lo, h.count, NB, m, 4) == 2);
	CHECK(m[0].at == lo_of(443));
	CHECK(m[1].at == lo_of(466));
	CHECK_NEAR(m[0].share, 0.61, 0.005);
	CHECK_NEAR(m[1].share, 0.39, 0.005);
	CHECK_NEAR(m[0].share + m[1].share, 1, 1e-12);
	/* max 1: still says how many, writes one */
	CHECK(modes_find(h.lo, h.count, NB, m, 1) == 2);
}

TEST(modes_shallow_valley_is_one_mode)
{
	struct h h;
	struct mode m[4];

	/* two bells 2.5 sd apart: the dip between them stays above half */
	h_init(&h);
	h_bell(&h, 5000, 443, 3);
	h_bell(&h, 5000, 450, 3);
	CHECK(modes_find(h.lo, h.count, NB, m, 4) == 1);
}

TEST(modes_small_bump_is_not_a_mode)
{
	struct h h;
	struct mode m[4];

	/* 6 % far off, well separated: below the 10 % a mode needs */
	h_init(&h);
	h_bell(&h, 9400, 443, 2);
	h_bell(&h, 600, 500, 2);
	CHECK(modes_find(h.lo, h.count, NB, m, 4) == 1);
	CHECK_NEAR(m[0].share, 1, 1e-12);
	/* 12 %: a mode */
	h_init(&h);
	h_bell(&h, 8800, 443, 2);
	h_bell(&h, 1200, 500, 2);
	CHECK(modes_find(h.lo, h.count, NB, m, 4) == 2);
	CHECK_NEAR(m[1].share, 0.12, 0.005);
}

TEST(modes_too_few_samples)
{
	struct h h;
	struct mode m[4];

	/* 16 THP faults in two far clusters: too few for either to be a mode */
	h_init(&h);
	h.count[10] = 9;
	h.count[60] = 7;
	CHECK(modes_find(h.lo, h.count, NB, m, 4) == 1);
	CHECK_NEAR(m[0].share, 1, 1e-12);
	/* the same shape with 50 and more in each: two */
	h.count[10] = 90;
	h.count[60] = 70;
	CHECK(modes_find(h.lo, h.count, NB, m, 4) == 2);
}

TEST(modes_jagged_single_peak)
{
	struct h h;
	struct mode m[4];

	/* every other bucket 40 % lower: smoothing sees one peak */
	h_init(&h);
	h_bell(&h, 8000, 443, 4);
	for (unsigned i = 0; i < NB; i += 2)
		h.count[i] = round(h.count[i] * 0.6);
	CHECK(modes_find(h.lo, h.count, NB, m, 4) == 1);
}

/* bind's 4k/free rep 0 of tests/fixtures/run-small (TCG, wall clock) */
TEST(modes_fixture_wall_clock_case)
{
	static const double lo[] = { 9984, 10240, 10496, 10752, 11008, 11264, 11520, 11776, 12032,
				     12288, 12544, 12800, 13056, 13312, 13568, 13824, 14080, 14336,
				     14592, 14848, 15104, 15360, 15616, 15872, 16128, 16384, 16896,
				     17408, 17920, 18432, 18944, 19456, 19968, 20480, 20992, 21504 };
	static const double n[] = { 5, 777, 1157, 604, 238, 105, 19, 12, 13, 5, 7, 4, 12, 6, 8, 10,
				    14, 17, 24, 41, 35, 50, 44, 53, 84, 176, 107, 86, 120, 56, 43,
				    23, 19, 6, 5, 2 };
	struct mode m[4];
	struct sbuf b = { 0 };

	CHECK(modes_find(lo, n, sizeof(lo) / sizeof(lo[0]), m, 4) == 2);
	CHECK(m[0].at == 10496);
	CHECK(m[1].at > 15000 && m[1].at < 18500);
	modes_text(m, 2, "ns", &b);
	fprintf(stderr, "  fixture: %s\n", b.s);
	CHECK(!strncmp(b.s, "2 modes: ", 9));
	sb_free(&b);
}

TEST(modes_text)
{
	struct mode m[3] = { { 10496, 0, 0.605 }, { 16896, 0, 0.395 }, { 0, 0, 0 } };
	struct sbuf b = { 0 };

	modes_text(m, 2, "ns", &b);
	CHECK_STR(b.s, "2 modes: 61 % near 10.5 µs, 39 % near 16.9 µs");
	/* shares 33.4 / 33.3 / 33.3: whole percentages still add up to 100 */
	b.len = 0;
	m[0] = (struct mode){ 850, 0, 0.334 };
	m[1] = (struct mode){ 155648, 0, 0.333 };
	m[2] = (struct mode){ 2.5e6, 0, 0.333 };
	modes_text(m, 3, "ns", &b);
	CHECK_STR(b.s, "3 modes: 34 % near 850 ns, 33 % near 156 µs, 33 % near 2.50 ms");
	b.len = 0;
	m[0] = (struct mode){ 6340, 0, 1 };
	modes_text(m, 1, "insn", &b);
	CHECK_STR(b.s, "1 mode: 100 % near 6340 insn");
	/* only some modes shown: their shares as they are, not pushed up to 100 */
	b.len = 0;
	m[0] = (struct mode){ 850, 0, 0.30 };
	m[1] = (struct mode){ 1700, 0, 0.20 };
	modes_text(m, 2, "ns", &b);
	CHECK_STR(b.s, "2 modes: 30 % near 850 ns, 20 % near 1.7 µs");
	sb_free(&b);
}
