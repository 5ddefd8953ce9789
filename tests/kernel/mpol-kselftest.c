// SPDX-License-Identifier: GPL-2.0
/*
 * mpol-kselftest: in-guest checks of the lab's mempolicy series
 * (kernel/series): the mpol_* counters, the mempolicy:mpol_alloc tracepoint
 * and the fallback-order mode flags of MPOL_PREFERRED_MANY
 * (MPOL_F_FALLBACK_NEAREST, MPOL_F_FALLBACK_TIER).
 *
 * Static, libc only, raw syscalls.  Output is kselftest TAP with every line
 * prefixed "TAP " (the results channel's contract, README.md), "TAP 1..N"
 * last; diagnostics are "TAP # ..." lines.  A check that the machine cannot
 * exercise is "ok N - ... # SKIP why", never a failure.  Exit status: 0 all
 * passed or skipped, 1 a check failed.
 *
 * The scenario: the test runs on CPU 0, whose node is the "local" node.  It
 * prefers one node P (the last memory node that is not the local one, or
 * --node P), fills P with MPOL_BIND memory until HEADROOM_MIB are left, and
 * then faults OVERFLOW_MIB of MPOL_PREFERRED_MANY{P} memory: some of it must
 * come from P and the rest must fall back.  Placement (move_pages(2)) is the
 * ground truth that the counters, the tracepoint and the promise of each
 * fallback order (local: no flag; nearest; tier) are checked against.
 *
 * The definitions of v2 of the series (issue 19) each have a check that v1
 * fails: the tracepoint's pass and start node (v1's event has neither, so
 * its lines do not parse), a hugetlb MPOL_BIND failure charged to the
 * policy's first node (v1: the faulting CPU's node), and a THP fault under
 * MPOL_BIND that falls back to base pages adding no mpol_bind_fail (v1
 * counted each THP attempt as 512 pages of failure).  The counters are read
 * without a write to vm.stat_refresh first: the documentation says both
 * files are exact on read (the per-CPU counters of the revised v2; its first
 * posting's node statistics lagged per node), and the tier pass of
 * MPOL_F_FALLBACK_TIER must be traced as pass 3 (first posting: pass 2).  The fallback order is
 * a flag of each policy, not a system setting: three tasks hold policies
 * with the three orders at once, and each one's overflow must land where its
 * own order says (v1's global sysctl vm.preferred_many_fallback can give all
 * three only one order; a kernel without the flags rejects them with EINVAL).
 *
 * Runs unchanged on a kernel without the series, or with only its first
 * patches (kernel/build.sh --flavor patched:N): a check SKIPs when the kernel
 * lacks what it reads (the mpol_* counters, the tracepoint, the mode flags), and
 * the default-placement check still runs, so its "# placement" line can be
 * compared between kernels.  Whether hugetlb allocations are counted cannot
 * be probed: on a kernel with the counters but not their hugetlb part, the
 * hugetlb checks fail.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <stdbool.h>
#include <unistd.h>

#define MAX_NODES	64
#define PAGE		4096UL
#define HUGE		(2UL << 20)
#define HUGE_PAGES	(HUGE / PAGE)
#define HEADROOM_MIB	24
#define OVERFLOW_MIB	64

/* uapi/linux/mempolicy.h, spelled out to stay libc-only */
#define MPOL_PREFERRED		1
#define MPOL_BIND		2
#define MPOL_PREFERRED_MANY	5
#define MPOL_F_NODE		(1 << 0)
#define MPOL_F_ADDR		(1 << 1)
/* the series' mode flags: bits 12 and 11 of the mode */
#define MPOL_F_FALLBACK_NEAREST	(1 << 12)
#define MPOL_F_FALLBACK_TIER	(1 << 11)
#define MPOL_MODE_MASK		0xff	/* the mode without its flags */

#define TRACEFS		"/sys/kernel/tracing"
#define EVENT		TRACEFS "/events/mempolicy/mpol_alloc"
#define THP_ENABLED	"/sys/kernel/mm/transparent_hugepage/enabled"

static int nr_tests, nr_failed;
static int nr_nodes;		/* highest possible node id + 1 */
static int has_mem[MAX_NODES], has_cpu[MAX_NODES];
static int dist[MAX_NODES][MAX_NODES];
static int tier_of[MAX_NODES];	/* memory tier id, -1 if unknown */
static int local_node, pref_node = -1;
/* what the kernel under test has: each patch of the series adds one */
static int has_counters;	/* mpol_* in /proc/vmstat */
static int has_flags;		/* MPOL_F_FALLBACK_NEAREST and _TIER */

__attribute__((format(printf, 1, 2)))
static void diag(const char *fmt, ...)
{
	va_list ap;

	printf("TAP # ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

__attribute__((format(printf, 3, 4)))
static void result(int ok, const char *skip, const char *fmt, ...)
{
	va_list ap;

	nr_tests++;
	if (!ok && !skip)
		nr_failed++;
	printf("TAP %sok %d - ", ok || skip ? "" : "not ", nr_tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (skip)
		printf(" # SKIP %s", skip);
	printf("\n");
	fflush(stdout);
}

/* ---- small file helpers ------------------------------------------------ */

static int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	size_t got = 0;
	ssize_t n = 0;

	if (fd < 0)
		return -errno;
	while (got < len - 1 && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += n;
	close(fd);
	if (n < 0)
		return -errno;
	buf[got] = '\0';
	return 0;
}

/* Returns 0 or -errno of the write itself (what a sysctl handler says). */
static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	err = n < 0 ? -errno : 0;
	close(fd);
	return err;
}

/* "a-b,c" node lists as in sysfs */
static void parse_list(const char *s, int *set)
{
	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s)
			break;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (; a <= b && a < MAX_NODES; a++)
			set[a] = 1;
		s = *end == ',' ? end + 1 : end;
	}
}

static long node_free_kb(int node)
{
	char path[128], buf[4096], *p;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo",
		 node);
	if (read_file(path, buf, sizeof(buf)))
		return -1;
	p = strstr(buf, "MemFree:");
	return p ? strtol(p + 8, NULL, 10) : -1;
}

/*
 * One "TAP #" line per populated zone of @node: free pages and watermarks.
 * Returns the sum of the zones' high watermarks, in pages.
 */
static long show_zones(int node)
{
	static char buf[1 << 17];
	char head[64], *p, *next;
	int len;

	long sum_high = 0;

	if (read_file("/proc/zoneinfo", buf, sizeof(buf)))
		return -1;
	len = snprintf(head, sizeof(head), "Node %d, zone", node);
	for (p = strstr(buf, head); p; p = next ? strstr(next, head) : NULL) {
		long fr = -1, mn = -1, lo = -1, hi = -1, managed = -1;
		char zone[16] = "";
		char *q;

		sscanf(p + len, "%15s", zone);
		next = strstr(p + len, "\nNode ");
		if ((q = strstr(p, "pages free")))
			fr = strtol(q + 10, NULL, 10);
		if ((q = strstr(p, "min ")))
			mn = strtol(q + 4, NULL, 10);
		if ((q = strstr(p, "low ")))
			lo = strtol(q + 4, NULL, 10);
		if ((q = strstr(p, "high ")))
			hi = strtol(q + 5, NULL, 10);
		if ((q = strstr(p, "managed ")))
			managed = strtol(q + 8, NULL, 10);
		if (managed > 0) {
			diag("node %d zone %s: free %ld min %ld low %ld high %ld managed %ld",
			     node, zone, fr, mn, lo, hi, managed);
			sum_high += hi;
		}
	}
	return sum_high;
}

/* ---- topology ---------------------------------------------------------- */

static int read_topology(void)
{
	char path[160], buf[4096];
	int n, m, t;

	if (read_file("/sys/devices/system/node/possible", buf, sizeof(buf)))
		return -1;
	{
		int set[MAX_NODES] = { 0 };

		parse_list(buf, set);
		for (n = 0; n < MAX_NODES; n++)
			if (set[n])
				nr_nodes = n + 1;
	}
	if (!read_file("/sys/devices/system/node/has_memory", buf, sizeof(buf)))
		parse_list(buf, has_mem);
	if (!read_file("/sys/devices/system/node/has_cpu", buf, sizeof(buf)))
		parse_list(buf, has_cpu);
	for (n = 0; n < nr_nodes; n++) {
		char *p;

		tier_of[n] = -1;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/node/node%d/distance", n);
		if (read_file(path, buf, sizeof(buf)))
			continue;
		p = buf;
		for (m = 0; m < nr_nodes; m++)
			dist[n][m] = (int)strtol(p, &p, 10);
	}
	for (t = 0; t < 4096; t++) {
		int set[MAX_NODES] = { 0 };

		snprintf(path, sizeof(path),
			 "/sys/devices/virtual/memory_tiering/memory_tier%d/nodelist",
			 t);
		if (read_file(path, buf, sizeof(buf)))
			continue;
		parse_list(buf, set);
		for (n = 0; n < nr_nodes; n++)
			if (set[n])
				tier_of[n] = t;
	}
	return 0;
}

