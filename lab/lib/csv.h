/* SPDX-License-Identifier: GPL-2.0 */
/* CSV as summary.csv and guest-topology.csv are written; errors name file and line. */
#ifndef TIERLAB_CSV_H
#define TIERLAB_CSV_H

#include <stddef.h>

/* ---- CSV (RFC 4180: quoted fields, "" inside quotes, CRLF tolerated) ---- */
struct csv_row {
	char **field;
	unsigned line;	/* line on which the record starts */
};

struct csv {
	char **header;
	size_t ncols;
	struct csv_row *rows;
	size_t nrows;
};

/*
 * Parses text; on error writes "<name>:<line>: <what>" into err (errlen
 * bytes) and returns -1.  Every record must have as many fields as the
 * header; empty lines are skipped.
 */
int csv_parse(const char *text, size_t len, const char *name, struct csv *out,
	      char *err, size_t errlen);
int csv_col(const struct csv *c, const char *name);	/* -1 when absent */
void csv_free(struct csv *c);

#endif
