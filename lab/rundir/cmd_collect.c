// SPDX-License-Identifier: GPL-2.0
/*
 * labtool collect RUN-DIR BOOT-ID [--topology NAME] [--qemu-status S | --boot-rc N]
 *
 * Turns one boot's raw files (raw/channel-BOOT.log, raw/console-BOOT.log)
 * into the boot's own files under RUN-DIR/boots/: its rows (BOOT.csv, with
 * summary.csv's columns), its guest view (BOOT.topo.csv), checks, output
 * and status; `labtool finish` makes summary.csv and guest-topology.csv
 * from them (lab/rundir/rundir.h), so boots collected at once never write the
 * same file.  Collecting twice gives the same files.  Without --topology,
 * --memory-timing and --topology-file, the boot's topology and memory
 * timing are the run's (RUN-DIR/run.args, as labtool init wrote it).  --boot-rc is the exit
 * status of `labtool boot` (0 ok, 124 timeout, 125 idle, else QEMU failed).  The framing
 * is checked line by line: the first bad line ends parsing and marks the
 * boot corrupt; a missing END marks it truncated; a panic on the console or
 * a host-side timeout (--qemu-status timeout) wins over both.  Rows read
 * before the fault are kept, marked with the boot's status.
 *
 * With --memory-timing count|delay --topology-file TOPOLOGY.yaml, the plugin's
 * report raw/memtiming-BOOT.txt becomes rows and checks as well
 * (lab/boot/accounting.c); a malformed report is a failed check naming its line.
 *
 * With --say LABEL (run-lab.sh's "boot 2/4"), the line is run-lab's: on
 * stderr as "[  12s] LABEL: ok: ..." (util.h's say(), so not under -q)
 * when the boot went well, else as "run-lab: LABEL: ..." even under -q,
 * followed by the first 40 lines of the boot's panic excerpt, indented.
 *
 * Exit: 0 all well; 1 the boot ran but a step or check failed; 3 the boot
 * itself failed (panic, timeout, truncated, corrupt); 64/66/74 usage/input/IO.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "accounting.h"
#include "channel.h"
#include "commands.h"
#include "rundir.h"
#include "runopts.h"
#include "textfile.h"
#include "runfiles.h"

struct collect {
	const char *run, *boot, *topology, *run_id;
	struct sbuf rows;     /* new summary rows */
	struct sbuf topo;     /* guest-topology rows */
	struct sbuf tap, hist, out;
	unsigned long nrows, tap_ok, tap_fail, tap_skip, steps_ok, steps_failed;
	const char *status;     /* ok, panic, timeout, corrupt, truncated */
	char *reason;
	int exec_rc;
	/* PHASE and MEMPROBE payloads, for --memory-timing count */
	char **phase, **probe;
	size_t nphase, nprobe;
};

static const char *const topo_columns[] = {
	"node", "cpus", "mem_mib", "read_latency_ns", "write_latency_ns",
	"read_bandwidth_mbps", "write_bandwidth_mbps", "tier", "distances",
	"cache_size", "zone",
};
#define NTOPO (sizeof(topo_columns) / sizeof(topo_columns[0]))

static void set_reason(struct collect *c, const char *fmt, ...)
{
	va_list ap;

	if (c->reason)
		return; /* the first fault is the one to report */
	va_start(ap, fmt);
	if (vasprintf(&c->reason, fmt, ap) < 0) {
		fputs("labtool collect: out of memory\n", stderr);
		exit(EXIT_SOFTWARE);
	}
	va_end(ap);
}

/*
 * A file read only in part (a line too long for the memory left, a read
 * error) is an error, never its end: taken as the end, what follows would
 * be dropped (the boot's files are written from what was read).  Nothing has
 * been written when this exits.
 */
static void check_read(const struct textfile *tf, const char *name)
{
	if (!tf->error)
		return;
	fprintf(stderr, "labtool collect: %s:%lu: cannot read: %s\n", name, tf->lineno + 1,
		strerror(tf->error));
	exit(tf->error == ENOMEM ? EXIT_SOFTWARE : EXIT_NOINPUT);
}