/*
 * The page allocator's fallback order for @start, as build_zonelists() and
 * find_next_best_node() make it: increasing distance, a node numbered below
 * @start or one with CPUs one step further (node_load, which only splits
 * exact ties between zonelists, is left out).  Memory nodes only.
 */
static int zonelist_order(int start, int *order)
{
	int used[MAX_NODES] = { 0 };
	int k = 0;

	order[k++] = start;
	used[start] = 1;
	for (;;) {
		int n, best = -1, best_val = 1 << 30;

		for (n = 0; n < nr_nodes; n++) {
			int val;

			if (used[n] || !has_mem[n])
				continue;
			val = dist[start][n] + (n < start) + has_cpu[n];
			if (val < best_val) {
				best = n;
				best_val = val;
			}
		}
		if (best < 0)
			return k;
		used[best] = 1;
		order[k++] = best;
	}
}

/* Where each setting promises the overflow of PREFERRED_MANY{pref_node}. */
static int expected_target(const char *setting)
{
	int order[MAX_NODES], k, i, start = local_node;

	if (strcmp(setting, "local")) {
		int n, best = 1 << 30;

		/* one preferred node: it is the start node */
		for (n = 0; n < nr_nodes; n++)
			if (n == pref_node && has_mem[n] && dist[local_node][n] < best) {
				start = n;
				best = dist[local_node][n];
			}
	}
	k = zonelist_order(start, order);
	if (!strcmp(setting, "tier") && tier_of[pref_node] >= 0)
		for (i = 0; i < k; i++)
			if (order[i] != pref_node &&
			    tier_of[order[i]] == tier_of[pref_node])
				return order[i];
	for (i = 0; i < k; i++)
		if (order[i] != pref_node)
			return order[i];
	return -1;
}

/* ---- policy and placement ---------------------------------------------- */

static long sys_mbind(void *addr, unsigned long len, int mode,
		      const unsigned long *mask)
{
	return syscall(SYS_mbind, addr, len, mode, mask,
		       (unsigned long)MAX_NODES + 1, 0UL);
}

static void *map_policy(size_t len, int mode, int node, int huge)
{
	unsigned long mask[MAX_NODES / 64 + 1] = { 0 };
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | (huge ? MAP_HUGETLB : 0);
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (!huge)
		madvise(p, len, MADV_NOHUGEPAGE);
	mask[node / 64] |= 1UL << (node % 64);
	if (sys_mbind(p, len, mode, mask)) {
		diag("mbind(mode %d, node %d): %s", mode, node, strerror(errno));
		munmap(p, len);
		return NULL;
	}
	return p;
}

static void touch(void *p, size_t len, size_t step)
{
	size_t off;

	for (off = 0; off < len; off += step)
		((volatile char *)p)[off] = 1;
}

/* pages per node of [p, p + len) */
static int placement(void *p, size_t len, long *per_node)
{
	enum { CHUNK = 1024 };
	void *pages[CHUNK];
	int status[CHUNK];
	size_t i, n = len / PAGE, done;

	memset(per_node, 0, sizeof(long) * MAX_NODES);
	for (done = 0; done < n; done += CHUNK) {
		size_t cnt = n - done < CHUNK ? n - done : CHUNK;

		for (i = 0; i < cnt; i++)
			pages[i] = (char *)p + (done + i) * PAGE;
		if (syscall(SYS_move_pages, 0, cnt, pages, NULL, status, 0))
			return -1;
		for (i = 0; i < cnt; i++)
			if (status[i] >= 0 && status[i] < MAX_NODES)
				per_node[status[i]]++;
			else
				return -1;
	}
	return 0;
}

static int page_node(void *addr)
{
	int node = -1;

	if (syscall(SYS_get_mempolicy, &node, NULL, 0UL, addr,
		    MPOL_F_NODE | MPOL_F_ADDR))
		return -1;
	return node;
}

static void show_placement(const char *what, const long *per_node)
{
	char buf[512];
	int n, len = 0;

	for (n = 0; n < nr_nodes; n++)
		if (per_node[n])
			len += snprintf(buf + len, sizeof(buf) - len, " node%d=%ld",
					n, per_node[n]);
	buf[len] = '\0';
	diag("placement %s:%s", what, len ? buf : " none");
}

/* ---- counters ---------------------------------------------------------- */

enum { HIT, FALLBACK, PREF_HIT, PREF_FALLBACK, BIND_FAIL, NR_CTR };
static const char *const ctr_name[NR_CTR] = {
	"mpol_pref_many_hit", "mpol_pref_many_fallback",
	"mpol_pref_hit", "mpol_pref_fallback", "mpol_bind_fail",
};

struct counters {
	long global[NR_CTR];
	long node[MAX_NODES][NR_CTR];
};

static long find_counter(const char *buf, const char *name)
{
	size_t len = strlen(name);
	const char *p = buf;

	while ((p = strstr(p, name))) {
		if ((p == buf || p[-1] == '\n') && p[len] == ' ')
			return strtol(p + len + 1, NULL, 10);
		p += len;
	}
	return -1;
}

/*
 * No write to vm.stat_refresh first: the documentation says that both files
 * are exact on read, and the counter checks hold it to that (v2 of the
 * series, with node statistics, needed the write for its per-node figures).
 */
static int read_counters(struct counters *c)
{
	static char buf[1 << 16];
	char path[128];
	int i, n;

	if (read_file("/proc/vmstat", buf, sizeof(buf)))
		return -1;
	for (i = 0; i < NR_CTR; i++)
		if ((c->global[i] = find_counter(buf, ctr_name[i])) < 0)
			return -1;
	for (n = 0; n < nr_nodes; n++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/node/node%d/vmstat", n);
		if (read_file(path, buf, sizeof(buf)))
			continue;
		for (i = 0; i < NR_CTR; i++)
			c->node[n][i] = find_counter(buf, ctr_name[i]);
	}
	return 0;
}

/* ---- tracing ----------------------------------------------------------- */

static int trace_start(void)
{
	char pid[32];

	if (access(EVENT "/enable", W_OK))
		return -1;
	snprintf(pid, sizeof(pid), "%d", getpid());
	write_file(TRACEFS "/tracing_on", "0");
	write_file(TRACEFS "/buffer_size_kb", "8192");
	write_file(TRACEFS "/trace", "");
	if (write_file(TRACEFS "/set_event_pid", pid) ||
	    write_file(EVENT "/enable", "1"))
		return -1;
	return write_file(TRACEFS "/tracing_on", "1");
}

/* "00000000,0000000c" (32-bit words, as for CPU masks) to a number */
static unsigned long hex_mask(const char *s)
{
	unsigned long v = 0;

	for (; *s; s++)
		if (isxdigit((unsigned char)*s))
			v = v << 4 | (unsigned long)(isdigit((unsigned char)*s) ?
				*s - '0' : (tolower((unsigned char)*s) - 'a' + 10));
	return v;
}

struct trace_tally {
	long events, bad, per_node[MAX_NODES], fell_back[MAX_NODES];
	long pages, huge;	/* pages (1 << order) and order-9 events */
	/*
	 * per pass (1, 2, 3: the tier pass): events by the node that provided
	 * the page, events by the pass's start node, and those that did not
	 * start at @nid
	 */
	long pass[4][MAX_NODES], pass_start[4][MAX_NODES], other_start;
	long failed, failed_thisnode;	/* page_nid -1; with __GFP_THISNODE */
	char bad_line[256], fail_line[256];
};

/*
 * Tally the events of @want_mode; any with unexpected fields (nodes, nid
 * unless @nid is -1, fell_back, pass, or an order other than @want_order
 * unless it is -1) is "bad"; other_start counts those whose pass did not
 * start at the node the allocation was made for.  A failed allocation (page_nid -1) is counted apart, in "failed",
 * and is bad only if @want_fail is 0.  The event's format is the series' v2
 * one: "mode= nodes= nid= start_nid= pass= gfp_flags= order= page_nid=
 * fell_back=" -- v1's lines, without pass, start_nid and gfp_flags, do not
 * parse, and count as nothing.
 */
