// SPDX-License-Identifier: GPL-2.0
#include "hist.h"

#include <stdio.h>
#include <string.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

unsigned hist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < 2 * HIST_SUB)
		return (unsigned)v;
	msb = 63 - (unsigned)__builtin_clzll(v);
	shift = msb - HIST_SUB_BITS;		/* >= 1 */
	/* mantissa in [HIST_SUB, 2 * HIST_SUB) */
	return shift * HIST_SUB + (unsigned)(v >> shift);
}

uint64_t hist_bucket_lo(unsigned idx)
{
	unsigned shift;

	if (idx < 2 * HIST_SUB)
		return idx;
	shift = idx / HIST_SUB - 1;
	return (uint64_t)(idx % HIST_SUB + HIST_SUB) << shift;
}

uint64_t hist_bucket_hi(unsigned idx)
{
	if (idx + 1 >= HIST_BUCKETS)
		return UINT64_MAX;
	return hist_bucket_lo(idx + 1) - 1;
}

void hist_add(struct hist *h, uint64_t v)
{
	h->bucket[hist_index(v)]++;
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

void hist_merge(struct hist *into, const struct hist *from)
{
	if (!from->count)
		return;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		into->bucket[i] += from->bucket[i];
	into->count += from->count;
	into->sum += from->sum;
	if (from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)(h->sum / h->count) : 0.0;
}

uint64_t hist_quantile(const struct hist *h, double q)
{
	uint64_t rank, seen = 0;

	if (!h->count)
		return 0;
	if (q <= 0)
		return h->min;
	if (q >= 1)
		return h->max;
	/*
	 * ceil(q * count), forgiving the representation error of q: 0.9 * 60
	 * is 54.000000000000001 in binary and must still be rank 54.
	 */
	{
		long double x = (long double)q * h->count;

		rank = (uint64_t)x;
		if (x - rank > 1e-9L * x)
			rank++;
	}
	if (rank < 1)
		rank = 1;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank) {
			uint64_t lo = hist_bucket_lo(i);

			if (lo < h->min)
				lo = h->min;
			if (lo > h->max)
				lo = h->max;
			return lo;
		}
	}
	return h->max;
}

int hist_format_buckets(const struct hist *h, char *buf, size_t len)
{
	int pos = 0;

	if (len)
		buf[0] = 0;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		size_t room;
		int n;

		if (!h->bucket[i])
			continue;
		room = (size_t)pos < len ? len - (size_t)pos : 0;
		n = snprintf(room ? buf + pos : NULL, room, "%s%llu:%llu",
			     pos ? "+" : "",
			     (unsigned long long)hist_bucket_lo(i),
			     (unsigned long long)h->bucket[i]);
		if (n < 0)
			return -1;
		pos += n;
	}
	return pos;
}
