// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the topology parser: any bytes must give 0 or
 * EXIT_INVALID, never a crash, a leak or undefined behaviour; a topology
 * that validates must also produce QEMU arguments and derived views.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "qemu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct topo t;
	static FILE *devnull;
	struct topo_args a;
	int rc;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	rc = topo_load_buffer("fuzz.yaml", (const char *)data, size, 0, &t, devnull);
	if (rc != 0 && rc != EXIT_INVALID)
		abort();
	if (rc == 0) {
		if (topo_qemu_args(&t, &a))
			abort();
		topo_args_free(&a);
		for (int i = 0; i < t.nnodes; i++) {
			(void)topo_expected_tier(&t, i);
			(void)topo_node_perf(&t, i);
		}
	}
	return 0;
}