static int trace_stop(struct trace_tally *t, unsigned long mask, int nid,
		      const char *want_mode, int want_order, int want_fail)
{
	char line[1024];
	FILE *f;

	write_file(EVENT "/enable", "0");
	write_file(TRACEFS "/tracing_on", "0");
	memset(t, 0, sizeof(*t));
	f = fopen(TRACEFS "/trace", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char mode[32], nodes[64], gfp[512];
		int req, start, got, fell;
		unsigned int order, pass;
		char *p = strstr(line, "mpol_alloc: ");

		if (!p || sscanf(p, "mpol_alloc: mode=%31s nodes=%63s nid=%d start_nid=%d pass=%u gfp_flags=%511s order=%u page_nid=%d fell_back=%d",
				 mode, nodes, &req, &start, &pass, gfp, &order,
				 &got, &fell) != 9)
			continue;
		if (strcmp(mode, want_mode))
			continue;
		t->events++;
		if (got < 0 && want_fail && hex_mask(nodes) == mask && !fell &&
		    pass >= 1 && pass <= 3) {
			if (!t->failed++)
				snprintf(t->fail_line, sizeof(t->fail_line), "%s", p);
			t->failed_thisnode += strstr(gfp, "__GFP_THISNODE") != NULL;
			continue;
		}
		if (hex_mask(nodes) != mask || (nid >= 0 && req != nid) ||
		    (want_order >= 0 && order != (unsigned int)want_order) ||
		    order > 20 || pass < 1 || pass > 3 ||
		    got < 0 || got >= MAX_NODES || start < 0 || start >= MAX_NODES ||
		    fell != !(mask & (1UL << got))) {
			if (!t->bad++)
				snprintf(t->bad_line, sizeof(t->bad_line), "%s", p);
			continue;
		}
		t->per_node[got]++;
		t->fell_back[got] += fell;
		t->pass[pass][got]++;
		t->pass_start[pass][start]++;
		t->other_start += start != req;
		t->pages += 1L << order;
		t->huge += order == 9;
	}
	fclose(f);
	write_file(TRACEFS "/set_event_pid", "");
	return 0;
}

/* ---- the scenario ------------------------------------------------------ */

struct fill {
	void *p;
	size_t len;
};

/*
 * Fill pref_node with MPOL_BIND memory until HEADROOM_MIB above its high
 * watermark are left (with THP, min_free_kbytes makes the watermarks tens
 * of MiB on a small node), so that the overflow is split between the node
 * and its fallback.
 */
static int fill_pref_node(struct fill *f)
{
	long free_kb = node_free_kb(pref_node);
	long high_kb = show_zones(pref_node) * (long)(PAGE / 1024);
	long keep_kb = high_kb + HEADROOM_MIB * 1024L;

	f->p = NULL;
	if (high_kb < 0 || free_kb < keep_kb + 16 * 1024L)
		return -1;
	f->len = ((size_t)(free_kb - keep_kb) * 1024) & ~(PAGE - 1);
	f->p = map_policy(f->len, MPOL_BIND, pref_node, 0);
	if (!f->p)
		return -1;
	touch(f->p, f->len, PAGE);
	diag("filled node %d with %zu MiB of MPOL_BIND memory, %ld MiB free left",
	     pref_node, f->len >> 20, node_free_kb(pref_node) >> 10);
	show_zones(pref_node);
	return 0;
}

/* Fault OVERFLOW_MIB under @mode {pref_node}; placement per node. */
static void *overflow_mode(int mode, long *per_node)
{
	size_t len = (size_t)OVERFLOW_MIB << 20;
	void *p = map_policy(len, mode, pref_node, 0);

	if (!p)
		return NULL;
	touch(p, len, PAGE);
	if (placement(p, len, per_node)) {
		diag("move_pages: %s", strerror(errno));
		munmap(p, len);
		return NULL;
	}
	return p;
}

static void *overflow(long *per_node)
{
	return overflow_mode(MPOL_PREFERRED_MANY, per_node);
}

static const char *const orders[] = { "local", "nearest", "tier" };
static const int order_flag[] = { 0, MPOL_F_FALLBACK_NEAREST, MPOL_F_FALLBACK_TIER };
#define NR_ORDERS	3

static long sys_set_mempolicy(int mode, const unsigned long *mask)
{
	return syscall(SYS_set_mempolicy, mode, mask, (unsigned long)MAX_NODES + 1);
}

/* The mode of the task policy, or of the policy at @addr, with its flags. */
static int policy_mode(void *addr, int *mode)
{
	return syscall(SYS_get_mempolicy, mode, NULL, 0UL, addr,
		       addr ? MPOL_F_ADDR : 0);
}

/* Whether the kernel takes MPOL_PREFERRED_MANY | MPOL_F_FALLBACK_NEAREST. */
static int probe_flags(void)
{
	unsigned long mask[MAX_NODES / 64 + 1] = { 0 };
	int ok;

	mask[local_node / 64] |= 1UL << (local_node % 64);
	ok = sys_set_mempolicy(MPOL_PREFERRED_MANY | MPOL_F_FALLBACK_NEAREST, mask) == 0;
	sys_set_mempolicy(0, NULL);
	return ok;
}

/*
 * The flags' uapi: valid with MPOL_PREFERRED_MANY only, one at a time,
 * reported by get_mempolicy(2) for the task and for a range.
 */
static void test_flags(void)
{
	static const char *const what[] = {
		"MPOL_F_FALLBACK_* are accepted with MPOL_PREFERRED_MANY and reported by get_mempolicy",
		"MPOL_F_FALLBACK_* fail with EINVAL with other modes, both at once, and change nothing",
	};
	static const int bad_modes[] = {
		MPOL_PREFERRED_MANY | MPOL_F_FALLBACK_NEAREST | MPOL_F_FALLBACK_TIER,
		MPOL_PREFERRED | MPOL_F_FALLBACK_NEAREST, MPOL_BIND | MPOL_F_FALLBACK_NEAREST,
		MPOL_PREFERRED | MPOL_F_FALLBACK_TIER, MPOL_BIND | MPOL_F_FALLBACK_TIER,
		3 /* interleave */ | MPOL_F_FALLBACK_TIER, 0 /* default */ | MPOL_F_FALLBACK_NEAREST,
	};
	unsigned long mask[MAX_NODES / 64 + 1] = { 0 };
	size_t i, len = 2 * PAGE;
	int ok = 1, mode = -1;
	void *p;

	if (!has_flags) {
		result(0, "kernel has no MPOL_F_FALLBACK_* flags", "%s", what[0]);
		result(0, "kernel has no MPOL_F_FALLBACK_* flags", "%s", what[1]);
		return;
	}
	mask[local_node / 64] |= 1UL << (local_node % 64);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		result(0, NULL, "%s (mmap: %s)", what[0], strerror(errno));
		return;
	}
	for (i = 0; i < NR_ORDERS; i++) {
		int want = MPOL_PREFERRED_MANY | order_flag[i];

		if (sys_set_mempolicy(want, mask) || policy_mode(NULL, &mode) || mode != want) {
			diag("set_mempolicy(%#x): %s, get_mempolicy says %#x", want,
			     strerror(errno), mode);
			ok = 0;
		}
		if (sys_mbind(p, len, want, mask) || policy_mode(p, &mode) || mode != want) {
			diag("mbind(%#x): %s, get_mempolicy says %#x", want, strerror(errno),
			     mode);
			ok = 0;
		}
	}
	result(ok, NULL, "%s", what[0]);

	/* the last good ones stay: PREFERRED_MANY with tier, task and range */
	ok = 1;
	for (i = 0; i < sizeof(bad_modes) / sizeof(bad_modes[0]); i++) {
		long r1 = sys_set_mempolicy(bad_modes[i], mask);
		int e1 = errno;
		long r2 = sys_mbind(p, len, bad_modes[i], mask);
		int e2 = errno, m1 = -1, m2 = -1;

		policy_mode(NULL, &m1);
		policy_mode(p, &m2);
		if (r1 != -1 || e1 != EINVAL || r2 != -1 || e2 != EINVAL ||
		    m1 != (MPOL_PREFERRED_MANY | MPOL_F_FALLBACK_TIER) || m2 != m1) {
			diag("mode %#x: set_mempolicy %s, mbind %s; modes now %#x, %#x",
			     bad_modes[i], r1 ? strerror(e1) : "accepted",
			     r2 ? strerror(e2) : "accepted", m1, m2);
			ok = 0;
		}
	}
	result(ok, NULL, "%s", what[1]);
	sys_set_mempolicy(0, NULL);
	munmap(p, len);
}

