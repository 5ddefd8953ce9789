// SPDX-License-Identifier: GPL-2.0
/*
 * A model of the cpuset rebinding of a task's memory policy (mpolmodel.h),
 * written from mm/mempolicy.c of 6.12 and lib/bitmap.c's bitmap_remap(),
 * bitmap_fold() and bitmap_onto().
 */
#include "mpolmodel.h"

const char *const mm_flag_names[MM_NFLAGS] = { "noflag", "static", "relative" };

/* The @i-th node of @s (0-based), -1 if it has fewer. */
static int nth(const struct nodeset *s, int i)
{
	ns_for_each(n, s)
		if (i-- == 0)
			return n;
	return -1;
}

/* The position of @node in @s, -1 if absent. */
static int pos(const struct nodeset *s, int node)
{
	int i = 0;

	ns_for_each(n, s) {
		if (n == node)
			return i;
		i++;
	}
	return -1;
}

void mm_remap(const struct nodeset *m, const struct nodeset *old, const struct nodeset *new,
	      struct nodeset *out)
{
	int w = ns_count(new);

	ns_clear(out);
	ns_for_each(n, m) {
		int i = pos(old, n);

		ns_set(out, i < 0 || w == 0 ? n : nth(new, i % w));
	}
}

void mm_relative(const struct nodeset *user, const struct nodeset *mems, struct nodeset *out)
{
	int w = ns_count(mems);

	ns_clear(out);
	if (w == 0)
		return;
	ns_for_each(n, user)
		ns_set(out, nth(mems, n % w));
}

void mm_at_set(enum mm_flag f, const struct nodeset *user, const struct nodeset *mems,
	       struct nodeset *out)
{
	if (f == MM_RELATIVE) {
		mm_relative(user, mems, out);
		return;
	}
	ns_clear(out);
	ns_for_each(n, user)
		if (ns_has(mems, n))
			ns_set(out, n);
}

void mm_rebind(enum mm_flag f, const struct nodeset *user, const struct nodeset *cur,
	       const struct nodeset *old, const struct nodeset *new, struct nodeset *out)
{
	if (f == MM_STATIC)
		mm_at_set(MM_STATIC, user, new, out);
	else if (f == MM_RELATIVE)
		mm_relative(user, new, out);
	else
		mm_remap(cur, old, new, out);
	if (ns_count(out) == 0)
		*out = *new;
}
