// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers every labtool command shares (util.h): allocation that ends the
 * program on failure, a growable string, whole-file reads, atomic writes,
 * and running a program (gnuplot) with its output to a log.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

static void out_of_memory(void)
{
	fputs("labtool: out of memory\n", stderr);
	exit(70);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		out_of_memory();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		out_of_memory();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		out_of_memory();
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		out_of_memory();
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		out_of_memory();
	va_end(ap);
	return p;
}

static void sb_grow(struct sbuf *b, size_t extra)
{
	if (b->len + extra + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 256;

	while (cap < b->len + extra + 1)
		cap *= 2;
	b->s = xrealloc(b->s, cap);
	b->cap = cap;
}

void sb_putn(struct sbuf *b, const char *s, size_t n)
{
	sb_grow(b, n);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void sb_puts(struct sbuf *b, const char *s)
{
	sb_putn(b, s, strlen(s));
}

void sb_putc(struct sbuf *b, char c)
{
	sb_putn(b, &c, 1);
}

void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		out_of_memory();
	sb_grow(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void sb_html(struct sbuf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': sb_puts(b, "&amp;"); break;
		case '<': sb_puts(b, "&lt;"); break;
		case '>': sb_puts(b, "&gt;"); break;
		case '"': sb_puts(b, "&quot;"); break;
		case '\'': sb_puts(b, "&#39;"); break;
		default: sb_putc(b, *s);
		}
	}
}

void sb_md(struct sbuf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n' || *s == '\r')
			sb_putc(b, ' ');
		else if (strchr("|\\`*_[]<>#", *s)) {
			sb_putc(b, '\\');
			sb_putc(b, *s);
		} else
			sb_putc(b, *s);
	}
}

void sb_base64(struct sbuf *b, const unsigned char *p, size_t n)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16;

		if (i + 1 < n)
			v |= (unsigned)p[i + 1] << 8;
		if (i + 2 < n)
			v |= p[i + 2];
		sb_putc(b, tab[v >> 18 & 63]);
		sb_putc(b, tab[v >> 12 & 63]);
		sb_putc(b, i + 1 < n ? tab[v >> 6 & 63] : '=');
		sb_putc(b, i + 2 < n ? tab[v & 63] : '=');
	}
}

void sb_free(struct sbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

int read_file_all(const char *path, char **out, size_t *len)
{
	struct sbuf b = { 0 };
	char chunk[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;

			close(fd);
			sb_free(&b);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;
		sb_putn(&b, chunk, (size_t)n);
	}
	close(fd);
	if (!b.s)
		b.s = xstrdup("");
	*out = b.s;
	*len = b.len;
	return 0;
}

int write_file_atomic(const char *path, const char *data, size_t len)
{
	char *tmp = xasprintf("%s.tmp-%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int e;

	if (fd < 0)
		goto fail;
	for (size_t off = 0; off < len;) {
		ssize_t n = write(fd, data + off, len - off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto fail_close;
		}
		off += (size_t)n;
	}
	if (fsync(fd) < 0)
		goto fail_close;
	if (close(fd) < 0) {
		fd = -1;
		goto fail_unlink;
	}
	if (rename(tmp, path) < 0)
		goto fail_unlink;
	free(tmp);
	return 0;
fail_close:
	e = errno;
	close(fd);
	errno = e;
fail_unlink:
	e = errno;
	unlink(tmp);
	errno = e;
fail:
	free(tmp);
	return -1;
}

int run_program(char *const argv[], const char *logpath)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open(logpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(127);
		close(fd);
		/* same decimal point and messages whatever the user's locale */
		setenv("LC_ALL", "C", 1);
		unsetenv("GNUPLOT_LIB");
		execvp(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -1;
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status) ? WEXITSTATUS(status) : 0;
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

int run_gnuplot(char *const argv[], const char *logpath, const char *who)
{
	int st = run_program(argv, logpath), c = 1;
	char *text;
	size_t len;

	if (st == 0)
		return 0;
	while (argv[c] && argv[c + 1] && argv[c + 2] && strcmp(argv[c], "-c"))
		c++;
	fprintf(stderr, "%s: gnuplot %s on %s failed (%s %d)\n", who, argv[c + 1], argv[c + 2],
		st < 0 ? "cannot start," : "exit", st < 0 ? errno : st);
	if (st == 127)
		fprintf(stderr, "%s: is gnuplot installed? (apt-get install gnuplot-nox)\n", who);
	if (read_file_all(logpath, &text, &len) == 0) {
		fputs(text, stderr);
		free(text);
	}
	return -1;
}


void say_line(struct sbuf *b, long long now, long long since, const char *msg)
{
	sb_printf(b, "[%4llds] %s\n", now - since, msg);
}

void say(const char *fmt, ...)
{
	const char *env = getenv("TIERLAB_SAY_SINCE");
	struct sbuf msg = { 0 }, line = { 0 };
	char *end;
	long long since;
	va_list ap;
	int n;

	if (!env || !*env)
		return;
	errno = 0;
	since = strtoll(env, &end, 10);
	if (*end || errno)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	msg.s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(msg.s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	say_line(&line, (long long)time(NULL), since, msg.s);
	fwrite(line.s, 1, line.len, stderr);
	free(msg.s);
	sb_free(&line);
}
