/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a summary.csv value may be, one rule for its writer (labtool collect,
 * which refuses a ROW that breaks it, naming the channel's line) and its
 * reader (the report, which refuses such a summary.csv).  Apart from
 * channel.h and report.h, which each have their own struct row.
 */
#ifndef TIERLAB_ROWVALUE_H
#define TIERLAB_ROWVALUE_H

#include <stdbool.h>

/*
 * A finite number (*numeric, its value in *num) or one word of
 * [A-Za-z0-9_.:+-] (an outcome such as oom_killed; *num NaN); false otherwise.
 */
bool row_value_parse(const char *s, double *num, bool *numeric);

#endif
