// SPDX-License-Identifier: GPL-2.0
/* A child's output as lines, and waiting for it: see child.h. */
#include "child.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double child_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int child_wait_until(pid_t pid, int *status, double deadline)
{
	for (;;) {
		pid_t w = waitpid(pid, status, WNOHANG);

		if (w == pid)
			return 1;
		if (w < 0 && errno != EINTR)
			return -1;
		if (child_now() >= deadline)
			return 0;
		usleep(10000);
	}
}

int child_lines_init(struct child_lines *l, size_t cap,
		     void (*emit)(const char *line, void *ctx), void *ctx)
{
	l->buf = malloc(cap + 1);
	l->cap = cap;
	l->used = 0;
	l->emit = emit;
	l->ctx = ctx;
	return l->buf ? 0 : -1;
}

int child_lines_read(struct child_lines *l, int fd)
{
	ssize_t n = read(fd, l->buf + l->used, l->cap - l->used);
	char *line, *nl;

	if (n < 0 && errno == EINTR)
		return 0;
	if (n <= 0)
		return 1;
	l->used += (size_t)n;
	line = l->buf;
	while ((nl = memchr(line, '\n', l->used - (size_t)(line - l->buf)))) {
		*nl = '\0';
		l->emit(line, l->ctx);
		line = nl + 1;
	}
	l->used -= (size_t)(line - l->buf);
	memmove(l->buf, line, l->used);
	if (l->used == l->cap) {	/* a line longer than the buffer */
		l->buf[l->used] = '\0';
		l->emit(l->buf, l->ctx);
		l->used = 0;
	}
	return 0;
}

void child_lines_end(struct child_lines *l)
{
	if (l->used) {
		l->buf[l->used] = '\0';
		l->emit(l->buf, l->ctx);
		l->used = 0;
	}
	free(l->buf);
	l->buf = NULL;
}
