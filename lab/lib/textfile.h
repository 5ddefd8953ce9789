/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading text files line by line, for every labtool command.
 */
#ifndef TIERLAB_TEXTFILE_H
#define TIERLAB_TEXTFILE_H

#include <stdio.h>
#include <stddef.h>

#include "util.h"

/* Line reader: lines without their newline, any length. */
struct textfile {
	FILE *f;
	char *line;
	size_t cap;
	int had_newline; /* did the last line returned end in '\n'? */
	unsigned long lineno; /* of the last line returned */
	int error;	 /* errno of a read that failed (ENOMEM: a line too long to hold); 0 at EOF */
};

int textfile_open(struct textfile *tf, const char *path);
/*
 * The next line, NULL at the end of the file or when a read failed: then
 * tf->error says why, and line tf->lineno + 1 is the one not read.
 */
char *textfile_next(struct textfile *tf);
void textfile_close(struct textfile *tf);

/*
 * The value of @key in text of "key=value" entries separated by @sep (' '
 * for a channel payload, '\n' for a status file), copied into @buf (cut to
 * @size - 1 bytes); NULL when absent.  A key matches only at the start of an
 * entry: "name" is not found inside "filename=".
 */
const char *kv_value(const char *text, char sep, const char *key, char *buf, size_t size);

#endif
