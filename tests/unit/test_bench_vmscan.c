// SPDX-License-Identifier: GPL-2.0
/*
 * bench/vmscan.c: the vmscan tracepoints' lines tallied per node and per
 * reclaimer (kswapd or the allocating task), as tracefs prints them in
 * 6.12 (include/trace/events/vmscan.h), the buffer's lost entries from
 * its header, and a vmscan line it cannot read said, not guessed.
 */
#include "harness.h"
#include "vmscan.h"

TEST(vmscan_tally_per_node_and_reclaimer)
{
	static const char *const lines[] = {
		"# tracer: nop\n",
		"# entries-in-buffer/entries-written: 6/9   #P:2\n",
		"         kswapd3-41      [001] .....    12.345678: mm_vmscan_kswapd_wake: nid=3 order=0\n",
		"       tierbench-90      [000] .....    12.345600: mm_vmscan_wakeup_kswapd: nid=3 zid=1 order=0 gfp_flags=GFP_HIGHUSER_MOVABLE\n",
		"         kswapd3-41      [001] .....    12.346000: mm_vmscan_lru_shrink_inactive: nid=3 nr_scanned=32 nr_reclaimed=30 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC\n",
		"       tierbench-90      [000] .....    12.347000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE\n",
		"       tierbench-90      [000] .....    12.347100: mm_vmscan_lru_shrink_inactive: nid=2 nr_scanned=64 nr_reclaimed=8 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC\n",
		"       tierbench-90      [000] .....    12.348000: mm_vmscan_node_reclaim_begin: nid=2 order=0 gfp_flags=GFP_HIGHUSER_MOVABLE\n",
		"       tierbench-90      [000] .....    12.349000: mm_vmscan_direct_reclaim_end: nr_reclaimed=8\n",
	};
	struct vmscan_tally t;
	int counted = 0;

	vmscan_tally_init(&t);
	CHECK(t.lost == -1);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		int rc = vmscan_trace_line(&t, lines[i]);

		CHECK(rc >= 0);
		counted += rc;
	}
	CHECK(counted == 6);
	CHECK(t.lost == 3);
	CHECK(t.kswapd_wake[3] == 1 && t.kswapd_wake[2] == 0);
	CHECK(t.wakeup_kswapd[3] == 1);
	CHECK(t.scan_kswapd[3] == 32 && t.steal_kswapd[3] == 30);
	CHECK(t.scan_direct[3] == 0 && t.scan_kswapd[2] == 0);
	CHECK(t.scan_direct[2] == 64 && t.steal_direct[2] == 8);
	CHECK(t.direct_begin == 1);
	CHECK(t.node_reclaim[2] == 1);
	CHECK(t.events == 6);
}

TEST(vmscan_unreadable_lines_said)
{
	struct vmscan_tally t;

	vmscan_tally_init(&t);
	/* a node past the table, a field missing: -1, nothing counted */
	CHECK(vmscan_trace_line(&t, " kswapd0-40 [000] ..... 1.0: mm_vmscan_kswapd_wake: nid=64 order=0\n") == -1);
	CHECK(vmscan_trace_line(&t, " kswapd0-40 [000] ..... 1.0: mm_vmscan_lru_shrink_inactive: nid=0 nr_reclaimed=3\n") == -1);
	CHECK(vmscan_trace_line(&t, " kswapd0-40 [000] ..... 1.0: mm_vmscan_kswapd_wake: order=0\n") == -1);
	/* "nr_scanned" is not read out of "xnr_scanned" */
	CHECK(vmscan_trace_line(&t, " x-1 [000] ..... 1.0: mm_vmscan_lru_shrink_inactive: nid=1 xnr_scanned=5 nr_reclaimed=3\n") == -1);
	/* other events and text: ignored */
	CHECK(vmscan_trace_line(&t, " x-1 [000] ..... 1.0: mpol_alloc: nid=1\n") == 0);
	CHECK(vmscan_trace_line(&t, "\n") == 0);
	CHECK(t.events == 0 && t.scan_kswapd[0] == 0 && t.scan_direct[1] == 0);
}