/* (a) counters == placement, globally and per node; (b) trace == placement */
static void test_counters_and_trace(const char *skip)
{
	unsigned long mask = 1UL << pref_node;
	struct counters before, after;
	struct trace_tally t;
	long per_node[MAX_NODES], hit, fell = 0;
	int n, ok, tracing;
	void *p;

	if (!skip && !has_counters)
		skip = "kernel has no mpol_* counters";
	if (!skip && read_counters(&before))
		skip = "no mpol_* counters in /proc/vmstat";
	if (skip) {
		result(0, skip, "mpol_pref_many_* rise by the pages placed in and outside the nodemask");
		result(0, skip, "per-node mpol_pref_many_* match the per-node placement");
		result(0, skip, "mempolicy:mpol_alloc reports every page with correct fields");
		result(0, skip, "mempolicy:mpol_alloc gives each page its pass and start node");
		return;
	}
	tracing = trace_start() == 0;
	p = overflow(per_node);
	if (tracing)
		trace_stop(&t, mask, local_node, "preferred_many", 0, 0);
	read_counters(&after);
	if (!p) {
		result(0, NULL, "mpol_pref_many_* rise by the pages placed (no overflow mapping)");
		return;
	}
	show_placement("counters", per_node);
	hit = per_node[pref_node];
	for (n = 0; n < nr_nodes; n++)
		if (n != pref_node)
			fell += per_node[n];
	diag("hit %ld fallback %ld pages; counters +%ld +%ld", hit, fell,
	     after.global[HIT] - before.global[HIT],
	     after.global[FALLBACK] - before.global[FALLBACK]);
	result(hit > 0 && fell > 0 &&
	       after.global[HIT] - before.global[HIT] == hit &&
	       after.global[FALLBACK] - before.global[FALLBACK] == fell, NULL,
	       "mpol_pref_many_* rise by the pages placed in (%ld) and outside (%ld) the nodemask",
	       hit, fell);

	ok = 1;
	for (n = 0; n < nr_nodes; n++) {
		long dh = after.node[n][HIT] - before.node[n][HIT];
		long df = after.node[n][FALLBACK] - before.node[n][FALLBACK];
		long want_h = n == pref_node ? per_node[n] : 0;
		long want_f = n == pref_node ? 0 : per_node[n];

		if (dh != want_h || df != want_f) {
			diag("node%d: hit +%ld (want %ld) fallback +%ld (want %ld)",
			     n, dh, want_h, df, want_f);
			ok = 0;
		}
	}
	result(ok, NULL, "per-node mpol_pref_many_* match the per-node placement");

	if (!tracing) {
		result(0, "cannot enable " EVENT, "mempolicy:mpol_alloc reports every page with correct fields");
		result(0, "cannot enable " EVENT, "mempolicy:mpol_alloc gives each page its pass and start node");
	} else {
		ok = !t.bad && t.events == hit + fell;
		for (n = 0; n < nr_nodes; n++)
			if (t.per_node[n] != per_node[n] ||
			    t.fell_back[n] != (n == pref_node ? 0 : per_node[n]))
				ok = 0;
		if (t.bad)
			diag("unexpected event: %s", t.bad_line);
		diag("%ld preferred_many events, %ld with unexpected fields",
		     t.events, t.bad);
		result(ok, NULL, "mempolicy:mpol_alloc reports every page with correct fields");

		/*
		 * The first pass (the nodemask, no reclaim) serves the hits,
		 * the second (all nodes) the fallbacks, both walking the
		 * zonelist of the local node under the default "local".
		 */
		ok = t.events > 0 && !t.other_start;
		for (n = 0; n < nr_nodes; n++) {
			long want1 = n == pref_node ? per_node[n] : 0;
			long want2 = n == pref_node ? 0 : per_node[n];

			if (t.pass[1][n] != want1 || t.pass[2][n] != want2) {
				diag("node%d: pass 1 %ld (want %ld), pass 2 %ld (want %ld)",
				     n, t.pass[1][n], want1, t.pass[2][n], want2);
				ok = 0;
			}
		}
		diag("%ld events started elsewhere than node %d", t.other_start,
		     local_node);
		result(ok, NULL, "mempolicy:mpol_alloc gives each page its pass and start node (hits pass 1, fallbacks pass 2, from node %d)",
		       local_node);
	}
	munmap(p, (size_t)OVERFLOW_MIB << 20);
}

/*
 * (c) each order puts the overflow where it promises; (d) default.  Under
 * "tier", the tracepoint must also say which pass served each page: the hits
 * pass 1, from the local node, and an overflow onto a memory tier peer of
 * the preferred node pass 3, the tier pass of MPOL_F_FALLBACK_TIER, from the
 * start node (the preferred node).  v2 of the series reported the tier pass
 * as pass 2, like the last pass.
 */
static void test_tier_pass(const char *skip, int traced, const struct trace_tally *t,
			   const long *per_node, int want)
{
	static const char *what = "tier: the overflow is traced as the tier pass";
	int n, ok;

	if (!skip && !has_flags)
		skip = "kernel has no MPOL_F_FALLBACK_* flags";
	if (!skip && (tier_of[pref_node] < 0 || want < 0 ||
		      tier_of[want] != tier_of[pref_node]))
		skip = "the preferred node has no memory tier peer";
	if (!skip && !traced)
		skip = "cannot enable " EVENT;
	if (skip) {
		result(0, skip, "%s (pass 3) from the preferred node", what);
		return;
	}
	ok = !t->bad && per_node[want] > 0 &&
	     t->pass[3][want] == per_node[want] &&
	     t->pass_start[3][pref_node] == per_node[want] &&
	     t->pass[1][pref_node] == per_node[pref_node] &&
	     t->pass_start[1][local_node] == per_node[pref_node];
	for (n = 0; n < nr_nodes; n++)
		if (t->pass[2][n])
			ok = 0;
	if (t->bad)
		diag("tier: unexpected event: %s", t->bad_line);
	diag("tier: node%d %ld pages, pass 3 %ld (from node%d %ld); node%d %ld pages, pass 1 %ld; pass 2 %ld",
	     want, per_node[want], t->pass[3][want], pref_node,
	     t->pass_start[3][pref_node], pref_node, per_node[pref_node],
	     t->pass[1][pref_node], t->pass[2][want] + t->pass[2][pref_node]);
	result(ok, NULL, "%s (pass 3) from node %d, %ld pages on node %d", what,
	       pref_node, per_node[want], want);
}

static void test_orders(const char *skip)
{
	size_t i;

	for (i = 0; i < NR_ORDERS; i++) {
		const char *s = orders[i], *why = skip;
		int want = expected_target(s), n, traced = 0;
		long per_node[MAX_NODES], elsewhere = 0;
		struct trace_tally t;
		void *p;

		if (!why && i && !has_flags)
			why = "kernel has no MPOL_F_FALLBACK_* flags";
		if (why) {
			result(0, why, "%s: overflow lands on node %d", s, want);
			if (order_flag[i] == MPOL_F_FALLBACK_TIER)
				test_tier_pass(why, 0, NULL, NULL, want);
			continue;
		}
		if (order_flag[i] == MPOL_F_FALLBACK_TIER)
			traced = !trace_start();
		p = overflow_mode(MPOL_PREFERRED_MANY | order_flag[i], per_node);
		if (traced)
			trace_stop(&t, 1UL << pref_node, local_node, "preferred_many", 0, 0);
		if (!p) {
			result(0, NULL, "%s: overflow lands on node %d (no mapping)", s, want);
			if (order_flag[i] == MPOL_F_FALLBACK_TIER)
				result(0, NULL, "tier: the overflow is traced as the tier pass (pass 3) (no mapping)");
			continue;
		}
		show_placement(s, per_node);
		show_zones(pref_node);
		for (n = 0; n < nr_nodes; n++)
			if (n != pref_node && n != want)
				elsewhere += per_node[n];
		result(per_node[want] > 0 && !elsewhere && per_node[pref_node] > 0,
		       NULL, "%s%s: overflow (%ld pages) lands on node %d only, as %s promises",
		       s, i ? "" : " (default)", per_node[want], want,
		       i ? "the admin guide" : "upstream's zonelist order");
		if (order_flag[i] == MPOL_F_FALLBACK_TIER)
			test_tier_pass(NULL, traced, &t, per_node, want);
		munmap(p, (size_t)OVERFLOW_MIB << 20);
	}
}

/*
 * (c') The order is the policy's: one task per order, each with a task
 * policy (set_mempolicy(2)) MPOL_PREFERRED_MANY{pref_node} and its order's
 * flag, all three installed before any of them faults.  Then, one at a time,
 * each faults OVERFLOW_MIB and reports where it landed; each overflow must
 * be on its own order's node only.  With one system-wide order (v1's sysctl,
 * or a flag that set a global) at least two of them would share a node.
 */
struct task_result {
	long per_node[MAX_NODES];
	int err;		/* errno of set_mempolicy or the mapping, 0 */
};

