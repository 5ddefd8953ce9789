// SPDX-License-Identifier: GPL-2.0
/*
 * Where the kernel's zonelists send an overflow first, from the SLIT alone:
 * the memory nodes outside @exclude nearest to @from.  Distance ties are
 * kept together (build_zonelists() breaks them by node load and CPUs, which
 * a check cannot see), so a caller accepts any node of the set.
 */
#include "nearest.h"

void nearest_nodes(const int *dist_from, int nnodes, const struct nodeset *mem,
		   const struct nodeset *exclude, struct nodeset *out)
{
	int best = -1;

	ns_clear(out);
	for (int m = 0; m < nnodes; m++) {
		if (!ns_has(mem, m) || ns_has(exclude, m) || dist_from[m] < 0)
			continue;
		if (best < 0 || dist_from[m] < best) {
			best = dist_from[m];
			ns_clear(out);
		}
		if (dist_from[m] == best)
			ns_set(out, m);
	}
}
