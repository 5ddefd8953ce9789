// SPDX-License-Identifier: GPL-2.0
/*
 * Memory plumbing: mappings per page size, placement via move_pages(2) with
 * nodes == NULL (query only), the filler child that holds nodes nearly full,
 * and running a case in a forked child so that an OOM kill, SIGBUS or
 * SIGSEGV is an outcome to record, not the end of the run.
 */
#include "tb.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif
#ifndef MAP_HUGE_2MB
#define MAP_HUGE_2MB (21 << MAP_HUGE_SHIFT)
#endif

#define MIB (1024UL * 1024)
#define HUGE_2M (2 * MIB)


size_t touch_stride(enum pagesize ps)
{
	return ps == PS_2M ? page_bytes(ps) : 4096;
}

bool page_resident(const void *addr)
{
	unsigned char v = 0;
	uintptr_t a = (uintptr_t)addr & ~(uintptr_t)4095;

	if (mincore((void *)a, 4096, &v)) {
		msg("mincore %p: %s", (void *)a, strerror(errno));
		return false;
	}
	return v & 1;
}

size_t page_bytes(enum pagesize ps)
{
	return ps == PS_4K ? 4096 : HUGE_2M;
}

void *map_region(enum pagesize ps, size_t len)
{
	void *p;

	if (ps == PS_2M) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_HUGE_2MB,
			 -1, 0);
		if (p == MAP_FAILED) {
			msg("mmap %zu MiB MAP_HUGETLB 2 MiB: %s", len / MIB,
			    strerror(errno));
			return NULL;
		}
		return p;
	}
	if (ps == PS_THP) {
		/* over-allocate and trim so the region is PMD aligned */
		char *raw = mmap(NULL, len + HUGE_2M, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		char *al;

		if (raw == MAP_FAILED) {
			msg("mmap %zu MiB: %s", len / MIB, strerror(errno));
			return NULL;
		}
		al = (char *)(((uintptr_t)raw + HUGE_2M - 1) & ~(HUGE_2M - 1));
		if (al > raw)
			munmap(raw, (size_t)(al - raw));
		munmap(al + len, (size_t)(raw + HUGE_2M - al));
		if (madvise(al, len, MADV_HUGEPAGE)) {
			msg("madvise(MADV_HUGEPAGE) %zu MiB: %s", len / MIB,
			    strerror(errno));
			munmap(al, len);
			return NULL;
		}
		return al;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED) {
		msg("mmap %zu MiB: %s", len / MIB, strerror(errno));
		return NULL;
	}
	return p;
}

/* Counts in 4 KiB-page equivalents, whatever the stride, so fractions of
 * different page sizes compare. */
long placement(void *addr, size_t len, size_t stride, long *per_node,
	       int max_node)
{
	enum { BATCH = 1024 };
	void *pages[BATCH];
	int status[BATCH];
	long weight = (long)(stride / 4096), seen = 0;
	size_t total = len / stride;

	for (int n = 0; n <= max_node; n++)
		per_node[n] = 0;
	for (size_t i = 0; i < total; i += BATCH) {
		size_t cnt = total - i < BATCH ? total - i : BATCH;

		for (size_t j = 0; j < cnt; j++)
			pages[j] = (char *)addr + (i + j) * stride;
		if (sys_move_pages(cnt, pages, status)) {
			msg("move_pages(query %zu pages at %p): %s", cnt, pages[0],
			    strerror(errno));
			return -1;
		}
		for (size_t j = 0; j < cnt; j++)
			if (status[j] >= 0 && status[j] <= max_node) {
				per_node[status[j]] += weight;
				seen += weight;
			}
	}
	return seen;
}

double clock_overhead_ns(void)
{
	enum { N = 200000 };
	uint64_t t0 = now_ns(), t1;

	for (int i = 0; i < N; i++)
		t1 = now_ns();
	t1 = now_ns();
	return (double)(t1 - t0) / (N + 1);
}

/* Children alive now, for the timeout path (main.c) to kill: never kill(0),
 * which would also hit the shell that started us. */
#define MAX_LIVE 8
static volatile pid_t live[MAX_LIVE];

