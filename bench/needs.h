/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a benchmark needs from the machine, declared in its registration
 * (struct bench, tb.h), as LTP's struct tst_test does: the harness judges
 * it before the run (a miss is a TAP SKIP with the reason) and prints it in
 * `tierbench --list=machine`, which the host's plan reads (lab/boot/benchlist.c).
 * Pure: also built for the host's unit tests.
 */
#ifndef TIERBENCH_NEEDS_H
#define TIERBENCH_NEEDS_H

#include <stdbool.h>
#include <stddef.h>

#define NEEDS_MAX_SYSCTLS 4

struct needs {
	int min_mem_nodes;
	bool outside_set;	/* a memory node outside the preferred set */
	bool hugetlb;		/* a 2 MiB hugetlb pool */
	bool cpuless_node;
	bool hmat;		/* HMAT figures in sysfs or --model-hmat */
	bool oom_kill;		/* provokes the OOM killer: vm.panic_on_oom must be 0 */
	/* sysctls (vm.overcommit_memory) the harness saves before and restores after */
	const char *sysctls[NEEDS_MAX_SYSCTLS];
};

/* The machine as the harness sees it, for needs_unmet(). */
struct machine_facts {
	int mem_nodes;
	int mem_nodes_outside_set;	/* memory nodes not in --preferred */
	bool hugetlb;
	bool cpuless_node;
	bool hmat;			/* sysfs, or --model-hmat given */
	long panic_on_oom;		/* -1 unknown */
};

/* Why @m does not meet @n (into @why), or NULL. */
const char *needs_unmet(const struct needs *n, const struct machine_facts *m, char *why,
			size_t len);
/*
 * "mem_nodes=N outside_set=0|1 hugetlb=0|1 cpuless_node=0|1 hmat=0|1
 * oom_kill=0|1 sysctls=a,b|-": the fields of `--list=machine`.
 */
int needs_format(const struct needs *n, char *buf, size_t len);
/* /proc/sys/vm/x of "vm.x" into @buf; -1 when the name is not a.b[.c]. */
int sysctl_path(const char *name, char *buf, size_t len);
/* Whether @n declares the sysctl @name ("vm.x"): the only ones a benchmark may change. */
bool needs_declares(const struct needs *n, const char *name);

#endif
