// SPDX-License-Identifier: GPL-2.0
/*
 * CSV as summary.csv and guest-topology.csv are written (RFC 4180); names
 * the file, line and what was wrong on bad input.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "util.h"

struct csv_reader {
	const char *p, *end, *name;
	unsigned line;
	char *err;
	size_t errlen;
};

static int csv_error(struct csv_reader *r, unsigned line, const char *what)
{
	snprintf(r->err, r->errlen, "%s:%u: %s", r->name, line, what);
	return -1;
}

/* One record into *fields; returns 1 for a record, 0 at end, -1 on error. */
static int csv_record(struct csv_reader *r, char ***fields, size_t *nfields, unsigned *start)
{
	struct sbuf f = { 0 };
	char **v = NULL;
	size_t n = 0;

	/* skip empty lines */
	while (r->p < r->end && (*r->p == '\n' || (*r->p == '\r' && r->p + 1 < r->end &&
						  r->p[1] == '\n'))) {
		r->p += *r->p == '\r' ? 2 : 1;
		r->line++;
	}
	if (r->p >= r->end)
		return 0;
	*start = r->line;
	for (;;) {
		bool quoted = false;

		sb_puts(&f, "");
		if (r->p < r->end && *r->p == '"') {
			quoted = true;
			r->p++;
			for (;;) {
				if (r->p >= r->end) {
					csv_error(r, *start, "unterminated quoted field");
					goto fail;
				}
				if (*r->p == '"') {
					if (r->p + 1 < r->end && r->p[1] == '"') {
						sb_putc(&f, '"');
						r->p += 2;
						continue;
					}
					r->p++;
					break;
				}
				if (*r->p == '\n')
					r->line++;
				if (*r->p == '\0') {
					csv_error(r, r->line, "NUL byte in field");
					goto fail;
				}
				sb_putc(&f, *r->p++);
			}
		}
		while (r->p < r->end && *r->p != ',' && *r->p != '\n') {
			if (*r->p == '\r' && (r->p + 1 == r->end || r->p[1] == '\n')) {
				r->p++;
				continue;
			}
			if (quoted) {
				csv_error(r, r->line, "text after a closing quote");
				goto fail;
			}
			if (*r->p == '"') {
				csv_error(r, r->line, "quote inside an unquoted field");
				goto fail;
			}
			if (*r->p == '\0') {
				csv_error(r, r->line, "NUL byte in field");
				goto fail;
			}
			sb_putc(&f, *r->p++);
		}
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n++] = f.s;
		f = (struct sbuf){ 0 };
		if (r->p >= r->end)
			break;
		if (*r->p++ == '\n') {
			r->line++;
			break;
		}
	}
	*fields = v;
	*nfields = n;
	return 1;
fail:
	sb_free(&f);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	return -1;
}

int csv_parse(const char *text, size_t len, const char *name, struct csv *out, char *err,
	      size_t errlen)
{
	struct csv_reader r = { text, text + len, name, 1, err, errlen };
	struct csv c = { 0 };
	char **v;
	size_t n;
	unsigned line;
	int rc;

	rc = csv_record(&r, &c.header, &c.ncols, &line);
	if (rc <= 0) {
		if (rc == 0)
			csv_error(&r, 1, "empty file, expected a header line");
		return -1;
	}
	for (size_t i = 0; i < c.ncols; i++) {
		if (!c.header[i][0]) {
			char what[64];

			snprintf(what, sizeof(what), "header column %zu is empty", i + 1);
			csv_error(&r, line, what);
			goto fail;
		}
	}
	while ((rc = csv_record(&r, &v, &n, &line)) == 1) {
		if (n != c.ncols) {
			char what[96];

			snprintf(what, sizeof(what), "expected %zu fields, got %zu", c.ncols, n);
			for (size_t i = 0; i < n; i++)
				free(v[i]);
			free(v);
			csv_error(&r, line, what);
			goto fail;
		}
		c.rows = xrealloc(c.rows, (c.nrows + 1) * sizeof(*c.rows));
		c.rows[c.nrows++] = (struct csv_row){ v, line };
	}
	if (rc < 0)
		goto fail;
	*out = c;
	return 0;
fail:
	csv_free(&c);
	return -1;
}

int csv_col(const struct csv *c, const char *name)
{
	for (size_t i = 0; i < c->ncols; i++)
		if (!strcmp(c->header[i], name))
			return (int)i;
	return -1;
}

void csv_free(struct csv *c)
{
	for (size_t i = 0; i < c->nrows; i++) {
		for (size_t j = 0; j < c->ncols; j++)
			free(c->rows[i].field[j]);
		free(c->rows[i].field);
	}
	for (size_t j = 0; j < c->ncols; j++)
		free(c->header[j]);
	free(c->header);
	free(c->rows);
	*c = (struct csv){ 0 };
}
