// SPDX-License-Identifier: GPL-2.0
/* The vmscan tracepoints' lines, tallied per node: see vmscan.h. */
#include "vmscan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vmscan_tally_init(struct vmscan_tally *t)
{
	memset(t, 0, sizeof(*t));
	t->lost = -1;
}

/* The number after "@key=" in @args, -1 when absent or not a number. */
static long field(const char *args, const char *key)
{
	size_t klen = strlen(key);
	const char *p = args;
	char *end;
	long v;

	while ((p = strstr(p, key))) {
		if ((p == args || p[-1] == ' ') && p[klen] == '=') {
			v = strtol(p + klen + 1, &end, 10);
			return end == p + klen + 1 || v < 0 ? -1 : v;
		}
		p += klen;
	}
	return -1;
}

int vmscan_trace_line(struct vmscan_tally *t, const char *line)
{
	const char *ev, *args, *task = line;
	long nid;
	int kswapd;

	if (line[0] == '#') {
		long a, b;
		const char *h = strstr(line, "entries-in-buffer/entries-written:");

		if (h && sscanf(h + strlen("entries-in-buffer/entries-written:"), " %ld/%ld", &a, &b) == 2)
			t->lost = b >= a ? b - a : 0;
		return 0;
	}
	ev = strstr(line, ": mm_vmscan_");
	if (!ev)
		return 0;
	ev += 2;
	args = strchr(ev, ':');
	if (!args)
		return -1;
	args++;
	while (*task == ' ')
		task++;
	kswapd = !strncmp(task, "kswapd", 6);
	if (!strncmp(ev, "mm_vmscan_direct_reclaim_begin:", 31)) {
		t->direct_begin++;
		t->events++;
		return 1;
	}
	nid = field(args, "nid");
	if (nid < 0 || nid >= VMSCAN_NODES)
		return strncmp(ev, "mm_vmscan_lru_shrink_inactive:", 30) &&
		       strncmp(ev, "mm_vmscan_kswapd_wake:", 22) &&
		       strncmp(ev, "mm_vmscan_wakeup_kswapd:", 24) &&
		       strncmp(ev, "mm_vmscan_node_reclaim_begin:", 29) ? 0 : -1;
	if (!strncmp(ev, "mm_vmscan_lru_shrink_inactive:", 30)) {
		long scanned = field(args, "nr_scanned"), reclaimed = field(args, "nr_reclaimed");

		if (scanned < 0 || reclaimed < 0)
			return -1;
		(kswapd ? t->scan_kswapd : t->scan_direct)[nid] += scanned;
		(kswapd ? t->steal_kswapd : t->steal_direct)[nid] += reclaimed;
	} else if (!strncmp(ev, "mm_vmscan_kswapd_wake:", 22)) {
		t->kswapd_wake[nid]++;
	} else if (!strncmp(ev, "mm_vmscan_wakeup_kswapd:", 24)) {
		t->wakeup_kswapd[nid]++;
	} else if (!strncmp(ev, "mm_vmscan_node_reclaim_begin:", 29)) {
		t->node_reclaim[nid]++;
	} else {
		return 0;
	}
	t->events++;
	return 1;
}
