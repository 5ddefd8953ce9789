// SPDX-License-Identifier: GPL-2.0
/*
 * labtool boot --console FILE --channel FILE [--idle S] [--wall S] [--timing FILE] -- QEMU ARGS...
 *
 * Runs QEMU as a watched child: a boot whose console and channel both stay
 * silent for --idle seconds, or that outlives --wall seconds, is killed.
 * SIGINT/SIGTERM kill QEMU before labtool exits, so no QEMU outlives the lab.
 * Prints "qemu_status=ok|fail|idle|timeout|interrupted secs=.. init_secs=.."
 * on stdout, or with --timing into FILE (atomically: raw/boot-BOOT.timing),
 * init_secs being when the guest's /init announced itself.
 * With --progress LABEL, shows on stderr what the guest is doing: each step
 * as it starts and ends, and the cases of a benchmark, one line per
 * benchmark, page size and scenario, as the channel reports them.
 *
 * Exit: 0 QEMU exited 0; 1 QEMU failed; 124 wall limit; 125 idle limit;
 * 130 interrupted; 64 usage.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "textfile.h"
#include "util.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* Has the console shown the /init marker yet?  Scans only new bytes. */
static int saw_init(const char *console, long long *scanned)
{
	static const char marker[] = "tierlab: /init reached";
	FILE *f = fopen(console, "r");
	char buf[4096];
	int found = 0;

	if (!f)
		return 0;
	/* overlap by the marker's length so a marker split across reads is seen */
	long long from = *scanned > (long long)sizeof(marker) ?
			 *scanned - (long long)sizeof(marker) : 0;

	if (fseeko(f, from, SEEK_SET) == 0) {
		size_t n;

		while (!found && (n = fread(buf, 1, sizeof(buf) - 1, f)) > 0) {
			buf[n] = '\0';
			found = memmem(buf, n, marker, sizeof(marker) - 1) != NULL;
			from += (long long)n;
		}
	}
	*scanned = from;
	fclose(f);
	return found;
}

struct progress {
	const char *label;
	long long offset;  /* channel bytes consumed */
	struct sbuf partial; /* a line not yet complete */
	struct sbuf group; /* the cases of one bench/pagesize/scenario */
	char group_key[160];
	double start;
};

static void progress_flush(struct progress *pr)
{
	if (pr->group.len)
		fprintf(stderr, "  [+%3.0fs] %s %s: %s\n", now() - pr->start, pr->label,
			pr->group_key, pr->group.s);
	sb_free(&pr->group);
	pr->group_key[0] = '\0';
}

const char *word_after(const char *s, const char *key, char *buf, size_t size)
{
	char k[64];
	size_t kl = strlen(key);

	/* "name=" -> "name": the key of a space-separated entry (kv_value) */
	if (kl < 2 || kl >= sizeof(k) || key[kl - 1] != '=')
		return NULL;
	memcpy(k, key, kl - 1);
	k[kl - 1] = '\0';
	return kv_value(s, ' ', k, buf, size);
}

/* One channel line; only its payload matters here, checks are collect's. */
static void progress_line(struct progress *pr, const char *line)
{
	const char *payload = line;
	char a[128], b[64], c[32];

	for (int i = 0; i < 2 && payload; i++) {
		payload = strchr(payload, ' ');
		if (payload)
			payload++;
	}
	if (!payload)
		return;
	if (!strncmp(payload, "STEP ", 5) && word_after(payload, "name=", a, sizeof(a)) &&
	    word_after(payload, "status=", b, sizeof(b))) {
		progress_flush(pr);
		if (!strcmp(b, "started"))
			fprintf(stderr, "  [+%3.0fs] %s step %s\n", now() - pr->start, pr->label, a);
		else
			fprintf(stderr, "  [+%3.0fs] %s step %s: %s (%ss)\n", now() - pr->start,
				pr->label, a, b, word_after(payload, "secs=", c, sizeof(c)) ?: "?");
	} else if (!strncmp(payload, "META case=", 10) &&
		   word_after(payload, "case=", a, sizeof(a)) &&
		   word_after(payload, "outcome=", b, sizeof(b))) {
		/* case = bench/policy/pagesize/scenario */
		char *pol = strchr(a, '/'), *rest = pol ? strchr(pol + 1, '/') : NULL;
		char key[160];

		if (!rest)
			return;
		*pol++ = '\0';
		*rest++ = '\0';
		snprintf(key, sizeof(key), "%s %s", a, rest);
		if (strcmp(key, pr->group_key)) {
			progress_flush(pr);
			snprintf(pr->group_key, sizeof(pr->group_key), "%s", key);
		}
		sb_printf(&pr->group, "%s%s%s%s", pr->group.len ? ", " : "", pol,
			  strcmp(b, "completed") ? " " : "", strcmp(b, "completed") ? b : "");
	}
}

