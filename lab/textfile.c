// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "textfile.h"

static void oom(void)
{
	fprintf(stderr, "labtool: out of memory\n");
	exit(70);
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	if (sb->len + (size_t)n + 1 > sb->cap) {
		size_t cap = (sb->cap ? sb->cap * 2 : 256) + (size_t)n;
		char *p = realloc(sb->data, cap);

		if (!p)
			oom();
		sb->data = p;
		sb->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(sb->data + sb->len, sb->cap - sb->len, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

void xasprintf(char **out, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(out, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
}

int textfile_open(struct textfile *tf, const char *path)
{
	memset(tf, 0, sizeof(*tf));
	tf->f = fopen(path, "r");
	return tf->f ? 0 : -1;
}

char *textfile_next(struct textfile *tf)
{
	ssize_t n = getline(&tf->line, &tf->cap, tf->f);

	if (n <= 0)
		return NULL;
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

int write_file_atomic(const char *path, const char *data, size_t len)
{
	char *tmp;
	FILE *f;
	int bad;

	xasprintf(&tmp, "%s.tmp.%ld", path, (long)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "labtool: %s: %s\n", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	bad = len && fwrite(data, 1, len, f) != len;
	bad |= fflush(f) != 0;
	bad |= fsync(fileno(f)) != 0;
	if (fclose(f) != 0)
		bad = 1;
	if (bad || rename(tmp, path) < 0) {
		fprintf(stderr, "labtool: %s: %s\n", path, strerror(errno ? errno : EIO));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}
