/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cost model's arithmetic (costmodel.c): how one figure of each node
 * (latency in ns, or bandwidth in MB/s) combines over a placement.  Pure:
 * no I/O, so the host unit tests run it (tests/unit/test_bench_costmodel.c).
 *
 * With f_i = pages on node i / pages on nodes that have the figure:
 *   latency      = sum f_i * L_i          time per access adds up: an
 *                                         access to node i costs L_i
 *   serial bw    = 1 / sum (f_i / B_i)    one stream touching the pages in
 *                                         turn spends f_i / B_i per byte on
 *                                         node i: time-weighted (harmonic)
 *   parallel bound = min_i B_i / f_i      every node's channel busy at once:
 *                                         node i's share f_i of the bytes
 *                                         finishes last; never above sum B_i
 * The page-weighted arithmetic mean of bandwidths is neither: a 50/50
 * interleave of 100031 and 39368 MB/s is 56500 serial, at most 78736 in
 * parallel, not 69700.
 *
 * A node with a memory-side cache costs, per access, hit * cache + (1 -
 * hit) * memory (latency), and per byte hit / B_cache + (1 - hit) / B_memory
 * (bandwidth, time-weighted) before the mixing above.  @hit is an
 * assumption the caller states (row model_cache_hit_frac).
 */
#ifndef TIERBENCH_COSTMODEL_H
#define TIERBENCH_COSTMODEL_H

#include <stddef.h>

enum cost_kind { COST_LATENCY, COST_BANDWIDTH };

struct cost_node {
	long pages;		/* on this node, any unit; <= 0: none */
	/*
	 * The figure of the node's memory; unknown when < 0 (latency) or <= 0
	 * (bandwidth: HMAT's 0 is "not given", and a zero would divide).
	 */
	double figure;
	/* The same for its memory-side cache; unknown or no cache as above. */
	double cache_figure;
	double hit;		/* share of accesses the cache serves, 0..1 */
};

struct cost_mix {
	long pages;		/* on every node */
	long covered;		/* on nodes with the figure */
	double coverage;	/* covered / pages; 0 without pages */
	/* latency: the mean; bandwidth: serial (time-weighted).  NAN if !covered */
	double value;
	double parallel_bound;	/* bandwidth only, else NAN; NAN if !covered */
};

/*
 * One node's cost with its cache: @hit outside 0..1 is clamped; a cache
 * figure that is unknown leaves the memory's figure.  Unknown if the
 * memory's figure is.
 */
double cost_node_figure(enum cost_kind kind, const struct cost_node *n);

/* The placement's cost over @n[0 .. @nn - 1]. */
void cost_mix(enum cost_kind kind, const struct cost_node *n, size_t nn, struct cost_mix *out);

#endif
