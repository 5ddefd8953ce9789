// SPDX-License-Identifier: GPL-2.0
#include "stats.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void stats_sort(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
}

double stats_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	stats_sort(v, n);
	if (n % 2)
		return v[n / 2];
	return (v[n / 2 - 1] + v[n / 2]) / 2;
}

double stats_binom_half_cdf(size_t n, size_t k)
{
	/* sum C(n, i) / 2^n in log space: stays finite for large n */
	double sum = 0, logc = 0;	/* log C(n, 0) */

	if (k >= n)
		return 1.0;
	for (size_t i = 0; i <= k; i++) {
		if (i)
			logc += log((double)(n - i + 1)) - log((double)i);
		sum += exp(logc - (double)n * M_LN2);
	}
	return sum;
}

struct median_ci stats_median_ci_ranks(size_t n, double level)
{
	struct median_ci ci = { 1, n, 1.0 - 2.0 * stats_binom_half_cdf(n, 0) };
	double alpha_half = (1.0 - level) / 2.0;

	if (n == 1) {
		ci.coverage = 0;
		return ci;
	}
	/* grow l while the tail below x(l) stays within alpha/2 */
	for (size_t l = 2; l <= n / 2; l++) {
		double tail = stats_binom_half_cdf(n, l - 1);

		if (tail > alpha_half + 1e-12)
			break;
		ci.lo_rank = l;
		ci.hi_rank = n + 1 - l;
		ci.coverage = 1.0 - 2.0 * tail;
	}
	return ci;
}
