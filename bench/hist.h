/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A log-bucket histogram in the manner of HdrHistogram: values below
 * 2 * HIST_SUB are counted exactly; above, each power of two is split into
 * HIST_SUB equal buckets, so a bucket is never wider than 1/HIST_SUB of its
 * lower bound (relative error < 3.2 % with HIST_SUB = 32).  Exact count, sum,
 * min and max are kept beside the buckets.
 */
#ifndef TIERBENCH_HIST_H
#define TIERBENCH_HIST_H

#include <stdint.h>
#include <stddef.h>

#define HIST_SUB_BITS 5
#define HIST_SUB (1u << HIST_SUB_BITS)
/*
 * Buckets needed to cover every uint64_t value: 2 * HIST_SUB exact ones,
 * then HIST_SUB for each shift 1 .. 63 - HIST_SUB_BITS.
 */
#define HIST_BUCKETS ((65 - HIST_SUB_BITS) * HIST_SUB)

struct hist {
	uint64_t count;
	uint64_t min, max;
	long double sum;
	uint64_t bucket[HIST_BUCKETS];
};

void hist_init(struct hist *h);
void hist_add(struct hist *h, uint64_t v);
void hist_merge(struct hist *into, const struct hist *from);
unsigned hist_index(uint64_t v);
uint64_t hist_bucket_lo(unsigned idx);
uint64_t hist_bucket_hi(unsigned idx);	/* inclusive */
double hist_mean(const struct hist *h);
/*
 * Nearest-rank percentile: the lower bound of the bucket holding the
 * ceil(q * count)-th smallest value, clamped to [min, max].  q in [0, 1];
 * 0 when empty.
 */
uint64_t hist_quantile(const struct hist *h, double q);
/*
 * The non-empty buckets as "lo:count+lo:count" (the HIST line).  Returns the
 * length it needed, like snprintf.
 */
int hist_format_buckets(const struct hist *h, char *buf, size_t len);

#endif
