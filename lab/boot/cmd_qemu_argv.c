// SPDX-License-Identifier: GPL-2.0
/*
 * labtool qemu-argv TOPOLOGY.yaml --kernel F --initrd F --console F --channel F
 *                   --accel tcg|kvm --clock icount|wall [--boot-id ID] [--no-prealloc]
 *                   [--memory-timing-out F --plugin SO --qemu-version LINE
 *                    [--memory-timing count|delay]] [--swap-disk F --fs-disk F]
 *
 * Prints a boot's whole QEMU command line (lab/boot/qemu.c), each word ended by
 * a NUL, for run-lab.sh (`mapfile -d ''`).  --no-prealloc leaves guest
 * memory to be allocated as the guest touches it (make bench-lab shows what
 * preallocation buys).  With --memory-timing-out, the memory-timing plugin
 * (README, "Memory timing") writes its report there; its node ranges come
 * from the topology, its address rule from --qemu-version (the first line
 * of `qemu-system-x86_64 --version`); --memory-timing delay (default count)
 * adds delay injection, which needs --clock wall.  qboot is the firmware when QEMU's
 * package has it (it loads QEMU's ACPI tables and the kernel a few hundred
 * ms sooner under TCG).  --swap-disk and --fs-disk, together: the guest's
 * reclaim disks (lab/boot/disks.h), as `labtool prepare` gives every boot.
 * --boot-id (default 1): under icount, the boot whose seed the guest's
 * random numbers get (lab/boot/qemu.c).
 *
 * Exit: 0; 64 usage or conflicting options; 65/66 the topology's; 70 out of
 * memory; 74 cannot write.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accounting.h"
#include "commands.h"
#include "qemu.h"

static const char qboot[] = "/usr/share/qemu/qboot.rom";

static int usage(void)
{
	fprintf(stderr, "usage: labtool qemu-argv TOPOLOGY.yaml --kernel F --initrd F --console F "
			"--channel F --accel tcg|kvm --clock icount|wall [--boot-id ID] [--no-prealloc]\n"
			"       [--memory-timing-out F --plugin SO --qemu-version LINE [--memory-timing count|delay]] [--swap-disk F --fs-disk F]\n");
	return EXIT_USAGE;
}

int qemu_boot_argv(const char *path, struct qemu_opts *o, const char *mt_out, const char *so,
		   const char *version, enum acct_mode mode, struct topo_args *a)
{
	struct sbuf plugin = { 0 };
	struct topo *t = xcalloc(1, sizeof(*t));
	char err[256];
	int rc;

	o->bios = access(qboot, R_OK) == 0 ? qboot : NULL;
	rc = topo_load(path, t, stderr);
	if (!rc && mt_out) {
		enum mt_rule rule;

		if (acct_rule_for_qemu(version, &rule, err, sizeof(err))) {
			fprintf(stderr, "labtool qemu-argv: --qemu-version: %s\n", err);
			rc = EXIT_USAGE;
		} else if (acct_plugin_arg(t, so, rule, mt_out, mode, &plugin, err, sizeof(err))) {
			fprintf(stderr, "labtool qemu-argv: %s: %s\n", path, err);
			rc = EXIT_USAGE;
		} else {
			o->plugin = plugin.s;
			o->delay = mode == ACCT_DELAY;
		}
	}
	if (!rc) {
		int r = qemu_argv(t, o, a, err, sizeof(err));

		if (r == -1)
			fprintf(stderr, "labtool qemu-argv: %s\n", err);
		else if (r < 0)
			fprintf(stderr, "labtool qemu-argv: out of memory\n");
		rc = r == -1 ? EXIT_USAGE : r < 0 ? EXIT_SOFTWARE : 0;
	}
	o->plugin = NULL;
	sb_free(&plugin);
	free(t);
	return rc;
}

int cmd_qemu_argv(int argc, char **argv)
{
	struct qemu_opts o = { 0 };
	const char *path = NULL, *clock = NULL, *mt_out = NULL, *so = NULL, *version = NULL;
	const char *mode_s = NULL;
	enum acct_mode mode = ACCT_COUNT;
	struct topo_args a = { 0 };
	char err[256];
	int rc;

	for (int i = 1; i < argc; i++) {
		const char **opt = !strcmp(argv[i], "--kernel") ? &o.kernel :
				   !strcmp(argv[i], "--initrd") ? &o.initrd :
				   !strcmp(argv[i], "--console") ? &o.console :
				   !strcmp(argv[i], "--channel") ? &o.channel :
				   !strcmp(argv[i], "--accel") ? &o.accel :
				   !strcmp(argv[i], "--clock") ? &clock :
				   !strcmp(argv[i], "--memory-timing-out") ? &mt_out :
				   !strcmp(argv[i], "--plugin") ? &so :
				   !strcmp(argv[i], "--qemu-version") ? &version :
				   !strcmp(argv[i], "--memory-timing") ? &mode_s :
				   !strcmp(argv[i], "--swap-disk") ? &o.swap_disk :
				   !strcmp(argv[i], "--fs-disk") ? &o.fs_disk :
				   !strcmp(argv[i], "--boot-id") ? &o.boot_id : NULL;

		if (opt && i + 1 < argc && argv[i + 1][0])
			*opt = argv[++i];
		else if (!strcmp(argv[i], "--no-prealloc"))
			o.no_prealloc = true;
		else if (argv[i][0] != '-' && !path)
			path = argv[i];
		else
			return usage();
	}
	if (!path || !clock || (strcmp(clock, "icount") && strcmp(clock, "wall")) ||
	    (mt_out && (!so || !version)) || (!mt_out && (so || version || mode_s)))
		return usage();
	if (mode_s && (acct_mode_parse(mode_s, &mode, err, sizeof(err)) || mode == ACCT_OFF)) {
		fprintf(stderr, "labtool qemu-argv: %s\n",
			mode == ACCT_OFF ? "--memory-timing off: leave out --memory-timing-out" : err);
		return EXIT_USAGE;
	}
	o.icount = !strcmp(clock, "icount");
	rc = qemu_boot_argv(path, &o, mt_out, so, version, mode, &a);
	for (size_t i = 0; !rc && i < a.n; i++)
		fwrite(a.v[i], 1, strlen(a.v[i]) + 1, stdout);
	if (!rc && (fflush(stdout) || ferror(stdout))) {
		fprintf(stderr, "labtool qemu-argv: cannot write the command line\n");
		rc = EXIT_IOERR;
	}
	topo_args_free(&a);
	return rc;
}
