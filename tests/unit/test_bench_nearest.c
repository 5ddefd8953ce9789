// SPDX-License-Identifier: GPL-2.0
/*
 * bench/nearest.c: where a one-node preferred set's overflow goes first,
 * on 2s-dram-pmem's SLIT (DRAM 0, 1 with CPUs; PMEM 2 near 0, PMEM 3 near 1):
 *   [10, 21, 17, 28] [21, 10, 28, 17] [17, 28, 10, 28] [28, 17, 28, 10]
 * PREFERRED pmem:3 goes down node 3's own zonelist (to 1); PREFERRED_MANY
 * pmem:3 from a CPU of node 0 goes down node 0's (to 0 itself).
 */
#include "harness.h"
#include "nearest.h"

static const int slit[4][4] = {
	{ 10, 21, 17, 28 }, { 21, 10, 28, 17 }, { 17, 28, 10, 28 }, { 28, 17, 28, 10 },
};

static struct nodeset set_of(int a, int b, int c, int d)
{
	struct nodeset s;
	int v[] = { a, b, c, d };

	ns_clear(&s);
	for (int i = 0; i < 4; i++)
		if (v[i] >= 0)
			ns_set(&s, v[i]);
	return s;
}

TEST(nearest_preferred_follows_the_preferred_nodes_row)
{
	struct nodeset mem = set_of(0, 1, 2, 3), ex = set_of(3, -1, -1, -1), out;

	nearest_nodes(slit[3], 4, &mem, &ex, &out);
	CHECK(ns_count(&out) == 1 && ns_has(&out, 1));
	ex = set_of(2, -1, -1, -1);
	nearest_nodes(slit[2], 4, &mem, &ex, &out);
	CHECK(ns_count(&out) == 1 && ns_has(&out, 0));
}

TEST(nearest_preferred_many_follows_the_cpus_row)
{
	struct nodeset mem = set_of(0, 1, 2, 3), ex = set_of(3, -1, -1, -1), out;

	nearest_nodes(slit[0], 4, &mem, &ex, &out);	/* CPU on node 0 */
	CHECK(ns_count(&out) == 1 && ns_has(&out, 0));
	nearest_nodes(slit[1], 4, &mem, &ex, &out);	/* CPU on node 1 */
	CHECK(ns_count(&out) == 1 && ns_has(&out, 1));
}

TEST(nearest_ties_kept_unknown_and_memoryless_skipped)
{
	int row[4] = { 28, -1, 28, 10 };
	struct nodeset mem = set_of(0, 1, 2, 3), ex = set_of(3, -1, -1, -1), out;

	nearest_nodes(row, 4, &mem, &ex, &out);
	CHECK(ns_count(&out) == 2 && ns_has(&out, 0) && ns_has(&out, 2));
	mem = set_of(3, -1, -1, -1);
	nearest_nodes(row, 4, &mem, &ex, &out);
	CHECK(ns_count(&out) == 0);
}
