/* SPDX-License-Identifier: GPL-2.0 */
/*
 * When may the report or compare say "higher" or "lower"?  Boots are the
 * replicate: a figure has one value per boot, and two figures differ only
 * when the boots say so.
 *
 * The interval of the difference B - A over boots is distribution-free:
 *  - paired (two cases of the same boots, e.g. two policies of one run): the
 *    order-statistic interval of the median of the per-boot differences
 *    (sign test): [d(l), d(n+1-l)], coverage 1 - 2 P(Binomial(n, 1/2) < l);
 *    with n <= 5 boots that is [min, max] with coverage 1 - 2^(1-n) < 95 %.
 *  - unpaired (the same case in two runs): the Hodges-Lehmann interval of
 *    the shift, [D(k), D(nm+1-k)] of the n*m pairwise differences, coverage
 *    1 - 2 P(U < k) under the Mann-Whitney null; k = 1 (all of B's boots
 *    beyond all of A's) has coverage 1 - 2 / C(n+m, n): 90 % at 3+3 boots,
 *    97.1 % at 4+4.
 *
 * The rule: a direction is claimed when that interval has at least 95 %
 * coverage and excludes 0, or when the clock is icount (deterministic up to
 * what an A/A pair shows: the same case twice in one boot), every boot's
 * difference has the same sign and the median difference is at least the
 * A/A spread.  Otherwise nothing is claimed, and the rule says how many
 * boots could settle it.
 */
#ifndef TIERLAB_VERDICT_H
#define TIERLAB_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#define VERDICT_LEVEL 0.95
#define VERDICT_MAX_BOOTS 64	/* per side; beyond it the interval is not computed */

enum verdict_kind {
	VERDICT_NONE,	/* no values on one side */
	VERDICT_SAME,	/* not distinguishable */
	VERDICT_HIGHER,	/* B above A */
	VERDICT_LOWER,
};

struct verdict_in {
	const double *a, *b;	/* one value per boot */
	size_t na, nb;		/* paired: na == nb and a[i], b[i] come from one boot */
	bool paired;
	bool icount;
	double aa_spread;	/* |A - A'| of an A/A pair, NAN when none */
};

struct verdict {
	enum verdict_kind kind;
	double diff;		/* paired: median of b[i] - a[i]; else median(b) - median(a) */
	double lo, hi;		/* interval of the difference over boots */
	double coverage;	/* its exact coverage (0 with one boot a side) */
	bool by_aa;		/* decided by the icount A/A rule, not by coverage */
	double dmin, dmax;	/* the smallest and largest of every difference taken */
	/*
	 * SAME: boots (per run) that could separate the two: the fewest with a
	 * 95 % interval when there are fewer, else N * (half-width / |diff|)^2
	 * (an interval narrows as 1/sqrt(boots)); 0 when diff is 0 or the
	 * estimate exceeds VERDICT_MAX_BOOTS.
	 */
	size_t boots_needed;
};

struct verdict verdict_decide(const struct verdict_in *in);

/* "higher", "lower", "not distinguishable", "" (NONE) */
const char *verdict_word(enum verdict_kind k);

/* Coverage of the widest unpaired interval (k = 1): 1 - 2 / C(n+m, n). */
double verdict_unpaired_coverage(size_t n, size_t m, size_t k);
/* The fewest boots (per side, equal sides when unpaired) with a 95 % interval. */
size_t verdict_min_boots(bool paired);

#endif
