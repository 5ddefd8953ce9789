// SPDX-License-Identifier: GPL-2.0
/*
 * Loading one run directory: summary.csv (required), guest-topology.csv and
 * meta.json (reported as missing when absent, errors when malformed), and the
 * TAP lines of raw/channel-*.log.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

const char *const row_col_names[NR_ROW_COLS] = {
	"topology", "bench", "policy", "nodes", "pagesize", "scenario",
	"metric", "value", "unit", "run_id", "boot_id", "boot_status",
};

/* Fields a row cannot do without; the others may be empty ("-" is usual). */
static const bool row_col_required[NR_ROW_COLS] = {
	[COL_BENCH] = true, [COL_POLICY] = true, [COL_METRIC] = true,
	[COL_VALUE] = true, [COL_BOOT_STATUS] = true,
};

/* A value is a finite number or one word: [A-Za-z0-9_.:+-]+ (outcomes etc.). */
static bool parse_value(const char *s, double *num, bool *numeric)
{
	char *end;

	*num = strtod(s, &end);
	if (end != s && !*end && isfinite(*num)) {
		*numeric = true;
		return true;
	}
	*numeric = false;
	*num = NAN;
	for (const char *p = s; *p; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("_.:+-", *p)))
			return false;
	}
	return *s != '\0';
}

static int load_csv(const char *path, struct csv *c, bool optional, bool *present)
{
	char *text, err[512];
	size_t len;

	*present = false;
	if (read_file_all(path, &text, &len) < 0) {
		if (optional && errno == ENOENT)
			return 0;
		fprintf(stderr, "labtool: %s: %s\n", path, strerror(errno));
		return -1;
	}
	int rc = csv_parse(text, len, path, c, err, sizeof(err));

	free(text);
	if (rc < 0) {
		fprintf(stderr, "labtool: %s\n", err);
		return -1;
	}
	*present = true;
	return 0;
}

static int load_summary(struct run *r, const char *path)
{
	int col[NR_ROW_COLS];
	bool present;

	if (load_csv(path, &r->summary_csv, false, &present) < 0)
		return -1;
	for (int i = 0; i < NR_ROW_COLS; i++) {
		col[i] = csv_col(&r->summary_csv, row_col_names[i]);
		if (col[i] < 0) {
			fprintf(stderr, "labtool: %s:1: header: missing column '%s'\n", path,
				row_col_names[i]);
			return -1;
		}
	}
	r->nrows = r->summary_csv.nrows;
	r->rows = xcalloc(r->nrows, sizeof(*r->rows));
	for (size_t i = 0; i < r->nrows; i++) {
		struct csv_row *cr = &r->summary_csv.rows[i];
		struct row *row = &r->rows[i];

		row->line = cr->line;
		for (int k = 0; k < NR_ROW_COLS; k++) {
			row->f[k] = cr->field[col[k]];
			if (row_col_required[k] && !row->f[k][0]) {
				fprintf(stderr, "labtool: %s:%u: %s: empty\n", path, cr->line,
					row_col_names[k]);
				return -1;
			}
		}
		if (!parse_value(row->f[COL_VALUE], &row->num, &row->numeric)) {
			fprintf(stderr,
				"labtool: %s:%u: value: '%s' is neither a number nor a word\n",
				path, cr->line, row->f[COL_VALUE]);
			return -1;
		}
	}
	return 0;
}

static int load_meta(struct run *r, const char *path)
{
	char *text, err[512];
	size_t len;

	if (read_file_all(path, &text, &len) < 0) {
		if (errno == ENOENT)
			return 0;
		fprintf(stderr, "labtool: %s: %s\n", path, strerror(errno));
		return -1;
	}
	int rc = json_flatten(text, len, path, &r->meta, err, sizeof(err));

	free(text);
	if (rc < 0) {
		fprintf(stderr, "labtool: %s\n", err);
		return -1;
	}
	r->have_meta = true;
	return 0;
}

static bool all_of(const char *s, size_t n, const char *set)
{
	for (size_t i = 0; i < n; i++)
		if (!s[i] || !strchr(set, s[i]))
			return false;
	return n > 0;
}

/* "<seq> <crc32> TAP ok 3 - text # SKIP why": only framed TAP lines count. */
static void parse_tap_line(struct run *r, const char *boot, const char *line)
{
	const char *sp1 = strchr(line, ' '), *sp2, *p;
	struct tap t = { 0 };

	if (!sp1 || !all_of(line, (size_t)(sp1 - line), "0123456789"))
		return;
	sp2 = strchr(sp1 + 1, ' ');
	if (!sp2 || sp2 - sp1 - 1 != 8 || !all_of(sp1 + 1, 8, "0123456789abcdefABCDEF"))
		return;
	p = sp2 + 1;
	if (!strncmp(p, "TAP ok ", 7)) {
		t.ok = true;
		p += 7;
	} else if (!strncmp(p, "TAP not ok ", 11)) {
		p += 11;
	} else
		return;
	char *end;

	t.number = strtol(p, &end, 10);
	p = end;
	while (*p == ' ' || *p == '-')
		p++;
	const char *hash = strstr(p, " # ");
	size_t textlen = hash ? (size_t)(hash - p) : strlen(p);

	t.text = xmalloc(textlen + 1);
	memcpy(t.text, p, textlen);
	t.text[textlen] = '\0';
	t.directive = xstrdup(hash ? hash + 3 : "");
	t.boot = xstrdup(boot);
	r->taps = xrealloc(r->taps, (r->ntaps + 1) * sizeof(*r->taps));
	r->taps[r->ntaps++] = t;
}

