// SPDX-License-Identifier: GPL-2.0
/* Placeholder until the topology parser lands. */
#include <stdio.h>
#include "commands.h"

#define STUB(name)                                                       \
	int cmd_##name(int argc, char **argv)                             \
	{                                                                 \
		(void)argc;                                               \
		fprintf(stderr, "labtool %s: not implemented yet\n", argv[0]); \
		return EXIT_SOFTWARE;                                     \
	}
STUB(validate)
STUB(qemu_args)
STUB(nodes)
STUB(describe)
STUB(expect)
STUB(check_guest)