static int order_task(int i, int ready_fd, int go_fd, int res_fd, int (*go)[2])
{
	unsigned long mask[MAX_NODES / 64 + 1] = { 0 };
	size_t len = (size_t)OVERFLOW_MIB << 20;
	struct task_result r = { { 0 }, 0 };
	char c = 'r';
	void *p = MAP_FAILED;
	int j;

	/* only the parent writes to the go pipes: their EOF reaches us */
	for (j = 0; j <= i; j++)
		close(go[j][1]);
	mask[pref_node / 64] |= 1UL << (pref_node % 64);
	if (sys_set_mempolicy(MPOL_PREFERRED_MANY | order_flag[i], mask))
		r.err = errno;
	if (write(ready_fd, &c, 1) != 1 || read(go_fd, &c, 1) != 1)
		return 1;
	if (!r.err) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			r.err = errno;
	}
	if (!r.err) {
		madvise(p, len, MADV_NOHUGEPAGE);
		touch(p, len, PAGE);
		if (placement(p, len, r.per_node))
			r.err = errno;
		munmap(p, len);
	}
	return write(res_fd, &r, sizeof(r)) == sizeof(r) ? 0 : 1;
}

static void test_orders_per_task(const char *skip)
{
	static const char *what = "three tasks with the three fallback orders at once each get their own";
	int ready[2], res[2], go[NR_ORDERS][2];
	pid_t pid[NR_ORDERS];
	int want[NR_ORDERS], i, n, ok = 1, distinct = 0, started = 0;
	void (*old_pipe)(int);
	char label[32], c;

	if (!skip && !has_flags)
		skip = "kernel has no MPOL_F_FALLBACK_* flags";
	for (i = 0; i < NR_ORDERS; i++)
		want[i] = skip ? -1 : expected_target(orders[i]);
	distinct = want[0] != want[1] || want[0] != want[2] || want[1] != want[2];
	if (!skip && !distinct)
		skip = "the three orders send the overflow to one node on this machine";
	if (skip) {
		result(0, skip, "%s", what);
		return;
	}
	if (pipe(ready) || pipe(res)) {
		result(0, NULL, "%s (pipe: %s)", what, strerror(errno));
		return;
	}
	for (i = 0; i < NR_ORDERS; i++) {
		if (pipe(go[i]))
			break;
		pid[i] = fork();
		if (pid[i] == 0)
			_exit(order_task(i, ready[1], go[i][0], res[1], go));
		if (pid[i] < 0)
			break;
		started++;
	}
	/* a task that died must not take the test with it (SIGPIPE) */
	old_pipe = signal(SIGPIPE, SIG_IGN);
	/* every policy is in place before the first fault */
	for (i = 0; i < started; i++)
		if (read(ready[0], &c, 1) != 1)
			ok = -1;
	for (i = 0; i < started && ok >= 0; i++) {
		struct task_result r;
		long elsewhere = 0;

		c = 'g';
		if (write(go[i][1], &c, 1) != 1 ||
		    read(res[0], &r, sizeof(r)) != sizeof(r)) {
			diag("task %d (%s) did not report", i, orders[i]);
			ok = -1;
			break;
		}
		if (r.err) {
			diag("task %d (%s): %s", i, orders[i], strerror(r.err));
			ok = 0;
			continue;
		}
		snprintf(label, sizeof(label), "task %s", orders[i]);
		show_placement(label, r.per_node);
		for (n = 0; n < nr_nodes; n++)
			if (n != pref_node && n != want[i])
				elsewhere += r.per_node[n];
		diag("task %d (%s): %ld pages on node %d, %ld elsewhere outside node %d",
		     i, orders[i], r.per_node[want[i]], want[i], elsewhere, pref_node);
		if (r.per_node[want[i]] <= 0 || elsewhere)
			ok = 0;
	}
	for (i = 0; i < started; i++) {
		close(go[i][1]);
		if (ok < 0)
			kill(pid[i], SIGKILL);
		waitpid(pid[i], NULL, 0);
	}
	signal(SIGPIPE, old_pipe);
	close(ready[0]);
	close(ready[1]);
	close(res[0]);
	close(res[1]);
	result(ok > 0 && started == NR_ORDERS, NULL,
	       "%s (tasks local, nearest, tier: overflow on nodes %d, %d, %d)",
	       what, want[0], want[1], want[2]);
}

/*
 * MPOL_PREFERRED: the counters match the placement, and the overflow follows
 * the preferred node's own zonelist: the fallback orders are PREFERRED_MANY's.
 */
static void test_preferred(const char *skip)
{
	struct counters before, after;
	long per_node[MAX_NODES], fell = 0, elsewhere = 0;
	int order[MAX_NODES], want = -1, n, ok;
	void *p;

	if (!skip && (!has_counters || read_counters(&before)))
		skip = "kernel has no mpol_* counters";
	if (skip) {
		result(0, skip, "mpol_pref_* match the placement of an MPOL_PREFERRED overflow");
		return;
	}
	n = zonelist_order(pref_node, order);
	if (n > 1)
		want = order[1];
	p = overflow_mode(MPOL_PREFERRED, per_node);
	read_counters(&after);
	if (!p) {
		result(0, NULL, "mpol_pref_* match the placement (no mapping)");
		return;
	}
	show_placement("preferred", per_node);
	ok = per_node[pref_node] > 0 &&
	     after.global[PREF_HIT] - before.global[PREF_HIT] == per_node[pref_node];
	for (n = 0; n < nr_nodes; n++) {
		long dh = after.node[n][PREF_HIT] - before.node[n][PREF_HIT];
		long df = after.node[n][PREF_FALLBACK] - before.node[n][PREF_FALLBACK];

		if (n != pref_node) {
			fell += per_node[n];
			if (n != want)
				elsewhere += per_node[n];
		}
		if (dh != (n == pref_node ? per_node[n] : 0) ||
		    df != (n == pref_node ? 0 : per_node[n]))
			ok = 0;
	}
	ok = ok && fell > 0 && !elsewhere &&
	     after.global[PREF_FALLBACK] - before.global[PREF_FALLBACK] == fell;
	diag("preferred: hit +%ld fallback +%ld",
	     after.global[PREF_HIT] - before.global[PREF_HIT],
	     after.global[PREF_FALLBACK] - before.global[PREF_FALLBACK]);
	result(ok, NULL, "mpol_pref_* match the placement of an MPOL_PREFERRED overflow (%ld on node %d)",
	       fell, want);
	munmap(p, (size_t)OVERFLOW_MIB << 20);
}

/* A transparent huge page counts its 512 pages, traced as one order-9 event. */
static void test_thp(void)
{
	static const char *what = "a PREFERRED_MANY THP adds 512 pages, one order-9 event";
	size_t len = 8 * HUGE;
	struct counters before, after;
	struct trace_tally t;
	char *raw, *p;
	char buf[128], thp_saved[16] = "";
	long dh;

	if (!has_counters || read_file(THP_ENABLED, buf, sizeof(buf)) ||
	    strstr(buf, "[never]")) {
		result(0, has_counters ? "no THP" : "kernel has no mpol_* counters", "%s", what);
		return;
	}
	raw = mmap(NULL, len + HUGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED) {
		result(0, "cannot map", "%s", what);
		return;
	}
	p = (char *)(((unsigned long)raw + HUGE - 1) & ~(HUGE - 1));
	/* the lab's kernel may lack madvise(2) (no CONFIG_ADVISE_SYSCALLS) */
	if (madvise(p, len, MADV_HUGEPAGE)) {
		char *b = strchr(buf, '[');

		snprintf(thp_saved, sizeof(thp_saved), "%.*s",
			 b ? (int)strcspn(b + 1, "]") : 0, b ? b + 1 : "");
		write_file(THP_ENABLED, "always");
	}
	{
		unsigned long mask[MAX_NODES / 64 + 1] = { 0 };

		mask[pref_node / 64] |= 1UL << (pref_node % 64);
		sys_mbind(p, len, MPOL_PREFERRED_MANY, mask);
	}
	read_counters(&before);
	if (trace_start()) {
		result(0, "cannot enable " EVENT, "%s", what);
		munmap(raw, len + HUGE);
		if (thp_saved[0])
			write_file(THP_ENABLED, thp_saved);
		return;
	}
	touch(p, len, PAGE);
	trace_stop(&t, 1UL << pref_node, local_node, "preferred_many", -1, 0);
	read_counters(&after);
	dh = after.global[HIT] - before.global[HIT] +
	     after.global[FALLBACK] - before.global[FALLBACK];
	diag("thp: enabled '%.*s', %ld events, %ld of order 9, %ld pages traced, counters +%ld, %ld bad",
	     (int)strcspn(buf, "\n"), buf, t.events, t.huge, t.pages, dh, t.bad);
	{
		static char vm[1 << 16];

		if (!read_file("/proc/vmstat", vm, sizeof(vm)))
			diag("thp_fault_alloc %ld thp_fault_fallback %ld",
			     find_counter(vm, "thp_fault_alloc"),
			     find_counter(vm, "thp_fault_fallback"));
	}
	if (!t.huge)
		result(0, "no THP was allocated", "%s", what);
	else
		result(!t.bad && t.pages == (long)(len / PAGE) && dh == t.pages, NULL,
		       "%s (%ld THPs, %ld pages)", what, t.huge, dh);
	munmap(raw, len + HUGE);
	if (thp_saved[0])
		write_file(THP_ENABLED, thp_saved);
}

