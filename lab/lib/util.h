/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers every labtool command shares: a growable string, allocation that
 * ends the program on failure, whole-file reads and atomic writes, running
 * a program.  They are defined in util.c.
 */
#ifndef TIERLAB_UTIL_H
#define TIERLAB_UTIL_H

#include <stdarg.h>
#include <stddef.h>

/* ---- growable string buffer; allocation failure ends the program ---- */
struct sbuf {
	char *s;
	size_t len, cap;
};

void sb_putn(struct sbuf *b, const char *s, size_t n);
void sb_puts(struct sbuf *b, const char *s);
void sb_putc(struct sbuf *b, char c);
__attribute__((format(printf, 2, 3))) void sb_printf(struct sbuf *b, const char *fmt, ...);
void sb_html(struct sbuf *b, const char *s);	/* HTML-escaped */
void sb_md(struct sbuf *b, const char *s);	/* safe inside a Markdown table cell */
void sb_base64(struct sbuf *b, const unsigned char *p, size_t n);
void sb_free(struct sbuf *b);

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
__attribute__((format(printf, 1, 2))) char *xasprintf(const char *fmt, ...);

/* Whole file into memory (NUL-terminated); -1 with errno set on failure. */
int read_file_all(const char *path, char **out, size_t *len);
/* Write via <path>.tmp-<pid> + rename; on failure nothing replaces <path>. */
int write_file_atomic(const char *path, const char *data, size_t len);

/* Runs argv (no shell) with stdout/stderr to logpath; 0 if it exited 0. */
int run_program(char *const argv[], const char *logpath);
/*
 * Runs gnuplot's argv (the script and the data after "-c") via
 * run_program(); on failure names both and the cause, prefixed "WHO: ", and
 * copies gnuplot's log to stderr.  0 or -1.
 */
int run_gnuplot(char *const argv[], const char *logpath, const char *who);

/*
 * run-lab's progress line on stderr, "[  12s] message", the seconds since
 * run-lab.sh started: TIERLAB_SAY_SINCE, that start in seconds since the
 * epoch, which run-lab.sh exports unless -q.  Unset or not a number: quiet.
 */
__attribute__((format(printf, 1, 2))) void say(const char *fmt, ...);
/* The same line into @b, @now and @since being seconds since the epoch. */
void say_line(struct sbuf *b, long long now, long long since, const char *msg);

#endif
