/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics over repetitions: the median and a distribution-free
 * confidence interval for it.
 *
 * Method (order statistics; e.g. Conover, "Practical Nonparametric
 * Statistics", sec. 3.2): with the n values sorted x(1) <= ... <= x(n), the
 * number of values below the true median is Binomial(n, 1/2), so
 * [x(l), x(n+1-l)] covers the median with probability
 * 1 - 2 * P(B <= l - 1).  We take the largest l whose coverage is still at
 * least the requested level.  For n <= 5 no l reaches 95 %: the interval is
 * then [min, max] and its true coverage (1 - 2^(1-n)) is reported so that
 * nobody mistakes it for a 95 % interval.
 */
#ifndef TIERBENCH_STATS_H
#define TIERBENCH_STATS_H

#include <stddef.h>

/* Median of @v (n > 0); @v is sorted in place.  Mean of the middle two for even n. */
double stats_median(double *v, size_t n);

struct median_ci {
	size_t lo_rank, hi_rank;	/* 1-based order statistics */
	double coverage;		/* achieved, in [0, 1] */
};
/* The order-statistic interval for @level (e.g. 0.95); n >= 1. */
struct median_ci stats_median_ci_ranks(size_t n, double level);
/* P(Binomial(n, 1/2) <= k). */
double stats_binom_half_cdf(size_t n, size_t k);

void stats_sort(double *v, size_t n);

#endif
