// SPDX-License-Identifier: GPL-2.0
/*
 * labtool multi [-q] RUN-LAB -- RUN-LAB-OPTIONS... [--] TOPOLOGY...
 *
 * run-lab.sh with several topologies: one run each, then a comparison.
 * Each topology gets its own run directory (its own report, resumable on
 * its own): RUN-LAB runs once per topology, one after the other, with the
 * options in canonical form (and -q), and names its run directory in the
 * file $TIERLAB_RUN_DIR_FILE.  SIGINT, SIGTERM and SIGHUP are handed on to
 * the run in flight as SIGTERM; a run that ends with 130 (interrupted)
 * ends the loop.  With two or more runs made, `labtool compare` writes
 * RESULTS/compare-YYYYmmdd-HHMMSS, which the comparison report puts side by
 * side ("comparison: DIR/compare.html" on stderr, as util.h's say()).
 *
 * Exit: the worst of the runs' exits, at least 1 when the comparison
 * fails; 130 at once when a run is interrupted, or a signal came between
 * runs; 64 usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "rundir.h"
#include "runopts.h"

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

int shell_exit_status(int wstatus)
{
	if (WIFEXITED(wstatus))
		return WEXITSTATUS(wstatus);
	if (WIFSIGNALED(wstatus))
		return 128 + WTERMSIG(wstatus);
	return 1;
}

/* One run of RUN-LAB for @topo: its exit status as the shell's wait gives it, its run in *run. */
static int one_run(const char *runlab, char **canon, size_t ncanon, bool quiet, const char *topo,
		   char **run)
{
	const char *tmp = getenv("TMPDIR");
	char where[4096], **v = xcalloc(ncanon + 4, sizeof(*v)), *text;
	int fd, n = 0, wstatus = 0, rc;
	bool forwarded = false;
	size_t len;
	pid_t pid;

	*run = NULL;
	snprintf(where, sizeof(where), "%s/tierlab-run.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(where);
	if (fd < 0) {
		fprintf(stderr, "run-lab: cannot create a file in %s: %s\n", tmp && *tmp ? tmp : "/tmp",
			strerror(errno));
		free(v);
		return 2;
	}
	close(fd);
	v[n++] = (char *)runlab;
	for (size_t i = 0; i < ncanon; i++)
		v[n++] = canon[i];
	if (quiet)
		v[n++] = "-q";
	v[n++] = (char *)topo;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		setenv("TIERLAB_RUN_DIR_FILE", where, 1);
		execv(runlab, v);
		fprintf(stderr, "run-lab: %s: %s\n", runlab, strerror(errno));
		_exit(127);
	}
	free(v);
	if (pid < 0) {
		fprintf(stderr, "run-lab: fork: %s\n", strerror(errno));
		unlink(where);
		return 2;
	}
	/* a signal to this process reaches the run in flight, which stops its boots */
	for (;;) {
		if (got_signal && !forwarded) {
			kill(pid, SIGTERM);
			forwarded = true;
		}
		if (waitpid(pid, &wstatus, 0) == pid)
			break;
		if (errno != EINTR) {
			wstatus = 1 << 8;
			break;
		}
	}
	rc = shell_exit_status(wstatus);
	if (read_file_all(where, &text, &len) == 0) {
		text[strcspn(text, "\n")] = '\0';
		if (*text)
			*run = text;
		else
			free(text);
	}
	unlink(where);
	return rc;
}

int cmd_multi(int argc, char **argv)
{
	struct run_opts o = { 0 };
	const char *runlab = NULL;
	char err[1024], **canon = NULL, **runs;
	size_t ncanon = 0, nruns = 0;
	bool quiet = false;
	int i = 1, rc, worst = 0;

	for (; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "-q"))
			quiet = true;
		else if (!runlab && argv[i][0] != '-')
			runlab = argv[i];
		else
			break;
	}
	if (i == argc || strcmp(argv[i], "--") || !runlab) {
		fprintf(stderr, "usage: labtool multi [-q] RUN-LAB -- RUN-LAB-OPTIONS... [--] TOPOLOGY...\n");
		return EXIT_USAGE;
	}
	rc = runopts_parse(argc - i - 1, argv + i + 1, &o, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "labtool multi: %s\n", err);
		runopts_free(&o);
		return rc;
	}
	runopts_canon(&o, &canon, &ncanon);
	runs = xcalloc(o.ntopo + 1, sizeof(*runs));
	{
		struct sigaction sa = { .sa_handler = on_signal }, old;
		int sigs[] = { SIGINT, SIGTERM, SIGHUP };

		/* no SA_RESTART: waitpid returns, and the signal is handed on */
		for (size_t k = 0; k < sizeof(sigs) / sizeof(sigs[0]); k++)
			if (sigaction(sigs[k], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
				sigaction(sigs[k], &sa, NULL);
	}
	for (size_t t = 0; t < o.ntopo; t++) {
		const char *base = strrchr(o.topo[t], '/') ? strrchr(o.topo[t], '/') + 1 : o.topo[t];
		size_t len = strlen(base);

		if (len > 5 && !strcmp(base + len - 5, ".yaml"))
			len -= 5;
		if (got_signal) {
			worst = 130;
			goto out;
		}
		if (!quiet)
			say("== %.*s", (int)len, base);
		rc = one_run(runlab, canon, ncanon, quiet, o.topo[t], &runs[nruns]);
		if (runs[nruns])
			nruns++;
		if (rc > worst)
			worst = rc;
		if (rc == 130) {
			worst = 130;
			goto out;
		}
	}
	if (nruns > 1) {
		char stamp[32], **v = xcalloc(nruns + 4, sizeof(*v)), *cmp;
		time_t now = time(NULL);
		int n = 0, saved = dup(1), null = open("/dev/null", O_WRONLY);

		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
		cmp = xasprintf("%s/compare-%s", o.results, stamp);
		v[n++] = "compare";
		v[n++] = "-o";
		v[n++] = cmp;
		for (size_t k = 0; k < nruns; k++)
			v[n++] = runs[k];
		/* its stdout is not run-lab's: the report says where it is */
		fflush(stdout);
		if (null >= 0) {
			dup2(null, 1);
			close(null);
		}
		rc = cmd_compare(n, v);
		fflush(stdout);
		if (saved >= 0) {
			dup2(saved, 1);
			close(saved);
		}
		if (rc == 0) {
			if (!quiet)
				say("comparison: %s/compare.html", cmp);
		} else {
			fprintf(stderr, "run-lab: the comparison report failed\n");
			if (worst < 1)
				worst = 1;
		}
		free(cmp);
		free(v);
	}
out:
	for (size_t k = 0; k < nruns; k++)
		free(runs[k]);
	free(runs);
	for (size_t k = 0; k < ncanon; k++)
		free(canon[k]);
	free(canon);
	runopts_free(&o);
	return worst;
}