static void live_add(pid_t pid)
{
	for (int i = 0; i < MAX_LIVE; i++)
		if (!live[i]) {
			live[i] = pid;
			return;
		}
}

static void live_del(pid_t pid)
{
	for (int i = 0; i < MAX_LIVE; i++)
		if (live[i] == pid)
			live[i] = 0;
}

void children_kill(void)
{
	for (int i = 0; i < MAX_LIVE; i++)
		if (live[i] > 0)
			kill(live[i], SIGKILL);
	for (int i = 0; i < MAX_LIVE; i++)
		if (live[i] > 0)
			waitpid(live[i], NULL, 0);
}

void child_signals(void)
{
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	signal(SIGALRM, SIG_DFL);
}

/* ---- filler ---- */

/*
 * What a filler leaves free on @node: @headroom_mib, but never below its
 * min watermark + 4 MiB: below min a BIND allocation that cannot reclaim
 * (no swap here) is OOM-killed, and with THP min_free_kbytes puts the min
 * watermark of a 512 MiB node at ~24 MiB -- the default headroom.
 */
static long fill_target_mib(int node, long headroom_mib)
{
	long min_mib = node_wmark_kib(node, "min") / 1024 + 4;

	return headroom_mib < min_mib ? min_mib : headroom_mib;
}

/* What a reclaimable fill leaves on @node: low watermark + RECLAIM_MARGIN_MIB. */
static long reclaim_headroom_mib(int node)
{
	long low = node_wmark_kib(node, "low");

	return (low > 0 ? (low + 1023) / 1024 : 0) + RECLAIM_MARGIN_MIB;
}

/* Fill @node with MPOL_BIND memory until fill_target_mib() are left. */
static long fill_node(int node, long headroom_mib)
{
	long free_kib = node_meminfo_kib(node, "MemFree");
	long want_mib, done = 0;
	struct nodeset one;
	char *p;

	headroom_mib = fill_target_mib(node, headroom_mib);
	want_mib = free_kib / 1024 - headroom_mib;
	if (want_mib <= 0)
		return 0;
	p = mmap(NULL, (size_t)want_mib * MIB, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		msg("filler: mmap %ld MiB for node %d: %s", want_mib, node,
		    strerror(errno));
		return -1;
	}
	ns_clear(&one);
	ns_set(&one, node);
	if (sys_mbind(p, (size_t)want_mib * MIB, MPOL_BIND, &one, 0)) {
		msg("filler: mbind BIND node %d: %s", node, strerror(errno));
		return -1;
	}
	/* huge pages where possible: 512 times fewer faults under TCG */
	madvise(p, (size_t)want_mib * MIB, MADV_HUGEPAGE);
	for (; done < want_mib; done += 2) {
		if (node_meminfo_kib(node, "MemFree") / 1024 <= headroom_mib)
			break;
		for (size_t off = 0; off < 2 * MIB && done * MIB + off < (size_t)want_mib * MIB;
		     off += 4096)
			p[done * MIB + off] = 1;
	}
	return done;
}

/*
 * The sparse file whose page cache holds @node (scenario
 * full-reclaimable-cache), one per fill of the scenario (@gen): a fill
 * again after a case adds a new file's pages to what is still cached of
 * the earlier ones, rather than reading them all again.
 */
static void fill_cache_path(int node, int gen, char *buf, size_t len)
{
	snprintf(buf, len, RECLAIM_FS_DIR "/fill-node%d-%d", node, gen % RECLAIM_FILL_FILES);
}

/*
 * What a reclaimable filler adds to its node, a step at a time: 1 MiB of
 * the page cache of a sparse file of twice the node's size on the ext4
 * disk (read with the filler bound to the node: page cache is allocated
 * by the task that reads, under its task policy, filemap_alloc_folio()),
 * or 2 MiB of anonymous memory bound to the node.  The file's holes read
 * as zeroed pages without any I/O (ext4_mpage_readpages()); each is an
 * ordinary clean, unmapped page-cache folio on the inactive file list,
 * which reclaim frees as it would one read from the disk (only a refault
 * would cost I/O, and none is measured).
 */
