/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-node reclaim from the kernel's vmscan tracepoints (bench reclaim):
 * /proc/vmstat's pgscan, pgsteal and allocstall are machine-wide in 6.12,
 * the tracepoints carry the node (mm_vmscan_lru_shrink_inactive: nid,
 * nr_scanned, nr_reclaimed; mm_vmscan_kswapd_wake, mm_vmscan_wakeup_kswapd,
 * mm_vmscan_node_reclaim_begin: nid) and the task that reclaimed (kswapdN,
 * or the allocating task: direct reclaim).  Pure: also built for the
 * host's unit tests.
 */
#ifndef TIERBENCH_VMSCAN_H
#define TIERBENCH_VMSCAN_H

#define VMSCAN_NODES 64

struct vmscan_tally {
	long scan_kswapd[VMSCAN_NODES], steal_kswapd[VMSCAN_NODES];
	long scan_direct[VMSCAN_NODES], steal_direct[VMSCAN_NODES];
	long kswapd_wake[VMSCAN_NODES];		/* kswapd ran balance_pgdat() for the node */
	long wakeup_kswapd[VMSCAN_NODES];	/* an allocation asked it to */
	long node_reclaim[VMSCAN_NODES];	/* zone_reclaim_mode's node_reclaim() */
	long direct_begin;			/* direct reclaim entered (allocstall's events) */
	long events;				/* vmscan events counted */
	long lost;				/* entries written but not in the buffer, -1 unknown */
};

void vmscan_tally_init(struct vmscan_tally *t);
/*
 * One line of tracefs's "trace" file into @t: a vmscan event counted, the
 * "# entries-in-buffer/entries-written: A/B" header into t->lost, anything
 * else ignored.  1 counted, 0 ignored, -1 a vmscan event line it cannot read
 * (a node id out of range, a field missing).
 */
int vmscan_trace_line(struct vmscan_tally *t, const char *line);

#endif
