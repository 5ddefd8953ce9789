// SPDX-License-Identifier: GPL-2.0
/* labtool: the lab's host-side logic behind run-lab.sh, one subcommand each. */
#include <stdio.h>
#include <string.h>

#include "commands.h"

struct command {
	const char *name, *args, *help;
	int (*fn)(int argc, char **argv);
};

static const struct command commands[] = {
#define X(name, args, help) { #name, args, help, cmd_##name },
	LABTOOL_COMMANDS(X)
#undef X
};

static void usage(FILE *f)
{
	fprintf(f, "usage: labtool COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		char name[32];

		snprintf(name, sizeof(name), "%s", commands[i].name);
		for (char *p = name; *p; p++)
			if (*p == '_')
				*p = '-';
		fprintf(f, "  %-12s %-28s %s\n", name, commands[i].args,
			commands[i].help);
	}
}

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		const char *a = argv[1], *b = commands[i].name;

		/* accept both check-guest and check_guest */
		while (*a && (*a == *b || (*a == '-' && *b == '_'))) {
			a++;
			b++;
		}
		if (!*a && !*b)
			return commands[i].fn(argc - 1, argv + 1);
	}
	fprintf(stderr, "labtool: unknown command '%s' (see labtool --help)\n",
		argv[1]);
	return EXIT_USAGE;
}
