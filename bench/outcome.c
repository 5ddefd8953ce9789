// SPDX-License-Identifier: GPL-2.0
/* How a case ended: exit status, OOM counter and kernel log (outcome.h). */
#include "outcome.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

const char *const outcome_names[OUT_COUNT] = { VOCAB_OUTCOMES(VOCAB_NAME3) };

int kmsg_oom_victim(const char *rec)
{
	static const char key[] = "Killed process ";
	const char *k = strstr(rec, key);
	char *end;
	long v;

	if (!k)
		return 0;
	v = strtol(k + strlen(key), &end, 10);
	if (end == k + strlen(key) || v <= 0 || v > 0x7fffffff)
		return 0;
	return (int)v;
}

bool kmsg_oom_constraint(const char *rec, int pid, char *out, size_t len)
{
	static const char key[] = "oom-kill:constraint=";
	const char *c = strstr(rec, key), *p;
	char pidkey[32];

	if (!c)
		return false;
	snprintf(pidkey, sizeof(pidkey), ",pid=%d,", pid);
	p = strstr(c, pidkey);
	if (!p)
		return false;
	c += strlen(key);
	snprintf(out, len, "%.*s", (int)strcspn(c, ",\n"), c);
	return true;
}

bool case_oom_complete(const struct case_oom *s)
{
	return s->kill_delta <= (s->victim ? 1 : 0) + (s->other ? 1 : 0);
}

enum outcome case_outcome(int status, const struct case_oom *s)
{
	enum outcome oc = OUT_ERROR;

	if (WIFEXITED(status)) {
		switch (WEXITSTATUS(status)) {
		case CASE_EXIT_OK: oc = OUT_COMPLETED; break;
		case CASE_EXIT_SETUP: oc = OUT_SETUP_ERROR; break;
		case CASE_EXIT_EFAULT: oc = OUT_EFAULT; break;
		default: oc = OUT_ERROR;
		}
	} else if (WIFSIGNALED(status)) {
		switch (WTERMSIG(status)) {
		case SIGBUS: oc = OUT_SIGBUS; break;
		case SIGSEGV: oc = OUT_SIGSEGV; break;
		case SIGKILL:
			oc = s->victim && s->kill_delta > 0 ? OUT_OOM_KILLED : OUT_KILLED;
			break;
		default: oc = OUT_ERROR;
		}
	}
	/*
	 * Another task was an OOM victim while the case ran: not this case's
	 * result -- unless the case was killed first, and the other kill came
	 * after (an allocation between the case's death and the return of its
	 * pages): the case's own OOM kill stands.
	 */
	if (oc == OUT_OOM_KILLED && s->other && s->other_after && s->kill_delta == 2)
		return oc;
	if (s->other || s->kill_delta > (s->victim ? 1 : 0))
		oc = OUT_KILLED_OTHER;
	return oc;
}
