// SPDX-License-Identifier: GPL-2.0
/* labtool compare [-o DIR] RUN-DIR RUN-DIR...: runs side by side, differences with CIs. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "report_int.h"

static void compare_usage(FILE *f)
{
	fprintf(f, "usage: labtool compare [-o DIR] [--plots DIR] [--no-plots] RUN-DIR RUN-DIR...\n"
		   "  writes DIR/compare.{html,md,csv} and the figure compare-latency.{svg,png,dat};\n"
		   "  DIR defaults to compare-<YYYYmmdd-HHMMSS> beside the first run.  Differences\n"
		   "  are against the first run.\n");
}

int cmd_compare(int argc, char **argv)
{
	const char *out = NULL, *given = NULL;
	bool no_plots = false;
	char *scripts = NULL;
	char **dirs = xcalloc((size_t)argc, sizeof(*dirs));
	char *outdir = NULL;
	int n = 0, rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "--plots") && i + 1 < argc)
			given = argv[++i];
		else if (!strcmp(argv[i], "--no-plots"))
			no_plots = true;
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			compare_usage(stdout);
			free(dirs);
			return 0;
		} else if (argv[i][0] == '-') {
			compare_usage(stderr);
			free(dirs);
			return EXIT_USAGE;
		} else
			dirs[n++] = argv[i];
	}
	if (n < 2) {
		compare_usage(stderr);
		free(dirs);
		return EXIT_USAGE;
	}
	if (!no_plots) {
		scripts = find_plot_scripts(given);
		if (!scripts) {
			fprintf(stderr, "labtool compare: no gnuplot scripts (latency.gp) in %s\n",
				given ? given : "$TIERLAB_PLOTS, <labtool>/../../plots or ./plots");
			free(dirs);
			return EXIT_NOINPUT;
		}
	}
	if (out)
		outdir = xstrdup(out);
	else {
		/* the one place the clock is read: naming a new comparison */
		char stamp[32], *parent = xstrdup(dirs[0]);
		time_t now = time(NULL);
		struct tm tm;
		size_t len = strlen(parent);

		while (len > 1 && parent[len - 1] == '/')
			parent[--len] = '\0';
		char *slash = strrchr(parent, '/');

		if (slash)
			*slash = '\0';
		else
			strcpy(parent, ".");
		if (!localtime_r(&now, &tm) || !strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm)) {
			fprintf(stderr, "labtool compare: cannot read the clock\n");
			free(scripts);
			free(parent);
			free(dirs);
			return EXIT_SOFTWARE;
		}
		outdir = xasprintf("%s/compare-%s", slash == parent ? "" : parent, stamp);
		free(parent);
	}
	rc = compare_runs(dirs, n, outdir, scripts);
	free(scripts);
	free(outdir);
	free(dirs);
	return rc;
}
