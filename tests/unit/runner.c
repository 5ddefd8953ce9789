// SPDX-License-Identifier: GPL-2.0
/*
 * Runs every registered unit test, each in a forked child of its own with a
 * timeout (kselftest_harness style), so a test that crashes, aborts under a
 * sanitizer or hangs fails alone and the others still run.  Output is TAP:
 * a plan, one "ok N - name" or "not ok N - name # why" per test, and last
 * "N passed, N failed" for people and CI.  argv[1], if given, filters the
 * tests by substring; UNIT_TIMEOUT (seconds, default 60) bounds each test.
 */
#include "harness.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static struct unit_test *tests, **tail = &tests;

void unit_register(struct unit_test *t)
{
	/* in registration order: files in link order, tests in file order */
	*tail = t;
	tail = &t->next;
}

/* One test in a child; returns NULL when it passed, else why it failed. */
static const char *run_one(struct unit_test *t, unsigned int timeout,
			   char *why, size_t whylen)
{
	pid_t pid;
	int status;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(why, whylen, "fork: %s", strerror(errno));
		return why;
	}
	if (pid == 0) {
		int failures = 0;

		alarm(timeout);
		t->fn(&failures);
		fflush(NULL);
		_exit(failures ? 1 : 0);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			snprintf(why, whylen, "waitpid: %s", strerror(errno));
			return why;
		}
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return NULL;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 1)
		snprintf(why, whylen, "a CHECK failed");
	else if (WIFEXITED(status))
		snprintf(why, whylen, "exited %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		snprintf(why, whylen, "timed out after %u s", timeout);
	else if (WIFSIGNALED(status))
		snprintf(why, whylen, "killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(why, whylen, "wait status %#x", status);
	return why;
}

int main(int argc, char **argv)
{
	const char *filter = argc > 1 ? argv[1] : NULL;
	const char *env = getenv("UNIT_TIMEOUT");
	unsigned int timeout = 60;
	int passed = 0, failed = 0, planned = 0, n = 0;

	if (env) {
		char *end;
		unsigned long v = strtoul(env, &end, 10);

		if (*env == '\0' || *end != '\0' || v == 0 || v > 3600) {
			fprintf(stderr, "unit: UNIT_TIMEOUT='%s': want whole seconds from 1 to 3600\n", env);
			return 2;
		}
		timeout = (unsigned int)v;
	}
	for (struct unit_test *t = tests; t; t = t->next)
		if (!filter || strstr(t->name, filter))
			planned++;
	printf("TAP version 13\n1..%d\n", planned);
	for (struct unit_test *t = tests; t; t = t->next) {
		char why[128];
		const char *err;

		if (filter && !strstr(t->name, filter))
			continue;
		err = run_one(t, timeout, why, sizeof(why));
		n++;
		if (err) {
			printf("not ok %d - %s # %s\n", n, t->name, err);
			failed++;
		} else {
			printf("ok %d - %s\n", n, t->name);
			passed++;
		}
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
