// SPDX-License-Identifier: GPL-2.0
/* The rule for "higher" / "lower" over boots (verdict.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "util.h"
#include "verdict.h"

const char *verdict_word(enum verdict_kind k)
{
	return k == VERDICT_HIGHER ? "higher" : k == VERDICT_LOWER ? "lower"
	       : k == VERDICT_SAME ? "not distinguishable" : "";
}

/*
 * P(U <= u) for u = 0..n*m under the Mann-Whitney null: the coefficients of
 * the Gaussian binomial [n+m, n]_q = prod_{i=1..n} (1 - q^(m+i)) / (1 - q^i),
 * divided by C(n+m, n).  Returns a malloc'd array of n*m+1 cumulative values.
 */
static double *mw_cdf(size_t n, size_t m)
{
	size_t len = n * m + 1;
	double *c = xcalloc(len, sizeof(*c)), total = 0;

	c[0] = 1;
	for (size_t i = 1; i <= n; i++) {
		/* times (1 - q^(m+i)), then divided by (1 - q^i) */
		for (size_t u = len; u-- > m + i;)
			c[u] -= c[u - m - i];
		for (size_t u = i; u < len; u++)
			c[u] += c[u - i];
	}
	for (size_t u = 0; u < len; u++) {
		total += c[u];
		c[u] = total;
	}
	for (size_t u = 0; u < len; u++)
		c[u] /= total;
	return c;
}

double verdict_unpaired_coverage(size_t n, size_t m, size_t k)
{
	double *c, cov;

	if (!n || !m || !k || k > n * m || n > VERDICT_MAX_BOOTS || m > VERDICT_MAX_BOOTS)
		return 0;
	c = mw_cdf(n, m);
	cov = 1 - 2 * c[k - 1];
	free(c);
	return cov > 0 ? cov : 0;
}

size_t verdict_min_boots(bool paired)
{
	for (size_t n = 1; n <= VERDICT_MAX_BOOTS; n++)
		if ((paired ? stats_median_ci_ranks(n, VERDICT_LEVEL).coverage
			    : verdict_unpaired_coverage(n, n, 1)) >= VERDICT_LEVEL - 1e-12)
			return n;
	return VERDICT_MAX_BOOTS + 1;
}

static double median_of(const double *v, size_t n)
{
	double *t = xcalloc(n, sizeof(*t)), m;

	memcpy(t, v, n * sizeof(*t));
	m = stats_median(t, n);
	free(t);
	return m;
}

/* The paired interval: order statistics of the per-boot differences. */
static void paired_interval(const struct verdict_in *in, struct verdict *v)
{
	size_t n = in->na;
	double *d = xcalloc(n, sizeof(*d));
	struct median_ci ci = stats_median_ci_ranks(n, VERDICT_LEVEL);

	for (size_t i = 0; i < n; i++)
		d[i] = in->b[i] - in->a[i];
	v->diff = stats_median(d, n);	/* sorts d */
	v->dmin = d[0];
	v->dmax = d[n - 1];
	v->lo = d[ci.lo_rank - 1];
	v->hi = d[ci.hi_rank - 1];
	v->coverage = ci.coverage;
	free(d);
}

/* The unpaired interval: order statistics of the pairwise differences. */
static void unpaired_interval(const struct verdict_in *in, struct verdict *v)
{
	size_t n = in->na, m = in->nb, nm = n * m, k = 1;
	double *d = xcalloc(nm, sizeof(*d)), *c = mw_cdf(n, m);

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < m; j++)
			d[i * m + j] = in->b[j] - in->a[i];
	stats_sort(d, nm);
	v->dmin = d[0];
	v->dmax = d[nm - 1];
	/* the largest k whose coverage is still at least the level */
	while (k < nm / 2 && 1 - 2 * c[k] >= VERDICT_LEVEL - 1e-12)
		k++;
	v->lo = d[k - 1];
	v->hi = d[nm - k];
	v->coverage = 1 - 2 * c[k - 1] > 0 ? 1 - 2 * c[k - 1] : 0;
	v->diff = median_of(in->b, m) - median_of(in->a, n);
	free(c);
	free(d);
}

struct verdict verdict_decide(const struct verdict_in *in)
{
	struct verdict v = { VERDICT_NONE, NAN, NAN, NAN, 0, false, NAN, NAN, 0 };
	size_t n = in->paired ? in->na : (in->na < in->nb ? in->na : in->nb);
	bool one_sided;

	if (!in->na || !in->nb || (in->paired && in->na != in->nb) ||
	    in->na > VERDICT_MAX_BOOTS || in->nb > VERDICT_MAX_BOOTS)
		return v;
	if (in->paired)
		paired_interval(in, &v);
	else
		unpaired_interval(in, &v);
	one_sided = v.lo > 0 || v.hi < 0;
	if (one_sided && v.coverage >= VERDICT_LEVEL - 1e-12) {
		v.kind = v.diff > 0 || (v.diff == 0 && v.lo > 0) ? VERDICT_HIGHER : VERDICT_LOWER;
		return v;
	}
	if (in->icount && !isnan(in->aa_spread) && one_sided && v.diff != 0 &&
	    fabs(v.diff) >= in->aa_spread) {
		v.kind = v.diff > 0 ? VERDICT_HIGHER : VERDICT_LOWER;
		v.by_aa = true;
		return v;
	}
	v.kind = VERDICT_SAME;
	if (v.diff != 0) {
		size_t need = verdict_min_boots(in->paired), est = n + 1;
		double half = (v.hi - v.lo) / 2;

		if (n >= 2 && half > 0) {
			double e = ceil((double)n * (half / fabs(v.diff)) * (half / fabs(v.diff)));

			est = e > VERDICT_MAX_BOOTS ? VERDICT_MAX_BOOTS + 1 : (size_t)e;
		}
		if (est > need)
			need = est;
		v.boots_needed = need > n ? need : n + 1;
	}
	return v;
}