/*
 * One ROW into the new summary rows; a row that cannot be stored is an
 * error naming its file and line (@where), never dropped in silence.
 */
static void take_row(struct collect *c, const char *payload, const char *where)
{
	char *copy = strdup(payload);
	struct row r;
	const char *err;

	if (!copy) {
		fprintf(stderr, "labtool collect: %s: ROW: out of memory\n", where);
		exit(EXIT_SOFTWARE);
	}
	err = row_parse(copy, &r);
	if (err) {
		fprintf(stderr, "%s: ROW: %s\n", where, err);
		set_reason(c, "%s: ROW: %s", where, err);
		c->steps_failed++;
		free(copy);
		return;
	}
	sb_printf(&c->rows, "%s", c->topology);
	for (int i = 0; i < ROW_FIELDS; i++) {
		sb_printf(&c->rows, ",%s", r.field[i]);
		/* a curve's x position goes with its scenario: "fill@48" */
		if (i == 4 && r.x)
			sb_printf(&c->rows, "@%s", r.x);
	}
	sb_printf(&c->rows, ",%s,%s\n", c->run_id, c->boot);
	c->nrows++;
	free(copy);
}

static void keep_line(char ***v, size_t *n, const char *payload)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(payload);
}

static void take_topo(struct collect *c, const char *payload)
{
	char buf[256];

	for (size_t i = 0; i < NTOPO; i++) {
		const char *v = kv_value(payload, ' ', topo_columns[i], buf, sizeof(buf));

		if (v && strpbrk(v, ",\""))
			v = "?";
		sb_printf(&c->topo, "%s%s", i ? "," : "", v ? v : "-");
	}
	sb_printf(&c->topo, "\n");
}

static void take_tap(struct collect *c, const char *tap)
{
	sb_printf(&c->tap, "%s\n", tap);
	if (!strncmp(tap, "ok ", 3)) {
		if (strstr(tap, "# SKIP"))
			c->tap_skip++;
		else
			c->tap_ok++;
	} else if (!strncmp(tap, "not ok ", 7)) {
		c->tap_fail++;
	}
}

static void take_step(struct collect *c, const char *payload)
{
	char status[32], name[128], rc[16];

	if (!kv_value(payload, ' ', "status", status, sizeof(status)) ||
	    !strcmp(status, "started"))
		return;
	if (!strcmp(status, "ok")) {
		c->steps_ok++;
	} else {
		c->steps_failed++;
		set_reason(c, "step %s: %s",
			   kv_value(payload, ' ', "name", name, sizeof(name)) ?: "?",
			   status);
	}
	if (kv_value(payload, ' ', "name", name, sizeof(name)) && !strcmp(name, "exec") &&
	    kv_value(payload, ' ', "rc", rc, sizeof(rc)))
		c->exec_rc = !strcmp(status, "timeout") ? 124 :
			     !strcmp(status, "signal") ? 128 + atoi(rc) : atoi(rc);
}

