// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include "commands.h"

int cmd_collect(int argc, char **argv)
{
	(void)argc;
	fprintf(stderr, "labtool %s: not implemented yet\n", argv[0]);
	return EXIT_SOFTWARE;
}
