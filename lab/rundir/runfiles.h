/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run directory's contract, named once: every file of results/<run>/
 * with the one command that writes it, and the columns of summary.csv.
 * Writers and readers build their paths with run_file_path(); README's
 * "Results format" table lists the same files and writers, and
 * tests/unit/test_rundir.c checks that it does.
 */
#ifndef TIERLAB_RUNFILES_H
#define TIERLAB_RUNFILES_H

/* summary.csv's columns, in order: enum row_col (COL_*) and row_col_names */
#define SUMMARY_COLUMNS(X) \
	X(TOPOLOGY, topology) X(BENCH, bench) X(POLICY, policy) X(NODES, nodes) \
	X(PAGESIZE, pagesize) X(SCENARIO, scenario) X(METRIC, metric) X(VALUE, value) \
	X(UNIT, unit) X(RUN_ID, run_id) X(BOOT_ID, boot_id) X(BOOT_STATUS, boot_status)

enum row_col {
#define X(e, n) COL_##e,
	SUMMARY_COLUMNS(X)
#undef X
	NR_ROW_COLS
};

extern const char *const row_col_names[NR_ROW_COLS];
/* "topology,bench,...,boot_status": summary.csv's header line, without newline */
const char *summary_header(void);

/*
 * The files, as paths under the run directory ("%s" is a boot id) and the
 * command that writes them (README's words).
 */
#define RUN_FILES(X) \
	X(SUMMARY, "summary.csv", "labtool finish") \
	X(GUEST_TOPOLOGY, "guest-topology.csv", "labtool finish") \
	X(META, "meta.json", "labtool meta") \
	X(RUN_ARGS, "run.args", "labtool init") \
	X(STARTED, "started", "labtool init") \
	X(BOOT_ROWS, "boots/%s.csv", "labtool collect") \
	X(BOOT_TOPO, "boots/%s.topo.csv", "labtool collect") \
	X(BOOT_STATUS, "boots/%s.status", "labtool collect") \
	X(BOOT_TAP, "boots/%s.tap", "labtool collect") \
	X(BOOT_HIST, "boots/%s.hist", "labtool collect") \
	X(BOOT_OUT, "boots/%s.out", "labtool collect") \
	X(BOOT_PANIC, "boots/%s.panic.txt", "labtool collect") \
	X(PLAN, "raw/plan-%s.txt", "labtool prepare") \
	X(QEMU_CMD, "raw/qemu-%s.cmd", "labtool prepare") \
	X(CONSOLE, "raw/console-%s.log", "QEMU") \
	X(CHANNEL, "raw/channel-%s.log", "QEMU") \
	X(TIMING, "raw/boot-%s.timing", "labtool boot") \
	X(MEMTIMING, "raw/memtiming-%s.txt", "tiermem.so") \
	X(REPORT_HTML, "report.html", "labtool report") \
	X(REPORT_MD, "report.md", "labtool report")

enum run_file {
#define X(e, path, writer) RUN_FILE_##e,
	RUN_FILES(X)
#undef X
	NR_RUN_FILES
};

struct run_file_info {
	const char *path;	/* under the run directory; "%s": the boot id */
	const char *writer;
};

extern const struct run_file_info run_files[NR_RUN_FILES];

/* "<run>/<path>" with the boot id in a per-boot path (NULL for the others). */
char *run_file_path(const char *run, enum run_file f, const char *boot);

#endif
