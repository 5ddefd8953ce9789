// SPDX-License-Identifier: GPL-2.0
/*
 * suiterun: run an external test suite's programs in the guest, each with a
 * timeout, and say one line per test.
 *
 *   suiterun [-C DIR] LIST
 *
 * LIST has one entry a line ('#' lines and blank lines are skipped):
 *
 *   NAME TIMEOUT-SECONDS PROGRAM [ARG...]   a test, run with execvp in DIR
 *   ! SHELL-COMMAND                          a setup step, run by /bin/sh -c
 *
 * Words are separated by blanks, without quoting.  DIR is LIST's directory
 * unless -C says otherwise.  Each test runs in its own process group with
 * stdin from /dev/null; its stdout and stderr are copied to ours, each line
 * prefixed with "# NAME| ", and it ends with one line
 *
 *   NAME: pass|skip|fail (exit N | signal N | timeout after Ns, T s[; sub-tests])
 *
 * by the kselftest convention: exit 0 pass, 4 skip (KSFT_SKIP), anything
 * else fail; a test past its TIMEOUT gets SIGTERM, 2 s later SIGKILL (its
 * whole group), and fails.  A test ends when its program exits, not when
 * its output closes: once it exited, its output is read for at most 1 s
 * more, then whatever it left in its group is killed, and the verdict is
 * the program's own status (a background process that kept stdout open
 * does not turn an exit 0 into a timeout).  "sub-tests" counts the TAP lines the test
 * printed itself ("ok", "ok ... # SKIP", "not ok"), so a test that passes
 * while skipping half of its cases shows it.  The last lines are a summary:
 *
 *   suiterun: P pass, S skip, F fail (of N)
 *
 * Exit status: 0 if no test failed and every setup step succeeded, 1
 * otherwise, 2 for bad usage or an unreadable LIST.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"

#define MAX_LINE 4096
#define MAX_ARGS 64
#define TERM_GRACE 2
#define DRAIN_SECS 1	/* output read after the test exited */
#define POLL_MS 50	/* how often the loop looks for the test's exit */
#define KSFT_SKIP 4

struct counts {
	unsigned ok, skip, fail;
};

/* A TAP result line the test printed itself, counted in @c. */
static void count_tap(const char *line, struct counts *c)
{
	while (*line == ' ' || *line == '\t')
		line++;
	if (!strncmp(line, "not ok ", 7))
		c->fail++;
	else if (!strncmp(line, "ok ", 3))
		(strstr(line, "# SKIP") || strstr(line, "# skip")) ? c->skip++ : c->ok++;
}

/* Where a test's lines go: its name, and the counts of its TAP lines. */
struct test_out {
	const char *name;
	struct counts *c;
};

static void out_line(const char *line, void *ctx)
{
	const struct test_out *t = ctx;

	count_tap(line, t->c);
	printf("# %s| %s\n", t->name, line);
	fflush(stdout);
}

/*
 * Runs @argv in @dir with output through the prefix; the result in
 * @status (wait status) and *@timed_out; 0, or -1 when it could not run.
 */
static int run(const char *name, const char *dir, char **argv, int timeout,
	       int *status, int *timed_out, struct counts *c)
{
	double deadline = child_now() + timeout;
	double drain_end = 0;
	struct test_out to = { name, c };
	struct child_lines out;
	int pfd[2], eof = 0, exited = 0;
	pid_t pid;

	*timed_out = 0;
	*status = 0;
	if (child_lines_init(&out, MAX_LINE, out_line, &to) < 0) {
		fprintf(stderr, "suiterun: %s: out of memory\n", name);
		return -1;
	}
	if (pipe(pfd) < 0) {
		fprintf(stderr, "suiterun: %s: pipe: %s\n", name, strerror(errno));
		child_lines_end(&out);
		return -1;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "suiterun: %s: fork: %s\n", name, strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		child_lines_end(&out);
		return -1;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);

		setpgid(0, 0);
		if (devnull >= 0)
			dup2(devnull, STDIN_FILENO);
		dup2(pfd[1], STDOUT_FILENO);
		dup2(pfd[1], STDERR_FILENO);
		close(pfd[0]);
		close(pfd[1]);
		if (chdir(dir) < 0) {
			fprintf(stderr, "suiterun: %s: cd %s: %s\n", name, dir, strerror(errno));
			_exit(127);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "suiterun: %s: exec %s: %s\n", name, argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	close(pfd[1]);
	/*
	 * Until EOF, the test's exit or its timeout.  The test's end is its
	 * exit, not EOF: a process it left in the background can hold the
	 * pipe open for ever.  So the loop reaps it as it goes (WNOHANG every
	 * POLL_MS); once it exited, what is in the pipe is read for at most
	 * DRAIN_SECS more, then its group goes (below).
	 */
	while (!eof) {
		double left = (exited ? drain_end : deadline) - child_now();
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };
		int ms;

		if (!exited) {
			pid_t w = waitpid(pid, status, WNOHANG);

			if (w < 0 && errno != EINTR) {
				fprintf(stderr, "suiterun: %s: waitpid: %s\n", name, strerror(errno));
				child_lines_end(&out);
				close(pfd[0]);
				kill(-pid, SIGKILL);
				return -1;
			}
			if (w == pid) {
				exited = 1;
				drain_end = child_now() + DRAIN_SECS;
				continue;
			}
		}
		if (left <= 0) {
			if (exited)
				printf("# %s| suiterun: the test exited, its output still open %d s later: "
				       "what its group left goes\n", name, DRAIN_SECS);
			else
				*timed_out = 1;
			break;
		}
		ms = (int)(left * 1000) + 1;
		if (!exited && ms > POLL_MS)
			ms = POLL_MS;
		if (poll(&p, 1, ms) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p.revents)
			eof = child_lines_read(&out, pfd[0]);
	}
	child_lines_end(&out);	/* and a last line without its newline */
	close(pfd[0]);
	if (!exited && !*timed_out) {
		int r = child_wait_until(pid, status, deadline);

		if (r < 0) {
			fprintf(stderr, "suiterun: %s: waitpid: %s\n", name, strerror(errno));
			return -1;
		}
		if (!r)
			*timed_out = 1;
	}
	if (*timed_out) {
		kill(-pid, SIGTERM);
		if (child_wait_until(pid, status, child_now() + TERM_GRACE) == 0) {
			kill(-pid, SIGKILL);
			waitpid(pid, status, 0);
		}
	}
	/* whatever the test left in its group goes with it */
	kill(-pid, SIGKILL);
	while (waitpid(-pid, NULL, WNOHANG) > 0)
		;
	return 0;
}

