// SPDX-License-Identifier: GPL-2.0
/*
 * The run directory's files made from its boots' files (lab/rundir/rundir.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "rundir.h"
#include "textfile.h"
#include "runfiles.h"

const char *boot_exit_word(int rc)
{
	return rc == 0 ? "ok" : rc == 124 ? "timeout" : rc == 125 ? "idle" : "error";
}

int boot_outcome(const char *status_text, bool exec, int *exec_rc, char *err, size_t errlen)
{
	char st[64], erc[32], n[32];
	int rc = -1;

	if (exec_rc)
		*exec_rc = -1;
	if (!kv_value(status_text, '\n', "status", st, sizeof(st))) {
		snprintf(err, errlen, "no status= line");
		return -1;
	}
	if (exec && kv_value(status_text, '\n', "exec_rc", erc, sizeof(erc)) && *erc &&
	    strcmp(erc, "-1")) {
		char *end;
		long v = strtol(erc, &end, 10);

		if (*end || v < 0 || v > 255) {
			snprintf(err, errlen, "exec_rc=%s is not a status (0-255)", erc);
			return -1;
		}
		rc = (int)v;
	}
	if (exec_rc)
		*exec_rc = rc;
	if (strcmp(st, "ok"))
		return 3;
	if (rc > 0)
		return OUTCOME_EXEC_FAILED;
	if (rc == 0)
		return 0;
	if ((kv_value(status_text, '\n', "tap_not_ok", n, sizeof(n)) && strtoul(n, NULL, 10)) ||
	    (kv_value(status_text, '\n', "steps_failed", n, sizeof(n)) && strtoul(n, NULL, 10)))
		return 1;
	return 0;
}

static int outcome_rank(int rc)
{
	switch (rc) {
	case 0:
		return 0;
	case 1:
		return 1;
	case OUTCOME_EXEC_FAILED:
		return 2;
	case 3:
		return 3;
	default:
		return rc < 0 ? 4 : 4 + rc;
	}
}

int outcome_worst(int a, int b)
{
	return outcome_rank(b) > outcome_rank(a) ? b : a;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

int boot_id_cmp(const char *a, const char *b)
{
	bool na = all_digits(a), nb = all_digits(b);

	if (na != nb)
		return na ? -1 : 1;
	if (na) {
		size_t la, lb;

		a += strspn(a, "0");
		b += strspn(b, "0");
		la = strlen(a);
		lb = strlen(b);
		if (la != lb)
			return la < lb ? -1 : 1;
	}
	return strcmp(a, b);
}

struct boot_rows {
	char *boot;
	struct sbuf rows;
	bool own;	/* from boots/<boot>.csv */
};

struct rows_set {
	struct boot_rows *v;
	size_t n;
};

static struct boot_rows *rows_of(struct rows_set *s, const char *boot, size_t len)
{
	for (size_t i = 0; i < s->n; i++)
		if (strlen(s->v[i].boot) == len && !strncmp(s->v[i].boot, boot, len))
			return &s->v[i];
	s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
	s->v[s->n] = (struct boot_rows){ .boot = xasprintf("%.*s", (int)len, boot) };
	return &s->v[s->n++];
}

static int sort_cmp(const void *a, const void *b)
{
	return boot_id_cmp(((const struct boot_rows *)a)->boot, ((const struct boot_rows *)b)->boot);
}

/* A read that stopped early is an error naming the line, never the file's end. */
static int read_error(const struct textfile *tf, const char *path, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s:%lu: cannot read: %s", path, tf->lineno + 1, strerror(tf->error));
	return tf->error == ENOMEM ? EXIT_SOFTWARE : EXIT_NOINPUT;
}

/* boots/<boot>.csv: the boot id has no '.', so <boot>.topo.csv is not one */
static int rows_filter(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 4 && !strcmp(d->d_name + n - 4, ".csv") && d->d_name[0] != '.' &&
	       !memchr(d->d_name, '.', n - 4);
}

