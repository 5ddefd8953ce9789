// SPDX-License-Identifier: GPL-2.0
/*
 * labtool meta init RUN-DIR [--topology FILE]... [--kernel-dir DIR] [KEY=VALUE]...
 * labtool meta end RUN-DIR [--kernel-dir DIR] [KEY=VALUE]...
 * labtool meta get RUN-DIR KEY
 *
 * The one writer of RUN-DIR/meta.json (keys: lab/rundir/meta.h).  init writes it
 * as the run starts: the given keys, meta_format, summary_format, the
 * time_unit of the clock, the host's CPUs and kernel, each topology file
 * with its hash.  end completes it as the run ends: the given keys over
 * the file's own, and the end time.  Both write atomically; a file of a
 * newer meta_format, or with a key the list does not know, is refused in one
 * line and left as it is.  get prints one key's value (a topology file per
 * line for topologies), read the way the report reads it.  --kernel-dir
 * takes the kernel's keys from its build directory (release, info).
 *
 * Exit: 0; 1 (get) the key is not recorded; 64 usage; 65 a meta.json this
 * labtool cannot complete; 66 missing input; 70 out of memory; 74 cannot write.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "accounting.h"
#include "json.h"
#include "meta.h"
#include "util.h"
#include "runfiles.h"

static int usage(void)
{
	fprintf(stderr, "usage: labtool meta init RUN-DIR [--topology FILE]... [--kernel-dir DIR] [KEY=VALUE]...\n"
			"       labtool meta end RUN-DIR [--kernel-dir DIR] [KEY=VALUE]...\n"
			"       labtool meta get RUN-DIR KEY\n"
			"keys (lab/rundir/meta.h):");
	for (int k = 0; k < META_NR; k++)
		if (!meta_keys[k].self && meta_keys[k].type != META_TOPOLOGIES)
			fprintf(stderr, " %s", meta_keys[k].name);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

/* The CPUs this process may run on, as nproc(1) counts them. */
static long host_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		return CPU_COUNT(&set);
	return sysconf(_SC_NPROCESSORS_ONLN);
}

int now_iso(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;
	size_t n;

	if (!localtime_r(&t, &tm) || !(n = strftime(buf, size, "%Y-%m-%dT%H:%M:%S%z", &tm)) ||
	    n + 2 > size)
		return -1;
	/* +0000 -> +00:00 */
	memmove(buf + n - 1, buf + n - 2, 3);
	buf[n - 2] = ':';
	return 0;
}

static int add_topology(struct meta *m, const char *file)
{
	unsigned char d[32];
	char *text;
	size_t len;

	if (read_file_all(file, &text, &len) < 0) {
		fprintf(stderr, "labtool meta: --topology %s: %s\n", file, strerror(errno));
		return EXIT_NOINPUT;
	}
	meta_sha256(text, len, d);
	free(text);
	m->topo = xrealloc(m->topo, (m->ntopo + 1) * sizeof(*m->topo));
	m->topo[m->ntopo].file = xstrdup(file);
	m->topo[m->ntopo].hash = xasprintf("%02x%02x%02x%02x%02x%02x%02x%02x", d[0], d[1], d[2],
					   d[3], d[4], d[5], d[6], d[7]);
	m->ntopo++;
	return 0;
}

/*
 * The kernel's keys from its build directory (kernel/build.sh --path):
 * kernel_release from release, kernel_flavor, series_hash and
 * kernel_source from info's flavor=, series_hash= and source= lines.
 */