static void read_channel(struct collect *c, const char *path)
{
	struct textfile tf;
	char *line;
	unsigned long seq = 1, lineno = 0;
	int begun = 0, ended = 0;

	if (textfile_open(&tf, path) < 0) {
		c->status = "truncated";
		set_reason(c, "%s: %s", path, strerror(errno));
		return;
	}
	while ((line = textfile_next(&tf))) {
		struct frame f;
		char where[64];
		enum frame_result res;

		lineno++;
		snprintf(where, sizeof(where), "channel-%s.log:%lu", c->boot, lineno);
		if (ended) {
			c->status = "corrupt";
			set_reason(c, "%s: data after END", where);
			break;
		}
		res = frame_parse(line, seq, &f);
		if (res == FRAME_BEGIN) {
			if (begun) {
				/* a second BEGIN: the guest restarted labrun */
				c->status = "corrupt";
				set_reason(c, "%s: second BEGIN", where);
				break;
			}
			begun = 1;
			continue;
		}
		if (!begun) {
			c->status = "corrupt";
			set_reason(c, "%s: data before BEGIN", where);
			break;
		}
		if (res == FRAME_END) {
			if (f.end_count != seq - 1) {
				c->status = "corrupt";
				set_reason(c, "%s: END says %lu lines, channel has %lu",
					   where, f.end_count, seq - 1);
				break;
			}
			ended = 1;
			continue;
		}
		if (res != FRAME_OK) {
			/* A last line without its newline is a cut, not damage. */
			c->status = !tf.had_newline ? "truncated" : "corrupt";
			set_reason(c, "%s: %s", where,
				   res == FRAME_BAD_SEQ ? "sequence gap" :
				   res == FRAME_BAD_CRC ? "checksum mismatch" :
				   "not a frame");
			break;
		}
		seq++;
		/* .out is what the steps printed, as they printed it */
		if (!strncmp(f.payload, "OUT ", 4))
			sb_printf(&c->out, "%s\n", f.payload + 4);
		else if (strncmp(f.payload, "STEP ", 5) && strncmp(f.payload, "META ", 5))
			sb_printf(&c->out, "%s\n", f.payload);
		if (!strncmp(f.payload, "ROW ", 4))
			take_row(c, f.payload + 4, where);
		else if (!strncmp(f.payload, "TOPO ", 5))
			take_topo(c, f.payload + 5);
		else if (!strncmp(f.payload, "TAP ", 4))
			take_tap(c, f.payload + 4);
		else if (!strncmp(f.payload, "HIST ", 5))
			sb_printf(&c->hist, "%s\n", f.payload + 5);
		else if (!strncmp(f.payload, "STEP ", 5))
			take_step(c, f.payload + 5);
		else if (!strncmp(f.payload, "PHASE ", 6))
			keep_line(&c->phase, &c->nphase, f.payload + 6);
		else if (!strncmp(f.payload, "MEMPROBE ", 9))
			keep_line(&c->probe, &c->nprobe, f.payload + 9);
	}
	check_read(&tf, path);
	textfile_close(&tf);
	if (!begun && !strcmp(c->status, "ok")) {
		c->status = "truncated";
		set_reason(c, "channel-%s.log: no BEGIN line (the guest never ran its plan)",
			   c->boot);
	} else if (!ended && !strcmp(c->status, "ok")) {
		c->status = "truncated";
		set_reason(c, "channel-%s.log: no END line after %lu lines",
			   c->boot, seq - 1);
	}
}

/* Looks for the kernel's own words for a dead guest. */
static void read_console(struct collect *c, const char *path, const char *excerpt_path)
{
	static const char *const fatal[] = {
		"Kernel panic - not syncing", "BUG: soft lockup",
		"blocked for more than", "Oops:", "general protection fault",
		"BUG: kernel NULL pointer",
	};
	struct textfile tf;
	char *line, *ring[16] = { 0 };
	unsigned long n = 0, after = 0;
	struct sbuf ex = { 0 };
	int found = 0;

	if (textfile_open(&tf, path) < 0)
		return;
	while ((line = textfile_next(&tf))) {
		if (!found) {
			for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
				if (strstr(line, fatal[i]))
					found = 1;
			if (found) {
				set_reason(c, "guest kernel panic: %s",
					   line + strspn(line, " []0123456789."));
				for (unsigned long k = n > 16 ? n - 16 : 0; k < n; k++)
					sb_printf(&ex, "%s\n", ring[k % 16]);
			} else {
				free(ring[n % 16]);
				ring[n % 16] = xstrdup(line);
				n++;
				continue;
			}
		}
		sb_printf(&ex, "%s\n", line);
		if (++after >= 40)
			break;
	}
	check_read(&tf, path);
	textfile_close(&tf);
	for (int i = 0; i < 16; i++)
		free(ring[i]);
	if (found) {
		c->status = "panic";
		write_file_atomic(excerpt_path, ex.s ? ex.s : "", ex.len);
	}
	free(ex.s);
}

