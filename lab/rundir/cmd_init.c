// SPDX-License-Identifier: GPL-2.0
/*
 * labtool init [--run RUN-DIR] [META-ARGS...] -- RUN-LAB-OPTIONS... [--] TOPOLOGY...
 *
 * Creates a run directory under --results (lab/rundir/runopts.c parses the
 * options, as `labtool args` printed them): RESULTS/<first topology, or
 * multi>-YYYYmmdd-HHMMSS[-N] (mkdir is atomic: runs started in the same
 * second get distinct ids), raw/, run.args (the options in canonical form
 * and the topologies, NUL-separated, for --resume), started (the time, as
 * date -Is prints it) and meta.json (`labtool meta init` with META-ARGS:
 * --kernel-dir DIR, KEY=VALUE).  Prints the run directory.  Each file is
 * written atomically.
 *
 * With --staging DIR --initramfs F, first DIR's file system must hold the
 * initramfs of every boot in flight (-j of them; each F's size and 8 MiB,
 * run-lab.sh's staging), else run-lab's one line naming $TMPDIR, exit 2.
 *
 * With --run RUN-DIR the run exists (--resume): meta.json is written, from
 * its started and the options, only if the run has none (a run begun
 * before labtool meta wrote it at the start).
 *
 * Exit: 0; 2 the results directory cannot be made or written; 64 usage; as
 * `labtool meta init` for meta.json.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "meta.h"
#include "runopts.h"
#include "rundir.h"
#include "runfiles.h"

static int usage(void)
{
	fprintf(stderr, "usage: labtool init [--run RUN-DIR [--no-meta] | --plan LAB-DIR] [--kernel-dir DIR] "
			"[--staging DIR --initramfs F] [KEY=VALUE]... -- RUN-LAB-OPTIONS... [--] TOPOLOGY...\n");
	return EXIT_USAGE;
}

/* mkdir -p */
static int mkdirs(const char *path)
{
	char *p = xstrdup(path);
	int rc = 0;

	for (char *s = p + 1; *s && !rc; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(p, 0755) < 0 && errno != EEXIST)
				rc = -1;
			*s = '/';
		}
	if (!rc && mkdir(p, 0755) < 0 && errno != EEXIST)
		rc = -1;
	free(p);
	return rc;
}

/* The run's name: the topology's file name without .yaml, or "multi". */
static char *run_base(const struct run_opts *o)
{
	const char *t = o->topo[0], *slash = strrchr(t, '/');
	size_t n;

	if (o->ntopo > 1)
		return xstrdup("multi");
	t = slash ? slash + 1 : t;
	n = strlen(t);
	if (n > 5 && !strcmp(t + n - 5, ".yaml"))
		n -= 5;
	return xasprintf("%.*s", (int)n, t);
}

static int meta_init(const char *run, const struct run_opts *o, const char *start, char **extra,
		     int nextra)
{
	char **v = xcalloc((size_t)nextra + 2 * o->ntopo + 16, sizeof(*v));
	char *own[9] = { 0 };
	int n = 0, k = 0, rc;

	v[n++] = "meta";
	v[n++] = "init";
	v[n++] = (char *)run;
	for (size_t i = 0; i < o->ntopo; i++) {
		v[n++] = "--topology";
		v[n++] = o->topo[i];
	}
	v[n++] = own[k++] = xasprintf("start=%s", start);
	v[n++] = own[k++] = xasprintf("clock=%s", o->clock);
	v[n++] = own[k++] = xasprintf("fits=%s", o->fits);
	v[n++] = own[k++] = xasprintf("memory_timing=%s", o->memory_timing);
	v[n++] = own[k++] = xasprintf("tiering=%s", o->tiering);
	{
		char *s = runopts_summary(o);

		v[n++] = own[k++] = xasprintf("options=%s", s);
		free(s);
	}
	for (int i = 0; i < nextra; i++)
		v[n++] = extra[i];
	rc = cmd_meta(n, v);
	for (int i = 0; i < k; i++)
		free(own[i]);
	free(v);
	return rc;
}

