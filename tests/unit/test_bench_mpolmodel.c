// SPDX-License-Identifier: GPL-2.0
/*
 * bench/mpolmodel.c: a task's MPOL_BIND nodes across a cpuset change, as
 * Documentation/admin-guide/mm/numa_memory_policy.rst describes them and
 * mm/mempolicy.c computes them; the case features runs in the guest
 * (mems {1,2} -> {0,1}, user nodes {1}) and the documentation's examples.
 */
#include "harness.h"
#include "mpolmodel.h"

static struct nodeset set_of(const char *ids)
{
	struct nodeset s;
	char err[96];

	if (ns_parse(ids, &s, err, sizeof(err)))
		ns_clear(&s);
	return s;
}

static bool is(const struct nodeset *s, const char *ids)
{
	struct nodeset w = set_of(ids);

	return ns_equal(s, &w);
}

TEST(mpolmodel_the_guest_case)
{
	struct nodeset user = set_of("1"), m1 = set_of("1,2"), m2 = set_of("0,1"), a, b;

	mm_at_set(MM_NOFLAG, &user, &m1, &a);
	mm_rebind(MM_NOFLAG, &user, &a, &m1, &m2, &b);
	CHECK(is(&a, "1") && is(&b, "0"));	/* remapped by position */
	mm_at_set(MM_STATIC, &user, &m1, &a);
	mm_rebind(MM_STATIC, &user, &a, &m1, &m2, &b);
	CHECK(is(&a, "1") && is(&b, "1"));	/* kept */
	mm_at_set(MM_RELATIVE, &user, &m1, &a);
	mm_rebind(MM_RELATIVE, &user, &a, &m1, &m2, &b);
	CHECK(is(&a, "2") && is(&b, "1"));	/* the 2nd node of each set */
}

TEST(mpolmodel_documented_examples)
{
	/* "a task's cpuset is 1,3-4 ... nodemask 1,3,5 with MPOL_F_STATIC_NODES ... 1,3" (static) */
	struct nodeset user = set_of("1,3,5"), m = set_of("1,3-4"), out;

	mm_at_set(MM_STATIC, &user, &m, &out);
	CHECK(is(&out, "1,3"));
	/* relative: "nodemask 1,3,5 ... cpuset 1,3-4 ... nodes 3-4... folded: 1,3,5 mod 3 = 1,0,2 -> 1,3,4" */
	mm_relative(&user, &m, &out);
	CHECK(is(&out, "1,3-4"));
	/* "a nodemask of 0,2 relative to a cpuset of 3-5 is 3,5" */
	user = set_of("0,2");
	m = set_of("3-5");
	mm_relative(&user, &m, &out);
	CHECK(is(&out, "3,5"));
}

TEST(mpolmodel_empty_falls_back_and_remap_edges)
{
	struct nodeset user = set_of("2"), m1 = set_of("1-2"), m2 = set_of("0-1"), cur, out;

	mm_at_set(MM_STATIC, &user, &m1, &cur);
	mm_rebind(MM_STATIC, &user, &cur, &m1, &m2, &out);
	CHECK(is(&out, "0-1"));			/* nothing of {2} left: the new mems */
	/* remap: a node outside the old set stays; folding by the new weight */
	cur = set_of("0,5");
	m1 = set_of("0-2");
	m2 = set_of("3");
	mm_remap(&cur, &m1, &m2, &out);
	CHECK(is(&out, "3,5"));
	m2 = set_of("");
	mm_remap(&cur, &m1, &m2, &out);
	CHECK(is(&out, "0,5"));
}
