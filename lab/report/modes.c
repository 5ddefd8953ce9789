// SPDX-License-Identifier: GPL-2.0
/*
 * Modes of a log-bucket histogram: the rule is in modes.h.
 */
#include "modes.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* bench/hist.h's bucket index of a lower bound (HIST_SUB_BITS 5), -1 if none */
static long bucket_index(double lo)
{
	uint64_t v;
	unsigned msb, shift;

	if (!(lo >= 0) || lo > 1.8e19 || lo != floor(lo))
		return -1;
	v = (uint64_t)lo;
	if (v < 64)
		return (long)v;
	msb = 63 - (unsigned)__builtin_clzll(v);
	shift = msb - 5;
	if ((v >> shift) << shift != v)
		return -1;	/* not a bucket's lower bound */
	return (long)(shift * 32 + (unsigned)(v >> shift));
}

struct seg {
	size_t peak;	/* grid index of its highest smoothed point */
	double height;	/* the smoothed curve there */
	double count;
	size_t end;	/* last grid index of its span (its valley to the next) */
};

/* Merge segment j + 1 into j. */
static void seg_merge(struct seg *s, size_t *n, size_t j)
{
	if (s[j + 1].height > s[j].height) {
		s[j].peak = s[j + 1].peak;
		s[j].height = s[j + 1].height;
	}
	s[j].count += s[j + 1].count;
	s[j].end = s[j + 1].end;
	memmove(&s[j + 1], &s[j + 2], (*n - j - 2) * sizeof(*s));
	(*n)--;
}

/* How shallow the valley between segments j and j + 1 is: valley / smaller peak. */
static double valley_ratio(const struct seg *s, const double *sm, size_t j)
{
	double lower = fmin(s[j].height, s[j + 1].height);

	return lower > 0 ? sm[s[j].end] / lower : 1;
}

int modes_find(const double *lo, const double *count, size_t nb, struct mode *out, size_t max)
{
	static const double w[5] = { 1, 2, 3, 2, 1 };
	long first = -1, last = -1;
	double *g, *sm, total = 0;
	struct seg *s;
	size_t n = 0, len;

	for (size_t i = 0; i < nb; i++) {
		long k = bucket_index(lo[i]);

		if (k < 0 || (i && lo[i] <= lo[i - 1]) || !(count[i] >= 0))
			return -1;
		if (count[i] > 0) {
			if (first < 0)
				first = k;
			last = k;
			total += count[i];
		}
	}
	if (first < 0 || total <= 0)
		return 0;
	len = (size_t)(last - first + 1);
	g = xcalloc(len, sizeof(*g));
	sm = xcalloc(len, sizeof(*sm));
	s = xcalloc(len, sizeof(*s));
	for (size_t i = 0; i < nb; i++)
		if (count[i] > 0)
			g[bucket_index(lo[i]) - first] += count[i];
	for (size_t i = 0; i < len; i++)
		for (int d = -2; d <= 2; d++)
			if ((long)i + d >= 0 && (long)i + d < (long)len)
				sm[i] += w[d + 2] * g[(long)i + d] / 9;
	/* peaks: the first point of every plateau higher than both its sides */
	for (size_t i = 0; i < len;) {
		size_t e = i;

		while (e + 1 < len && sm[e + 1] == sm[i])
			e++;
		if (sm[i] > 0 && (i == 0 || sm[i - 1] < sm[i]) && (e + 1 == len || sm[e + 1] < sm[i])) {
			s[n].peak = i;
			s[n].height = sm[i];
			n++;
		}
		i = e + 1;
	}
	/* valleys: the lowest point between neighbouring peaks ends the left one's span */
	for (size_t j = 0; j < n; j++) {
		size_t v = j + 1 < n ? s[j].peak : len - 1;

		if (j + 1 < n)
			for (size_t i = s[j].peak; i <= s[j + 1].peak; i++)
				if (sm[i] < sm[v])
					v = i;
		s[j].end = v;
	}
	for (size_t j = 0, from = 0; j < n; j++) {
		for (size_t i = from; i <= s[j].end; i++)
			s[j].count += g[i];
		from = s[j].end + 1;
	}
	while (n > 1) {
		size_t best = 0, small = 0;

		for (size_t j = 1; j + 1 < n; j++)
			if (valley_ratio(s, sm, j) > valley_ratio(s, sm, best))
				best = j;
		if (valley_ratio(s, sm, best) >= MODES_VALLEY) {
			seg_merge(s, &n, best);
			continue;
		}
		for (size_t j = 1; j < n; j++)
			if (s[j].count < s[small].count)
				small = j;
		if (s[small].count >= fmax(MODES_MIN_SHARE * total, MODES_MIN_COUNT))
			break;
		/* into the neighbour it is less separated from */
		if (small == 0 || (small + 1 < n &&
				   valley_ratio(s, sm, small) > valley_ratio(s, sm, small - 1)))
			seg_merge(s, &n, small);
		else
			seg_merge(s, &n, small - 1);
	}
	for (size_t j = 0; j < n && j < max; j++) {
		out[j].at = lo[0];
		for (size_t i = 0; i < nb; i++)
			if (bucket_index(lo[i]) - first == (long)s[j].peak)
				out[j].at = lo[i];
		out[j].count = s[j].count;
		out[j].share = s[j].count / total;
	}
	free(g);
	free(sm);
	free(s);
	return (int)n;
}

static void time_text(double v, const char *unit, struct sbuf *b)
{
	if (strcmp(unit, "ns"))
		sb_printf(b, "%.0f %s", v, unit);
	else if (v < 1000)
		sb_printf(b, "%.0f ns", v);
	else if (v < 100000)
		sb_printf(b, "%.1f µs", v / 1000);
	else if (v < 1e6)
		sb_printf(b, "%.0f µs", v / 1000);
	else
		sb_printf(b, "%.2f ms", v / 1e6);
}

void modes_text(const struct mode *m, size_t n, const char *unit, struct sbuf *b)
{
	int *pct = xcalloc(n ? n : 1, sizeof(int)), sum = 0, want;
	double total = 0;

	/*
	 * whole percentages that add up to the shares' own total (100 when
	 * every mode is shown): floors, then the largest remainders
	 */
	for (size_t j = 0; j < n; j++) {
		pct[j] = (int)floor(100 * m[j].share);
		sum += pct[j];
		total += m[j].share;
	}
	want = (int)lround(100 * total);
	while (n && sum < want) {
		size_t best = 0;

		for (size_t j = 1; j < n; j++)
			if (100 * m[j].share - pct[j] > 100 * m[best].share - pct[best])
				best = j;
		pct[best]++;
		sum++;
	}
	sb_printf(b, "%zu mode%s: ", n, n == 1 ? "" : "s");
	for (size_t j = 0; j < n; j++) {
		sb_printf(b, "%s%d %% near ", j ? ", " : "", pct[j]);
		time_text(m[j].at, unit, b);
	}
	free(pct);
}
