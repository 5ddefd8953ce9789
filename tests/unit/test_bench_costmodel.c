// SPDX-License-Identifier: GPL-2.0
/*
 * bench/costmodel.c: latency is the page-weighted mean, bandwidth the
 * time-weighted (harmonic) mean with the parallel bound beside it.  The
 * expected values are worked out by hand in the comments.
 */
#include <math.h>

#include "harness.h"
#include "costmodel.h"

#define NONE -1.0	/* no figure / no cache */

static struct cost_node node(long pages, double figure)
{
	return (struct cost_node){ .pages = pages, .figure = figure, .cache_figure = NONE };
}

/* DRAM 100031 MB/s (81 ns), PMEM 39368 MB/s (305 ns), pages 50/50. */
TEST(costmodel_interleave_50_50)
{
	struct cost_node lat[] = { node(512, 81), node(512, 305) };
	struct cost_node bw[] = { node(512, 100031), node(512, 39368) };
	struct cost_mix m;

	/* (81 + 305) / 2 = 193 */
	cost_mix(COST_LATENCY, lat, 2, &m);
	CHECK_NEAR(m.value, 193, 1e-9);
	CHECK(isnan(m.parallel_bound));
	CHECK(m.pages == 1024 && m.covered == 1024 && m.coverage == 1);
	/*
	 * serial: 1 / (0.5 / 100031 + 0.5 / 39368) = 2 * 100031 * 39368 / 139399
	 * = 56499.98; not the arithmetic 69699.5.  bound: min(100031 / 0.5,
	 * 39368 / 0.5) = 78736, below the sum 139399.
	 */
	cost_mix(COST_BANDWIDTH, bw, 2, &m);
	CHECK_NEAR(m.value, 2.0 * 100031 * 39368 / 139399, 1e-6);
	CHECK_NEAR(m.value, 56499.98, 0.01);
	CHECK_NEAR(m.parallel_bound, 78736, 1e-9);
}

/* Every page on one node: every mean is that node's figure. */
TEST(costmodel_all_on_one_node)
{
	struct cost_node lat[] = { node(0, 81), node(300, 305) };
	struct cost_node bw[] = { node(0, 100000), node(300, 39400) };
	struct cost_mix m;

	cost_mix(COST_LATENCY, lat, 2, &m);
	CHECK_NEAR(m.value, 305, 1e-9);
	cost_mix(COST_BANDWIDTH, bw, 2, &m);
	CHECK_NEAR(m.value, 39400, 1e-9);
	/* 39400 / 1; the node without pages is no channel of this placement */
	CHECK_NEAR(m.parallel_bound, 39400, 1e-9);
}

/*
 * Pages 2:1:1 on 100000, 50000, 20000 MB/s (80, 200, 400 ns):
 * latency 0.5 * 80 + 0.25 * 200 + 0.25 * 400 = 190;
 * serial 1 / (0.5 / 1e5 + 0.25 / 5e4 + 0.25 / 2e4) = 1 / 22.5e-6 = 44444.4;
 * bound min(2e5, 2e5, 8e4) = 80000.
 */
TEST(costmodel_three_nodes)
{
	struct cost_node lat[] = { node(200, 80), node(100, 200), node(100, 400) };
	struct cost_node bw[] = { node(200, 100000), node(100, 50000), node(100, 20000) };
	struct cost_mix m;

	cost_mix(COST_LATENCY, lat, 3, &m);
	CHECK_NEAR(m.value, 190, 1e-9);
	cost_mix(COST_BANDWIDTH, bw, 3, &m);
	CHECK_NEAR(m.value, 1 / 22.5e-6, 1e-6);
	CHECK_NEAR(m.parallel_bound, 80000, 1e-9);
}

/*
 * Node 1 has no figures (-1 latency, 0 or -5 bandwidth: HMAT's "not
 * given"): the mean is over the covered pages only, coverage 300 / 400.
 */