static int write_text(const char *run, enum run_file f, const char *text, size_t len)
{
	char *path = run_file_path(run, f, NULL);
	int rc = 0;

	if (write_file_atomic(path, text, len) < 0) {
		fprintf(stderr, "run-lab: %s: cannot write %s: %s\n", run, run_files[f].path,
			strerror(errno));
		rc = EXIT_IOERR;
	}
	free(path);
	return rc;
}

/*
 * Free space on @dir or, if it does not exist yet, its nearest parent: a
 * boot leaves ~5 MiB (logs, rows), the report a few more.  0, or
 * RUNOPTS_USAGE with run-lab's message.
 */
static int check_space(const char *dir, const struct run_opts *o)
{
	long need = 16 + 8 * (long)o->ntopo * o->boots;
	char *at = xstrdup(dir);
	struct statvfs v;
	struct stat sb;
	int rc = 0;

	while (stat(at, &sb) < 0 && strcmp(at, "/") && strcmp(at, ".")) {
		char *slash = strrchr(at, '/');

		if (!slash)
			strcpy(at, ".");
		else if (slash == at)
			at[1] = '\0';
		else
			*slash = '\0';
	}
	if (statvfs(at, &v) == 0) {
		long have = (long)((unsigned long long)v.f_bavail * v.f_frsize / 1048576);

		if (have < need) {
			fprintf(stderr, "run-lab: %s: only %ld MiB free; this run needs about %ld MiB "
					"(logs, rows, report)\n", dir, have, need);
			rc = RUNOPTS_USAGE;
		}
	}
	free(at);
	return rc;
}

long staging_need_mib(long long initramfs_bytes, long jobs)
{
	return (long)(initramfs_bytes / 1048576 + 8) * jobs;
}

/* room in @dir for -j boots' initramfs, each the size of @initramfs and 8 MiB */
static int check_staging(const char *dir, const char *initramfs, const struct run_opts *o)
{
	const char *tmp = getenv("TMPDIR");
	struct statvfs v;
	struct stat sb;
	long need, have;

	if (stat(initramfs, &sb) < 0) {
		fprintf(stderr, "labtool init: %s: %s\n", initramfs, strerror(errno));
		return EXIT_NOINPUT;
	}
	/* a file system that does not say: not checked, as df printing nothing */
	if (statvfs(dir, &v) < 0)
		return 0;
	need = staging_need_mib((long long)sb.st_size, o->jobs);
	have = (long)((unsigned long long)v.f_bavail * v.f_frsize / 1024 / 1024);
	if (have >= need)
		return 0;
	fprintf(stderr, "run-lab: %s: only %ld MiB free; staging %ld boot(s) needs about %ld MiB (set TMPDIR)\n",
		tmp && *tmp ? tmp : "/tmp", have, o->jobs, need);
	return RUNOPTS_USAGE;
}

/* A run that exists (--resume): writable, with room; meta.json if it has none. */
static int existing_run(const char *run, const struct run_opts *o, bool meta, char **extra,
			int nextra)
{
	char *path = run_file_path(run, RUN_FILE_META, NULL), *start = NULL, *sp;
	struct stat sb;
	size_t len;
	int rc = 0;

	if (access(run, W_OK) < 0) {
		fprintf(stderr, "run-lab: %s: the run directory is not writable\n", run);
		rc = RUNOPTS_USAGE;
	}
	if (!rc)
		rc = check_space(run, o);
	if (!rc && meta && stat(path, &sb) < 0) {
		sp = run_file_path(run, RUN_FILE_STARTED, NULL);
		if (read_file_all(sp, &start, &len) < 0) {
			fprintf(stderr, "labtool init: %s: %s\n", sp, strerror(errno));
			rc = EXIT_NOINPUT;
		} else {
			start[strcspn(start, "\n")] = '\0';
			rc = meta_init(run, o, start, extra, nextra);
		}
		free(start);
		free(sp);
	}
	free(path);
	return rc;
}

