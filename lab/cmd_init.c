// SPDX-License-Identifier: GPL-2.0
/*
 * labtool init [--run RUN-DIR] [META-ARGS...] -- RUN-LAB-OPTIONS... [--] TOPOLOGY...
 *
 * Creates a run directory under --results (lab/runopts.c parses the
 * options, as `labtool args` printed them): RESULTS/<first topology, or
 * multi>-YYYYmmdd-HHMMSS[-N] (mkdir is atomic: runs started in the same
 * second get distinct ids), raw/, run.args (the options in canonical form
 * and the topologies, NUL-separated, for --resume), started (the time, as
 * date -Is prints it) and meta.json (`labtool meta init` with META-ARGS:
 * --kernel-dir DIR, KEY=VALUE).  Prints the run directory.  Each file is
 * written atomically.
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
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "meta.h"
#include "runopts.h"

static int usage(void)
{
	fprintf(stderr, "usage: labtool init [--run RUN-DIR] [--kernel-dir DIR] [KEY=VALUE]... -- "
			"RUN-LAB-OPTIONS... [--] TOPOLOGY...\n");
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
	char *own[8] = { 0 };
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

static int write_text(const char *run, const char *name, const char *text, size_t len)
{
	char *path = xasprintf("%s/%s", run, name);
	int rc = 0;

	if (write_file_atomic(path, text, len) < 0) {
		fprintf(stderr, "run-lab: %s: cannot write %s: %s\n", run, name, strerror(errno));
		rc = EXIT_IOERR;
	}
	free(path);
	return rc;
}

int cmd_init(int argc, char **argv)
{
	struct run_opts o = { 0 };
	const char *existing = NULL;
	char **extra = xcalloc((size_t)argc, sizeof(*extra)), err[1024], when[40];
	int nextra = 0, i = 1, rc = 0;

	for (; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--run") && i + 1 < argc) {
			existing = argv[++i];
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
	if (i == argc) {
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

	if (existing) {
		char *path = xasprintf("%s/meta.json", existing), *start = NULL;
		struct stat sb;
		size_t len;

		if (stat(path, &sb) < 0) {
			char *sp = xasprintf("%s/started", existing);

			if (read_file_all(sp, &start, &len) < 0) {
				fprintf(stderr, "labtool init: %s: %s\n", sp, strerror(errno));
				rc = EXIT_NOINPUT;
			} else {
				start[strcspn(start, "\n")] = '\0';
				rc = meta_init(existing, &o, start, extra, nextra);
			}
			free(start);
			free(sp);
		}
		free(path);
		goto out;
	}

	{
		char stamp[32], *base, *run = NULL;
		struct sbuf args = { 0 };
		char **canon;
		size_t ncanon;
		time_t now = time(NULL);
		struct tm tm;

		if (mkdirs(o.results) < 0 || access(o.results, W_OK) < 0) {
			fprintf(stderr, "run-lab: %s: cannot create or write the results directory\n",
				o.results);
			rc = RUNOPTS_USAGE;
			goto out;
		}
		localtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
		base = run_base(&o);
		/* mkdir is atomic: runs started in the same second get distinct ids */
		for (int k = 1; !run; k++) {
			run = k == 1 ? xasprintf("%s/%s-%s", o.results, base, stamp) :
				       xasprintf("%s/%s-%s-%d", o.results, base, stamp, k);
			if (mkdir(run, 0755) == 0)
				break;
			if (errno != EEXIST) {
				fprintf(stderr, "run-lab: %s: cannot create the run directory: %s\n", run,
					strerror(errno));
				rc = RUNOPTS_USAGE;
				break;
			}
			free(run);
			run = NULL;
		}
		free(base);
		if (!rc) {
			char *raw = xasprintf("%s/raw", run);

			if (mkdir(raw, 0755) < 0) {
				fprintf(stderr, "run-lab: %s: cannot create the run directory: %s\n", raw,
					strerror(errno));
				rc = RUNOPTS_USAGE;
			}
			free(raw);
		}
		/* The options in canonical form, for --resume. */
		runopts_canon(&o, &canon, &ncanon);
		for (size_t k = 0; k < ncanon; k++) {
			sb_putn(&args, canon[k], strlen(canon[k]) + 1);
			free(canon[k]);
		}
		free(canon);
		sb_putn(&args, "--", 3);
		for (size_t k = 0; k < o.ntopo; k++)
			sb_putn(&args, o.topo[k], strlen(o.topo[k]) + 1);
		if (!rc)
			rc = write_text(run, "run.args", args.s, args.len);
		sb_free(&args);
		if (!rc && now_iso(when, sizeof(when)) < 0) {
			fprintf(stderr, "labtool init: cannot read the clock\n");
			rc = EXIT_SOFTWARE;
		}
		if (!rc) {
			char *line = xasprintf("%s\n", when);

			rc = write_text(run, "started", line, strlen(line));
			free(line);
		}
		if (!rc)
			rc = meta_init(run, &o, when, extra, nextra);
		if (!rc)
			printf("%s\n", run);
		free(run);
	}
out:
	runopts_free(&o);
	free(extra);
	return rc;
}