struct rfill {
	int node;
	enum fill_kind kind;
	int fd;			/* FILL_CACHE: the file, open while the filler lives */
	char *buf, *anon;	/* the read buffer; FILL_ANON_SWAP: the mapping */
	long len_mib, done_mib;
	char path[64];
};

static int rfill_open(struct rfill *r, int node, enum fill_kind kind, int gen)
{
	long total_kib = node_meminfo_kib(node, "MemTotal");
	struct nodeset one;

	memset(r, 0, sizeof(*r));
	r->node = node;
	r->kind = kind;
	r->fd = -1;
	if (total_kib <= 0) {
		msg("filler: node %d: no MemTotal", node);
		return -1;
	}
	/* room for the node twice over: what direct reclaim and kswapd take back is read again */
	r->len_mib = total_kib / 1024 * 2;
	ns_clear(&one);
	ns_set(&one, node);
	if (kind == FILL_CACHE) {
		fill_cache_path(node, gen, r->path, sizeof(r->path));
		r->buf = malloc(MIB);
		if (!r->buf) {
			msg("filler: node %d: out of memory", node);
			return -1;
		}
		memset(r->buf, 0, MIB);	/* the buffer's own pages before the binding */
		/*
		 * O_TRUNC: a name used again (RECLAIM_FILL_FILES) drops what is
		 * cached of its earlier fill, so the file reads as new pages.
		 */
		r->fd = open(r->path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (r->fd < 0 || ftruncate(r->fd, (off_t)r->len_mib * (off_t)MIB)) {
			msg("filler: %s: %s", r->path, strerror(errno));
			return -1;
		}
		if (sys_set_mempolicy(MPOL_BIND, &one)) {
			msg("filler: set_mempolicy BIND node %d: %s", node, strerror(errno));
			return -1;
		}
		return 0;
	}
	r->anon = mmap(NULL, (size_t)r->len_mib * MIB, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r->anon == MAP_FAILED) {
		r->anon = NULL;
		msg("filler: mmap %ld MiB for node %d: %s", r->len_mib, node, strerror(errno));
		return -1;
	}
	if (sys_mbind(r->anon, (size_t)r->len_mib * MIB, MPOL_BIND, &one, 0)) {
		msg("filler: mbind BIND node %d: %s", node, strerror(errno));
		return -1;
	}
	/*
	 * Base pages: swap-out splits a huge page, and khugepaged would
	 * collapse the split ranges again -- swapping pages in and taking a
	 * new huge page on the node after the fill (seen: the node 10 MiB
	 * under its low watermark by the case's start).
	 */
	madvise(r->anon, (size_t)r->len_mib * MIB, MADV_NOHUGEPAGE);
	return 0;
}

static int rfill_step(struct rfill *r)
{
	if (r->done_mib + 2 > r->len_mib) {
		msg("filler: node %d: %ld MiB added and the node is not full", r->node, r->done_mib);
		return -1;
	}
	if (r->kind == FILL_CACHE) {
		ssize_t n = pread(r->fd, r->buf, MIB, (off_t)r->done_mib * (off_t)MIB);

		if (n <= 0) {
			msg("filler: %s: read at %ld MiB: %s", r->path, r->done_mib,
			    n < 0 ? strerror(errno) : "end of file");
			return -1;
		}
		r->done_mib++;
		return 0;
	}
	for (size_t off = 0; off < 2 * MIB; off += 4096)
		r->anon[(size_t)r->done_mib * MIB + off] = 1;
	r->done_mib += 2;
	return 0;
}

/*
 * Fill @node with reclaimable memory of @kind until reclaim_headroom_mib()
 * are left, with kswapd asleep and willing.  kswapd gives up on a node
 * after MAX_RECLAIM_RETRIES runs that reclaimed nothing (/proc/zoneinfo
 * node_unreclaimable), as it does under the unreclaimable fills of full,
 * pressure and oom earlier in the boot, and then wakes no more until a
 * direct reclaim on the node makes progress.  So the fill first goes past
 * the min watermark (its own allocations reclaim its own memory directly:
 * the node is revived), lets kswapd take the node back up and go to sleep
 * (MemFree steady over 200 ms), then fills again down to the target, above
 * the low watermark: no allocation of the fill wakes kswapd there.
 */
static long fill_node_reclaimable(int node, enum fill_kind kind, int gen)
{
	long target = reclaim_headroom_mib(node), min_mib = node_wmark_kib(node, "min") / 1024;
	long prev = -1, now;
	int steady = 0;
	struct rfill r;
	int rc = -1;

	if (rfill_open(&r, node, kind, gen))
		goto out;
	/* a node kswapd has not given up on needs no reviving: straight to the target */
	if (node_unreclaimable(node) == 0)
		goto top_up;
	/*
	 * Until reclaim on the node succeeds (kswapd_failures reset) or it
	 * is past min: a movable node's min watermark is capped at 512 KiB,
	 * and kswapd, reclaiming this fill's own page cache, can keep it
	 * above min + 1 MiB however much is read.
	 */
	while (node_unreclaimable(node) != 0 && node_meminfo_kib(node, "MemFree") / 1024 > min_mib + 1)
		if (rfill_step(&r))
			goto out;
	for (int i = 0; i < 8; i++)
		if (rfill_step(&r))
			goto out;
	for (int i = 0; i < 50; i++) {	/* kswapd's work (MemFree steady over 200 ms): up to 5 s */
		struct timespec ts = { 0, 100 * 1000 * 1000 };

		nanosleep(&ts, NULL);
		now = node_meminfo_kib(node, "MemFree");
		steady = now == prev ? steady + 1 : 0;
		if (steady >= 2)
			break;
		prev = now;
	}
top_up:
	while (node_meminfo_kib(node, "MemFree") / 1024 > target)
		if (rfill_step(&r))
			goto out;
	rc = 0;
out:
	if (kind == FILL_CACHE)
		sys_set_mempolicy(MPOL_DEFAULT, NULL);
	free(r.buf);
	return rc ? -1 : r.done_mib;
}

/*
 * Fill @node until MemFree is at most @target_kib, to the page: huge pages
 * down to 8 MiB above the target (fill_node), then base pages.  What the
 * fill-level sweep needs: its levels lie between watermarks a few MiB apart.
 */
static long fill_node_level(int node, long target_kib)
{
	long coarse = fill_node(node, target_kib / 1024 + 8), free_kib, len_kib;
	struct nodeset one;
	char *p;

	if (coarse < 0)
		return -1;
	free_kib = node_meminfo_kib(node, "MemFree");
	len_kib = free_kib - target_kib + 16 * 1024;
	if (free_kib < 0 || free_kib <= target_kib)
		return coarse;
	p = mmap(NULL, (size_t)len_kib * 1024, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		msg("filler: mmap %ld KiB for node %d: %s", len_kib, node, strerror(errno));
		return -1;
	}
	ns_clear(&one);
	ns_set(&one, node);
	if (sys_mbind(p, (size_t)len_kib * 1024, MPOL_BIND, &one, 0)) {
		msg("filler: mbind BIND node %d: %s", node, strerror(errno));
		return -1;
	}
	madvise(p, (size_t)len_kib * 1024, MADV_NOHUGEPAGE);
	/*
	 * Per-CPU list pages serve faults without lowering MemFree, and return
	 * to it when the lists drain: drain them, and fill again, until MemFree
	 * stays at the target (level_sweep() keeps the lists short).
	 */
	long off = 0;

	for (int round = 0; round < 4; round++) {
		for (; off < len_kib && node_meminfo_kib(node, "MemFree") > target_kib; off += 4)
			p[off * 1024] = 1;
		if (pcp_drain(&one, 1024) || node_meminfo_kib(node, "MemFree") <= target_kib)
			break;
	}
	return coarse + off / 1024;	/* MiB, the base pages' included */
}

/*
 * The filler runs at oom_score_adj -1000 (OOM_SCORE_ADJ_MIN): oom_badness()
 * never picks such a task, so the OOM of a BIND case on a full node falls on
 * the case (+500) and the scenario outlives it.  Its anonymous pages cannot
 * be reclaimed without swap, so this holds the nodes as firmly as mlock
 * would; mlock would not keep the OOM killer off the filler, and hugetlb
 * pools would take the 2m cases' own pools away.
 */
/* What @f leaves on @n above its headroom. */
static long filler_extra_mib(const struct filler *f, int n)
{
	return ns_has(&f->roomy, n) ? f->roomy_mib : 0;
}

/*
 * The ballast.  The harness and the filler sit at -1000, which oom_badness()
 * never picks; while a case runs, the case (+500) is the OOM killer's
 * choice.  But an OOM can also come when no case is there to take it: after
 * a case's memory was reaped (its task is then skipped, MMF_OOM_SKIP) while
 * the nodes are still short, or from the harness's own allocations between
 * cases.  Finding only -1000 tasks, the kernel panics ("System is
 * deadlocked on memory") and the boot is lost.  The ballast is a task that
 * holds ballast_kib() on each filled node at -999: any other task outscores
 * it (a case at +500 by half the memory, whatever its size), so it is
 * chosen only when nothing else can be, and its death frees memory on
 * every node it held -- enough for the allocation that found nobody else
 * to go on.  Enough means more than the kernel holds back when it marks
 * the ballast done: exit_mmap() unmaps the whole mm into one mmu_gather,
 * sets MMF_OOM_SKIP (the OOM killer skips the task from then on) and only
 * then frees the gather's last batches, up to MAX_GATHER_BATCH_COUNT
 * batches of base pages (9698 pages, 37.9 MiB with 4 KiB pages).  A
 * ballast no larger than that frees nothing before it is skipped: seen
 * with the low watermark + 4 MiB (8512 pages), the OOM 5 ms after the
 * kill found the node's free memory unchanged, no task to kill, and
 * panicked (1 boot in 3 of tierbench checks on 2s-dram-pmem).  So the
 * ballast holds that much more (BALLAST_GATHER_KIB), and what it frees
 * before the skip still covers the low watermark + 4 MiB: room beyond
 * what the per-CPU lists can swallow (6.12 sizes a node's lists up to its
 * low watermark over all CPUs; MemFree and the watermark check do not see
 * them, and with nothing reclaimable the allocator never drains them
 * before it calls the OOM killer again).  The filler cannot play that
 * part: its whole RSS counts in oom_badness(), so at -999 it would
 * outscore a small case on a nodemask-constrained OOM.  A ballast gone breaks the scenario (the case
 * that saw it is invalid, "ballast_gone"); the next case fills again.
 */
/* include/asm-generic/tlb.h: 8 + (10000 / 510) * 510 pages, rounded up */
#define BALLAST_GATHER_KIB (40L * 1024)

static long ballast_kib(int node)
{
	long low = node_wmark_kib(node, "low");

	return (low > 0 ? low : 0) + 4096 + BALLAST_GATHER_KIB;
}

static int ballast_start(struct filler *f, const struct nodeset *nodes)
{
	int pfd[2];
	char ack;
	ssize_t r;

	f->ballast_pid = -1;
	f->ballast_reaped = false;
	if (pipe(pfd)) {
		msg("ballast: pipe: %s", strerror(errno));
		return -1;
	}
	out_flush();
	f->ballast_pid = fork();
	if (f->ballast_pid < 0) {
		msg("ballast: fork: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (f->ballast_pid == 0) {
		close(pfd[0]);
		child_signals();
		oom_adj_self(-999);
		ns_for_each(n, nodes) {
			struct nodeset one;
			size_t len = (size_t)ballast_kib(n) * 1024;
			char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			ns_clear(&one);
			ns_set(&one, n);
			if (p == MAP_FAILED || sys_mbind(p, len, MPOL_BIND, &one, 0)) {
				msg("ballast: %zu KiB on node %d: %s", len / 1024, n,
				    strerror(errno));
				_exit(1);
			}
			/* base pages: a kill frees them whatever THP is doing */
			madvise(p, len, MADV_NOHUGEPAGE);
			for (size_t off = 0; off < len; off += 4096)
				p[off] = 1;
		}
		ack = 1;
		if (write(pfd[1], &ack, 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	live_add(f->ballast_pid);
	close(pfd[1]);
	r = read(pfd[0], &ack, 1);
	close(pfd[0]);
	if (r != 1) {
		msg("ballast (pid %d) died before it held its pages", f->ballast_pid);
		waitpid(f->ballast_pid, NULL, 0);
		live_del(f->ballast_pid);
		f->ballast_pid = -1;
		return -1;
	}
	return 0;
}

static void ballast_stop(struct filler *f)
{
	if (f->ballast_pid > 0 && !f->ballast_reaped) {
		kill(f->ballast_pid, SIGKILL);
		waitpid(f->ballast_pid, NULL, 0);
		live_del(f->ballast_pid);
	}
	f->ballast_pid = -1;
}

/* filler_start() and filler_start_level(): f->level says which fill. */
static int filler_spawn(struct filler *f, const struct nodeset *nodes, long headroom_mib,
			const struct nodeset *roomy, long roomy_mib)
{
	int pfd[2];
	long total = 0;
	ssize_t r;

	f->pid = -1;
	/* first, so that the filler fills around it */
	if (ballast_start(f, nodes))
		return -1;
	f->mib = 0;
	f->reaped = false;
	f->status = 0;
	f->nodes = *nodes;
	f->headroom_mib = headroom_mib;
	f->roomy_mib = roomy ? roomy_mib : 0;
	if (roomy)
		f->roomy = *roomy;
	else
		ns_clear(&f->roomy);
	if (pipe(pfd)) {
		msg("filler: pipe: %s", strerror(errno));
		ballast_stop(f);
		return -1;
	}
	out_flush();
	f->pid = fork();
	if (f->pid < 0) {
		msg("filler: fork: %s", strerror(errno));
		ballast_stop(f);
		return -1;
	}
	if (f->pid == 0) {
		close(pfd[0]);
		child_signals();
		oom_adj_self(-1000);
		ns_for_each(n, nodes) {
			long got = f->level && n <= MAX_NODE ? fill_node_level(n, f->level_kib[n]) :
				   f->kind != FILL_ANON ? fill_node_reclaimable(n, f->kind, f->gen) :
				   fill_node(n, headroom_mib + filler_extra_mib(f, n));

			if (got < 0)
				_exit(1);
			total += got;
		}
		if (write(pfd[1], &total, sizeof(total)) != sizeof(total))
			_exit(1);
		for (;;)
			pause();
	}
	live_add(f->pid);
	close(pfd[1]);
	r = read(pfd[0], &total, sizeof(total));
	close(pfd[0]);
	if (r != sizeof(total)) {
		msg("filler (pid %d) died before it had filled the nodes", f->pid);
		filler_stop(f);
		return -1;
	}
	f->mib = total;
	/*
	 * The band a case must leave each node in, on MemFree plus the pages
	 * of the per-CPU lists (6.12 lets those hold up to about the low
	 * watermark: free pages MemFree does not count, which come and go
	 * as the lists fill and drain): from 4 MiB under the min watermark to
	 * 8 MiB over what the fill left or aimed at.  A filler gone or a leak
	 * moves a node far out of it.
	 */
	ns_for_each(n, nodes) {
		long target = f->level ? f->level_kib[n] :
			      f->kind != FILL_ANON ? fill_target_mib(n, reclaim_headroom_mib(n)) * 1024 :
			      fill_target_mib(n, headroom_mib + filler_extra_mib(f, n)) * 1024;
		long now = node_free_pcp_kib(n);
		/*
		 * A reclaimable fill's case must find kswapd asleep: every
		 * preferred node above its low watermark (else it fills again).
		 */
		long lo = f->kind != FILL_ANON ? node_wmark_kib(n, "low") :
			  node_wmark_kib(n, "min") - 4096;

		if (n > MAX_NODE)
			break;
		f->band_lo_kib[n] = lo > 0 ? lo : 0;
		f->band_hi_kib[n] = (now > target ? now : target) + 8192;
	}
	return 0;
}

int filler_start(struct filler *f, const struct nodeset *nodes, long headroom_mib,
		 const struct nodeset *roomy, long roomy_mib)
{
	f->level = false;
	f->kind = FILL_ANON;
	return filler_spawn(f, nodes, headroom_mib, roomy, roomy_mib);
}

int filler_start_reclaimable(struct filler *f, const struct nodeset *nodes, enum fill_kind kind)
{
	f->level = false;
	f->kind = kind;
	f->gen = 0;
	return filler_spawn(f, nodes, 0, NULL, 0);
}

int filler_start_level(struct filler *f, const struct nodeset *nodes, const long *level_kib)
{
	f->level = true;
	f->kind = FILL_ANON;
	for (int n = 0; n <= MAX_NODE; n++)
		f->level_kib[n] = level_kib[n];
	return filler_spawn(f, nodes, 0, NULL, 0);
}

int filler_restart(struct filler *f)
{
	f->gen++;
	struct nodeset nodes = f->nodes, roomy = f->roomy;

	return filler_spawn(f, &nodes, f->headroom_mib, &roomy, f->roomy_mib);
}

long node_free_pcp_kib(int node)
{
	long pcp = node_pcp_kib(node);

	return node_meminfo_kib(node, "MemFree") + (pcp > 0 ? pcp : 0);
}

void child_track(int pid)
{
	live_add(pid);
}

void child_untrack(int pid)
{
	live_del(pid);
}

bool filler_alive(struct filler *f)
{
	int w;

	if (f->pid <= 0 || f->reaped)
		return false;
	if (f->ballast_pid <= 0 || f->ballast_reaped)
		return false;
	w = waitpid(f->ballast_pid, NULL, WNOHANG);
	if (w != 0) {
		if (w < 0)
			msg("ballast: waitpid %d: %s", f->ballast_pid, strerror(errno));
		f->ballast_reaped = true;
		live_del(f->ballast_pid);
		return false;
	}
	return filler_holder_alive(f);
}

bool filler_holder_alive(struct filler *f)
{
	int w;

	if (f->pid <= 0 || f->reaped)
		return false;
	w = waitpid(f->pid, &f->status, WNOHANG);
	if (w == 0)
		return true;
	if (w < 0)
		msg("filler: waitpid %d: %s", f->pid, strerror(errno));
	/* gone: never signal its pid again, it may be another task's by now */
	f->reaped = true;
	live_del(f->pid);
	return false;
}

void filler_stop(struct filler *f)
{
	ballast_stop(f);
	if (f->pid > 0 && !f->reaped) {
		kill(f->pid, SIGKILL);
		waitpid(f->pid, NULL, 0);
		live_del(f->pid);
	}
	f->pid = -1;
}

void filler_files_remove(struct filler *f)
{
	if (f->kind != FILL_CACHE)
		return;
	/* unlinked with no reader left: the page cache goes with the inode */
	ns_for_each(n, &f->nodes)
		for (int g = 0; g <= f->gen && g < RECLAIM_FILL_FILES; g++) {
			char path[64];

			fill_cache_path(n, g, path, sizeof(path));
			if (unlink(path) && errno != ENOENT)
				msg("filler: unlink %s: %s", path, strerror(errno));
		}
	f->gen = 0;
}

/* ---- cases in a child ---- */

struct shared *shared_new(void)
{
	struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (sh == MAP_FAILED) {
		msg("mmap shared result page: %s", strerror(errno));
		return NULL;
	}
	memset(sh, 0, sizeof(*sh));
	return sh;
}

int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd < 0) {
		msg("/dev/kmsg: %s (OOM kills cannot be confirmed)", strerror(errno));
		return -1;
	}
	lseek(fd, 0, SEEK_END);
	return fd;
}

/*
 * OOM records since kmsg_open(): "Out of memory: Killed process <pid>"
 * (printed for every victim) and, when the rate-limited dump was printed,
 * "oom-kill:constraint=<C>,...,pid=<pid>,".  Notes whether @pid was a
 * victim, its constraint, and the first other victim.
 */
static void kmsg_scan_oom(int fd, int pid, struct case_oom *s, char *constraint, size_t len)
{
	char rec[8192];
	ssize_t n;

	if (fd < 0)
		return;
	for (;;) {
		int v;

		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on */
		if (n <= 0)
			break;
		rec[n] = 0;
		kmsg_oom_constraint(rec, pid, constraint, len);
		v = kmsg_oom_victim(rec);
		if (v == pid) {
			s->victim = true;
		} else if (v > 0 && !s->other) {
			s->other = v;
			s->other_after = s->victim;
		}
	}
}

enum outcome run_child(int (*fn)(void *arg, struct shared *sh), void *arg,
		       struct shared *sh, int timeout_secs, int *sig_out)
{
	int kfd = kmsg_open(), status = 0, pid;
	uint64_t t0 = now_ns(), deadline = t0 + (uint64_t)timeout_secs * 1000000000u;
	long long oom0 = vmstat_get("oom_kill"), oom1;
	long long thp_alloc0 = vmstat_get("thp_fault_alloc");
	long long thp_fb0 = vmstat_get("thp_fault_fallback");
	struct case_oom seen = { 0 };
	enum outcome oc;

	*sig_out = 0;
	sh->oom_constraint[0] = 0;
	/* unknown until the child is reaped: a timeout or a failed fork measures none */
	sh->oom_kill_delta = -1;
	sh->thp_fault_alloc_delta = -1;
	sh->thp_fault_fallback_delta = -1;
	sh->oom_victim_other = 0;
	sh->invalid_why[0] = 0;
	out_flush();
	pid = fork();
	if (pid < 0) {
		msg("fork: %s", strerror(errno));
		if (kfd >= 0)
			close(kfd);
		return OUT_ERROR;
	}
	if (pid == 0) {
		int rc;

		child_signals();
		/* the parent is protected (-1000); the case must be the victim */
		oom_adj_self(500);
		rc = fn(arg, sh);
		out_flush();
		_exit(rc);
	}
	live_add(pid);
	for (;;) {
		int w = waitpid(pid, &status, WNOHANG);
		struct timespec ts = { 0, 5 * 1000 * 1000 };

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			msg("waitpid %d: %s", pid, strerror(errno));
			if (kfd >= 0)
				close(kfd);
			return OUT_ERROR;
		}
		if (now_ns() > deadline) {
			msg("case child %d exceeded %d s; killing it", pid, timeout_secs);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			live_del(pid);
			phase_case_reaped(sh);
			sh->secs = (double)(now_ns() - t0) / 1e9;
			if (kfd >= 0)
				close(kfd);
			return OUT_TIMEOUT;
		}
		nanosleep(&ts, NULL);
	}
	live_del(pid);
	/* a phase the child died in ends here, not after the OOM log is read */
	phase_case_reaped(sh);
	sh->secs = (double)(now_ns() - t0) / 1e9;
	oom1 = vmstat_get("oom_kill");
	sh->oom_kill_delta = oom0 >= 0 && oom1 >= 0 ? oom1 - oom0 : -1;
	seen.kill_delta = sh->oom_kill_delta > 0 ? sh->oom_kill_delta : 0;
	sh->thp_fault_alloc_delta = vmstat_delta("thp_fault_alloc", thp_alloc0);
	sh->thp_fault_fallback_delta = vmstat_delta("thp_fault_fallback", thp_fb0);
	/* the log follows the kill: give printk a moment to name every victim */
	for (int i = 0; i < 40; i++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		kmsg_scan_oom(kfd, pid, &seen, sh->oom_constraint, sizeof(sh->oom_constraint));
		if (!seen.kill_delta ||
		    (case_oom_complete(&seen) && (!seen.victim || sh->oom_constraint[0])))
			break;
		nanosleep(&ts, NULL);
	}
	if (WIFSIGNALED(status))
		*sig_out = WTERMSIG(status);
	sh->oom_victim_other = seen.other;
	sh->oom_other_after = seen.other_after;
	oc = case_outcome(status, &seen);
	if (oc == OUT_KILLED_OTHER)
		snprintf(sh->invalid_why, sizeof(sh->invalid_why),
			 "oom_kill rose by %lld while the case ran; victim %s%d (case pid %d)",
			 seen.kill_delta, seen.other ? "pid " : "not logged, ", seen.other, pid);
	if (kfd >= 0)
		close(kfd);
	return oc;
}

long smaps_anon_huge_kib(void *addr)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[256];
	bool in = false;
	long kib = -1;

	if (!f) {
		msg("/proc/self/smaps: %s", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {
			if (in)
				break;
			in = lo == (unsigned long)addr;
			continue;
		}
		if (in && sscanf(line, "AnonHugePages: %ld kB", &kib) == 1)
			break;
	}
	fclose(f);
	return kib;
}
