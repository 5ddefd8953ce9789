// SPDX-License-Identifier: GPL-2.0
/*
 * showpolicy: print this task's memory policy as get_mempolicy(2) returns
 * it, "mode=<n> flags=<f> nodes=<ids>" (nodes "-" when empty), so a test
 * can check what a launcher such as mpolrun left behind across exec.
 * Built static by tests/test_workloads.sh; raw syscall, no libnuma.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAXNODE 1024
/* MPOL_F_STATIC_NODES, MPOL_F_RELATIVE_NODES, MPOL_F_NUMA_BALANCING and the lab
 * series' MPOL_F_FALLBACK_NEAREST (1 << 12), MPOL_F_FALLBACK_TIER (1 << 11) */
#define MODE_FLAGS (31 << 11)

int main(void)
{
	unsigned long mask[MAXNODE / (8 * sizeof(unsigned long))] = { 0 };
	int mode = -1, printed = 0;

	if (syscall(SYS_get_mempolicy, &mode, mask, MAXNODE, NULL, 0UL)) {
		fprintf(stderr, "showpolicy: get_mempolicy: %s\n", strerror(errno));
		return 1;
	}
	printf("mode=%d flags=%d nodes=", mode & ~MODE_FLAGS, mode & MODE_FLAGS);
	for (int n = 0; n < MAXNODE; n++)
		if (mask[n / (8 * sizeof(unsigned long))] >> (n % (8 * sizeof(unsigned long))) & 1)
			printf("%s%d", printed++ ? "+" : "", n);
	printf("%s\n", printed ? "" : "-");
	return 0;
}