/*
 * --memory-timing count: the plugin's report, with the channel's PHASE and
 * MEMPROBE lines, as rows and host-made checks (TAP lines "ok N - memtiming: ...").
 */
static void read_memtiming(struct collect *c, const char *topo_path, bool delay)
{
	char *path = run_file_path(c->run, RUN_FILE_MEMTIMING, c->boot);
	char *name = xasprintf("memtiming-%s.txt", c->boot), *text = NULL, err[512];
	struct sbuf rows = { 0 }, checks = { 0 };
	struct acct_file f;
	struct topo *t = xcalloc(1, sizeof(*t));
	size_t len;
	unsigned long n = 0, failed = 0;

	if (topo_load(topo_path, t, stderr)) {
		c->steps_failed++;
		set_reason(c, "%s: cannot read the topology for memory timing", topo_path);
	} else if (read_file_all(path, &text, &len) < 0) {
		/* a boot that died has no report: its own reason says why */
		if (!strcmp(c->status, "ok")) {
			c->steps_failed++;
			set_reason(c, "%s: %s (--memory-timing: QEMU wrote no report)", name,
				   strerror(errno));
		}
	} else if (acct_file_parse(name, text, &f, err, sizeof(err))) {
		fprintf(stderr, "labtool collect: %s\n", err);
		c->steps_failed++;
		set_reason(c, "%s", err);
	} else if (f.delay != delay) {
		fprintf(stderr, "labtool collect: %s: a report of %s mode, the run's is %s\n", name,
			f.delay ? "delay" : "count", delay ? "delay" : "count");
		c->steps_failed++;
		set_reason(c, "%s: a report of %s mode, the run's is %s", name,
			   f.delay ? "delay" : "count", delay ? "delay" : "count");
		acct_file_free(&f);
	} else {
		acct_derive(&f, t, c->phase, c->nphase, c->probe, c->nprobe, &rows, &checks);
		for (char *p = rows.s, *nl; p && (nl = strchr(p, '\n')); p = nl + 1) {
			char where[64];

			*nl = '\0';
			snprintf(where, sizeof(where), "%s, phase rows", name);
			take_row(c, p, where);
		}
		for (char *p = checks.s, *nl; p && (nl = strchr(p, '\n')); p = nl + 1) {
			bool ok = !strncmp(p, "ok ", 3);
			char *tap;

			*nl = '\0';
			tap = xasprintf("%s %lu - memtiming: %s", ok ? "ok" : "not ok", ++n, p + (ok ? 3 : 7));
			take_tap(c, tap);
			free(tap);
			failed += !ok;
		}
		if (failed)
			set_reason(c, "memory timing: %lu check(s) failed (boots/%s.tap)", failed, c->boot);
		acct_file_free(&f);
	}
	sb_free(&rows);
	sb_free(&checks);
	free(text);
	free(t);
	free(name);
	free(path);
}

/* The boot's rows (boots/<boot>.csv): its status is known only now, it ends each row. */
static int write_rows(struct collect *c, const char *path)
{
	struct sbuf out = { 0 };
	int rc;

	sb_puts(&out, summary_header());
	sb_putc(&out, '\n');
	for (char *p = c->rows.s, *nl; p && (nl = strchr(p, '\n')); p = nl + 1)
		sb_printf(&out, "%.*s,%s\n", (int)(nl - p), p, c->status);
	rc = write_file_atomic(path, out.s, out.len);
	free(out.s);
	return rc;
}

