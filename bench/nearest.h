/* SPDX-License-Identifier: GPL-2.0 */
/* The first nodes of a zonelist, from SLIT distances (nearest.c). */
#ifndef TIERBENCH_NEAREST_H
#define TIERBENCH_NEAREST_H

#include "fmt.h"

/*
 * @out: the nodes of @mem outside @exclude at the smallest distance in
 * @dist_from[0 .. @nnodes - 1] (-1: unknown, skipped); empty if none.
 */
void nearest_nodes(const int *dist_from, int nnodes, const struct nodeset *mem,
		   const struct nodeset *exclude, struct nodeset *out);

#endif
