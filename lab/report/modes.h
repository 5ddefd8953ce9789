/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The modes of a fault-latency histogram (bench/hist.h's log buckets, as
 * HIST lines carry them), for the report's wall-clock mode shares (#16).
 *
 * The rule: the buckets are laid on their log grid (32 per power of two,
 * an empty bucket counts 0) and smoothed with the weights 1 2 3 2 1 (two
 * buckets each side, about +-6 %); every local maximum of the smoothed
 * curve starts as a peak, the lowest point between two neighbouring peaks
 * is their valley, and each bucket belongs to the peak between its two
 * valleys.  Then, until nothing changes: two neighbours whose valley is at
 * least half the smaller of their two peaks are one mode (the most shallow
 * valley first); a peak holding less than 10 % of the samples, or fewer
 * than 50 (a THP case of the quick profile has 16 faults: no mode can be
 * told from another there), joins the neighbour it is less separated from.  What is left are the modes: each
 * with the samples of its span (the shares add up to all of them) and the
 * lower bound of its highest smoothed bucket.  Two or more: multimodal.
 */
#ifndef TIERLAB_MODES_H
#define TIERLAB_MODES_H

#include <stddef.h>

#include "util.h"

#define MODES_MIN_SHARE 0.10	/* a mode holds at least this share of the samples */
#define MODES_MIN_COUNT 50	/* ... and at least this many samples */
#define MODES_VALLEY 0.5	/* ... and its valley to a neighbour is below this x the smaller peak */

struct mode {
	double at;	/* lower bound of the bucket where the smoothed curve peaks */
	double count;	/* samples in the mode's span */
	double share;	/* count / all samples */
};

/*
 * The modes of the histogram lo[0..nb) (ascending bucket lower bounds,
 * non-negative integers as bench/hist.h names them) with count[0..nb), in
 * ascending order; at most @max are written to @out.  Returns how many
 * modes there are (0 when the histogram is empty), -1 when lo is not
 * ascending or a value is not a bucket bound.
 */
int modes_find(const double *lo, const double *count, size_t nb, struct mode *out, size_t max);
/*
 * "2 modes: 61 % near 10.5 µs, 39 % near 17 µs" for @unit "ns"; "insn"
 * values are written as instruction counts.  Percentages are whole and add
 * up to 100 (largest remainders).
 */
void modes_text(const struct mode *m, size_t n, const char *unit, struct sbuf *b);

#endif