static int collect(int argc, char **argv, struct sbuf *line)
{
	struct collect c = { .topology = "-", .status = "ok", .exec_rc = -1 };
	const char *qemu_status = "ok", *memtiming = NULL, *topo_file = NULL;
	char *path = NULL, *name = NULL, **saved = NULL;
	struct run_opts o = { 0 };
	int rc = 0, nsaved = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--topology") && i + 1 < argc)
			c.topology = argv[++i];
		else if (!strcmp(argv[i], "--qemu-status") && i + 1 < argc)
			qemu_status = argv[++i];
		else if (!strcmp(argv[i], "--boot-rc") && i + 1 < argc) {
			char *end;
			long v = strtol(argv[i + 1], &end, 10);

			if (!*argv[i + 1] || *end || v < 0 || v > 255) {
				fprintf(stderr, "labtool collect: --boot-rc: '%s' is not an exit status\n",
					argv[i + 1]);
				return EXIT_USAGE;
			}
			qemu_status = boot_exit_word((int)v);
			i++;
		}
		else if (!strcmp(argv[i], "--memory-timing") && i + 1 < argc)
			memtiming = argv[++i];
		else if (!strcmp(argv[i], "--topology-file") && i + 1 < argc)
			topo_file = argv[++i];
		else if (argv[i][0] == '-') {
			fprintf(stderr, "labtool collect: unknown option '%s'\n", argv[i]);
			return EXIT_USAGE;
		} else if (!c.run)
			c.run = argv[i];
		else if (!c.boot)
			c.boot = argv[i];
		else {
			fprintf(stderr, "labtool collect: too many arguments\n");
			return EXIT_USAGE;
		}
	}
	if (c.run && c.boot && !strcmp(c.topology, "-") && !memtiming && !topo_file) {
		/* the boot's topology and memory timing from the run's own options */
		char *args = run_file_path(c.run, RUN_FILE_RUN_ARGS, NULL), err[1024];

		if (access(args, F_OK) == 0) {
			const char *t;

			rc = runopts_load(c.run, &o, &saved, &nsaved, err, sizeof(err));
			if (rc) {
				fprintf(stderr, "labtool collect: %s\n", err);
				free(args);
				goto done;
			}
			t = runopts_boot_topology(&o, c.boot, NULL);
			if (!t) {
				fprintf(stderr, "labtool collect: boot '%s': %s has no such boot\n", c.boot,
					c.run);
				free(args);
				rc = EXIT_USAGE;
				goto done;
			}
			name = xstrdup(strrchr(t, '/') ? strrchr(t, '/') + 1 : t);
			if (strlen(name) > 5 && !strcmp(name + strlen(name) - 5, ".yaml"))
				name[strlen(name) - 5] = '\0';
			c.topology = name;
			topo_file = t;
			memtiming = o.memory_timing;
		}
		free(args);
	}
	if (!memtiming)
		memtiming = "off";
	if (!c.run || !c.boot || (strcmp(memtiming, "off") && strcmp(memtiming, "count") &&
				  strcmp(memtiming, "delay")) ||
	    (strcmp(memtiming, "off") && !topo_file)) {
		fprintf(stderr, "usage: labtool collect RUN-DIR BOOT-ID [--topology NAME] [--qemu-status ok|timeout|idle|error | --boot-rc N]\n"
			"       [--memory-timing off|count|delay --topology-file TOPOLOGY.yaml]\n");
		rc = EXIT_USAGE;
		goto done;
	}
	if (strpbrk(c.boot, "/,. ") || strpbrk(c.topology, ",/ ")) {
		fprintf(stderr, "labtool collect: boot id and topology name must not contain '/', ',', '.' or spaces\n");
		rc = EXIT_USAGE;
		goto done;
	}
	c.run_id = strrchr(c.run, '/') ? strrchr(c.run, '/') + 1 : c.run;
	if (!*c.run_id) {
		fprintf(stderr, "labtool collect: RUN-DIR must not end in '/'\n");
		rc = EXIT_USAGE;
		goto done;
	}

	path = xasprintf("%s/boots", c.run);
	if (mkdir(path, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "labtool collect: %s: %s\n", path, strerror(errno));
		free(path);
		rc = EXIT_IOERR;
		goto done;
	}
	free(path);

	path = run_file_path(c.run, RUN_FILE_CHANNEL, c.boot);
	read_channel(&c, path);
	free(path);
	if (strcmp(qemu_status, "ok")) {
		c.status = "timeout";
		free(c.reason);
		c.reason = NULL;
		set_reason(&c, "%s", !strcmp(qemu_status, "idle") ?
			   "guest silent for longer than the idle limit; QEMU killed" :
			   !strcmp(qemu_status, "timeout") ?
			   "boot exceeded its wall-clock limit; QEMU killed" :
			   "QEMU failed");
	}
	{
		/* A dead kernel explains everything after it: its words win. */
		struct collect k = { .status = "ok" };
		char *con, *ex;

		con = run_file_path(c.run, RUN_FILE_CONSOLE, c.boot);
		ex = run_file_path(c.run, RUN_FILE_BOOT_PANIC, c.boot);
		read_console(&k, con, ex);
		if (!strcmp(k.status, "panic")) {
			c.status = "panic";
			free(c.reason);
			c.reason = k.reason;
		} else {
			free(k.reason);
		}
		free(con);
		free(ex);
	}

	if (strcmp(memtiming, "off"))
		read_memtiming(&c, topo_file, !strcmp(memtiming, "delay"));

	/*
	 * The status file says the boot was collected: gone while its other
	 * files are rewritten, and written again only when all of them were,
	 * so a collect that failed half-way leaves a boot --resume redoes.
	 */
	path = run_file_path(c.run, RUN_FILE_BOOT_STATUS, c.boot);
	if (unlink(path) < 0 && errno != ENOENT)
		rc = EXIT_IOERR;
	free(path);
	path = run_file_path(c.run, RUN_FILE_BOOT_ROWS, c.boot);
	if (write_rows(&c, path) < 0)
		rc = EXIT_IOERR;
	free(path);

	if (c.topo.len) {
		struct sbuf t = { 0 };

		for (size_t i = 0; i < NTOPO; i++)
			sb_printf(&t, "%s%s", i ? "," : "", topo_columns[i]);
		sb_printf(&t, "\n%s", c.topo.s);
		path = run_file_path(c.run, RUN_FILE_BOOT_TOPO, c.boot);
		if (write_file_atomic(path, t.s, t.len) < 0)
			rc = EXIT_IOERR;
		free(path);
		free(t.s);
	} else {
		/* an earlier collect's view is not this one's */
		path = run_file_path(c.run, RUN_FILE_BOOT_TOPO, c.boot);
		if (unlink(path) < 0 && errno != ENOENT)
			rc = EXIT_IOERR;
		free(path);
	}
	/* an earlier collect's checks and histograms are not this one's either */
	path = run_file_path(c.run, RUN_FILE_BOOT_TAP, c.boot);
	if (c.tap.len ? write_file_atomic(path, c.tap.s, c.tap.len) < 0 :
			(unlink(path) < 0 && errno != ENOENT))
		rc = EXIT_IOERR;
	free(path);
	path = run_file_path(c.run, RUN_FILE_BOOT_HIST, c.boot);
	if (c.hist.len ? write_file_atomic(path, c.hist.s, c.hist.len) < 0 :
			 (unlink(path) < 0 && errno != ENOENT))
		rc = EXIT_IOERR;
	free(path);
	{
		struct sbuf s = { 0 };

		path = run_file_path(c.run, RUN_FILE_BOOT_OUT, c.boot);
		if (write_file_atomic(path, c.out.s ? c.out.s : "", c.out.len) < 0)
			rc = EXIT_IOERR;
		free(path);
		sb_printf(&s, "status=%s\nrows=%lu\ntap_ok=%lu\ntap_not_ok=%lu\ntap_skip=%lu\n"
			  "steps_ok=%lu\nsteps_failed=%lu\nexec_rc=%d\nreason=%s\n",
			  c.status, c.nrows, c.tap_ok, c.tap_fail, c.tap_skip,
			  c.steps_ok, c.steps_failed, c.exec_rc,
			  c.reason ? c.reason : "");
		/* written last, and only when the rest was: its presence means the boot was collected */
		path = run_file_path(c.run, RUN_FILE_BOOT_STATUS, c.boot);
		if (!rc && write_file_atomic(path, s.s, s.len) < 0)
			rc = EXIT_IOERR;
		if (rc)
			fprintf(stderr, "labtool collect: boot %s: its files could not all be written; "
				"not marked collected\n", c.boot);
		free(path);
		free(s.s);
	}

	sb_printf(line, "boot %s: %s: %lu rows, checks %lu ok / %lu not ok / %lu skipped, steps %lu ok / %lu failed%s%s\n",
	       c.boot, c.status, c.nrows, c.tap_ok, c.tap_fail, c.tap_skip,
	       c.steps_ok, c.steps_failed, c.reason ? "; " : "",
	       c.reason ? c.reason : "");
	if (!rc)
		rc = strcmp(c.status, "ok") ? 3 : (c.tap_fail || c.steps_failed) ? 1 : 0;
	free(c.rows.s);
	free(c.topo.s);
	free(c.tap.s);
	free(c.hist.s);
	free(c.out.s);
	free(c.reason);
	for (size_t i = 0; i < c.nphase; i++)
		free(c.phase[i]);
	for (size_t i = 0; i < c.nprobe; i++)
		free(c.probe[i]);
	free(c.phase);
	free(c.probe);