/* (e) hugetlb: a pool page on the preferred node is a hit, the next a fallback */
static void test_hugetlb(void)
{
	static const char *what = "hugetlb PREFERRED_MANY hit and fallback are counted in pages";
	char path[160], saved_pref[32] = "0", saved_local[32] = "0";
	struct counters before, after;
	int got_pref, got_other;
	void *p;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/node/node%d/hugepages/hugepages-2048kB/nr_hugepages",
		 pref_node);
	if (!has_counters || read_file(path, saved_pref, sizeof(saved_pref))) {
		result(0, has_counters ? "no 2 MB hugetlb pages" : "kernel has no mpol_* counters",
		       "%s", what);
		return;
	}
	write_file(path, "1");
	snprintf(path, sizeof(path),
		 "/sys/devices/system/node/node%d/hugepages/hugepages-2048kB/nr_hugepages",
		 local_node);
	read_file(path, saved_local, sizeof(saved_local));
	write_file(path, "1");

	read_counters(&before);
	p = map_policy(2 * HUGE, MPOL_PREFERRED_MANY, pref_node, 1);
	if (!p) {
		result(0, "cannot map 2 hugetlb pages (pools of 1 on nodes P and local)",
		       "%s", what);
		goto out;
	}
	touch(p, 2 * HUGE, HUGE);
	read_counters(&after);
	got_pref = page_node(p);
	got_other = page_node((char *)p + HUGE);
	diag("hugetlb pages on nodes %d and %d; hit +%ld fallback +%ld", got_pref,
	     got_other, after.global[HIT] - before.global[HIT],
	     after.global[FALLBACK] - before.global[FALLBACK]);
	result(got_pref == pref_node && got_other != pref_node && got_other >= 0 &&
	       after.global[HIT] - before.global[HIT] == (long)HUGE_PAGES &&
	       after.global[FALLBACK] - before.global[FALLBACK] == (long)HUGE_PAGES &&
	       after.node[pref_node][HIT] - before.node[pref_node][HIT] == (long)HUGE_PAGES &&
	       after.node[got_other][FALLBACK] - before.node[got_other][FALLBACK] ==
	       (long)HUGE_PAGES, NULL, "%s", what);
	munmap(p, 2 * HUGE);
out:
	write_file(path, saved_local);
	snprintf(path, sizeof(path),
		 "/sys/devices/system/node/node%d/hugepages/hugepages-2048kB/nr_hugepages",
		 pref_node);
	write_file(path, saved_pref);
}

/*
 * A hugetlb MPOL_BIND fault with no page in the mask is one failure, charged
 * to the policy's first node (here its only one, P), not to the node of the
 * CPU that faulted: v1 of the series charged the faulting CPU's node.
 */
static void test_hugetlb_bind_fail(void)
{
	static const char *what = "hugetlb MPOL_BIND failure is counted in pages on the policy's first node";
	char path[160], saved[32] = "0";
	struct counters before, after;
	int status;
	pid_t pid;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/node/node%d/hugepages/hugepages-2048kB/nr_hugepages",
		 local_node);
	if (!has_counters || read_file(path, saved, sizeof(saved))) {
		result(0, has_counters ? "no 2 MB hugetlb pages" : "kernel has no mpol_* counters",
		       "%s", what);
		return;
	}
	/* the only free page is on the local node, the policy binds to P */
	snprintf(path, sizeof(path),
		 "/sys/devices/system/node/node%d/hugepages/hugepages-2048kB/nr_hugepages",
		 pref_node);
	{
		char saved_pref[32] = "0", lpath[160];

		read_file(path, saved_pref, sizeof(saved_pref));
		write_file(path, "0");
		snprintf(lpath, sizeof(lpath),
			 "/sys/devices/system/node/node%d/hugepages/hugepages-2048kB/nr_hugepages",
			 local_node);
		write_file(lpath, "1");
		write_file("/proc/sys/vm/nr_overcommit_hugepages", "0");
		read_counters(&before);
		pid = fork();
		if (pid == 0) {
			void *p = map_policy(HUGE, MPOL_BIND, pref_node, 1);

			if (p)
				touch(p, HUGE, HUGE);	/* SIGBUS expected */
			_exit(p ? 0 : 3);
		}
		waitpid(pid, &status, 0);
		read_counters(&after);
		write_file(lpath, saved);
		write_file(path, saved_pref);
	}
	diag("child %s %d; bind_fail +%ld (node%d +%ld, local node%d +%ld)",
	     WIFSIGNALED(status) ? "killed by signal" : "exited",
	     WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status),
	     after.global[BIND_FAIL] - before.global[BIND_FAIL], pref_node,
	     after.node[pref_node][BIND_FAIL] - before.node[pref_node][BIND_FAIL],
	     local_node,
	     after.node[local_node][BIND_FAIL] - before.node[local_node][BIND_FAIL]);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
		result(0, "cannot map a hugetlb page", "%s", what);
		return;
	}
	result(WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS &&
	       after.global[BIND_FAIL] - before.global[BIND_FAIL] == (long)HUGE_PAGES &&
	       after.node[pref_node][BIND_FAIL] - before.node[pref_node][BIND_FAIL] ==
	       (long)HUGE_PAGES, NULL, "%s", what);
}

/*
 * (g) the bulk path: vmalloc allocates kernel stacks (CONFIG_VMAP_STACK)
 * with alloc_pages_bulk_array_mempolicy() under the forking task's policy.
 * BULK_CLONES CLONE_VM children on pre-touched stacks sleep in read(2), so
 * their only allocations are the kernel's (stack, task_struct and the like),
 * made in the parent.  /proc/vmallocinfo says where each new stack went
 * ("N<node>=<pages>"); the counters must agree with the tracepoint, and the
 * tracepoint must have seen at least the stacks' pages on the preferred node.
 * A stack is a kernel allocation: when the preferred node is all
 * ZONE_MOVABLE (a movable PMEM node) the clones prefer the highest other
 * node that takes kernel allocations instead, and say so.
 */
#define BULK_CLONES	32
#define BULK_STACK	16384
static char bulk_stacks[BULK_CLONES][BULK_STACK] __attribute__((aligned(64)));
static int bulk_pipe[2];

static int bulk_child(void *arg)
{
	char c;

	(void)arg;
	syscall(SYS_read, bulk_pipe[0], &c, 1);
	syscall(SYS_exit, 0);
	return 0;
}

/*
 * The clone stacks of /proc/vmallocinfo: with @record, remember every such
 * area (its start address) and count them all; without, count only the
 * areas not remembered, the stacks made since.  Counting all areas both
 * times and subtracting was wrong when another task's stack was freed in
 * between (seen: "120 of 116 new stack pages").  Where the addresses are
 * not shown (6.1 prints "0x(____ptrval____)" until its hash key is ready)
 * stacks_addressed is false, every area is counted both times, and the
 * caller subtracts.
 */
#define STACKS_SEEN_MAX 8192
static unsigned long stacks_seen[STACKS_SEEN_MAX];
static int nstacks_seen;
static bool stacks_addressed;

static bool stack_seen(unsigned long start)
{
	for (int i = 0; i < nstacks_seen; i++)
		if (stacks_seen[i] == start)
			return true;
	return false;
}

static int stack_pages(int node, long *on_node, long *all, bool record)
{
	static char buf[1 << 20];
	char want[32], *line, *save = NULL;

	*on_node = *all = 0;
	if (read_file("/proc/vmallocinfo", buf, sizeof(buf)))
		return -1;
	if (record) {
		nstacks_seen = 0;
		stacks_addressed = true;
	}
	snprintf(want, sizeof(want), " N%d=", node);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long start = strtoul(line, NULL, 16);
		char *p, *n;

		/* the caller is where alloc_thread_stack_node() got inlined */
		if ((!strstr(line, " kernel_clone+") && !strstr(line, " copy_process+") &&
		     !strstr(line, " dup_task_struct+") && !strstr(line, " alloc_thread_stack_node+")) ||
		    !(p = strstr(line, " pages=")))
			continue;
		if (record) {
			if (nstacks_seen == STACKS_SEEN_MAX)
				return -1;
			if (!start || stack_seen(start))
				stacks_addressed = false;
			stacks_seen[nstacks_seen++] = start;
		} else if (stacks_addressed && stack_seen(start)) {
			continue;
		}
		*all += strtol(p + 7, NULL, 10);
		if ((n = strstr(line, want)))
			*on_node += strtol(n + strlen(want), NULL, 10);
	}
	return 0;
}

