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
#include <sys/stat.h>

#include "frame.h"
#include "report_int.h"
#include "rowvalue.h"
#include "stats.h"
#include "topology.h"
#include "runfiles.h"

/* Fields a row cannot do without; the others may be empty ("-" is usual). */
static const bool row_col_required[NR_ROW_COLS] = {
	[COL_BENCH] = true, [COL_POLICY] = true, [COL_METRIC] = true,
	[COL_VALUE] = true, [COL_BOOT_STATUS] = true,
};

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

/*
 * summary.csv format 2 (meta.json "summary_format": 2) renamed rows so that
 * each word means one thing (README "Words the lab uses"); a run of format
 * 1 is read under the new names.
 */
static const char *const metric_renames[][2] = {
	{ "preferred_frac", "on_set_frac" },
	{ "inside_frac", "in_mask_frac" },
	{ "step_preferred_frac", "step_on_set_frac" },
	{ "pages_preferred_frac", "alloc_on_set_frac" },
};

const char *metric_current_name(const char *metric)
{
	for (size_t i = 0; i < sizeof(metric_renames) / sizeof(metric_renames[0]); i++)
		if (!strcmp(metric, metric_renames[i][0]))
			return metric_renames[i][1];
	return metric;
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
	r->nboot_rows = r->summary_csv.nrows;
	r->boot_rows = xcalloc(r->nboot_rows, sizeof(*r->boot_rows));
	for (size_t i = 0; i < r->nboot_rows; i++) {
		struct csv_row *cr = &r->summary_csv.rows[i];
		struct row *row = &r->boot_rows[i];

		row->line = cr->line;
		for (int k = 0; k < NR_ROW_COLS; k++) {
			row->f[k] = k == COL_METRIC ? metric_current_name(cr->field[col[k]])
						    : cr->field[col[k]];
			if (row_col_required[k] && !row->f[k][0]) {
				fprintf(stderr, "labtool: %s:%u: %s: empty\n", path, cr->line,
					row_col_names[k]);
				return -1;
			}
		}
		if (!row_value_parse(row->f[COL_VALUE], &row->num, &row->numeric)) {
			fprintf(stderr,
				"labtool: %s:%u: value: '%s' is neither a number nor a word\n",
				path, cr->line, row->f[COL_VALUE]);
			return -1;
		}
	}
	return 0;
}

/* ---- boots as the replicate ---- */

/* A string -> index map (open addressing, FNV-1a), for grouping rows. */
struct strmap {
	char **key;
	size_t *val, cap, n;
};

static size_t fnv(const char *s)
{
	size_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* The slot of @key: its value in *val when found (returns true). */
static bool strmap_find(struct strmap *m, const char *key, size_t **val)
{
	if (m->n * 2 >= m->cap) {
		struct strmap g = { xcalloc(m->cap ? 2 * m->cap : 1024, sizeof(char *)),
				    xcalloc(m->cap ? 2 * m->cap : 1024, sizeof(size_t)),
				    m->cap ? 2 * m->cap : 1024, m->n };

		for (size_t i = 0; i < m->cap; i++)
			if (m->key[i]) {
				size_t j = fnv(m->key[i]) & (g.cap - 1);

				while (g.key[j])
					j = (j + 1) & (g.cap - 1);
				g.key[j] = m->key[i];
				g.val[j] = m->val[i];
			}
		free(m->key);
		free(m->val);
		*m = g;
	}
	size_t j = fnv(key) & (m->cap - 1);

	while (m->key[j] && strcmp(m->key[j], key))
		j = (j + 1) & (m->cap - 1);
	*val = &m->val[j];
	if (m->key[j])
		return true;
	m->key[j] = xstrdup(key);
	m->val[j] = 0;
	m->n++;
	return false;
}

static void strmap_free(struct strmap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->key[i]);
	free(m->key);
	free(m->val);
}

static int cmp_boot_id(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	char *ex, *ey;
	long nx = strtol(x, &ex, 10), ny = strtol(y, &ey, 10);

	if (!*ex && !*ey && nx != ny)
		return nx < ny ? -1 : 1;
	return strcmp(x, y);
}

static bool is_ok_row(const struct row *w)
{
	return !strcmp(w->f[COL_BOOT_STATUS], "ok");
}