/* A new run of @o's topologies under --results; its path in *out. */
static int new_run(const struct run_opts *o, char **extra, int nextra, char **out)
{
	char stamp[32], *base, *run = NULL, when[40], **canon;
	struct sbuf args = { 0 };
	size_t ncanon;
	time_t now = time(NULL);
	struct tm tm;
	int rc = 0;

	*out = NULL;
	if (mkdirs(o->results) < 0 || access(o->results, W_OK) < 0) {
		fprintf(stderr, "run-lab: %s: cannot create or write the results directory\n", o->results);
		return RUNOPTS_USAGE;
	}
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	base = run_base(o);
	/* mkdir is atomic: runs started in the same second get distinct ids */
	for (int k = 1; !run; k++) {
		run = k == 1 ? xasprintf("%s/%s-%s", o->results, base, stamp) :
			       xasprintf("%s/%s-%s-%d", o->results, base, stamp, k);
		if (mkdir(run, 0755) == 0)
			break;
		if (errno != EEXIST) {
			fprintf(stderr, "run-lab: %s: cannot create the run directory: %s\n", run,
				strerror(errno));
			free(run);
			free(base);
			return RUNOPTS_USAGE;
		}
		free(run);
		run = NULL;
	}
	free(base);
	{
		char *raw = xasprintf("%s/raw", run);

		if (mkdir(raw, 0755) < 0) {
			fprintf(stderr, "run-lab: %s: cannot create the run directory: %s\n", raw,
				strerror(errno));
			rc = RUNOPTS_USAGE;
		}
		free(raw);
	}
	/* The options in canonical form, for --resume. */
	runopts_canon(o, &canon, &ncanon);
	for (size_t k = 0; k < ncanon; k++) {
		sb_putn(&args, canon[k], strlen(canon[k]) + 1);
		free(canon[k]);
	}
	free(canon);
	sb_putn(&args, "--", 3);
	for (size_t k = 0; k < o->ntopo; k++)
		sb_putn(&args, o->topo[k], strlen(o->topo[k]) + 1);
	if (!rc)
		rc = write_text(run, RUN_FILE_RUN_ARGS, args.s, args.len);
	sb_free(&args);
	if (!rc && now_iso(when, sizeof(when)) < 0) {
		fprintf(stderr, "labtool init: cannot read the clock\n");
		rc = EXIT_SOFTWARE;
	}
	if (!rc) {
		char *line = xasprintf("%s\n", when);

		rc = write_text(run, RUN_FILE_STARTED, line, strlen(line));
		free(line);
	}
	if (!rc)
		rc = meta_init(run, o, when, extra, nextra);
	if (rc)
		free(run);
	else
		*out = run;
	return rc;
}

/*
 * --plan LAB: the runs (one per topology, or one of all with --exec), then
 * one command per boot on stdout and the final step, a script, on stderr.
 */
