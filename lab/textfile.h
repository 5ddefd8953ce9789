/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The helpers shared by every labtool command (strings, line reading, atomic
 * writes).  Reuse and extend these rather than adding another copy.
 */
#ifndef TIERLAB_TEXTFILE_H
#define TIERLAB_TEXTFILE_H

#include <stdio.h>
#include <stddef.h>

/* A growing string; zero-initialise.  Aborts on allocation failure. */
struct strbuf {
	char *data;
	size_t len, cap;
};

__attribute__((format(printf, 2, 3)))
void sb_printf(struct strbuf *sb, const char *fmt, ...);

/* asprintf that aborts with a message instead of returning -1. */
__attribute__((format(printf, 2, 3)))
void xasprintf(char **out, const char *fmt, ...);

/* Line reader: lines without their newline, any length. */
struct textfile {
	FILE *f;
	char *line;
	size_t cap;
	int had_newline; /* did the last line returned end in '\n'? */
};

int textfile_open(struct textfile *tf, const char *path);
char *textfile_next(struct textfile *tf);
void textfile_close(struct textfile *tf);

/*
 * Writes data to path through path.tmp.<pid> and rename(), so a reader
 * sees the old file or the new one, never half of one.  Returns 0, or -1
 * after printing "labtool: PATH: reason".
 */
int write_file_atomic(const char *path, const char *data, size_t len);

#endif
