// SPDX-License-Identifier: GPL-2.0
/*
 * Memory-timing phases of the cases and workloads (tb.h; README, "Memory
 * timing").  The only user of the markers besides chase's own walk: the
 * marker is an instruction whose bytes the plugin reads, so its id must be
 * a constant, and each kind of phase has its own (plugin/marker.h).
 *
 * Functions of their own translation unit: to a caller a marker is an
 * opaque call, placed outside its timed loops, so the loop's code and the
 * instructions between its clock reads stay what they were (README,
 * "Memory timing": latency's icount medians, checked unchanged).
 */
#include "tb.h"
#include "marker.h"

#include <stdio.h>

static const struct phase_label unlabelled = { .x_mib = -1, .loads = -1, .pages = -1, .bound = -1 };

void phase_case_begin(struct shared *sh, long x_mib)
{
	sh->phase_x_mib = x_mib;
	sh->phase_open = 1;
	MT_MARK(MT_OP_BEGIN, MT_PHASE_CASE);
}

void phase_case_end(struct shared *sh, const struct rowkey *k, long pages)
{
	struct phase_label l = unlabelled;

	/*
	 * The end marker before the flag: a child killed between the two
	 * makes the harness end the phase again, which the plugin reports
	 * as a stray end (a failed check), rather than a phase left open.
	 */
	MT_MARK(MT_OP_END, MT_PHASE_CASE);
	sh->phase_open = 0;
	l.x_mib = sh->phase_x_mib;
	l.pages = pages;
	out_phase(k, MT_PHASE_CASE, &l);
}

void phase_case_reaped(struct shared *sh)
{
	if (sh->phase_open != 1)
		return;
	MT_MARK(MT_OP_END, MT_PHASE_CASE);
	sh->phase_open = 2;
}

void phase_case_label_reaped(const struct rowkey *k, const struct shared *sh)
{
	struct phase_label l = unlabelled;

	if (sh->phase_open != 2)
		return;
	l.x_mib = sh->phase_x_mib;
	l.reaped = true;
	out_phase(k, MT_PHASE_CASE, &l);
}

void phase_workload_begin(void)
{
	MT_MARK(MT_OP_BEGIN, MT_PHASE_WORKLOAD);
}

void phase_workload_end(const struct rowkey *k)
{
	MT_MARK(MT_OP_END, MT_PHASE_WORKLOAD);
	out_phase(k, MT_PHASE_WORKLOAD, &unlabelled);
}
