// SPDX-License-Identifier: GPL-2.0
/*
 * labtool finish RUN-DIR
 *
 * Makes the run's files from its boots' files (lab/rundir/rundir.h), each written
 * atomically, with no lock: summary.csv from boots/<boot>.csv (a boot
 * without one keeps its rows of summary.csv), guest-topology.csv from the
 * first boot's boots/<boot>.topo.csv (kept as it is when no boot has one).
 * run-lab.sh runs it once the boots are done, before `labtool meta end` and
 * the report; run again, it writes the same files.
 *
 * Exit: 0; 64 usage; 65 a per-boot file that is not one; 66 unreadable
 * input; 70 out of memory; 74 cannot write.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "rundir.h"
#include "runfiles.h"

int cmd_finish(int argc, char **argv)
{
	struct sbuf out = { 0 };
	char err[512], *path, *boot;
	const char *run;
	int rc;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: labtool finish RUN-DIR\n");
		return EXIT_USAGE;
	}
	run = argv[1];
	rc = summary_build(run, &out, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "labtool finish: %s\n", err);
		sb_free(&out);
		return rc;
	}
	path = run_file_path(run, RUN_FILE_SUMMARY, NULL);
	if (write_file_atomic(path, out.s, out.len) < 0) {
		fprintf(stderr, "labtool finish: %s: %s\n", path, strerror(errno));
		rc = EXIT_IOERR;
	}
	free(path);
	sb_free(&out);
	boot = rc ? NULL : guest_view_boot(run);
	if (boot) {
		char *text, *from = run_file_path(run, RUN_FILE_BOOT_TOPO, boot);
		size_t len;

		path = run_file_path(run, RUN_FILE_GUEST_TOPOLOGY, NULL);
		if (read_file_all(from, &text, &len) < 0) {
			fprintf(stderr, "labtool finish: %s: %s\n", from, strerror(errno));
			rc = errno == ENOMEM ? EXIT_SOFTWARE : EXIT_NOINPUT;
		} else {
			if (write_file_atomic(path, text, len) < 0) {
				fprintf(stderr, "labtool finish: %s: %s\n", path, strerror(errno));
				rc = EXIT_IOERR;
			}
			free(text);
		}
		free(path);
		free(from);
		free(boot);
	}
	return rc;
}
