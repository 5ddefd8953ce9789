// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "textfile.h"

int textfile_open(struct textfile *tf, const char *path)
{
	memset(tf, 0, sizeof(*tf));
	tf->f = fopen(path, "r");
	return tf->f ? 0 : -1;
}

char *textfile_next(struct textfile *tf)
{
	ssize_t n;

	/* getline's -1 is the end of the file or a failure, ENOMEM among them */
	errno = 0;
	n = getline(&tf->line, &tf->cap, tf->f);
	if (n <= 0) {
		if (errno || ferror(tf->f))
			tf->error = errno ? errno : EIO;
		return NULL;
	}
	tf->lineno++;
	tf->had_newline = tf->line[n - 1] == '\n';
	if (tf->had_newline)
		tf->line[--n] = '\0';
	if (n && tf->line[n - 1] == '\r')
		tf->line[n - 1] = '\0';
	return tf->line;
}

void textfile_close(struct textfile *tf)
{
	if (tf->f)
		fclose(tf->f);
	free(tf->line);
	memset(tf, 0, sizeof(*tf));
}

const char *kv_value(const char *text, char sep, const char *key, char *buf, size_t size)
{
	size_t kl = strlen(key);
	const char *p = text;

	while (p && *p) {
		while (*p == sep)
			p++;
		if (!strncmp(p, key, kl) && p[kl] == '=') {
			const char *v = p + kl + 1, *end = strchr(v, sep);
			size_t vl = end ? (size_t)(end - v) : strlen(v);

			if (!size)
				return NULL;
			if (vl >= size)
				vl = size - 1;
			memcpy(buf, v, vl);
			buf[vl] = '\0';
			return buf;
		}
		p = strchr(p, sep);
	}
	return NULL;
}
