// SPDX-License-Identifier: GPL-2.0
/*
 * labtool outcome RUN-DIR BOOT-ID [--exec] [--guest-view TOPOLOGY.yaml --kernel-release R]
 *
 * A collected boot's outcome, as run-lab.sh exits with it (lab/rundir.c,
 * boot_outcome): from boots/<boot>.status, 3 the boot failed; with --exec
 * the command's exit status; 1 a check or step failed; else 0.  With
 * --guest-view (a topology's first boot), the boot's view of the machine
 * (boots/<boot>.topo.csv, or guest-topology.csv for a run collected before
 * the per-boot files) is compared with the topology as `labtool check-guest`
 * does, its differences on stderr; stdout then says "match" or "differs",
 * and a difference makes the outcome at least 1.
 *
 * Exit: the outcome (0, 1, 3, the command's status); 3 also when the boot
 * has no readable status file; 64 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "rundir.h"

static int usage(void)
{
	fprintf(stderr, "usage: labtool outcome RUN-DIR BOOT-ID [--exec] "
			"[--guest-view TOPOLOGY.yaml --kernel-release R]\n");
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
	const char *run = NULL, *boot = NULL, *topo = NULL, *release = NULL;
	bool exec = false;
	char *path, *text, err[256];
	size_t len;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--exec"))
			exec = true;
		else if (!strcmp(argv[i], "--guest-view") && i + 1 < argc)
			topo = argv[++i];
		else if (!strcmp(argv[i], "--kernel-release") && i + 1 < argc)
			release = argv[++i];
		else if (argv[i][0] == '-')
			return usage();
		else if (!run)
			run = argv[i];
		else if (!boot)
			boot = argv[i];
		else
			return usage();
	}
	if (!run || !boot || !*boot || strpbrk(boot, "/,. ") || !topo != !release)
		return usage();
	path = xasprintf("%s/boots/%s.status", run, boot);
	if (read_file_all(path, &text, &len) < 0) {
		fprintf(stderr, "labtool outcome: %s: %s\n", path, strerror(errno));
		free(path);
		return 3;
	}
	rc = boot_outcome(text, exec, err, sizeof(err));
	free(text);
	if (rc < 0) {
		fprintf(stderr, "labtool outcome: %s: %s\n", path, err);
		rc = 3;
	}
	free(path);
	if (topo && rc < 3) {
		struct stat sb;
		char *view = xasprintf("%s/boots/%s.topo.csv", run, boot);

		if (stat(view, &sb) < 0) {
			free(view);
			view = xasprintf("%s/guest-topology.csv", run);
		}
		if (stat(view, &sb) == 0) {
			int c = check_view(topo, view, release);

			printf("%s\n", c ? "differs" : "match");
			if (c && rc < 1)
				rc = 1;
		}
		free(view);
	}
	return rc;
}