TEST(costmodel_node_without_figures)
{
	struct cost_node lat[] = { node(100, 80), node(100, NONE), node(200, 400) };
	struct cost_node bw[] = { node(100, 100000), node(100, 0), node(200, 20000) };
	struct cost_mix m;

	/* (100 * 80 + 200 * 400) / 300 = 293.33 */
	cost_mix(COST_LATENCY, lat, 3, &m);
	CHECK_NEAR(m.value, 88000.0 / 300, 1e-9);
	CHECK(m.pages == 400 && m.covered == 300);
	CHECK_NEAR(m.coverage, 0.75, 1e-12);
	/* 1 / (1/3 / 1e5 + 2/3 / 2e4) = 1 / 3.6667e-5 = 27272.7; bound min(3e5, 3e4) */
	cost_mix(COST_BANDWIDTH, bw, 3, &m);
	CHECK_NEAR(m.value, 300000.0 / 11, 1e-6);
	CHECK_NEAR(m.parallel_bound, 30000, 1e-9);
	CHECK_NEAR(m.coverage, 0.75, 1e-12);
	bw[1].figure = -5;
	cost_mix(COST_BANDWIDTH, bw, 3, &m);
	CHECK_NEAR(m.value, 300000.0 / 11, 1e-6);
	/* a latency of 0 is a figure (no division by it) */
	lat[1].figure = 0;
	cost_mix(COST_LATENCY, lat, 3, &m);
	CHECK_NEAR(m.value, 88000.0 / 400, 1e-9);
	CHECK(m.covered == 400);
}

/* No pages, or none on a node with figures: no value, nothing divided. */
TEST(costmodel_zero_pages)
{
	struct cost_node bw[] = { node(0, 100000), node(0, 20000) };
	struct cost_node lost[] = { node(0, 100000), node(64, 0), node(-3, 100) };
	struct cost_mix m;

	cost_mix(COST_BANDWIDTH, bw, 2, &m);
	CHECK(m.pages == 0 && m.covered == 0 && m.coverage == 0);
	CHECK(isnan(m.value) && isnan(m.parallel_bound));
	cost_mix(COST_LATENCY, bw, 0, &m);
	CHECK(m.pages == 0 && isnan(m.value));
	cost_mix(COST_BANDWIDTH, lost, 3, &m);
	CHECK(m.pages == 64 && m.covered == 0 && m.coverage == 0);
	CHECK(isnan(m.value) && isnan(m.parallel_bound));
}

/*
 * A PMEM node (305 ns, 39400 MB/s) behind a DRAM cache (81 ns, 100000
 * MB/s), hit 0.25: 0.25 * 81 + 0.75 * 305 = 249 ns;
 * 1 / (0.25 / 1e5 + 0.75 / 39400) = 46434.9 MB/s.
 */
TEST(costmodel_memory_side_cache)
{
	struct cost_node lat = { 1000, 305, 81, 0.25 }, bw = { 1000, 39400, 100000, 0.25 };
	struct cost_node both[] = { { 500, 39400, 100000, 0.25 }, node(500, 100000) };
	struct cost_mix m;
	double cached = 1 / (0.25 / 1e5 + 0.75 / 39400);

	CHECK_NEAR(cost_node_figure(COST_LATENCY, &lat), 249, 1e-9);
	CHECK_NEAR(cost_node_figure(COST_BANDWIDTH, &bw), cached, 1e-6);
	CHECK_NEAR(cached, 46434.9, 0.05);
	/* the cached node mixes with an uncached one as any node does */
	cost_mix(COST_BANDWIDTH, both, 2, &m);
	CHECK_NEAR(m.value, 1 / (0.5 / cached + 0.5 / 1e5), 1e-6);
	CHECK_NEAR(m.parallel_bound, 2 * cached, 1e-6);
	/* hit 0: the memory alone; hit 1 (or above, clamped): the cache alone */
	lat.hit = 0;
	CHECK_NEAR(cost_node_figure(COST_LATENCY, &lat), 305, 1e-9);
	lat.hit = 1.5;
	CHECK_NEAR(cost_node_figure(COST_LATENCY, &lat), 81, 1e-9);
	/* a cache without figures changes nothing; no memory figure, no figure */
	bw.cache_figure = 0;
	CHECK_NEAR(cost_node_figure(COST_BANDWIDTH, &bw), 39400, 1e-9);
	bw.figure = 0;
	bw.cache_figure = 100000;
	CHECK(cost_node_figure(COST_BANDWIDTH, &bw) < 0);
}
