/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What 6.12 does to a task's MPOL_BIND nodes when its cpuset's mems change
 * (mpolmodel.c): Documentation/admin-guide/mm/numa_memory_policy.rst,
 * "MEMORY POLICIES AND CPUSETS", as mm/mempolicy.c implements it
 * (mpol_set_nodemask(), mpol_rebind_nodemask(), mpol_relative_nodemask()).
 * Pure, in `make unit`; features' cpuset case checks the guest against it.
 */
#ifndef TIERBENCH_MPOLMODEL_H
#define TIERBENCH_MPOLMODEL_H

#include "fmt.h"

/* The mode flags of set_mempolicy(2) a case compares: none, static, relative. */
enum mm_flag { MM_NOFLAG, MM_STATIC, MM_RELATIVE, MM_NFLAGS };
extern const char *const mm_flag_names[MM_NFLAGS];	/* "noflag", "static", "relative" */

/*
 * bitmap_remap(): each node of @m that is the i-th node of @old becomes the
 * (i mod |new|)-th node of @new; a node not in @old stays itself; an empty
 * @old or @new leaves @m as it is.
 */
void mm_remap(const struct nodeset *m, const struct nodeset *old, const struct nodeset *new,
	      struct nodeset *out);
/*
 * mpol_relative_nodemask(): @user's node ids as positions in @mems, folded
 * modulo |@mems| (nodes_fold), then onto @mems (nodes_onto).
 */
void mm_relative(const struct nodeset *user, const struct nodeset *mems, struct nodeset *out);
/*
 * The policy's nodes when set_mempolicy(@user | @f) runs with the task's
 * mems @mems (mpol_set_nodemask()); empty means EINVAL.
 */
void mm_at_set(enum mm_flag f, const struct nodeset *user, const struct nodeset *mems,
	       struct nodeset *out);
/*
 * The policy's nodes after the mems change from @old to @new
 * (mpol_rebind_nodemask()), @cur the nodes before: static keeps @user's
 * nodes that are in @new, relative maps @user onto @new, no flag remaps
 * @cur from @old to @new; an empty result is @new.
 */
void mm_rebind(enum mm_flag f, const struct nodeset *user, const struct nodeset *cur,
	       const struct nodeset *old, const struct nodeset *new, struct nodeset *out);

#endif