static void progress_poll(struct progress *pr, const char *channel)
{
	FILE *f = fopen(channel, "r");
	char buf[4096];
	size_t n;

	if (!f)
		return;
	if (fseeko(f, pr->offset, SEEK_SET) == 0) {
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
			pr->offset += (long long)n;
			for (size_t i = 0; i < n; i++) {
				if (buf[i] != '\n') {
					sb_putc(&pr->partial, buf[i]);
					continue;
				}
				if (pr->partial.len)
					progress_line(pr, pr->partial.s);
				pr->partial.len = 0;
				if (pr->partial.s)
					pr->partial.s[0] = '\0';
			}
		}
	}
	fclose(f);
}

int cmd_boot(int argc, char **argv)
{
	const char *console = NULL, *channel = NULL, *status = "ok", *timing = NULL;
	struct progress pr = { 0 };
	double idle = 120, wall = 1800, start, last_activity, init_secs = -1;
	long long last_size = -2, scanned = 0;
	int i, wstatus = 0, rc;
	pid_t pid;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (i + 1 >= argc)
			goto usage;
		if (!strcmp(argv[i], "--console"))
			console = argv[++i];
		else if (!strcmp(argv[i], "--channel"))
			channel = argv[++i];
		else if (!strcmp(argv[i], "--idle"))
			idle = atof(argv[++i]);
		else if (!strcmp(argv[i], "--wall"))
			wall = atof(argv[++i]);
		else if (!strcmp(argv[i], "--progress"))
			pr.label = argv[++i];
		else if (!strcmp(argv[i], "--timing"))
			timing = argv[++i];
		else
			goto usage;
	}
	if (!console || !channel || i + 1 >= argc || idle <= 0 || wall <= 0)
		goto usage;

	struct sigaction sa = { .sa_handler = on_signal };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	start = last_activity = pr.start = now();
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "labtool boot: fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		setpgid(0, 0);
		execvp(argv[i + 1], argv + i + 1);
		fprintf(stderr, "labtool boot: %s: %s\n", argv[i + 1], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);

	for (;;) {
		pid_t w = waitpid(pid, &wstatus, WNOHANG);
		long long size;

		if (w == pid)
			break;
		if (interrupted) {
			status = "interrupted";
			break;
		}
		size = file_size(console) + file_size(channel);
		if (size != last_size) {
			last_size = size;
			last_activity = now();
			if (init_secs < 0 && saw_init(console, &scanned))
				init_secs = now() - start;
			if (pr.label)
				progress_poll(&pr, channel);
		}
		if (now() - start > wall) {
			status = "timeout";
			break;
		}
		if (now() - last_activity > idle) {
			status = "idle";
			break;
		}
		usleep(50000);
	}
	if (strcmp(status, "ok")) {
		kill(-pid, SIGKILL);
		waitpid(pid, &wstatus, 0);
		rc = !strcmp(status, "timeout") ? 124 : !strcmp(status, "idle") ? 125 : 130;
	} else if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) {
		rc = 0;
	} else {
		status = "fail";
		rc = 1;
	}
	if (pr.label) {
		progress_poll(&pr, channel);
		progress_flush(&pr);
		sb_free(&pr.partial);
	}
	{
		char *line = xasprintf("qemu_status=%s secs=%.3f init_secs=%.3f\n", status,
				       now() - start, init_secs);

		if (!timing) {
			fputs(line, stdout);
			fflush(stdout);
		} else if (write_file_atomic(timing, line, strlen(line)) < 0) {
			fprintf(stderr, "labtool boot: %s: %s\n", timing, strerror(errno));
		}
		free(line);
	}
	return rc;

usage:
	fprintf(stderr, "usage: labtool boot --console FILE --channel FILE [--idle S] [--wall S] [--progress LABEL] [--timing FILE] -- QEMU ARGS...\n");
	return EXIT_USAGE;
}
