// SPDX-License-Identifier: GPL-2.0
/*
 * Issue 14 item 4: a benchmark's declared needs (bench/needs.c) judged on
 * the machine's facts, printed by tierbench --list=machine and read back
 * by the host (lab/boot/benchlist.c), and judged by the plan on a topology with
 * the same code (cmd_plan.c).
 */
#include "harness.h"
#include "benchlist.h"
#include "commands.h"
#include "needs.h"
#include "topology.h"
#include "util.h"

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

/* A benchmark changes only the sysctls it declares (sysctl_save_write refuses others). */
TEST(needs_declares_its_sysctls)
{
	const struct needs n = { .sysctls = { "vm.overcommit_memory", "vm.percpu_pagelist_high_fraction" } };
	const struct needs none = { 0 };

	CHECK(needs_declares(&n, "vm.overcommit_memory"));
	CHECK(needs_declares(&n, "vm.percpu_pagelist_high_fraction"));
	CHECK(!needs_declares(&n, "vm.overcommit_ratio"));
	CHECK(!needs_declares(&n, "vm.overcommit"));
	CHECK(!needs_declares(&none, "vm.overcommit_memory"));
}

/* A --list=machine line as tierbench's print_list_machine() writes it. */
static char *bench_line(const char *name, const char *options, const struct needs *n)
{
	char needs[256];

	needs_format(n, needs, sizeof(needs));
	return xasprintf("bench name=%s timeout=300 every_node=0 options=%s %s\n", name, options, needs);
}

TEST(needs_round_trip_through_the_list)
{
	struct needs a = { .min_mem_nodes = 2, .outside_set = true, .oom_kill = true,
			   .sysctls = { "vm.overcommit_memory", "vm.panic_on_oom" } };
	struct needs b = { .min_mem_nodes = 1, .hugetlb = true, .cpuless_node = true, .hmat = true };
	char *la = bench_line("oom", "--seed,--model-hmat", &a), *lb = bench_line("chase", "-", &b);
	char *text = xasprintf("tierbench-list 1\n%s%sword kind=policy name=bind\n"
			       "word kind=outcome name=oom_killed\n", la, lb);
	struct bench_list l;
	char err[256];
	const struct bench_decl *d;

	CHECK(benchlist_parse(text, "x.list", &l, err, sizeof(err)) == 0);
	CHECK(l.n == 2);
	d = benchlist_find(&l, "oom");
	CHECK(d && d->timeout_secs == 300 && !d->every_node);
	CHECK(d && d->needs.min_mem_nodes == 2 && d->needs.outside_set && d->needs.oom_kill &&
	      !d->needs.hugetlb && !d->needs.cpuless_node && !d->needs.hmat);
	CHECK(d && bench_takes(d, "--seed") && bench_takes(d, "--model-hmat") &&
	      !bench_takes(d, "--model"));
	d = benchlist_find(&l, "chase");
	CHECK(d && d->needs.min_mem_nodes == 1 && d->needs.hugetlb && d->needs.cpuless_node &&
	      d->needs.hmat && !d->needs.outside_set && !bench_takes(d, "--seed"));
	CHECK(benchlist_find(&l, "model") == NULL);
	benchlist_free(&l);
	free(text);
	free(la);
	free(lb);
}

/* The first error benchlist_parse() gives @text, or "" when it takes it. */
static char *parse_error(const char *text)
{
	char *copy = xstrdup(text), err[256] = "";
	struct bench_list l;

	if (benchlist_parse(copy, "x.list", &l, err, sizeof(err)) == 0)
		benchlist_free(&l);
	free(copy);
	return xstrdup(err);
}

#define LINE "bench name=oom timeout=9 every_node=0 options=- mem_nodes=1 outside_set=0 hugetlb=0 " \
	     "cpuless_node=0 hmat=0 oom_kill=0 sysctls=-\n"

