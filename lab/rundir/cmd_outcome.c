// SPDX-License-Identifier: GPL-2.0
/*
 * labtool outcome RUN-DIR BOOT-ID [--kernel-release R] [--say LABEL]
 *
 * A collected boot's outcome, as run-lab.sh exits with it (lab/rundir/rundir.c,
 * boot_outcome): from boots/<boot>.status, 3 the boot failed; for a run of
 * --exec (RUN-DIR/run.args) 4 when the command's status was not 0, and
 * stdout says "exec-status N" (N as the guest's shell gave it, 124 for a
 * step timeout); 1 a check or step failed; else 0.  For a topology's first boot, with --kernel-release, the
 * boot's view of the machine (boots/<boot>.topo.csv, or guest-topology.csv
 * for a run collected before the per-boot files) is compared with the
 * topology as `labtool check-guest` does, its differences on stderr; stdout
 * then says "match NAME.yaml" or "differs TOPOLOGY-FILE", and a difference
 * makes the outcome at least 1.  With --say LABEL (run-lab.sh's "boot
 * 2/4") the verdict is run-lab's line on stderr instead: "[  12s] LABEL:
 * the guest's view matches NAME.yaml" (util.h's say(): not under -q), or
 * "run-lab: LABEL: the guest's view of the machine differs from
 * TOPOLOGY-FILE (above)", even under -q; for a failed --exec command
 * "run-lab: LABEL: the command exited with status N (run-lab exits 4)",
 * even under -q.
 *
 * Exit: the outcome (0, 1, 3, 4); 3 also when the boot
 * has no readable status file or run.args; 64 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "rundir.h"
#include "runopts.h"
#include "runfiles.h"

static int usage(void)
{
	fprintf(stderr, "usage: labtool outcome RUN-DIR BOOT-ID [--kernel-release R] [--say LABEL]\n");
	return EXIT_USAGE;
}

/* check-guest with its stdout on stderr: stdout is this command's answer */
static int check_view(const char *topo, const char *view, const char *release)
{
	char *args[] = { "check-guest", (char *)topo, (char *)view, "--kernel-release",
			 (char *)release, NULL };
	int saved, rc;

	fflush(stdout);
	saved = dup(1);
	if (saved < 0 || dup2(2, 1) < 0)
		return EXIT_SOFTWARE;
	rc = cmd_check_guest(5, args);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	return rc;
}

int cmd_outcome(int argc, char **argv)
{
	const char *run = NULL, *boot = NULL, *topo = NULL, *release = NULL, *label = NULL;
	struct run_opts o = { 0 };
	bool exec, first = false;
	char *path, *text, err[1024], **saved = NULL;
	size_t len;
	int rc, nsaved = 0, exec_rc = -1;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--kernel-release") && i + 1 < argc)
			release = argv[++i];
		else if (!strcmp(argv[i], "--say") && i + 1 < argc)
			label = argv[++i];
		else if (argv[i][0] == '-')
			return usage();
		else if (!run)
			run = argv[i];
		else if (!boot)
			boot = argv[i];
		else
			return usage();
	}
	if (!run || !boot || !*boot || strpbrk(boot, "/,. "))
		return usage();
	rc = runopts_load(run, &o, &saved, &nsaved, err, sizeof(err));
	if (!rc && !(topo = runopts_boot_topology(&o, boot, &first))) {
		snprintf(err, sizeof(err), "%s has no boot '%s'", run, boot);
		rc = 3;
	}
	if (rc) {
		fprintf(stderr, "labtool outcome: %s\n", err);
		runopts_free_argv(saved, nsaved);
		runopts_free(&o);
		return 3;
	}
	exec = *o.exec_cmd;
	if (exec || !first || !release)
		topo = NULL;
	path = run_file_path(run, RUN_FILE_BOOT_STATUS, boot);
	if (read_file_all(path, &text, &len) < 0) {
		fprintf(stderr, "labtool outcome: %s: %s\n", path, strerror(errno));
		rc = 3;
		topo = NULL;
	} else {
		rc = boot_outcome(text, exec, &exec_rc, err, sizeof(err));
		free(text);
		/* not for a failed boot (3): run-lab does not exit 4 then */
		if (rc == OUTCOME_EXEC_FAILED && label)
			fprintf(stderr, "run-lab: %s: the command exited with status %d (run-lab exits 4)\n",
				label, exec_rc);
		else if (rc == OUTCOME_EXEC_FAILED)
			printf("exec-status %d\n", exec_rc);
	}
	if (rc < 0) {
		fprintf(stderr, "labtool outcome: %s: %s\n", path, err);
		rc = 3;
	}
	free(path);
	if (topo && rc < 3) {
		struct stat sb;
		char *view = run_file_path(run, RUN_FILE_BOOT_TOPO, boot);

		if (stat(view, &sb) < 0) {
			free(view);
			view = run_file_path(run, RUN_FILE_GUEST_TOPOLOGY, NULL);
		}
		if (stat(view, &sb) == 0) {
			int c = check_view(topo, view, release);
			const char *name = strrchr(topo, '/') ? strrchr(topo, '/') + 1 : topo;

			if (c && label)
				fprintf(stderr, "run-lab: %s: the guest's view of the machine differs from %s (above)\n",
					label, topo);
			else if (c)
				printf("differs %s\n", topo);
			else if (label)
				say("%s: the guest's view matches %s", label, name);
			else
				printf("match %s\n", name);
			if (c && rc < 1)
				rc = 1;
		}
		free(view);
	}
	runopts_free_argv(saved, nsaved);
	runopts_free(&o);
	return rc;
}

/*
 * labtool worst CODE...: the worst of several boots' exit codes
 * (outcome_worst()), printed; 0 with none.  Exit 64 for a word that is not
 * a code.
 */
int cmd_worst(int argc, char **argv)
{
	int worst = 0;

	for (int i = 1; i < argc; i++) {
		char *end;
		long v = strtol(argv[i], &end, 10);

		if (!*argv[i] || *end || v < 0 || v > 255) {
			fprintf(stderr, "labtool worst: '%s' is not an exit code (0-255)\n", argv[i]);
			return EXIT_USAGE;
		}
		worst = outcome_worst(worst, (int)v);
	}
	printf("%d\n", worst);
	return 0;
}
