// SPDX-License-Identifier: GPL-2.0
/*
 * lab/report/verdict.c: the rule for "higher"/"lower" over boots, its intervals'
 * coverage against hand-computed values, and the rule holding back when
 * the data contradict a claim.
 */
#include <math.h>

#include "harness.h"
#include "verdict.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

TEST(verdict_coverage_exact)
{
	/* 1 - 2 / C(n+m, n) */
	CHECK_NEAR(verdict_unpaired_coverage(1, 1, 1), 0, 1e-12);
	CHECK_NEAR(verdict_unpaired_coverage(2, 2, 1), 1 - 2.0 / 6, 1e-12);
	CHECK_NEAR(verdict_unpaired_coverage(3, 3, 1), 1 - 2.0 / 20, 1e-12);
	CHECK_NEAR(verdict_unpaired_coverage(4, 4, 1), 1 - 2.0 / 70, 1e-12);
	CHECK_NEAR(verdict_unpaired_coverage(5, 3, 1), 1 - 2.0 / 56, 1e-12);
	/* k = 2 at 4+4: P(U <= 1) = 2/70 */
	CHECK_NEAR(verdict_unpaired_coverage(4, 4, 2), 1 - 4.0 / 70, 1e-12);
	/* k = 3 at 5+5: U = 0, 1, 2 have 1, 1, 2 arrangements of 252 */
	CHECK_NEAR(verdict_unpaired_coverage(5, 5, 3), 1 - 2 * 4.0 / 252, 1e-12);
	CHECK(verdict_min_boots(true) == 6);	/* 1 - 2^-5 = 96.9 % */
	CHECK(verdict_min_boots(false) == 4);	/* 4 + 4 boots: 97.1 % */
}

TEST(verdict_paired_needs_six_boots)
{
	/* b is above a in every boot, by 10 to 14 */
	double a[6] = { 100, 101, 99, 100, 102, 98 }, b[6] = { 110, 113, 111, 114, 114, 110 };
	struct verdict_in in = { a, b, 5, 5, true, false, NAN };
	struct verdict v = verdict_decide(&in);

	/* five boots: [min, max] of the differences, coverage 1 - 2^-4 */
	CHECK(v.kind == VERDICT_SAME);
	CHECK_NEAR(v.coverage, 0.9375, 1e-12);
	CHECK_NEAR(v.lo, 10, 0);
	CHECK_NEAR(v.hi, 14, 0);
	CHECK_NEAR(v.diff, 12, 0);
	CHECK(v.boots_needed == 6);
	in.na = in.nb = 6;
	v = verdict_decide(&in);
	CHECK(v.kind == VERDICT_HIGHER);
	CHECK_NEAR(v.coverage, 1 - 1.0 / 32, 1e-12);
	CHECK(!v.by_aa);
	/* the same the other way round */
	in.a = b;
	in.b = a;
	v = verdict_decide(&in);
	CHECK(v.kind == VERDICT_LOWER);
}

TEST(verdict_contrary_data_claim_nothing)
{
	/* one boot of six goes the other way: the interval holds 0 */
	double a[6] = { 100, 100, 100, 100, 100, 100 }, b[6] = { 110, 111, 112, 90, 113, 114 };
	struct verdict_in in = { a, b, 6, 6, true, false, NAN };
	struct verdict v = verdict_decide(&in);

	CHECK(v.kind == VERDICT_SAME);
	CHECK(v.lo < 0 && v.hi > 0);
	CHECK(v.boots_needed > 6);
	/* under icount too: the boots disagree in sign, whatever the A/A spread */
	in.icount = true;
	in.aa_spread = 0;
	v = verdict_decide(&in);
	CHECK(v.kind == VERDICT_SAME);
	/* a bimodal wall clock: 2 boots each, medians flip between modes */
	double x[2] = { 10496, 16896 }, y[2] = { 16896, 10752 };
	struct verdict_in w = { x, y, 2, 2, false, false, NAN };

	v = verdict_decide(&w);
	CHECK(v.kind == VERDICT_SAME);
	CHECK(v.boots_needed >= 4);
	/* disjoint but with 2+2 boots: coverage 67 %, no claim */
	double p[2] = { 10496, 10500 }, q[2] = { 16896, 16900 };
	struct verdict_in d = { p, q, 2, 2, false, false, NAN };

	v = verdict_decide(&d);
	CHECK(v.kind == VERDICT_SAME);
	CHECK_NEAR(v.coverage, 1 - 2.0 / 6, 1e-12);
	CHECK(v.boots_needed == 4);
}

TEST(verdict_unpaired_four_boots)
{
	double a[4] = { 10, 11, 12, 13 }, b[4] = { 20, 21, 22, 23 };
	struct verdict_in in = { a, b, 4, 4, false, false, NAN };
	struct verdict v = verdict_decide(&in);

	CHECK(v.kind == VERDICT_HIGHER);
	CHECK_NEAR(v.diff, 10, 1e-12);
	CHECK_NEAR(v.lo, 7, 0);	/* 20 - 13 */
	CHECK_NEAR(v.hi, 13, 0);	/* 23 - 10 */
	/* overlap by one boot: the interval at 97 % holds 0 */
	b[0] = 12.5;
	v = verdict_decide(&in);
	CHECK(v.kind == VERDICT_SAME);
	CHECK(v.lo < 0);
}

TEST(verdict_icount_aa_rule)
{
	/* icount: two boots each, every boot the same number of instructions */
	double bind[2] = { 6340, 6340 }, pref[2] = { 6345, 6345 }, many[2] = { 6366, 6366 };
	struct verdict_in in = { bind, pref, 2, 2, true, true, 3 };
	struct verdict v = verdict_decide(&in);

	CHECK(v.kind == VERDICT_HIGHER);	/* 5 >= A/A spread 3 */
	CHECK(v.by_aa);
	CHECK(v.coverage < 0.95);
	/* the A/A pair differed by more than the difference: no claim */
	in.aa_spread = 8;
	v = verdict_decide(&in);
	CHECK(v.kind == VERDICT_SAME);
	in.b = many;
	v = verdict_decide(&in);
	CHECK(v.kind == VERDICT_HIGHER);	/* 26 >= 8 */
	/* no A/A pair recorded: the icount shortcut is not taken */
	in.aa_spread = NAN;
	v = verdict_decide(&in);
	CHECK(v.kind == VERDICT_SAME);
	CHECK(v.boots_needed == 6);
	/* the wall clock never takes it */
	in.aa_spread = 0;
	in.icount = false;
	v = verdict_decide(&in);
	CHECK(v.kind == VERDICT_SAME);
	/* equal under icount: nothing to claim, no boots would change that */
	in.icount = true;
	in.b = bind;
	v = verdict_decide(&in);
	CHECK(v.kind == VERDICT_SAME);
	CHECK(v.diff == 0 && v.boots_needed == 0);
}

TEST(verdict_none_without_values)
{
	double a[1] = { 1 };
	struct verdict_in in = { a, a, 1, 0, false, false, NAN };

	CHECK(verdict_decide(&in).kind == VERDICT_NONE);
	in.nb = 1;
	in.paired = true;
	in.na = 2;	/* paired needs one value per boot on each side */
	CHECK(verdict_decide(&in).kind == VERDICT_NONE);
	CHECK_STR(verdict_word(VERDICT_SAME), "not distinguishable");
}
