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
};

int textfile_open(struct textfile *tf, const char *path);
char *textfile_next(struct textfile *tf);
void textfile_close(struct textfile *tf);

#endif