static int channel_filter(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return !strncmp(d->d_name, "channel-", 8) && n > 12 && !strcmp(d->d_name + n - 4, ".log");
}

static int load_taps(struct run *r)
{
	char *raw = xasprintf("%s/raw", r->dir);
	struct dirent **names;
	int n = scandir(raw, &names, channel_filter, alphasort);

	if (n < 0) {
		int e = errno;

		free(raw);
		if (e == ENOENT)
			return 0;
		fprintf(stderr, "labtool: %s/raw: %s\n", r->dir, strerror(e));
		return -1;
	}
	int rc = 0;

	for (int i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", raw, names[i]->d_name);
		size_t len, blen = strlen(names[i]->d_name) - 12;
		char *text, *boot = xmalloc(blen + 1);

		memcpy(boot, names[i]->d_name + 8, blen);
		boot[blen] = '\0';
		if (read_file_all(path, &text, &len) < 0) {
			fprintf(stderr, "labtool: %s: %s\n", path, strerror(errno));
			rc = -1;
		} else {
			for (char *line = text, *nl; line && *line; line = nl) {
				nl = strchr(line, '\n');
				if (nl)
					*nl++ = '\0';
				size_t ll = strlen(line);

				if (ll && line[ll - 1] == '\r')
					line[ll - 1] = '\0';
				parse_tap_line(r, boot, line);
			}
			free(text);
		}
		free(boot);
		free(path);
		free(names[i]);
	}
	free(names);
	free(raw);
	return rc;
}

int run_load(const char *dir, struct run *r)
{
	char *p;
	bool present;
	size_t n = strlen(dir);

	*r = (struct run){ 0 };
	while (n > 1 && dir[n - 1] == '/')
		n--;
	r->dir = xmalloc(n + 1);
	memcpy(r->dir, dir, n);
	r->dir[n] = '\0';
	p = strrchr(r->dir, '/');
	r->name = xstrdup(p ? p + 1 : r->dir);

	p = xasprintf("%s/summary.csv", r->dir);
	int rc = load_summary(r, p);

	free(p);
	if (rc < 0)
		goto fail;
	p = xasprintf("%s/guest-topology.csv", r->dir);
	rc = load_csv(p, &r->topo_csv, true, &present);
	free(p);
	if (rc < 0)
		goto fail;
	r->have_topo = present;
	if (present && csv_col(&r->topo_csv, "node") < 0) {
		fprintf(stderr, "labtool: %s/guest-topology.csv:1: header: missing column 'node'\n",
			r->dir);
		goto fail;
	}
	p = xasprintf("%s/meta.json", r->dir);
	rc = load_meta(r, p);
	free(p);
	if (rc < 0 || load_taps(r) < 0)
		goto fail;
	return 0;
fail:
	run_free(r);
	return -1;
}

void run_free(struct run *r)
{
	csv_free(&r->summary_csv);
	csv_free(&r->topo_csv);
	kv_free(&r->meta);
	for (size_t i = 0; i < r->ntaps; i++) {
		free(r->taps[i].boot);
		free(r->taps[i].text);
		free(r->taps[i].directive);
	}
	free(r->taps);
	free(r->rows);
	free(r->dir);
	free(r->name);
	*r = (struct run){ 0 };
}

const char *run_meta(const struct run *r, ...)
{
	va_list ap;
	const char *key, *v = NULL;

	va_start(ap, r);
	while (!v && (key = va_arg(ap, const char *)))
		v = kv_get(&r->meta, key);
	va_end(ap);
	return v && *v ? v : NULL;
}

static bool match(const char *want, const char *have)
{
	return !want || !strcmp(want, have);
}

struct row *run_find(struct run *r, const char *bench, const char *policy, const char *nodes,
		     const char *pagesize, const char *scenario, const char *metric)
{
	for (size_t i = 0; i < r->nrows; i++) {
		struct row *w = &r->rows[i];

		if (strcmp(w->f[COL_BOOT_STATUS], "ok"))
			continue;
		if (match(bench, w->f[COL_BENCH]) && match(policy, w->f[COL_POLICY]) &&
		    match(nodes, w->f[COL_NODES]) && match(pagesize, w->f[COL_PAGESIZE]) &&
		    match(scenario, w->f[COL_SCENARIO]) && match(metric, w->f[COL_METRIC])) {
			w->used = true;
			return w;
		}
	}
	return NULL;
}