done:
	free(name);
	runopts_free_argv(saved, nsaved);
	runopts_free(&o);
	return rc;
}

void collect_say(const char *label, const char *boot, int rc, const char *line, struct sbuf *out)
{
	const char *text = line ? line : "";
	size_t n = strlen(boot);

	if (!strncmp(text, "boot ", 5) && !strncmp(text + 5, boot, n) && !strncmp(text + 5 + n, ": ", 2))
		text += 5 + n + 2;
	sb_printf(out, "%s%s: %.*s\n", rc ? "run-lab: " : "", label, (int)strcspn(text, "\n"), text);
}

void sb_indent(struct sbuf *out, const char *text, int max_lines)
{
	for (int n = 0; *text && n < max_lines; n++) {
		size_t len = strcspn(text, "\n");

		sb_printf(out, "    %.*s\n", (int)len, text);
		text += len + (text[len] == '\n');
	}
}

int cmd_collect(int argc, char **argv)
{
	const char *label = NULL, *pos[2] = { NULL, NULL };
	struct sbuf line = { 0 };
	char **v = xcalloc((size_t)argc + 1, sizeof(*v));
	int n = 0, npos = 0, rc;

	for (int i = 0; i < argc; i++) {
		if (i > 0 && !strcmp(argv[i], "--say") && i + 1 < argc) {
			label = argv[++i];
			continue;
		}
		v[n++] = argv[i];
		/* RUN-DIR and BOOT-ID: the words that are not an option or its value */
		if (i > 0 && argv[i][0] == '-' && i + 1 < argc)
			v[n++] = argv[++i];
		else if (i > 0 && npos < 2)
			pos[npos++] = argv[i];
	}
	rc = collect(n, v, &line);
	if (!label) {
		if (line.len)
			fwrite(line.s, 1, line.len, stdout);
	} else {
		const char *boot = pos[1] ? pos[1] : "";
		char *path = pos[1] ? run_file_path(pos[0], RUN_FILE_BOOT_PANIC, boot) : NULL, *panic;
		struct sbuf out = { 0 };
		size_t len;

		collect_say(label, boot, rc, line.s, &out);
		if (rc)
			fputs(out.s, stderr);
		else
			say("%.*s", (int)out.len - 1, out.s);
		sb_free(&out);
		/* a failed boot is said even under -q, with the kernel's last words */
		if (path && read_file_all(path, &panic, &len) == 0) {
			sb_indent(&out, panic, 40);
			if (out.len)
				fputs(out.s, stderr);
			sb_free(&out);
			free(panic);
		}
		free(path);
	}
	sb_free(&line);
	free(v);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "labtool collect: cannot write\n");
		if (!rc)
			rc = EXIT_IOERR;
	}
	return rc;
}