static int kernel_keys(struct meta *m, const char *dir)
{
	static const char *const from[][2] = {
		{ "flavor", "kernel_flavor" }, { "series_hash", "series_hash" },
		{ "source", "kernel_source" },
	};
	char *path = xasprintf("%s/release", dir), *text = NULL, err[256];
	size_t len;
	int rc = 0;

	if (read_file_all(path, &text, &len) < 0)
		goto fail;
	text[strcspn(text, "\n")] = '\0';
	free(m->v[META_kernel_release]);
	m->v[META_kernel_release] = xstrdup(text);
	free(text);
	free(path);
	path = xasprintf("%s/info", dir);
	if (read_file_all(path, &text, &len) < 0)
		goto fail;
	for (size_t k = 0; k < sizeof(from) / sizeof(from[0]); k++) {
		size_t kl = strlen(from[k][0]);

		for (char *p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
			if (!strncmp(p, from[k][0], kl) && p[kl] == '=') {
				char *a = xasprintf("%s=%.*s", from[k][1], (int)strcspn(p + kl + 1, "\n"),
						    p + kl + 1);

				if (meta_set(m, a, false, err, sizeof(err)) < 0) {
					fprintf(stderr, "labtool meta: %s\n", err);
					rc = EXIT_SOFTWARE;
				}
				free(a);
				break;
			}
	}
	free(text);
	free(path);
	return rc;
fail:
	fprintf(stderr, "labtool meta: --kernel-dir: %s: %s\n", path, strerror(errno));
	free(path);
	return EXIT_NOINPUT;
}

/* time_unit follows the clock: guest instructions under icount. */
static int derive_time_unit(struct meta *m)
{
	const char *clock = m->v[META_clock];

	if (!clock)
		return 0;
	if (strcmp(clock, "icount") && strcmp(clock, "wall")) {
		fprintf(stderr, "labtool meta: clock: '%s' is not icount or wall\n", clock);
		return EXIT_USAGE;
	}
	free(m->v[META_time_unit]);
	m->v[META_time_unit] = xstrdup(!strcmp(clock, "icount") ? "insn" : "ns");
	return 0;
}

/*
 * memory_timing_dilation follows memory_timing: with delay injection the
 * dilation labtool gives the plugin (accounting.h), else absent.
 */
static int derive_dilation(struct meta *m)
{
	const char *mt = m->v[META_memory_timing];
	enum acct_mode mode;
	char err[128];

	free(m->v[META_memory_timing_dilation]);
	m->v[META_memory_timing_dilation] = NULL;
	if (!mt)
		return 0;
	if (acct_mode_parse(mt, &mode, err, sizeof(err))) {
		fprintf(stderr, "labtool meta: memory_timing: '%s' is not off, count or delay\n", mt);
		return EXIT_USAGE;
	}
	if (mode == ACCT_DELAY)
		m->v[META_memory_timing_dilation] = xasprintf("%d", ACCT_DELAY_DILATION);
	return 0;
}

/* RUN-DIR/meta.json into m, strictly (end) or as the report reads it (get). */
static int load(const char *path, bool strict, struct meta *m)
{
	struct kvlist kv = { 0 };
	char *text, err[512];
	size_t len;
	int rc = 0;

	if (read_file_all(path, &text, &len) < 0) {
		int e = errno;

		fprintf(stderr, "labtool meta: %s: %s%s\n", path, strerror(e),
			e == ENOENT ? " (labtool meta init writes it as the run starts)" : "");
		return EXIT_NOINPUT;
	}
	if (json_flatten(text, len, path, &kv, err, sizeof(err)) < 0 ||
	    meta_from_kv(&kv, path, strict, m, err, sizeof(err)) < 0) {
		fprintf(stderr, "labtool meta: %s\n", err);
		rc = EXIT_INVALID;
	}
	kv_free(&kv);
	free(text);
	return rc;
}

static int write_meta(const char *path, const struct meta *m)
{
	char *text = meta_json(m);
	int rc = 0;

	if (write_file_atomic(path, text, strlen(text)) < 0) {
		fprintf(stderr, "labtool meta: %s: %s\n", path, strerror(errno));
		rc = EXIT_IOERR;
	}
	free(text);
	return rc;
}

static int set_self(struct meta *m, enum meta_key k, const char *value)
{
	char *a = xasprintf("%s=%s", meta_keys[k].name, value), err[256];
	int rc = meta_set(m, a, true, err, sizeof(err));

	free(a);
	if (rc < 0)
		fprintf(stderr, "labtool meta: %s\n", err);
	return rc < 0 ? EXIT_SOFTWARE : 0;
}

int cmd_meta(int argc, char **argv)
{
	struct meta m = { 0 };
	const char *verb, *dir;
	char *path, err[256], num[32];
	int rc = 0;

	if (argc < 3)
		return usage();
	verb = argv[1];
	dir = argv[2];
	if (strcmp(verb, "init") && strcmp(verb, "end") && strcmp(verb, "get"))
		return usage();
	if (!strcmp(verb, "get") && argc != 4)
		return usage();
	path = run_file_path(dir, RUN_FILE_META, NULL);

	if (!strcmp(verb, "get")) {
		int k = meta_key_lookup(argv[3]);

		if (k < 0) {
			fprintf(stderr, "labtool meta get: '%s': not a meta.json key (lab/rundir/meta.h)\n",
				argv[3]);
			rc = EXIT_USAGE;
		} else if (!(rc = load(path, false, &m))) {
			if (meta_keys[k].type == META_TOPOLOGIES)
				for (size_t i = 0; i < m.ntopo; i++)
					printf("%s\n", m.topo[i].file ? m.topo[i].file : "");
			else if (m.v[k])
				printf("%s\n", m.v[k]);
			if (meta_keys[k].type == META_TOPOLOGIES ? !m.ntopo : !m.v[k]) {
				fprintf(stderr, "labtool meta get: %s: %s: not recorded\n", path,
					argv[3]);
				rc = 1;
			}
		}
		goto out;
	}

	if (!strcmp(verb, "init")) {
		struct utsname u;

		snprintf(num, sizeof(num), "%d", META_FORMAT);
		rc = set_self(&m, META_meta_format, num);
		snprintf(num, sizeof(num), "%d", SUMMARY_FORMAT);
		rc = rc ? rc : set_self(&m, META_summary_format, num);
		snprintf(num, sizeof(num), "%ld", host_cpus());
		rc = rc ? rc : set_self(&m, META_host_cpus, num);
		if (!rc && uname(&u) == 0)
			rc = set_self(&m, META_host_kernel, u.release);
	} else {
		rc = load(path, true, &m);
		snprintf(num, sizeof(num), "%d", META_FORMAT);
		rc = rc ? rc : set_self(&m, META_meta_format, num);
	}
	for (int i = 3; !rc && i < argc; i++) {
		if (!strcmp(argv[i], "--kernel-dir") && strcmp(verb, "get")) {
			if (i + 1 == argc) {
				rc = usage();
				break;
			}
			rc = kernel_keys(&m, argv[++i]);
		} else if (!strcmp(argv[i], "--topology") && !strcmp(verb, "init")) {
			if (i + 1 == argc) {
				rc = usage();
				break;
			}
			rc = add_topology(&m, argv[++i]);
		} else if (meta_set(&m, argv[i], false, err, sizeof(err)) < 0) {
			fprintf(stderr, "labtool meta %s: %s\n", verb, err);
			rc = EXIT_USAGE;
		}
	}
	if (!rc)
		rc = derive_time_unit(&m);
	if (!rc)
		rc = derive_dilation(&m);
	if (!rc && !strcmp(verb, "end")) {
		char when[40];

		if (now_iso(when, sizeof(when)) < 0) {
			fprintf(stderr, "labtool meta end: cannot read the clock\n");
			rc = EXIT_SOFTWARE;
		} else {
			rc = set_self(&m, META_end, when);
		}
	}
	if (!rc)
		rc = write_meta(path, &m);
out:
	meta_free(&m);
	free(path);
	return rc;
}
