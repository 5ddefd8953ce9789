// SPDX-License-Identifier: GPL-2.0
/* labtool report RUN-DIR: plots, report.html and report.md from a run's files. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "report_int.h"

static bool has_scripts(const char *dir)
{
	char *p = xasprintf("%s/latency.gp", dir);
	struct stat sb;
	bool ok = stat(p, &sb) == 0;

	free(p);
	return ok;
}

/*
 * The gnuplot scripts: --plots DIR, else $TIERLAB_PLOTS, else plots/ of the
 * tree labtool was built in (build/host/labtool -> ../../plots), else ./plots.
 */
char *find_plot_scripts(const char *given)
{
	const char *env = getenv("TIERLAB_PLOTS");
	char exe[PATH_MAX];
	ssize_t n;

	if (given)
		return has_scripts(given) ? xstrdup(given) : NULL;
	if (env && *env)
		return has_scripts(env) ? xstrdup(env) : NULL;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');

		if (slash) {
			*slash = '\0';
			char *p = xasprintf("%s/../../plots", exe);

			if (has_scripts(p))
				return p;
			free(p);
		}
	}
	return has_scripts("plots") ? xstrdup("plots") : NULL;
}

static void report_usage(FILE *f)
{
	fprintf(f, "usage: labtool report [--plots DIR] [--no-plots] [--fits yes|no|unknown] RUN-DIR\n"
		   "  writes RUN-DIR/plots/{*.svg,*.png,data/*.dat}, RUN-DIR/report.html and\n"
		   "  RUN-DIR/report.md from summary.csv, guest-topology.csv, meta.json and raw/.\n"
		   "  --fits: whether the workload fits its nodes, for the verdict (default:\n"
		   "  meta.json's \"fits\", which run-lab.sh --fits writes, else unknown).\n");
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { 0 };
	const char *given = NULL, *dir = NULL;
	char *scripts = NULL;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--plots") && i + 1 < argc)
			given = argv[++i];
		else if (!strcmp(argv[i], "--no-plots"))
			o.no_plots = true;
		else if (!strcmp(argv[i], "--fits") && i + 1 < argc) {
			enum fits f;

			o.fits = argv[++i];
			if (fits_parse(o.fits, &f) < 0) {
				fprintf(stderr, "labtool report: --fits: '%s' is not yes, no or unknown\n",
					o.fits);
				return EXIT_USAGE;
			}
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			report_usage(stdout);
			return 0;
		} else if (argv[i][0] == '-' || dir) {
			report_usage(stderr);
			return EXIT_USAGE;
		} else
			dir = argv[i];
	}
	if (!dir) {
		report_usage(stderr);
		return EXIT_USAGE;
	}
	if (!o.no_plots) {
		scripts = find_plot_scripts(given);
		if (!scripts) {
			fprintf(stderr, "labtool report: no gnuplot scripts (latency.gp) in %s\n",
				given ? given : "$TIERLAB_PLOTS, <labtool>/../../plots or ./plots");
			return EXIT_NOINPUT;
		}
	}
	o.scripts = scripts;
	rc = report_run(dir, &o);
	free(scripts);
	return rc;
}