static int plan_runs(struct run_opts *o, const char *lab, char **extra, int nextra)
{
	char **all = o->topo, **runs;
	size_t nall = o->ntopo, nruns = (nall > 1 && !*o->exec_cmd) ? nall : 1, lines = 0;
	struct sbuf out = { 0 }, fin = { 0 };
	int rc = 0;

	runs = xcalloc(nruns, sizeof(*runs));
	for (size_t g = 0; g < nruns && !rc; g++) {
		char *run;

		if (nruns > 1) {
			o->topo = &all[g];
			o->ntopo = 1;
		}
		rc = new_run(o, extra, nextra, &run);
		o->topo = all;
		o->ntopo = nall;
		if (rc)
			break;
		runs[g] = realpath(run, NULL);
		free(run);
		if (!runs[g]) {
			fprintf(stderr, "labtool init: %s\n", strerror(errno));
			rc = EXIT_SOFTWARE;
			break;
		}
		for (long id = 1; id <= (nruns > 1 ? 1 : (long)nall) * o->boots; id++, lines++) {
			sb_puts(&out, "cd ");
			sb_shell_arg(&out, lab);
			sb_puts(&out, " && ./run-lab.sh --resume ");
			sb_shell_arg(&out, runs[g]);
			sb_printf(&out, " --only-boot %ld -q\n", id);
		}
	}
	if (!rc) {
		sb_printf(&fin, "# once the %zu boot(s) above have all finished, finish %s%s%s:\n", lines,
			  nruns == 1 ? "the run" : "each run", *o->exec_cmd ? "" : " and write its report",
			  nruns == 1 ? "" : ", then the comparison");
		for (size_t g = 0; g < nruns; g++) {
			sb_puts(&fin, "cd ");
			sb_shell_arg(&fin, lab);
			sb_puts(&fin, " && ./run-lab.sh --resume ");
			sb_shell_arg(&fin, runs[g]);
			sb_putc(&fin, '\n');
		}
		if (nruns > 1) {
			sb_puts(&fin, "cd ");
			sb_shell_arg(&fin, lab);
			sb_puts(&fin, " && ./run-lab.sh compare");
			for (size_t g = 0; g < nruns; g++) {
				sb_putc(&fin, ' ');
				sb_shell_arg(&fin, runs[g]);
			}
			sb_putc(&fin, '\n');
		}
		fwrite(out.s, 1, out.len, stdout);
		fflush(stdout);
		fwrite(fin.s, 1, fin.len, stderr);
	}
	for (size_t g = 0; g < nruns; g++)
		free(runs[g]);
	free(runs);
	sb_free(&out);
	sb_free(&fin);
	return rc;
}

int cmd_init(int argc, char **argv)
{
	struct run_opts o = { 0 };
	const char *existing = NULL, *plan_lab = NULL, *staging = NULL, *initramfs = NULL;
	char **extra = xcalloc((size_t)argc, sizeof(*extra)), err[1024];
	int nextra = 0, i = 1, rc = 0;
	bool meta = true;

	for (; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--run") && i + 1 < argc) {
			existing = argv[++i];
		} else if (!strcmp(argv[i], "--plan") && i + 1 < argc) {
			plan_lab = argv[++i];
		} else if (!strcmp(argv[i], "--staging") && i + 1 < argc) {
			staging = argv[++i];
		} else if (!strcmp(argv[i], "--initramfs") && i + 1 < argc) {
			initramfs = argv[++i];
		} else if (!strcmp(argv[i], "--no-meta")) {
			meta = false;
		} else if (!strcmp(argv[i], "--kernel-dir") && i + 1 < argc) {
			extra[nextra++] = argv[i];
			extra[nextra++] = argv[++i];
		} else if (strchr(argv[i], '=') && argv[i][0] != '-') {
			extra[nextra++] = argv[i];
		} else {
			free(extra);
			return usage();
		}
	}
	if (i == argc || (existing && plan_lab) || !staging != !initramfs) {
		free(extra);
		return usage();
	}
	rc = runopts_parse(argc - i - 1, argv + i + 1, &o, err, sizeof(err));
	if (!rc && !o.ntopo)
		snprintf(err, sizeof(err), "no topology"), rc = EXIT_USAGE;
	if (rc) {
		fprintf(stderr, "labtool init: %s\n", err);
		goto out;
	}
	if (staging && (rc = check_staging(staging, initramfs, &o)))
		goto out;
	if (existing) {
		rc = existing_run(existing, &o, meta, extra, nextra);
		goto out;
	}
	/* checked before anything is written */
	rc = check_space(o.results, &o);
	if (!rc && plan_lab) {
		rc = plan_runs(&o, plan_lab, extra, nextra);
	} else if (!rc) {
		char *run;

		rc = new_run(&o, extra, nextra, &run);
		if (!rc)
			printf("%s\n", run);
		free(run);
	}
out:
	runopts_free(&o);
	free(extra);
	return rc;
}
