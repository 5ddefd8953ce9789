// SPDX-License-Identifier: GPL-2.0
/*
 * labtool print-qemu --kernel-dir DIR --initramfs F --plugin SO --qemu-version LINE
 *                    -- RUN-LAB-OPTIONS... [--] TOPOLOGY...
 *
 * run-lab's --print-qemu: for each topology, the QEMU command a boot of
 * these options would run (lab/boot/qemu.c, as `labtool qemu-argv` builds
 * it) on one line, each word as bash's printf %q writes it and followed by
 * a space: TCG, DIR/bzImage, the base initramfs F, the serial files
 * console.log and channel.log, with --memory-timing count or delay the
 * plugin SO writing memtiming.txt (its address rule, hence its arguments,
 * from LINE: run-lab gives the first line of the `qemu-system-x86_64
 * --version` on its PATH, the QEMU a boot would run), the reclaim disks
 * swap.img and fs.img (`labtool disks .` makes them).  Under --clock icount
 * the line is the topology's first boot's, whose id (topology index x
 * --boots + 1) seeds the guest's random numbers (lab/boot/qemu.c).
 *
 * Exit: 0; 2 a topology without a command (run-lab's words; the lines of the
 * topologies before it are printed); 64 usage; 74 cannot write.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accounting.h"
#include "commands.h"
#include "qemu.h"
#include "runopts.h"

int cmd_print_qemu(int argc, char **argv)
{
	struct run_opts o = { 0 };
	const char *kdir = NULL, *base = NULL, *so = NULL, *version = NULL;
	enum acct_mode mode = ACCT_COUNT;
	char err[1024], *kernel = NULL;
	int i = 1, rc;

	for (; i < argc && strcmp(argv[i], "--"); i++) {
		const char **opt = !strcmp(argv[i], "--kernel-dir") ? &kdir :
				   !strcmp(argv[i], "--initramfs") ? &base :
				   !strcmp(argv[i], "--plugin") ? &so :
				   !strcmp(argv[i], "--qemu-version") ? &version : NULL;

		if (!opt || i + 1 == argc)
			break;
		*opt = argv[++i];
	}
	if (i == argc || strcmp(argv[i], "--") || !kdir || !base || !so || !version) {
		fprintf(stderr, "usage: labtool print-qemu --kernel-dir DIR --initramfs F --plugin SO "
				"--qemu-version LINE -- RUN-LAB-OPTIONS... [--] TOPOLOGY...\n");
		return EXIT_USAGE;
	}
	rc = runopts_parse(argc - i - 1, argv + i + 1, &o, err, sizeof(err));
	if (!rc && strcmp(o.memory_timing, "off") &&
	    acct_mode_parse(o.memory_timing, &mode, err, sizeof(err)))
		rc = EXIT_USAGE;
	if (rc) {
		fprintf(stderr, "labtool print-qemu: %s\n", err);
		runopts_free(&o);
		return rc;
	}
	kernel = xasprintf("%s/bzImage", kdir);
	for (size_t t = 0; !rc && t < o.ntopo; t++) {
		struct qemu_opts q = { .kernel = kernel, .initrd = base, .console = "console.log",
				       .channel = "channel.log", .accel = "tcg",
				       .icount = !strcmp(o.clock, "icount"), .no_prealloc = o.no_prealloc,
				       .swap_disk = "swap.img", .fs_disk = "fs.img" };
		const char *mt_out = strcmp(o.memory_timing, "off") ? "memtiming.txt" : NULL;
		char id[32];
		struct topo_args a = { 0 };
		struct sbuf line = { 0 };

		snprintf(id, sizeof(id), "%ld", (long)t * o.boots + 1);
		q.boot_id = id;
		if (qemu_boot_argv(o.topo[t], &q, mt_out, mt_out ? so : NULL, mt_out ? version : NULL,
				   mode, &a)) {
			fprintf(stderr, "run-lab: %s: no QEMU command line (above)\n", o.topo[t]);
			rc = 2;
		}
		for (size_t k = 0; !rc && k < a.n; k++) {
			sb_bash_q(&line, a.v[k]);
			sb_putc(&line, ' ');
		}
		if (!rc) {
			sb_putc(&line, '\n');
			fwrite(line.s, 1, line.len, stdout);
		}
		if (fflush(stdout) || ferror(stdout)) {
			fprintf(stderr, "labtool print-qemu: cannot write\n");
			rc = EXIT_IOERR;
		}
		sb_free(&line);
		topo_args_free(&a);
	}
	free(kernel);
	runopts_free(&o);
	return rc;
}
