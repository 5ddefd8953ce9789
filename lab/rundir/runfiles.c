// SPDX-License-Identifier: GPL-2.0
/* The run directory's files and summary.csv's columns (runfiles.h). */
#include <stdio.h>
#include <string.h>

#include "runfiles.h"
#include "util.h"

const char *const row_col_names[NR_ROW_COLS] = {
#define X(e, n) #n,
	SUMMARY_COLUMNS(X)
#undef X
};

const char *summary_header(void)
{
	static const char header[] =
#define X(e, n) "," #n
		SUMMARY_COLUMNS(X)
#undef X
		;

	return header + 1;	/* past the first column's comma */
}

const struct run_file_info run_files[NR_RUN_FILES] = {
#define X(e, p, w) { p, w },
	RUN_FILES(X)
#undef X
};

char *run_file_path(const char *run, enum run_file f, const char *boot)
{
	const char *p = run_files[f].path, *s = strstr(p, "%s");

	if (!s)
		return xasprintf("%s/%s", run, p);
	return xasprintf("%s/%.*s%s%s", run, (int)(s - p), p, boot ? boot : "", s + 2);
}