/*
 * Is every present page of @node in ZONE_MOVABLE (/proc/zoneinfo)?  Such a
 * node -- a PMEM or CXL node onlined movable, as dax/kmem gives it
 * (topologies/README.md, "Zones") -- takes no kernel allocation, so no
 * kernel stack either.
 */
static bool node_all_movable(int node)
{
	FILE *f = fopen("/proc/zoneinfo", "r");
	unsigned long long movable = 0, other = 0, v;
	char line[256], zone[32];
	int cur = -1, is_movable = 0, n;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d, zone %31s", &n, zone) == 2) {
			cur = n;
			is_movable = !strcmp(zone, "Movable");
		} else if (cur == node && sscanf(line, " present %llu", &v) == 1) {
			if (is_movable)
				movable += v;
			else
				other += v;
		}
	}
	fclose(f);
	return movable && !other;
}

static void test_bulk(void)
{
	static const char *what = "bulk path: kernel stacks of PREFERRED_MANY clones";
	unsigned long mask[MAX_NODES / 64 + 1] = { 0 };
	struct counters before, after;
	struct trace_tally t;
	long on0, all0, on1 = 0, all1 = 0, dc;
	pid_t pids[BULK_CLONES];
	int i, n = 0, traced, counters_ok, node = pref_node;

	if (node_all_movable(node)) {
		int alt = -1;

		for (i = nr_nodes - 1; i >= 0 && alt < 0; i--)
			if (has_mem[i] && i != local_node && !node_all_movable(i))
				alt = i;
		diag("bulk: node %d is all ZONE_MOVABLE, where no kernel stack can go; node %d instead",
		     node, alt);
		if (alt < 0) {
			result(0, "no node but the local one takes kernel allocations",
			       "%s land on a preferred node", what);
			result(0, "no node but the local one takes kernel allocations",
			       "%s are counted and traced", what);
			return;
		}
		node = alt;
	}

	if (pipe(bulk_pipe)) {
		result(0, "pipe failed", "%s", what);
		return;
	}
	memset(bulk_stacks, 0, sizeof(bulk_stacks));	/* no faults in the children */
	mask[node / 64] |= 1UL << (node % 64);
	if (stack_pages(node, &on0, &all0, true)) {
		result(0, "no /proc/vmallocinfo", "%s land on node %d", what, node);
		result(0, "no /proc/vmallocinfo", "%s are counted and traced", what);
		close(bulk_pipe[0]);
		close(bulk_pipe[1]);
		return;
	}
	if (has_counters && read_counters(&before)) {
		result(0, NULL, "%s land on node %d (cannot read the counters)", what, node);
		result(0, NULL, "%s are counted and traced (cannot read the counters)", what);
		close(bulk_pipe[0]);
		close(bulk_pipe[1]);
		return;
	}
	traced = has_counters && !trace_start();
	if (syscall(SYS_set_mempolicy, MPOL_PREFERRED_MANY, mask,
		    (unsigned long)MAX_NODES + 1) == 0) {
		for (i = 0; i < BULK_CLONES; i++) {
			pid_t pid = clone(bulk_child, bulk_stacks[i] + BULK_STACK,
					  CLONE_VM | CLONE_FS | CLONE_FILES | SIGCHLD, NULL);

			if (pid > 0)
				pids[n++] = pid;
		}
		syscall(SYS_set_mempolicy, 0, NULL, 0UL);
	}
	if (traced)
		trace_stop(&t, mask[0], local_node, "preferred_many", -1, 0);
	counters_ok = !has_counters || !read_counters(&after);
	/* the stacks made since: by address, else as differences */
	stack_pages(node, &on1, &all1, false);
	if (!stacks_addressed) {
		on1 -= on0;
		all1 -= all0;
	}
	/* let them go, then reap */
	for (i = 0; i < n; i++)
		if (write(bulk_pipe[1], "x", 1) != 1)
			break;
	for (i = 0; i < n; i++)
		waitpid(pids[i], NULL, 0);
	close(bulk_pipe[0]);
	close(bulk_pipe[1]);
	diag("bulk: %d clones, new stack pages %ld (%ld on node %d)", n, all1, on1, node);
	/* a few stacks come from the per-CPU cache of freed ones */
	result(n == BULK_CLONES && on1 >= 4L * BULK_CLONES / 2 && on1 == all1, NULL,
	       "%s land on node %d (%ld of %ld new stack pages)", what, node,
	       on1, all1);
	if (!has_counters) {
		result(0, "kernel has no mpol_* counters", "%s are counted and traced", what);
		return;
	}
	if (!counters_ok) {
		result(0, NULL, "%s are counted and traced (cannot read the counters)", what);
		return;
	}
	if (!traced) {
		result(0, "cannot enable " EVENT, "%s are counted and traced", what);
		return;
	}
	dc = after.global[HIT] - before.global[HIT] + after.global[FALLBACK] -
	     before.global[FALLBACK];
	diag("bulk: counters +%ld, %ld events (%ld on node %d), %ld bad%s%s", dc,
	     t.events, t.per_node[node], node, t.bad, t.bad ? ": " : "",
	     t.bad ? t.bad_line : "");
	result(!t.bad && dc == t.pages && t.per_node[node] >= on1 && on1 > 0, NULL,
	       "%s are counted and traced (counters +%ld = %ld traced pages, >= %ld stack pages on node %d)",
	       what, dc, t.pages, on1, node);
}

static long vm_event(const char *name)
{
	static char vm[1 << 16];

	if (read_file("/proc/vmstat", vm, sizeof(vm)))
		return -1;
	return find_counter(vm, name);
}

/*
 * (h) A THP fault under MPOL_BIND{P} that gets no huge page falls back to
 * base pages (on P): its THP attempt is a probe, not a failure of the
 * policy, so mpol_bind_fail must not move.  P is filled to its headroom,
 * then the filler's pages of odd page frames are freed: P has free memory
 * far above its watermarks (near min, the base page of a fallback could
 * cost an OOM kill) but only the few free 2 MB blocks of the headroom.  2 MB
 * ranges under BIND{P} are touched one page each, THP "always" and the
 * default defrag setting (the fault's gfp mask has no direct reclaim, so no
 * compaction): the first take what huge pages P has left, the next fall
 * back.  Twice: from the local
 * node, where the THP attempt walks the whole nodemask, and with P as the
 * ranges' home node (set_mempolicy_home_node(2)), where it is the
 * __GFP_THISNODE attempt on P.  v1 of the series counted 512 pages of
 * mpol_bind_fail for each fallback.
 */
#define PROBE_RANGES	64	/* 2 MB ranges per variant, at most */
#define PROBE_WANT	2	/* fallbacks wanted per variant */
#define BOOST		"/proc/sys/vm/watermark_boost_factor"
#ifndef SYS_set_mempolicy_home_node
#define SYS_set_mempolicy_home_node 450
#endif

/* Free the pages of [p, p + len) whose page frame is odd; how many */
static long free_odd_frames(char *p, size_t len)
{
	enum { CHUNK = 512 };
	uint64_t ent[CHUNK];
	size_t i, n = len / PAGE, done;
	long freed = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd < 0)
		return -1;
	for (done = 0; done < n; done += CHUNK) {
		size_t cnt = n - done < CHUNK ? n - done : CHUNK;
		off_t off = (off_t)(((unsigned long)p / PAGE + done) * sizeof(ent[0]));

		if (pread(fd, ent, cnt * sizeof(ent[0]), off) != (ssize_t)(cnt * sizeof(ent[0])))
			break;
		for (i = 0; i < cnt; i++) {
			uint64_t pfn = ent[i] & ((1ULL << 55) - 1);

			/* present, and a frame number (0 without CAP_SYS_ADMIN) */
			if (!(ent[i] >> 63) || !pfn || !(pfn & 1))
				continue;
			if (!madvise(p + (done + i) * PAGE, PAGE, MADV_DONTNEED))
				freed++;
		}
	}
	close(fd);
	return freed;
}

