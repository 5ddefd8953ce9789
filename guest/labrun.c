// SPDX-License-Identifier: GPL-2.0
/*
 * labrun: run a boot's plan inside the guest and frame everything its steps
 * print onto the results channel.
 *
 *   labrun PLAN CHANNEL
 *
 * PLAN lines (see README.md, "Guest plan"):  "boot <id>",
 * "step <name> <timeout-seconds> <argv0> <argv1> ...", tokens percent-encoded,
 * and "align <seconds>": every later step starts at the next whole multiple
 * of <seconds> of CLOCK_MONOTONIC (the plan has it under --clock icount;
 * align_step).
 * Each step runs in its own process group with stdout on a pipe; when its
 * timeout expires the whole group is killed.  labrun protects itself from the
 * OOM killer, its steps do not, so an OOM in a benchmark is a result, not a
 * lost boot.  Exit status: 0 when every step succeeded, 1 otherwise, 2 when
 * the plan or the channel is unusable.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "frame.h"

#define MAX_LINE (64 * 1024)

static int channel = -1, channel_is_tty;
static unsigned long seq;

static void write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "labrun: write to channel: %s\n",
				strerror(errno));
			return;
		}
		buf += n;
		len -= (size_t)n;
	}
}

static void emit_raw(const char *fmt, ...)
{
	char *line;
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	write_all(channel, line, (size_t)len);
	free(line);
}

/* One framed line: "<seq> <crc32> <payload>\n". */
static void emit(const char *payload)
{
	size_t len = strcspn(payload, "\r\n");
	char head[32];
	int hl;

	hl = snprintf(head, sizeof(head), "%lu %08x ", ++seq,
		      frame_crc32(payload, len));
	write_all(channel, head, (size_t)hl);
	write_all(channel, payload, len);
	write_all(channel, "\n", 1);
	/*
	 * Wait until the UART has sent the line: a row is only safe once it
	 * has left the guest, and the next thing a step does may be to crash
	 * the kernel.
	 */
	if (channel_is_tty)
		tcdrain(channel);
}

static void emitf(const char *fmt, ...)
{
	char *payload;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&payload, fmt, ap) >= 0) {
		emit(payload);
		free(payload);
	}
	va_end(ap);
}

static void emit_step_line(const char *line, void *ctx)
{
	(void)ctx;
	if (frame_known_payload(line))
		emit(line);
	else
		emitf("OUT %s", line);
}

static void set_oom_score_adj(const char *value)
{
	int fd = open("/proc/self/oom_score_adj", O_WRONLY);

	if (fd < 0)
		return;
	if (write(fd, value, strlen(value)) < 0)
		fprintf(stderr, "labrun: oom_score_adj: %s\n", strerror(errno));
	close(fd);
}

/* Seconds a timed-out step has between SIGTERM and SIGKILL. */
#define TERM_GRACE 5

/*
 * Under --clock icount the guest's clock counts instructions, every boot
 * the same, until it waits on the host: the reclaim disks' reads at boot
 * (their probe, mount, swapon) and any step's disk I/O complete after a
 * host-timed number of idle ticks, and every later timer of the boot
 * shifts with them (2026-12-07: 1.5 to 335 ms between two boots of one
 * id).  Waiting for the next whole multiple of @period seconds of
 * CLOCK_MONOTONIC puts each step at the same guest instant in every boot,
 * as long as the boots reach it within the same period (a shift across a
 * boundary is a whole @period apart, which the step's aligned= shows);
 * idle under icount (sleep=off), the wait costs no host time.  Returns the
 * instant waited for, in seconds, or -1 (said) when the clock failed.
 */
static long long align_step(long period)
{
	struct timespec now, at = { 0 };
	int rc;

	if (clock_gettime(CLOCK_MONOTONIC, &now) < 0) {
		fprintf(stderr, "labrun: clock_gettime: %s\n", strerror(errno));
		return -1;
	}
	at.tv_sec = (now.tv_sec / period + 1) * period;
	while ((rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL)) == EINTR)
		;
	if (rc) {
		fprintf(stderr, "labrun: clock_nanosleep: %s\n", strerror(rc));
		return -1;
	}
	return (long long)at.tv_sec;
}