/*
 * run.rows from run.boot_rows: the k-th row of a key (topology, bench,
 * policy, nodes, page size, scenario, metric, unit) in one ok boot goes with
 * the k-th of that key in every other ok boot; the figure is their median
 * (the first boot's word when a value is a word).
 */
void run_aggregate(struct run *r)
{
	struct strmap occ = { 0 }, groups = { 0 }, boots = { 0 };
	size_t *gidx = xcalloc(r->nboot_rows ? r->nboot_rows : 1, sizeof(*gidx));
	const char **boot_ids = NULL;
	size_t nb = 0;
	struct sbuf k = { 0 };

	r->rows = xcalloc(r->nboot_rows ? r->nboot_rows : 1, sizeof(*r->rows));
	r->nrows = 0;
	for (size_t i = 0; i < r->nboot_rows; i++) {
		struct row *w = &r->boot_rows[i];
		size_t *slot;

		if (!is_ok_row(w)) {
			r->rows[r->nrows] = *w;
			w->agg = &r->rows[r->nrows++];
			continue;
		}
		if (!strmap_find(&boots, w->f[COL_BOOT_ID], &slot)) {
			boot_ids = xrealloc(boot_ids, (nb + 1) * sizeof(*boot_ids));
			boot_ids[nb++] = w->f[COL_BOOT_ID];
		}
		k.len = 0;
		for (int c = COL_TOPOLOGY; c <= COL_UNIT; c++)
			if (c != COL_VALUE)
				sb_printf(&k, "%s\x1f", w->f[c]);
		size_t base = k.len;

		sb_puts(&k, w->f[COL_BOOT_ID]);
		strmap_find(&occ, k.s, &slot);
		size_t nth = (*slot)++;

		k.len = base;
		sb_printf(&k, "%zu", nth);
		if (!strmap_find(&groups, k.s, &slot)) {
			*slot = r->nrows;
			r->rows[r->nrows] = *w;
			r->rows[r->nrows].over = xcalloc(1, sizeof(struct over_boots));
			r->nrows++;
		}
		gidx[i] = *slot;
		struct over_boots *o = r->rows[*slot].over;

		o->boot = xrealloc(o->boot, (o->n + 1) * sizeof(*o->boot));
		o->boot[o->n++] = w->f[COL_BOOT_ID];
		w->agg = &r->rows[*slot];
	}
	r->nboots = nb;
	free(boot_ids);
	/* each figure's values in boot order */
	for (size_t g = 0; g < r->nrows; g++) {
		struct row *a = &r->rows[g];
		struct over_boots *o = a->over;
		bool numeric = true, equal = true;

		if (!o)
			continue;
		qsort(o->boot, o->n, sizeof(*o->boot), cmp_boot_id);
		o->v = xcalloc(o->n, sizeof(*o->v));
		for (size_t i = 0; i < r->nboot_rows; i++) {
			struct row *w = &r->boot_rows[i];

			if (w->agg != a)
				continue;
			numeric &= w->numeric;
			equal &= !strcmp(w->f[COL_VALUE], a->f[COL_VALUE]);
			for (size_t b = 0; b < o->n; b++)
				if (o->boot[b] == w->f[COL_BOOT_ID] ||
				    !strcmp(o->boot[b], w->f[COL_BOOT_ID])) {
					o->v[b] = w->num;
					break;
				}
		}
		if (o->n == 1)
			snprintf(o->label, sizeof(o->label), "%s", o->boot[0]);
		else
			snprintf(o->label, sizeof(o->label), "median of %zu boots", o->n);
		a->f[COL_BOOT_ID] = o->label;
		if (!numeric) {
			free(o->v);
			o->v = NULL;
			o->lo = o->hi = o->cov = NAN;
			continue;
		}
		double *s = xcalloc(o->n, sizeof(*s));
		struct median_ci ci = stats_median_ci_ranks(o->n, 0.95);

		memcpy(s, o->v, o->n * sizeof(*s));
		a->num = stats_median(s, o->n);
		o->lo = s[ci.lo_rank - 1];
		o->hi = s[ci.hi_rank - 1];
		o->cov = ci.coverage;
		free(s);
		/* the file's own text when every boot agrees, else the median */
		if (!equal) {
			snprintf(o->value, sizeof(o->value), "%.9g", a->num);
			a->f[COL_VALUE] = o->value;
		}
	}
	free(gidx);
	sb_free(&k);
	strmap_free(&occ);
	strmap_free(&groups);
	strmap_free(&boots);
}

