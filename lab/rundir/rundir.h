/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run directory's files made from its boots' files (#14 item 1: labtool
 * is the only author of results/<run>/).  Each boot's collect writes only
 * files of its own (boots/<boot>.*), so boots that run at once, in one
 * process or in many (a --plan through GNU parallel), never write the same
 * file; `labtool finish` then makes the run's files from them, atomically:
 *
 *   boots/<boot>.csv       the boot's rows, summary.csv's header and columns
 *   boots/<boot>.topo.csv  the boot's guest view (guest-topology.csv's columns)
 *   summary.csv            every boot's rows, in boot order
 *   guest-topology.csv     the view of the run's first boot that has one
 *
 * A run collected before the per-boot files (summary.csv with rows of a
 * boot that has no boots/<boot>.csv) keeps those rows.
 */
#ifndef TIERLAB_RUNDIR_H
#define TIERLAB_RUNDIR_H

#include <stdbool.h>
#include <stddef.h>

#include "runfiles.h"
#include "util.h"


/*
 * The word `labtool collect --boot-rc` records for how `labtool boot` ended
 * (its exit status): ok (0), timeout (124, the wall-clock limit), idle (125,
 * silent too long), else error (QEMU failed).
 */
const char *boot_exit_word(int rc);

/*
 * A boot's outcome as run-lab.sh exits with it, from the text of its
 * boots/<boot>.status: 3 the boot failed (status not ok); with @exec,
 * OUTCOME_EXEC_FAILED when the --exec command's status was not 0 (it
 * exited non-zero, was killed, or timed out: 124); 1 a check or step
 * failed; else 0.  The command's own status is never the outcome: run-lab
 * gives 1, 2, 3, 65 and 66 meanings of its own, and a command's "exit 2"
 * must not read as bad usage.  *@exec_rc (when not NULL) gets the
 * command's status, -1 when there is none.  -1 with a one-line message in
 * err for a file without status=.
 */
#define OUTCOME_EXEC_FAILED 4
int boot_outcome(const char *status_text, bool exec, int *exec_rc, char *err, size_t errlen);

/*
 * The worse of two exit codes of boots, as a run of several exits: 0, then
 * 1 (a check or step failed), then 4 (the --exec command failed), then 3
 * (a boot failed: a panic outranks a command's status), then any other
 * code (usage, files, an interruption) by its value.
 */
int outcome_worst(int a, int b);

/* Boot ids in run order: numbers by value (2 before 10), before other names. */
int boot_id_cmp(const char *a, const char *b);

/*
 * summary.csv's text for RUN-DIR: the header, then the rows of each boot
 * in boot_id_cmp order, from boots/<boot>.csv, or for a boot without one
 * from RUN-DIR/summary.csv as it is.  0, or an exit code (EXIT_INVALID a
 * per-boot file without the header, EXIT_NOINPUT unreadable, EXIT_SOFTWARE
 * out of memory) with "file:line: ..." in err.
 */
int summary_build(const char *run, struct sbuf *out, char *err, size_t errlen);

/*
 * The boot whose boots/<boot>.topo.csv becomes guest-topology.csv: the
 * first in boot order (malloc'd), NULL if none has one.
 */
char *guest_view_boot(const char *run);

/*
 * run-lab's line for a collected boot (labtool collect --say LABEL): the
 * collect line @line ("boot ID: ok: ...", NULL if collect printed none)
 * without its "boot ID: ", after "LABEL: "; prefixed "run-lab: " when the
 * collect's exit @rc is not 0 (said even under -q).  One line into @out.
 */
void collect_say(const char *label, const char *boot, int rc, const char *line, struct sbuf *out);
/* The first @max_lines lines of @text, each indented by four spaces, into @out. */
void sb_indent(struct sbuf *out, const char *text, int max_lines);

/* A child's wait status as the shell's $? gives it: its exit code, or 128 + the signal. */
int shell_exit_status(int wstatus);

/*
 * What run-lab's staging needs for -j @jobs boots at once (labtool init
 * --staging): one initramfs each, the base image of @initramfs_bytes and
 * 8 MiB (the plan, the --add files), in whole MiB.
 */
long staging_need_mib(long long initramfs_bytes, long jobs);

#endif