/* Runs one step (at guest second @aligned, -1: not aligned); returns 0 if it exited 0. */
static int run_step(const char *name, int timeout, long long aligned, char **argv)
{
	int pfd[2];
	pid_t pid;
	double start = child_now(), deadline = start + timeout;
	struct child_lines out;
	int status = 0, timed_out = 0, eof = 0;

	if (child_lines_init(&out, MAX_LINE, emit_step_line, NULL) < 0) {
		emitf("STEP name=%s status=fail rc=-1 secs=0 error=nomem", name);
		return -1;
	}
	if (pipe(pfd) < 0) {
		emitf("STEP name=%s status=fail rc=-1 secs=0 error=pipe", name);
		child_lines_end(&out);
		return -1;
	}
	fprintf(stderr, "tierlab: step %s (timeout %ds)\n", name, timeout);
	if (aligned >= 0)
		emitf("STEP name=%s status=started timeout=%d aligned=%lld", name, timeout, aligned);
	else
		emitf("STEP name=%s status=started timeout=%d", name, timeout);
	pid = fork();
	if (pid < 0) {
		emitf("STEP name=%s status=fail rc=-1 secs=0 error=fork", name);
		close(pfd[0]);
		close(pfd[1]);
		child_lines_end(&out);
		return -1;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);

		setpgid(0, 0);
		set_oom_score_adj("0");
		if (devnull >= 0)
			dup2(devnull, STDIN_FILENO);
		dup2(pfd[1], STDOUT_FILENO);
		close(pfd[0]);
		close(pfd[1]);
		execvp(argv[0], argv);
		fprintf(stderr, "labrun: step %s: exec %s: %s\n", name, argv[0],
			strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	close(pfd[1]);

	while (!eof) {
		double left = deadline - child_now();
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };

		if (left <= 0) {
			timed_out = 1;
			break;
		}
		if (poll(&p, 1, (int)(left * 1000) + 1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p.revents)
			eof = child_lines_read(&out, pfd[0]);
	}
	/* a last line without its newline, a timed-out step's too */
	child_lines_end(&out);
	close(pfd[0]);
	/* The leader may have closed stdout and still run: wait, bounded. */
	if (!timed_out) {
		int r = child_wait_until(pid, &status, deadline);

		if (r < 0)
			status = 0;
		else if (!r)
			timed_out = 1;
	}
	/*
	 * A step past its time gets SIGTERM first and TERM_GRACE seconds to
	 * end: tierbench then puts back the sysctls it changed (its declared
	 * needs), which a SIGKILL would leave for every later step of the
	 * boot.  Then whatever is left of the group goes, leader or stragglers.
	 */
	if (timed_out) {
		kill(-pid, SIGTERM);
		child_wait_until(pid, &status, child_now() + TERM_GRACE);
	}
	kill(-pid, SIGKILL);
	if (timed_out)
		waitpid(pid, &status, 0);
	while (waitpid(-pid, NULL, WNOHANG) > 0)
		;

	double secs = child_now() - start;

	if (timed_out) {
		emitf("STEP name=%s status=timeout rc=-1 secs=%.3f", name, secs);
		return -1;
	}
	if (WIFSIGNALED(status)) {
		emitf("STEP name=%s status=signal rc=%d sig=%s secs=%.3f", name,
		      WTERMSIG(status), sigabbrev_np(WTERMSIG(status)) ?: "?",
		      secs);
		return -1;
	}
	emitf("STEP name=%s status=%s rc=%d secs=%.3f", name,
	      WEXITSTATUS(status) ? "fail" : "ok", WEXITSTATUS(status), secs);
	return WEXITSTATUS(status) ? -1 : 0;
}

static void open_channel(const char *path)
{
	struct termios tio;

	channel = open(path, O_WRONLY | O_NOCTTY);
	if (channel < 0) {
		fprintf(stderr, "labrun: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	/* Raw: no "\n" -> "\r\n", so the host sees exactly the frames. */
	if (tcgetattr(channel, &tio) == 0) {
		channel_is_tty = 1;
		cfmakeraw(&tio);
		cfsetospeed(&tio, B115200);
		tcsetattr(channel, TCSANOW, &tio);
	}
}

int main(int argc, char **argv)
{
	FILE *plan;
	char *line = NULL;
	size_t cap = 0;
	const char *boot = "?";
	int lineno = 0, failed = 0;
	long align = 0;	/* "align": each later step waits for a whole multiple of it */
	struct utsname uts;

	if (argc != 3) {
		fprintf(stderr, "usage: labrun PLAN CHANNEL\n");
		return 2;
	}
	plan = fopen(argv[1], "r");
	if (!plan) {
		fprintf(stderr, "labrun: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	open_channel(argv[2]);
	signal(SIGPIPE, SIG_IGN);
	set_oom_score_adj("-1000");

	/* The boot id comes first, so BEGIN can carry it. */
	char **lines = NULL;
	size_t nlines = 0;

	while (getline(&line, &cap, plan) > 0) {
		char **grown = realloc(lines, (nlines + 1) * sizeof(*lines));

		if (!grown) {
			fprintf(stderr, "labrun: out of memory\n");
			return 2;
		}
		lines = grown;
		line[strcspn(line, "\n")] = '\0';
		lines[nlines++] = strdup(line);
		if (!strncmp(line, "boot ", 5))
			boot = lines[nlines - 1] + 5;
	}
	fclose(plan);
	free(line);

	emit_raw(FRAME_MAGIC " BEGIN boot=%s\n", boot);
	if (uname(&uts) == 0)
		emitf("META kernel_release=%s machine=%s", uts.release,
		      uts.machine);

	for (size_t i = 0; i < nlines; i++) {
		char *tok[256], *save = NULL, *p = lines[i], *end;
		int n = 0;

		lineno++;
		if (!p || !*p || *p == '#' || !strncmp(p, "boot ", 5))
			continue;
		/* a malformed one fails as a plan line; the steps keep the period they had */
		if (!strncmp(p, "align ", 6)) {
			long period;

			errno = 0;
			period = strtol(p + 6, &end, 10);
			if (errno || end == p + 6 || *end || period <= 0 || period > 3600) {
				emitf("STEP name=plan-line-%d status=fail rc=-1 secs=0 error=malformed",
				      lineno);
				failed++;
			} else {
				align = period;
			}
			continue;
		}
		for (char *t = strtok_r(p, " ", &save); t && n < 255;
		     t = strtok_r(NULL, " ", &save)) {
			if (frame_unescape(t) < 0)
				break;
			tok[n++] = t;
		}
		tok[n] = NULL;
		if (n < 4 || strcmp(tok[0], "step") || atoi(tok[2]) <= 0) {
			emitf("STEP name=plan-line-%d status=fail rc=-1 secs=0 error=malformed",
			      lineno);
			failed++;
			continue;
		}
		if (run_step(tok[1], atoi(tok[2]), align ? align_step(align) : -1, tok + 3) < 0)
			failed++;
	}
	emit_raw(FRAME_MAGIC " END count=%lu rc=%d\n", seq, failed ? 1 : 0);
	tcdrain(channel);
	close(channel);
	return failed ? 1 : 0;
}
