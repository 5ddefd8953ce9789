// SPDX-License-Identifier: GPL-2.0
/*
 * labtool prepare RUN-DIR BOOT-ID --kernel F --initrd F --accel tcg|kvm
 *                 [--base F] [--plugin SO --qemu-version LINE]
 *
 * A boot's inputs, from the run's own options (RUN-DIR/run.args, lab/rundir/runopts.c):
 * its topology (boot ids are 1..topologies x boots, in order), its guest
 * plan written to raw/plan-BOOT.txt (`labtool plan`'s, or with --exec one
 * step running the command), and its whole QEMU command (lab/boot/qemu.c, the
 * serial files raw/console-BOOT.log and raw/channel-BOOT.log, with
 * --memory-timing count the plugin writing raw/memtiming-BOOT.txt, removed
 * here) written to raw/qemu-BOOT.cmd as one shell line and printed on
 * stdout, each word ended by a NUL, for run-lab.sh (`mapfile -d ''`).
 * --initrd is where the boot's initramfs goes: with --base, written here
 * first (lab/boot/initrd.c), the lab's base image --base followed by the
 * plan as /lab/plan and the run's --add files; with --base also the
 * guest's reclaim disks beside it (lab/boot/disks.c, swap.img and fs.img),
 * which the QEMU command names in any case.  Every file is written
 * atomically; the run's files are not written when anything fails.
 *
 * Exit: 0; 2 an --add file that cannot be staged (run-lab's words); 64
 * usage (a boot id the run does not have); 65/66 the topology's or
 * run.args's; 70 out of memory; 74 cannot write.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accounting.h"
#include "commands.h"
#include "disks.h"
#include "initrd.h"
#include "qemu.h"
#include "runopts.h"
#include "runfiles.h"

static int usage(void)
{
	fprintf(stderr, "usage: labtool prepare RUN-DIR BOOT-ID --kernel F --initrd F --accel tcg|kvm "
			"[--base F] [--plugin SO --qemu-version LINE]\n");
	return EXIT_USAGE;
}

static int write_raw(const char *run, enum run_file f, const char *id, const struct sbuf *b)
{
	char *path = run_file_path(run, f, id);
	int rc = 0;

	if (write_file_atomic(path, b->s ? b->s : "", b->len) < 0) {
		fprintf(stderr, "labtool prepare: %s: %s\n", path, strerror(errno));
		rc = EXIT_IOERR;
	}
	free(path);
	return rc;
}

int cmd_prepare(int argc, char **argv)
{
	struct qemu_opts q = { 0 };
	struct run_opts o = { 0 };
	struct topo_args a = { 0 };
	struct sbuf plan = { 0 }, line = { 0 };
	const char *run = NULL, *id = NULL, *so = NULL, *version = NULL, *base = NULL, *topo;
	char **saved = NULL, err[1024], *console = NULL, *channel = NULL, *mt_out = NULL;
	char *swap = NULL, *fs = NULL;
	enum acct_mode mode = ACCT_COUNT;
	int nsaved = 0, rc;

	for (int i = 1; i < argc; i++) {
		const char **opt = !strcmp(argv[i], "--kernel") ? &q.kernel :
				   !strcmp(argv[i], "--initrd") ? &q.initrd :
				   !strcmp(argv[i], "--accel") ? &q.accel :
				   !strcmp(argv[i], "--base") ? &base :
				   !strcmp(argv[i], "--plugin") ? &so :
				   !strcmp(argv[i], "--qemu-version") ? &version : NULL;

		if (opt && i + 1 < argc && argv[i + 1][0])
			*opt = argv[++i];
		else if (argv[i][0] == '-')
			return usage();
		else if (!run)
			run = argv[i];
		else if (!id)
			id = argv[i];
		else
			return usage();
	}
	if (!run || !id || !q.kernel || !q.initrd || !q.accel || !so != !version)
		return usage();
	rc = runopts_load(run, &o, &saved, &nsaved, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "labtool prepare: %s\n", err);
		goto out;
	}
	topo = runopts_boot_topology(&o, id, NULL);
	if (!topo) {
		fprintf(stderr, "labtool prepare: boot '%s': %s has boots 1 to %ld\n", id, run,
			(long)o.ntopo * o.boots);
		rc = EXIT_USAGE;
		goto out;
	}
	if (strcmp(o.memory_timing, "off") && !so) {
		fprintf(stderr, "labtool prepare: --memory-timing %s: --plugin and --qemu-version are needed\n",
			o.memory_timing);
		rc = EXIT_USAGE;
		goto out;
	}

	if (*o.exec_cmd) {
		struct topo *t = xcalloc(1, sizeof(*t));

		rc = topo_load(topo, t, stderr);
		if (!rc)
			plan_exec(id, !strcmp(o.clock, "icount"),
				  o.step_timeout ? o.step_timeout : o.boot_timeout, o.exec_cmd, t,
				  &plan);
		free(t);
		if (rc)
			goto out;
	} else {
		char st[32];
		char *pv[] = { "plan", (char *)topo, "--boot-id", (char *)id, "--profile", (char *)o.profile,
			       "--clock", (char *)o.clock, "--benches", (char *)o.benches, "--workloads",
			       (char *)o.workloads, "--memory-timing", (char *)o.memory_timing,
			       "--tiering", (char *)o.tiering, "--step-timeout", st, NULL };

		snprintf(st, sizeof(st), "%ld", o.step_timeout);
		rc = plan_text(o.step_timeout ? 18 : 16, pv, &plan);
		if (rc)
			goto out;
	}

	q.console = console = run_file_path(run, RUN_FILE_CONSOLE, id);
	q.channel = channel = run_file_path(run, RUN_FILE_CHANNEL, id);
	q.icount = !strcmp(o.clock, "icount");
	q.boot_id = id;
	q.no_prealloc = o.no_prealloc;
	if (strcmp(o.memory_timing, "off"))
		mt_out = run_file_path(run, RUN_FILE_MEMTIMING, id);
	if (mt_out && acct_mode_parse(o.memory_timing, &mode, err, sizeof(err))) {
		fprintf(stderr, "labtool prepare: %s\n", err);
		rc = EXIT_USAGE;
		goto out;
	}
	/*
	 * The reclaim disks, beside the initrd in the boot's staging
	 * directory: made with it (--base), named in the command always.
	 */
	q.swap_disk = swap = disk_path(q.initrd, "swap.img");
	q.fs_disk = fs = disk_path(q.initrd, "fs.img");
	if (base && disks_make(swap, fs, "mke2fs", err, sizeof(err))) {
		fprintf(stderr, "labtool prepare: reclaim disks: %s\n", err);
		rc = EXIT_IOERR;
		goto out;
	}
	rc = qemu_boot_argv(topo, &q, mt_out, mt_out ? so : NULL, mt_out ? version : NULL, mode, &a);
	if (rc)
		goto out;
	for (size_t i = 0; i < a.n; i++) {
		sb_shell_arg(&line, a.v[i]);
		sb_putc(&line, ' ');
	}
	if (base && initrd_write(q.initrd, base, plan.s ? plan.s : "", plan.len, o.adds, o.nadds, err,
				 sizeof(err))) {
		int add = !strncmp(err, "--add:", 6);

		fprintf(stderr, "%s: %s\n", add ? "run-lab" : "labtool prepare", err);
		rc = add ? 2 : EXIT_IOERR;
		goto out;
	}
	rc = write_raw(run, RUN_FILE_PLAN, id, &plan);
	if (!rc)
		rc = write_raw(run, RUN_FILE_QEMU_CMD, id, &line);
	/* the plugin's report is this boot's, not an earlier attempt's */
	if (!rc && mt_out && unlink(mt_out) < 0 && errno != ENOENT) {
		fprintf(stderr, "labtool prepare: %s: %s\n", mt_out, strerror(errno));
		rc = EXIT_IOERR;
	}
	for (size_t i = 0; !rc && i < a.n; i++)
		fwrite(a.v[i], 1, strlen(a.v[i]) + 1, stdout);
	if (!rc && (fflush(stdout) || ferror(stdout))) {
		fprintf(stderr, "labtool prepare: cannot write the command line\n");
		rc = EXIT_IOERR;
	}
out:
	topo_args_free(&a);
	sb_free(&plan);
	sb_free(&line);
	free(console);
	free(channel);
	free(mt_out);
	free(swap);
	free(fs);
	runopts_free_argv(saved, nsaved);
	runopts_free(&o);
	return rc;
}