/* Splits @s in place at blanks into @argv (at most MAX_ARGS - 1 words). */
static int split(char *s, char **argv)
{
	int n = 0;

	for (char *tok = strtok(s, " \t"); tok; tok = strtok(NULL, " \t")) {
		if (n == MAX_ARGS - 1)
			return -1;
		argv[n++] = tok;
	}
	argv[n] = NULL;
	return n;
}

int main(int argc, char **argv)
{
	const char *dir = NULL, *list;
	char line[MAX_LINE], *slash, *listdir;
	unsigned pass = 0, skip = 0, fail = 0, lineno = 0, setup_failed = 0;
	FILE *f;
	int opt;

	while ((opt = getopt(argc, argv, "C:")) != -1) {
		if (opt != 'C')
			goto usage;
		dir = optarg;
	}
	if (optind != argc - 1)
		goto usage;
	list = argv[optind];
	f = fopen(list, "r");
	if (!f) {
		fprintf(stderr, "suiterun: %s: %s\n", list, strerror(errno));
		return 2;
	}
	listdir = strdup(list);
	if (!listdir) {
		fprintf(stderr, "suiterun: out of memory\n");
		return 2;
	}
	slash = strrchr(listdir, '/');
	if (slash)
		*slash = '\0';
	if (!dir)
		dir = slash ? (*listdir ? listdir : "/") : ".";

	while (fgets(line, sizeof(line), f)) {
		char *args[MAX_ARGS], *end, *p = line;
		struct counts c = { 0 };
		int n, timeout, status, timed_out;
		double start;
		long t;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			continue;
		if (*p == '!') {
			char *sh[] = { "/bin/sh", "-c", p + 1, NULL };

			printf("# setup: %s\n", p + 1);
			if (run("setup", dir, sh, 60, &status, &timed_out, &c) < 0 || timed_out ||
			    !WIFEXITED(status) || WEXITSTATUS(status)) {
				printf("setup: fail (%s:%u: %s)\n", list, lineno, p + 1);
				setup_failed++;
			}
			continue;
		}
		n = split(p, args);
		if (n < 3) {
			fprintf(stderr, "suiterun: %s:%u: want NAME TIMEOUT PROGRAM [ARG...]%s\n",
				list, lineno, n < 0 ? " (too many words)" : "");
			return 2;
		}
		errno = 0;
		t = strtol(args[1], &end, 10);
		if (errno || *end || t <= 0 || t > 86400) {
			fprintf(stderr, "suiterun: %s:%u: timeout '%s': seconds from 1 to 86400\n",
				list, lineno, args[1]);
			return 2;
		}
		timeout = (int)t;
		printf("# %s: %s", args[0], args[2]);
		for (int i = 3; i < n; i++)
			printf(" %s", args[i]);
		printf(" (timeout %d s)\n", timeout);
		start = child_now();
		if (run(args[0], dir, args + 2, timeout, &status, &timed_out, &c) < 0) {
			printf("%s: fail (could not run it)\n", args[0]);
			fail++;
			continue;
		}
		const char *verdict;
		char how[64];

		if (timed_out) {
			verdict = "fail";
			snprintf(how, sizeof(how), "timeout after %d s", timeout);
		} else if (WIFSIGNALED(status)) {
			verdict = "fail";
			snprintf(how, sizeof(how), "signal %d", WTERMSIG(status));
		} else {
			int rc = WEXITSTATUS(status);

			verdict = rc == 0 ? "pass" : rc == KSFT_SKIP ? "skip" : "fail";
			snprintf(how, sizeof(how), "exit %d", rc);
		}
		*verdict == 'p' ? pass++ : *verdict == 's' ? skip++ : fail++;
		printf("%s: %s (%s, %.1f s", args[0], verdict, how, child_now() - start);
		if (c.ok + c.skip + c.fail)
			printf("; sub-tests %u ok, %u skip, %u fail", c.ok, c.skip, c.fail);
		printf(")\n");
		fflush(stdout);
	}
	if (ferror(f)) {
		fprintf(stderr, "suiterun: %s: read error\n", list);
		return 2;
	}
	fclose(f);
	printf("suiterun: %u pass, %u skip, %u fail (of %u)%s\n", pass, skip, fail,
	       pass + skip + fail, setup_failed ? "; a setup step failed" : "");
	free(listdir);
	return fail || setup_failed ? 1 : 0;
usage:
	fprintf(stderr, "usage: suiterun [-C DIR] LIST\n");
	return 2;
}
