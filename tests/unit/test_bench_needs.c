// SPDX-License-Identifier: GPL-2.0
/*
 * Issue 14 item 4: a benchmark's declared needs (bench/needs.c) judged on
 * the machine's facts.
 */
#include "harness.h"
#include "needs.h"

#include <stdlib.h>

static const struct machine_facts roomy = {
	.mem_nodes = 3, .mem_nodes_outside_set = 2, .hugetlb = true, .cpuless_node = true,
	.hmat = true, .panic_on_oom = 0,
};

TEST(needs_judged_on_the_facts)
{
	struct needs all = { .min_mem_nodes = 3, .outside_set = true, .hugetlb = true,
			     .cpuless_node = true, .hmat = true, .oom_kill = true };
	struct machine_facts m = roomy;
	char why[200];

	CHECK(needs_unmet(&all, &m, why, sizeof(why)) == NULL);
	m.mem_nodes = 2;
	CHECK_STR(needs_unmet(&all, &m, why, sizeof(why)), "needs 3 memory nodes, guest has 2");
	m = roomy;
	m.mem_nodes_outside_set = 0;
	CHECK_STR(needs_unmet(&all, &m, why, sizeof(why)),
		  "needs a memory node outside the preferred set");
	m = roomy;
	m.hugetlb = false;
	CHECK_STR(needs_unmet(&all, &m, why, sizeof(why)), "needs a 2 MiB hugetlb pool, kernel has none");
	m = roomy;
	m.cpuless_node = false;
	CHECK(strstr(needs_unmet(&all, &m, why, sizeof(why)), "CPU-less") != NULL);
	m = roomy;
	m.hmat = false;
	CHECK(strstr(needs_unmet(&all, &m, why, sizeof(why)), "HMAT") != NULL);
	m = roomy;
	m.panic_on_oom = 1;
	CHECK_STR(needs_unmet(&all, &m, why, sizeof(why)),
		  "vm.panic_on_oom is set: an OOM would panic the guest");
	m.panic_on_oom = -1;
	CHECK(strstr(needs_unmet(&all, &m, why, sizeof(why)), "unreadable") != NULL);
	/* what is not declared is not asked */
	m = (struct machine_facts){ .mem_nodes = 1, .panic_on_oom = 1 };
	CHECK(needs_unmet(&(struct needs){ .min_mem_nodes = 1 }, &m, why, sizeof(why)) == NULL);
}

TEST(needs_sysctl_path)
{
	char p[64];

	CHECK(sysctl_path("vm.overcommit_memory", p, sizeof(p)) == 0);
	CHECK_STR(p, "/proc/sys/vm/overcommit_memory");
	CHECK(sysctl_path("overcommit", p, sizeof(p)) < 0);
	CHECK(sysctl_path("vm/../x.y", p, sizeof(p)) < 0);
	CHECK(sysctl_path("vm..x", p, sizeof(p)) < 0);
	CHECK(sysctl_path("vm.a_very_long_name_indeed_more_than_the_buffer", p, 24) < 0);
}