static void test_bind_thp_probe(const char *skip)
{
	static const char *what = "a BIND THP fault that falls back to base pages adds no mpol_bind_fail";
	static const char *twhat = "mempolicy:mpol_alloc reports the BIND THP probes, the home-node one as pass 1 with __GFP_THISNODE";
	char buf[128], thp_saved[16] = "", boost_saved[32] = "";
	struct counters before, after;
	struct trace_tally t;
	struct fill fill = { NULL, 0 };
	unsigned long mask[MAX_NODES / 64 + 1] = { 0 };
	size_t len = PROBE_RANGES * HUGE;
	char *raw[2] = { NULL, NULL };
	long fb0, fb[2] = { 0, 0 }, df, off_p = 0, thps = 0, freed;
	int v, i, tracing = 0, homes = 0, ok;
	char *b;

	if (!skip && !has_counters)
		skip = "kernel has no mpol_* counters";
	if (!skip && (read_file(THP_ENABLED, buf, sizeof(buf)) || vm_event("thp_fault_fallback") < 0))
		skip = "no THP";
	if (skip) {
		result(0, skip, "%s", what);
		result(0, skip, "%s", twhat);
		return;
	}
	b = strchr(buf, '[');
	snprintf(thp_saved, sizeof(thp_saved), "%.*s",
		 b ? (int)strcspn(b + 1, "]") : 0, b ? b + 1 : "");
	/*
	 * "always" raises min_free_kbytes (khugepaged's recommended value),
	 * and with it every watermark: set it before the fill, which leaves
	 * its headroom above them (the filler's MADV_NOHUGEPAGE keeps it to
	 * base pages).
	 */
	write_file(THP_ENABLED, "always");
	/* a boosted watermark would move min under the last base pages */
	if (!read_file(BOOST, boost_saved, sizeof(boost_saved)))
		write_file(BOOST, "0");
	if (fill_pref_node(&fill)) {
		skip = "cannot fill the preferred node";
		goto out;
	}
	/*
	 * Every filler page of an odd page frame freed again: P gets free
	 * memory, hundreds of MiB above its watermarks, in blocks that cannot
	 * merge into a 2 MB one (each keeps its even frames).
	 */
	freed = free_odd_frames(fill.p, fill.len);
	diag("bind probe: freed %ld filler pages of odd frames", freed);
	show_zones(pref_node);
	if (freed < 1024) {
		skip = "cannot read /proc/self/pagemap";
		goto out;
	}
	mask[pref_node / 64] |= 1UL << (pref_node % 64);
	for (v = 0; v < 2; v++) {
		raw[v] = mmap(NULL, len + HUGE, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (raw[v] == MAP_FAILED) {
			raw[v] = NULL;
			skip = "cannot map";
			goto out;
		}
	}
	read_counters(&before);
	tracing = trace_start() == 0;
	for (v = 0; v < 2; v++) {
		char *p = (char *)(((unsigned long)raw[v] + HUGE - 1) & ~(HUGE - 1));

		if (sys_mbind(p, len, MPOL_BIND, mask)) {
			skip = "mbind failed";
			goto out;
		}
		if (v == 1) {
			if (syscall(SYS_set_mempolicy_home_node, (unsigned long)p,
				    len, (unsigned long)pref_node, 0UL))
				diag("set_mempolicy_home_node: %s", strerror(errno));
			else
				homes = 1;
		}
		fb0 = vm_event("thp_fault_fallback");
		for (i = 0; i < PROBE_RANGES && fb[v] < PROBE_WANT; i++) {
			((volatile char *)p)[i * HUGE] = 1;
			off_p += page_node(p + i * HUGE) != pref_node;
			fb[v] = vm_event("thp_fault_fallback") - fb0;
		}
		thps += i - fb[v];
	}
	if (tracing)
		trace_stop(&t, mask[0], -1, "bind", -1, 1);
	read_counters(&after);
	df = after.global[BIND_FAIL] - before.global[BIND_FAIL];
	diag("bind probe: %ld THPs, then %ld + %ld THP fault fallbacks (home node %s), %ld first pages off node %d, bind_fail +%ld (node%d +%ld)",
	     thps, fb[0], fb[1], homes ? "set" : "not set", off_p, pref_node, df,
	     pref_node, after.node[pref_node][BIND_FAIL] - before.node[pref_node][BIND_FAIL]);
	show_zones(pref_node);
	if (fb[0] < PROBE_WANT || fb[1] < PROBE_WANT) {
		skip = "the THP faults did not fall back";
		goto out;
	}
	ok = df == 0 && !off_p;
	for (i = 0; i < nr_nodes; i++)
		if (after.node[i][BIND_FAIL] != before.node[i][BIND_FAIL])
			ok = 0;
	result(ok, NULL, "%s (%ld fallbacks, bind_fail +%ld)", what,
	       fb[0] + fb[1], df);
	if (!tracing) {
		result(0, "cannot enable " EVENT, "%s", twhat);
	} else {
		diag("bind probe: %ld bind events, %ld failed (%ld with __GFP_THISNODE), %ld bad%s%s%s%s",
		     t.events, t.failed, t.failed_thisnode, t.bad,
		     t.failed ? "; first failure: " : "", t.failed ? t.fail_line : "",
		     t.bad ? "; bad: " : "", t.bad ? t.bad_line : "");
		result(!t.bad && t.failed >= fb[0] + fb[1] &&
		       t.failed_thisnode >= (homes ? fb[1] : 0), NULL,
		       "%s (%ld failed events, %ld THISNODE)", twhat, t.failed,
		       t.failed_thisnode);
	}
	skip = NULL;
out:
	if (skip) {
		if (tracing)
			trace_stop(&t, mask[0], -1, "bind", -1, 1);
		result(0, skip, "%s", what);
		result(0, skip, "%s", twhat);
	}
	for (v = 0; v < 2; v++)
		if (raw[v])
			munmap(raw[v], len + HUGE);
	if (fill.p)
		munmap(fill.p, fill.len);
	if (thp_saved[0])
		write_file(THP_ENABLED, thp_saved);
	if (boost_saved[0])
		write_file(BOOST, boost_saved);
}

int main(int argc, char **argv)
{
	cpu_set_t cpus;
	struct fill fill = { NULL, 0 };
	const char *skip = NULL;
	unsigned int cpu, node;
	int n;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "--node"))
		pref_node = atoi(argv[2]);

	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus) ||
	    syscall(SYS_getcpu, &cpu, &node, NULL) || read_topology()) {
		printf("TAP 1..0 # SKIP cannot pin to CPU 0 or read the NUMA topology\n");
		return 0;
	}
	local_node = (int)node;
	{
		static struct counters probe;

		has_counters = read_counters(&probe) == 0;
	}
	has_flags = probe_flags();
	if (pref_node < 0)
		for (n = nr_nodes - 1; n >= 0 && pref_node < 0; n--)
			if (has_mem[n] && n != local_node)
				pref_node = n;
	diag("kernel has: mpol_* counters %s, %s %s, MPOL_F_FALLBACK_* %s; local node %d, preferred node %d, %d nodes",
	     has_counters ? "yes" : "no", EVENT, access(EVENT, F_OK) ? "no" : "yes",
	     has_flags ? "yes" : "no", local_node, pref_node, nr_nodes);
	for (n = 0; n < nr_nodes; n++)
		if (has_mem[n])
			diag("node %d: %ld MiB free, %s, tier %d", n,
			     node_free_kb(n) >> 10, has_cpu[n] ? "CPUs" : "no CPUs",
			     tier_of[n]);

	test_flags();

	if (pref_node < 0 || pref_node >= MAX_NODES || !has_mem[pref_node])
		skip = "needs 2 memory nodes";
	else if (fill_pref_node(&fill))
		skip = "cannot fill the preferred node";
	if (!skip)
		diag("expected overflow node: local %d, nearest %d, tier %d",
		     expected_target("local"), expected_target("nearest"),
		     expected_target("tier"));

	test_counters_and_trace(skip);
	test_orders(skip);
	test_orders_per_task(skip);
	test_preferred(skip);
	if (!skip)
		munmap(fill.p, fill.len);
	if (skip) {
		result(0, skip, "a PREFERRED_MANY THP adds 512 pages, one order-9 event");
		result(0, skip, "hugetlb PREFERRED_MANY hit and fallback are counted in pages");
		result(0, skip, "hugetlb MPOL_BIND failure is counted in pages on the policy's first node");
		result(0, skip, "bulk path: kernel stacks of PREFERRED_MANY clones land on the node");
		result(0, skip, "bulk path: kernel stacks of PREFERRED_MANY clones are counted and traced");
	} else {
		test_thp();
		test_hugetlb();
		test_hugetlb_bind_fail();
		test_bulk();
	}
	test_bind_thp_probe(skip);

	printf("TAP 1..%d\n", nr_tests);
	return nr_failed ? 1 : 0;
}