void run_aggregate_free(struct run *r)
{
	for (size_t i = 0; i < r->nrows; i++)
		if (r->rows[i].over) {
			free(r->rows[i].over->v);
			free(r->rows[i].over->boot);
			free(r->rows[i].over);
		}
	free(r->rows);
	r->rows = NULL;
	r->nrows = 0;
}

size_t over_pair(const struct row *a, const struct row *b, double *va, double *vb)
{
	size_t n = 0;

	if (!a || !b || !a->over || !b->over || !a->over->v || !b->over->v)
		return 0;
	for (size_t i = 0; i < a->over->n; i++)
		for (size_t j = 0; j < b->over->n; j++)
			if (!strcmp(a->over->boot[i], b->over->boot[j])) {
				va[n] = a->over->v[i];
				vb[n++] = b->over->v[j];
				break;
			}
	return n;
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
	/* a newer lab's keys may mean something else under the same name */
	if (rc == 0 && meta_format_check(&r->meta, path, err, sizeof(err)) < 0)
		rc = -1;
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

/* "ok 3 - text # SKIP why", "not ok 3 - text"; plan lines ("1..N") end a group. */
static bool parse_tap(struct run *r, const char *boot, const char *group, const char *p)
{
	struct tap t = { 0 };
	char *end;

	if (!strncmp(p, "ok ", 3)) {
		t.ok = true;
		p += 3;
	} else if (!strncmp(p, "not ok ", 7)) {
		p += 7;
	} else
		return false;
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
	t.group = xstrdup(group);
	r->taps = xrealloc(r->taps, (r->ntaps + 1) * sizeof(*r->taps));
	r->taps[r->ntaps++] = t;
	return true;
}

static bool is_plan(const char *p)
{
	return p[0] >= '0' && p[0] <= '9' && strstr(p, "..") != NULL;
}

const char *channel_payload(const char *line)
{
	const char *sp1 = strchr(line, ' '), *sp2;

	if (!sp1 || !all_of(line, (size_t)(sp1 - line), "0123456789"))
		return NULL;
	sp2 = strchr(sp1 + 1, ' ');
	if (!sp2 || sp2 - sp1 - 1 != 8 || !all_of(sp1 + 1, 8, "0123456789abcdef"))
		return NULL;
	/* a damaged line says nothing: collect marked the boot, the report skips it */
	if (strtoul(sp1 + 1, NULL, 16) != frame_crc32(sp2 + 1, strlen(sp2 + 1)))
		return NULL;
	return sp2 + 1;
}

static int name_filter(const struct dirent *d, const char *prefix, const char *suffix)
{
	size_t n = strlen(d->d_name), pl = strlen(prefix), sl = strlen(suffix);

	return n > pl + sl && !strncmp(d->d_name, prefix, pl) && !strcmp(d->d_name + n - sl, suffix);
}

static int channel_filter(const struct dirent *d)
{
	return name_filter(d, "channel-", ".log");
}

static int tap_filter(const struct dirent *d)
{
	return name_filter(d, "", ".tap");
}

static int hist_filter(const struct dirent *d)
{
	return name_filter(d, "", ".hist");
}

/* Calls fn on every line of path (CR stripped); -1 when it cannot be read. */
static int for_each_line(const char *path, void (*fn)(void *, char *), void *arg)
{
	char *text;
	size_t len;

	if (read_file_all(path, &text, &len) < 0)
		return -1;
	for (char *line = text, *nl; line && *line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		size_t ll = strlen(line);

		if (ll && line[ll - 1] == '\r')
			line[ll - 1] = '\0';
		fn(arg, line);
	}
	free(text);
	return 0;
}

/* What the channel log of one boot says: its META facts, the steps with TAP. */
struct chan_scan {
	struct run *r;
	const char *boot;
	bool taps;		/* also take its TAP lines (no boots/<boot>.tap) */
	char *step;		/* the step running now */
	struct strlist groups;	/* step name per TAP plan line, in order (owned) */
	bool step_had_tap;
};

static void kv_add(struct kvlist *l, const char *key, const char *value)
{
	if (kv_get(l, key))
		return;
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = (struct kv){ xstrdup(key), xstrdup(value) };
}

static void chan_line(void *arg, char *line)
{
	struct chan_scan *c = arg;
	const char *p = channel_payload(line);

	if (!p)
		return;
	if (!strncmp(p, "STEP name=", 10) && strstr(p, " status=started")) {
		size_t n = strcspn(p + 10, " ");

		free(c->step);
		c->step = xmalloc(n + 1);
		memcpy(c->step, p + 10, n);
		c->step[n] = '\0';
	} else if (!strncmp(p, "META ", 5)) {
		/* "META kernel_release=6.12.. machine=x86_64": only for a missing meta.json */
		char *dup = xstrdup(p + 5), *save = NULL;

		for (char *tok = strtok_r(dup, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
			char *eq = strchr(tok, '=');

			if (eq && eq != tok) {
				*eq = '\0';
				kv_add(&c->r->derived, tok, eq + 1);
			}
		}
		free(dup);
	} else if (!strncmp(p, "TAP ", 4)) {
		char *g;

		if (is_plan(p + 4)) {
			g = xstrdup(c->step ? c->step : "?");
			c->groups.v = xrealloc(c->groups.v, (c->groups.n + 1) * sizeof(*c->groups.v));
			c->groups.v[c->groups.n++] = g;
		} else if (c->taps) {
			char *gname = c->step ? xstrdup(c->step)
					      : xasprintf("set %zu", c->groups.n + 1);

			parse_tap(c->r, c->boot, gname, p + 4);
			free(gname);
		}
	}
}

struct tap_scan {
	struct run *r;
	const char *boot;
	const struct strlist *names;	/* from the channel log; may be shorter */
	size_t group;
	size_t first;			/* index of the group's first tap */
};

static void tap_line(void *arg, char *line)
{
	struct tap_scan *t = arg;

	if (is_plan(line)) {
		/* the group ends here: name its taps after the step, when known */
		if (t->group < t->names->n)
			for (size_t i = t->first; i < t->r->ntaps; i++) {
				free(t->r->taps[i].group);
				t->r->taps[i].group = xstrdup(t->names->v[t->group]);
			}
		t->group++;
		t->first = t->r->ntaps;
		return;
	}
	char *g = xasprintf("set %zu", t->group + 1);

	parse_tap(t->r, t->boot, g, line);
	free(g);
}

static void strlist_free_owned(struct strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free((char *)l->v[i]);
	free(l->v);
	*l = (struct strlist){ 0 };
}

struct hist_scan {
	struct run *r;
	const char *boot, *path;
	unsigned line;
	int bad;
};

static void hist_line(void *arg, char *line)
{
	struct hist_scan *s = arg;
	struct hist h;

	s->line++;
	if (!*line)
		return;
	if (hist_parse(line, s->boot, &h) < 0) {
		if (!s->bad)
			fprintf(stderr, "labtool: %s:%u: not a HIST line (bench/README.md)\n", s->path,
				s->line);
		s->bad = 1;
		return;
	}
	s->r->hists = xrealloc(s->r->hists, (s->r->nhists + 1) * sizeof(*s->r->hists));
	s->r->hists[s->r->nhists++] = h;
}

/* "boots/1.tap" -> "1" */
static char *stem(const char *name, const char *suffix)
{
	size_t n = strlen(name) - strlen(suffix);
	char *b = xmalloc(n + 1);

	memcpy(b, name, n);
	b[n] = '\0';
	return b;
}

/*
 * TAP results: boots/<boot>.tap (written by labtool collect), grouped by
 * their plan lines and named after the plan step that printed them (from
 * raw/channel-<boot>.log); without boots/, the channel logs' TAP lines.
 * The channel logs also give META facts, used when meta.json is missing.
 */
static int load_taps(struct run *r)
{
	char *raw = xasprintf("%s/raw", r->dir), *boots = xasprintf("%s/boots", r->dir);
	struct dirent **names = NULL, **tnames = NULL, **hnames = NULL;
	int n = scandir(raw, &names, channel_filter, alphasort);
	int nt = scandir(boots, &tnames, tap_filter, alphasort);
	int nh = scandir(boots, &hnames, hist_filter, alphasort);
	int rc = 0;

	if (n < 0 && errno != ENOENT) {
		fprintf(stderr, "labtool: %s: %s\n", raw, strerror(errno));
		rc = -1;
	}
	for (int i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", raw, names[i]->d_name);
		char *boot = stem(names[i]->d_name + 8, ".log");
		char *tapfile = xasprintf("%s/%s.tap", boots, boot);
		struct stat sb;
		struct chan_scan c = { r, boot, stat(tapfile, &sb) < 0, NULL, { 0 }, false };

		if (for_each_line(path, chan_line, &c) < 0) {
			fprintf(stderr, "labtool: %s: %s\n", path, strerror(errno));
			rc = -1;
		}
		if (!c.taps) {
			struct tap_scan t = { r, boot, &c.groups, 0, r->ntaps };

			if (for_each_line(tapfile, tap_line, &t) < 0) {
				fprintf(stderr, "labtool: %s: %s\n", tapfile, strerror(errno));
				rc = -1;
			}
		}
		if (!r->tap_source && r->ntaps)
			r->tap_source = xstrdup(c.taps ? "raw/channel-*.log" : "boots/*.tap");
		strlist_free_owned(&c.groups);
		free(c.step);
		free(tapfile);
		free(boot);
		free(path);
	}
	/* boots/<boot>.tap without a channel log: unnamed groups */
	for (int i = 0; i < nt; i++) {
		char *boot = stem(tnames[i]->d_name, ".tap");
		char *chan = xasprintf("%s/channel-%s.log", raw, boot);
		struct stat sb;

		if (stat(chan, &sb) < 0) {
			char *path = xasprintf("%s/%s", boots, tnames[i]->d_name);
			struct strlist none = { 0 };
			struct tap_scan t = { r, boot, &none, 0, r->ntaps };

			if (for_each_line(path, tap_line, &t) < 0) {
				fprintf(stderr, "labtool: %s: %s\n", path, strerror(errno));
				rc = -1;
			}
			if (!r->tap_source && r->ntaps)
				r->tap_source = xstrdup("boots/*.tap");
			free(path);
		}
		free(chan);
		free(boot);
	}
	for (int i = 0; i < nh && !rc; i++) {
		char *path = xasprintf("%s/%s", boots, hnames[i]->d_name);
		char *boot = stem(hnames[i]->d_name, ".hist");
		struct hist_scan s = { r, boot, path, 0, 0 };

		if (for_each_line(path, hist_line, &s) < 0 || s.bad) {
			if (!s.bad)
				fprintf(stderr, "labtool: %s: %s\n", path, strerror(errno));
			rc = -1;
		}
		free(boot);
		free(path);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	for (int i = 0; i < nt; i++)
		free(tnames[i]);
	for (int i = 0; i < nh; i++)
		free(hnames[i]);
	free(names);
	free(tnames);
	free(hnames);
	free(raw);
	free(boots);
	return rc;
}

/* Without meta.json: the accelerator run-lab.sh was asked for, and the start time. */
static void derive_meta(struct run *r)
{
	char *p = run_file_path(r->dir, RUN_FILE_RUN_ARGS, NULL), *text;
	size_t len;

	/* run.args: the arguments run-lab.sh was given, NUL-separated */
	if (read_file_all(p, &text, &len) == 0) {
		for (size_t off = 0; off < len;) {
			const char *arg = text + off;
			size_t n = strnlen(arg, len - off);

			off += n + 1;
			if (!strcmp(arg, "--accel") && off < len) {
				kv_add(&r->derived, meta_keys[META_accelerator].name, text + off);
				break;
			}
		}
		free(text);
	}
	free(p);
	p = run_file_path(r->dir, RUN_FILE_STARTED, NULL);
	if (read_file_all(p, &text, &len) == 0) {
		text[strcspn(text, "\n")] = '\0';
		if (*text)
			kv_add(&r->derived, meta_keys[META_start].name, text);
		free(text);
	}
	free(p);
}

int hist_parse(const char *line, const char *boot, struct hist *out)
{
	struct hist h = { 0 };
	char *dup, *save = NULL;
	bool have_buckets = false;
	int rc = -1;

	if (!strncmp(line, "HIST ", 5))
		line += 5;
	dup = xstrdup(line);
	h.rep = -1;
	for (char *tok = strtok_r(dup, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '='), *v;

		if (!eq)
			goto out;
		*eq = '\0';
		v = eq + 1;
		char **slot = !strcmp(tok, "bench") ? &h.bench : !strcmp(tok, "policy") ? &h.policy
			      : !strcmp(tok, "nodes") ? &h.nodes : !strcmp(tok, "pagesize") ? &h.pagesize
			      : !strcmp(tok, "scenario") ? &h.scenario : !strcmp(tok, "unit") ? &h.unit
			      : NULL;

		if (slot) {
			free(*slot);
			*slot = xstrdup(v);
		} else if (!strcmp(tok, "rep")) {
			h.rep = strtol(v, NULL, 10);
		} else if (!strcmp(tok, "buckets")) {
			have_buckets = true;
			for (char *b = v; *b;) {
				char *end;
				double lo = strtod(b, &end), cnt;

				if (end == b || *end != ':')
					goto out;
				b = end + 1;
				cnt = strtod(b, &end);
				if (end == b || (*end && *end != '+') || !isfinite(lo) || !isfinite(cnt) ||
				    cnt < 0 || (h.nb && lo <= h.lo[h.nb - 1]))
					goto out;
				h.lo = xrealloc(h.lo, (h.nb + 1) * sizeof(*h.lo));
				h.count = xrealloc(h.count, (h.nb + 1) * sizeof(*h.count));
				h.lo[h.nb] = lo;
				h.count[h.nb++] = cnt;
				b = *end ? end + 1 : end;
			}
		}
	}
	if (!h.bench || !h.policy || !h.pagesize || !h.scenario || !have_buckets)
		goto out;
	if (!h.nodes)
		h.nodes = xstrdup("-");
	if (!h.unit)
		h.unit = xstrdup("ns");
	h.boot = xstrdup(boot ? boot : "");
	*out = h;
	rc = 0;
out:
	if (rc < 0)
		hist_free(&h);
	free(dup);
	return rc;
}

void hist_free(struct hist *h)
{
	free(h->bench);
	free(h->policy);
	free(h->nodes);
	free(h->pagesize);
	free(h->scenario);
	free(h->unit);
	free(h->boot);
	free(h->lo);
	free(h->count);
	*h = (struct hist){ 0 };
}

bool case_is_invalid(const char *outcome)
{
	return !strcmp(outcome, "invalid") || !strcmp(outcome, "killed_other");
}

static bool same_case(const struct row *a, const struct row *b)
{
	static const int cols[] = { COL_BENCH, COL_POLICY, COL_NODES, COL_PAGESIZE,
				    COL_SCENARIO, COL_BOOT_ID };

	for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
		if (strcmp(a->f[cols[c]], b->f[cols[c]]))
			return false;
	return true;
}

/*
 * A case tierbench found invalid (its scenario broke, or another task was
 * the OOM victim, bench/README.md) measured something else than its name:
 * its rows take the status "invalid", which every table and figure leaves
 * out as it does a failed boot's, and its histograms are dropped.
 */
void mark_invalid_cases(struct run *r)
{
	static const char invalid[] = "invalid";

	for (size_t i = 0; i < r->nrows; i++) {
		const struct row *w = &r->rows[i];
		const char *o = row_outcome(w);

		if (!o || !case_is_invalid(o) || strcmp(w->f[COL_BOOT_STATUS], "ok"))
			continue;
		for (size_t j = 0; j < r->nrows; j++)
			if (j != i && same_case(&r->rows[j], w) &&
			    !strcmp(r->rows[j].f[COL_BOOT_STATUS], "ok"))
				r->rows[j].f[COL_BOOT_STATUS] = invalid;
		for (size_t k = 0; k < r->nhists; k++) {
			struct hist *h = &r->hists[k];

			if (!h->bench || strcmp(h->bench, w->f[COL_BENCH]) ||
			    strcmp(h->policy, w->f[COL_POLICY]) || strcmp(h->nodes, w->f[COL_NODES]) ||
			    strcmp(h->pagesize, w->f[COL_PAGESIZE]) ||
			    strcmp(h->scenario, w->f[COL_SCENARIO]) || strcmp(h->boot, w->f[COL_BOOT_ID]))
				continue;
			hist_free(h);
			r->hists[k] = r->hists[--r->nhists];
			k--;
		}
	}
	/* the outcome rows themselves last, so that each case is matched once */
	for (size_t i = 0; i < r->nrows; i++) {
		const char *o = row_outcome(&r->rows[i]);

		if (o && case_is_invalid(o) && !strcmp(r->rows[i].f[COL_BOOT_STATUS], "ok"))
			r->rows[i].f[COL_BOOT_STATUS] = invalid;
	}
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

	p = run_file_path(r->dir, RUN_FILE_SUMMARY, NULL);
	int rc = load_summary(r, p);

	free(p);
	if (rc < 0)
		goto fail;
	run_aggregate(r);
	p = run_file_path(r->dir, RUN_FILE_GUEST_TOPOLOGY, NULL);
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
	p = run_file_path(r->dir, RUN_FILE_META, NULL);
	rc = load_meta(r, p);
	free(p);
	if (rc < 0 || load_taps(r) < 0)
		goto fail;
	if (!r->have_meta)
		derive_meta(r);
	mark_invalid_cases(r);
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
		free(r->taps[i].group);
	}
	free(r->taps);
	free(r->tap_source);
	for (size_t i = 0; i < r->nhists; i++)
		hist_free(&r->hists[i]);
	free(r->hists);
	kv_free(&r->derived);
	run_aggregate_free(r);
	free(r->boot_rows);
	free(r->dir);
	free(r->name);
	*r = (struct run){ 0 };
}

const char *run_meta(const struct run *r, enum meta_key k)
{
	const char *v = kv_get(&r->meta, meta_keys[k].name);

	if (!v || !*v)
		v = kv_get(&r->derived, meta_keys[k].name);
	return v && *v ? v : NULL;
}

int run_guest_ncpus(const struct run *r)
{
	int col = r->have_topo ? csv_col(&r->topo_csv, "cpus") : -1;
	uint64_t all = 0, set;

	if (col < 0)
		return -1;
	for (size_t i = 0; i < r->topo_csv.nrows; i++) {
		if (topo_parse_cpus(r->topo_csv.rows[i].field[col], &set))
			return -1;
		all |= set;
	}
	return __builtin_popcountll(all);
}

const char *run_meta_topology(const struct run *r, int i, const char *field)
{
	char key[64];
	const char *v;

	snprintf(key, sizeof(key), "%s.%d.%s", meta_keys[META_topologies].name, i, field);
	v = kv_get(&r->meta, key);
	return v && *v ? v : NULL;
}

const char *run_time_unit(const struct run *r)
{
	const char *u = run_meta(r, META_time_unit);

	if (u)
		return !strcmp(u, "insn") ? "insn" : "ns";
	for (size_t i = 0; i < r->nrows; i++)
		if (!strncmp(r->rows[i].f[COL_BENCH], "latency", 7) &&
		    !strcmp(r->rows[i].f[COL_METRIC], "p50"))
			return !strcmp(r->rows[i].f[COL_UNIT], "insn") ? "insn" : "ns";
	return "ns";
}

const char *time_unit_words(const char *unit)
{
	return !strcmp(unit, "insn") ? "guest instructions" : "ns";
}

const char *time_unit_includes(const char *unit)
{
	if (!strcmp(unit, "insn"))
		return "Timings are counted in guest instructions (QEMU -icount shift=0: the guest "
		       "clock advances one nanosecond per instruction), the same in every boot: a "
		       "fault's figure is the instructions retired between the two clock reads around "
		       "the first write to a page, i.e. the fault path, the page's zeroing (one "
		       "instruction per byte for rep stosb) and the clock reads themselves "
		       "(clock_overhead); they rank kernel paths by length, not by speed.";
	return "Timings are host nanoseconds of an emulated guest (TCG): the fault path, the "
	       "page's zeroing and the clock reads, at the speed of the emulator and of whatever "
	       "else the host ran; they rank policies within a run, they are not hardware "
	       "latencies.";
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
