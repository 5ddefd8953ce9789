// SPDX-License-Identifier: GPL-2.0
/*
 * labtool memtiming-arg TOPOLOGY.yaml --qemu-version LINE --plugin SO --out FILE
 *                       [--memory-timing count|delay]
 *
 * Prints the value of QEMU's -plugin option for --memory-timing count
 * (the default) or delay (with the dilation and each node's latency)
 * (README, "Memory timing"): the plugin, its report file, the address rule
 * of this QEMU (LINE: the first line of `qemu-system-x86_64 --version`;
 * acct_rule_for_qemu: doubled to 8.1, physical from 8.2), each memory
 * node's RAM range from the topology, under rule physical the guest's RAM
 * ranges (gpa=, acct_ram_segments), and the simulated LLC.
 *
 * Exit: 0; 64 usage or a QEMU whose address rule is not known; 65/66 the
 * topology's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accounting.h"
#include "commands.h"

int cmd_memtiming_arg(int argc, char **argv)
{
	const char *path = NULL, *version = NULL, *plugin = NULL, *out = NULL, *mode_s = "count";
	enum acct_mode mode;
	struct sbuf sb = { 0 };
	enum mt_rule rule;
	char err[256];
	struct topo *t;
	int rc;

	for (int i = 1; i < argc; i++) {
		const char **opt = !strcmp(argv[i], "--qemu-version") ? &version :
				   !strcmp(argv[i], "--plugin") ? &plugin :
				   !strcmp(argv[i], "--out") ? &out :
				   !strcmp(argv[i], "--memory-timing") ? &mode_s : NULL;

		if (opt && i + 1 < argc && argv[i + 1][0])
			*opt = argv[++i];
		else if (argv[i][0] != '-' && !path)
			path = argv[i];
		else
			goto usage;
	}
	if (!path || !version || !plugin || !out)
		goto usage;
	if (acct_mode_parse(mode_s, &mode, err, sizeof(err)) || mode == ACCT_OFF) {
		fprintf(stderr, "labtool memtiming-arg: %s\n",
			mode == ACCT_OFF ? "--memory-timing off loads no plugin" : err);
		return EXIT_USAGE;
	}
	if (acct_rule_for_qemu(version, &rule, err, sizeof(err))) {
		fprintf(stderr, "labtool memtiming-arg: --qemu-version: %s\n", err);
		return EXIT_USAGE;
	}
	t = xcalloc(1, sizeof(*t));
	rc = topo_load(path, t, stderr);
	if (!rc && acct_plugin_arg(t, plugin, rule, out, mode, &sb, err, sizeof(err))) {
		fprintf(stderr, "labtool memtiming-arg: %s: %s\n", path, err);
		rc = EXIT_USAGE;
	} else if (!rc) {
		printf("%s\n", sb.s);
	}
	sb_free(&sb);
	free(t);
	return rc;

usage:
	fprintf(stderr, "usage: labtool memtiming-arg TOPOLOGY.yaml --qemu-version LINE --plugin SO --out FILE [--memory-timing count|delay]\n");
	return EXIT_USAGE;
}