TEST(needs_list_errors_name_their_line)
{
	static const struct {
		const char *text, *err;
	} cases[] = {
		{ "tierbench-list 1\n" LINE, "" },
		{ "tierbench-list 2\n" LINE, "x.list:1: not 'tierbench-list 1' (rebuild: make all)" },
		{ "tierbench-list 1\n", "x.list: no benchmarks" },
		{ "tierbench-list 1\n" LINE LINE, "x.list:3: a benchmark listed twice" },
		{ "tierbench-list 1\nbench name=oom timeout=9\n",
		  "x.list:2: a key missing (name, timeout, every_node, options and the needs)" },
		{ "tierbench-list 1\nbench name=oom timeout=0 every_node=0 options=- mem_nodes=1 outside_set=0 "
		  "hugetlb=0 cpuless_node=0 hmat=0 oom_kill=0 sysctls=-\n", "x.list:2: a value out of range" },
		{ "tierbench-list 1\n" LINE "word kind=policy name=preferred-few\n",
		  "x.list:3: tierbench prints policy 'preferred-few', which labtool does not know "
		  "(guest/vocab.h: are both built from one tree?)" },
		{ "tierbench-list 1\n" LINE "word kind=colour name=red\n",
		  "x.list:3: a kind of word labtool does not know: 'colour'" },
		{ "tierbench-list 1\n" LINE "ROW bench=a\n", "x.list:3: neither a bench nor a word line" },
		/* main.c's rows carry the benchmark's name: the host must read them as tierbench's */
		{ "tierbench-list 1\nbench name=sorting timeout=9 every_node=0 options=- mem_nodes=1 "
		  "outside_set=0 hugetlb=0 cpuless_node=0 hmat=0 oom_kill=0 sysctls=-\n",
		  "x.list:2: benchmark 'sorting' is not a bench word of guest/vocab.h (VOCAB_ROW_BENCHES): "
		  "labtool would read its rows as a workload's" },
		{ "tierbench-list 1\n" LINE "word kind=bench name=threads_3nodes\n",
		  "x.list:3: tierbench prints bench 'threads_3nodes', which labtool does not know "
		  "(guest/vocab.h: are both built from one tree?)" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = parse_error(cases[i].text);

		CHECK_STR(got, cases[i].err);
		free(got);
	}
}

/* plan_needs_unmet() of @n on topology @path for the target mask @target. */
static const char *plan_judge(const char *path, unsigned long long target, const struct needs *n,
			      char *why, size_t len)
{
	struct topo *t = xcalloc(1, sizeof(*t));
	FILE *quiet = fopen("/dev/null", "w");
	const char *r = "topology did not load";

	if (quiet && topo_load(path, t, quiet) == 0)
		r = plan_needs_unmet(t, target, n, why, len);
	if (quiet)
		fclose(quiet);
	free(t);
	return r;
}

TEST(needs_judged_by_the_plan_on_a_topology)
{
	struct needs three = { .min_mem_nodes = 3 }, outside = { .min_mem_nodes = 1, .outside_set = true };
	struct needs guest_only = { .hugetlb = true, .hmat = true, .cpuless_node = true, .oom_kill = true };
	char why[200];

	/* dram-pmem: nodes 0 (DRAM) and 1 (PMem) */
	CHECK_STR(plan_judge("topologies/dram-pmem.yaml", 2, &three, why, sizeof(why)),
		  "needs 3 memory nodes, guest has 2");
	CHECK(plan_judge("topologies/three-tier.yaml", 2, &three, why, sizeof(why)) == NULL);
	CHECK(plan_judge("topologies/dram-pmem.yaml", 2, &outside, why, sizeof(why)) == NULL);
	CHECK_STR(plan_judge("topologies/dram-pmem.yaml", 3, &outside, why, sizeof(why)),
		  "needs a memory node outside the preferred set");
	/* what the guest's kernel decides is left to the step */
	CHECK(plan_judge("topologies/dram-pmem.yaml", 2, &guest_only, why, sizeof(why)) == NULL);
}