static int read_boot_file(struct rows_set *s, const char *path, const char *boot, char *err,
			  size_t errlen)
{
	struct boot_rows *b = rows_of(s, boot, strlen(boot));
	struct textfile tf;
	char *line;

	b->own = true;
	if (textfile_open(&tf, path) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return EXIT_NOINPUT;
	}
	while ((line = textfile_next(&tf))) {
		if (tf.lineno == 1) {
			if (strcmp(line, summary_header())) {
				snprintf(err, errlen, "%s:1: not summary.csv's header", path);
				textfile_close(&tf);
				return EXIT_INVALID;
			}
			continue;
		}
		sb_printf(&b->rows, "%s\n", line);
	}
	if (tf.error) {
		int rc = read_error(&tf, path, err, errlen);

		textfile_close(&tf);
		return rc;
	}
	if (tf.lineno == 0) {
		snprintf(err, errlen, "%s:1: not summary.csv's header (empty file)", path);
		textfile_close(&tf);
		return EXIT_INVALID;
	}
	textfile_close(&tf);
	return 0;
}

/* summary.csv as it is: rows of the boots that have no file of their own */
static int read_old_summary(struct rows_set *s, const char *path, char *err, size_t errlen)
{
	struct textfile tf;
	char *line;

	if (textfile_open(&tf, path) < 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return EXIT_NOINPUT;
	}
	while ((line = textfile_next(&tf))) {
		const char *id = line;
		size_t len;

		if (tf.lineno == 1)
			continue;
		/* the boot_id column (runfiles.h) */
		for (int k = 0; k < COL_BOOT_ID && id; k++)
			id = strchr(id, ',') ? strchr(id, ',') + 1 : NULL;
		if (!id) {
			snprintf(err, errlen, "%s:%lu: fewer than %d columns", path, tf.lineno, NR_ROW_COLS);
			textfile_close(&tf);
			return EXIT_INVALID;
		}
		len = strcspn(id, ",");
		for (size_t i = 0; i < s->n; i++)
			if (s->v[i].own && strlen(s->v[i].boot) == len && !strncmp(s->v[i].boot, id, len))
				goto next;
		sb_printf(&rows_of(s, id, len)->rows, "%s\n", line);
next:;
	}
	if (tf.error) {
		int rc = read_error(&tf, path, err, errlen);

		textfile_close(&tf);
		return rc;
	}
	textfile_close(&tf);
	return 0;
}

static void rows_free(struct rows_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].boot);
		sb_free(&s->v[i].rows);
	}
	free(s->v);
}

int summary_build(const char *run, struct sbuf *out, char *err, size_t errlen)
{
	char *boots = xasprintf("%s/boots", run), *path;
	struct rows_set s = { 0 };
	struct dirent **names = NULL;
	int n = scandir(boots, &names, rows_filter, alphasort), rc = 0;

	if (n < 0 && errno != ENOENT) {
		snprintf(err, errlen, "%s: %s", boots, strerror(errno));
		rc = EXIT_NOINPUT;
	}
	for (int i = 0; i < n; i++) {
		if (!rc) {
			char *boot = xasprintf("%.*s", (int)(strlen(names[i]->d_name) - 4), names[i]->d_name);

			path = xasprintf("%s/%s", boots, names[i]->d_name);
			rc = read_boot_file(&s, path, boot, err, errlen);
			free(path);
			free(boot);
		}
		free(names[i]);
	}
	free(names);
	if (!rc) {
		path = run_file_path(run, RUN_FILE_SUMMARY, NULL);
		rc = read_old_summary(&s, path, err, errlen);
		free(path);
	}
	if (!rc) {
		if (s.n)
			qsort(s.v, s.n, sizeof(*s.v), sort_cmp);
		sb_puts(out, summary_header());
		sb_putc(out, '\n');
		for (size_t i = 0; i < s.n; i++)
			if (s.v[i].rows.len)
				sb_putn(out, s.v[i].rows.s, s.v[i].rows.len);
	}
	rows_free(&s);
	free(boots);
	return rc;
}

static int topo_filter(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 9 && !strcmp(d->d_name + n - 9, ".topo.csv") && d->d_name[0] != '.' &&
	       !memchr(d->d_name, '.', n - 9);
}

char *guest_view_boot(const char *run)
{
	char *boots = xasprintf("%s/boots", run), *best = NULL;
	struct dirent **names = NULL;
	int n = scandir(boots, &names, topo_filter, alphasort);

	for (int i = 0; i < n; i++) {
		char *boot = xasprintf("%.*s", (int)(strlen(names[i]->d_name) - 9), names[i]->d_name);

		if (!best || boot_id_cmp(boot, best) < 0) {
			free(best);
			best = boot;
		} else {
			free(boot);
		}
		free(names[i]);
	}
	free(names);
	free(boots);
	return best;
}
