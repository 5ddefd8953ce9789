/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest's two runners (labrun: a plan's steps; suiterun: an
 * external suite's tests) share about a child: its output read as lines
 * from a pipe, and waiting for it with a deadline.
 */
#ifndef TIERLAB_CHILD_H
#define TIERLAB_CHILD_H

#include <stddef.h>
#include <sys/types.h>

/* CLOCK_MONOTONIC, in seconds. */
double child_now(void);

/*
 * Waits for @pid until @deadline (child_now() seconds): 1 when it ended
 * (its wait status in *@status), -1 when waitpid failed (errno set), 0 when
 * the deadline came first.
 */
int child_wait_until(pid_t pid, int *status, double deadline);

/*
 * A child's output, split into lines: each complete line goes to @emit
 * without its newline; a line longer than @cap bytes goes in pieces of
 * @cap bytes.
 */
struct child_lines {
	char *buf;		/* @cap + 1 bytes */
	size_t cap, used;
	void (*emit)(const char *line, void *ctx);
	void *ctx;
};

/* 0, or -1 when the buffer cannot be had. */
int child_lines_init(struct child_lines *l, size_t cap,
		     void (*emit)(const char *line, void *ctx), void *ctx);
/*
 * One read(2) from @fd, its complete lines emitted.  Returns 0 after data
 * or an interrupted read, 1 at end of file or on a read error (errno set
 * for an error; nothing is lost: child_lines_end emits what is left).
 */
int child_lines_read(struct child_lines *l, int fd);
/* Emits a last line without its newline, if any, and frees the buffer. */
void child_lines_end(struct child_lines *l);

#endif
