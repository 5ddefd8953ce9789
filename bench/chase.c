// SPDX-License-Identifier: GPL-2.0
/*
 * chase: the calibration of --memory-timing count (README, "Memory
 * timing").  For each memory node in turn, a 64 MiB buffer bound to it
 * (mbind MPOL_BIND, 4 KiB pages) is linked into one random cycle through
 * all its 64-byte lines (Sattolo's shuffle), walked once to warm up, then
 * walked once more inside a marked phase: one dependent load per line.
 * 64 MiB is over twice the plugin's default LLC (27.5 MiB, 11 ways): a
 * cyclic walk longer than every set's ways misses on every load under LRU,
 * so the phase's misses are its loads, on the bound node.
 *
 * The guest cannot see the counts; it prints what the host needs to turn
 * the plugin's phases into rows: a PHASE line per walk (its loads and the
 * bound node) and, before it, a MEMPROBE line per address probe (a load
 * preceded by the probe marker) with the guest-physical address
 * /proc/self/pagemap gives for it.  Host-side, labtool collect checks
 * both (plugin/memtiming.c).  Without the plugin the markers are NOPs and
 * the rows are the placement only.
 *
 * Each walk is timed on the guest's clock (walk_ns= on its PHASE line):
 * under --memory-timing delay that is what the injected delays make the
 * guest feel.  The first node's buffer is walked once more before its
 * measured walk, inside a calibration phase (MT_PHASE_CALIB, scenario
 * calibration) that the plugin never delays: delay mode's per-boot
 * measure of what a miss costs TCG itself.
 *
 * A node with a memory-side cache the buffer fits in (sysfs
 * memory_side_cache/index1/size) gets one more phase (scenario msc, same
 * phase id): two cycles through the buffer, the first with the plugin's
 * simulated cache empty (each phase starts so), the second served by it
 * where no other line of the buffer took the line's place (a direct-mapped
 * cache indexes by physical address).
 *
 * Rows (policy bind, pagesize 4k, scenario chase, nodes node:N): loads,
 * buffer_mib, pages_node<M> (move_pages at the end), on_node_frac; with a
 * memory-side cache, msc_bytes (scenario msc).
 */
#include "tb.h"
#include "marker.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MIB (1024UL * 1024)
#define CHASE_MIB 64
#define LINE 64
#define NPROBES 4

/* One load, the plugin told to record its physical address first. */
static uint64_t probe_load(const volatile uint64_t *p)
{
	uint64_t v;

	__asm__ __volatile__("nopl %c1(%%rax)\n\tmovq (%2), %0"
			     : "=r"(v)
			     : "i"(MT_MARK_DISP(MT_OP_PROBE, 0)), "r"(p)
			     : "memory");
	return v;
}

/* @n dependent loads from line @at: each line holds the next one's index. */
static __attribute__((noinline)) uint64_t walk(const uint64_t *buf, uint64_t at, long n)
{
	while (n-- > 0)
		at = *(const volatile uint64_t *)(buf + at * (LINE / 8));
	return at;
}

static uint64_t rng_next(uint64_t *s)
{
	/* xorshift64*: a fixed sequence, the same cycle in every boot */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

/* Sattolo: a random permutation that is one single cycle. */
static int link_cycle(uint64_t *buf, size_t lines)
{
	uint32_t *order = malloc(lines * sizeof(*order));
	uint64_t seed = 0x9E3779B97F4A7C15ULL;

	if (!order) {
		msg("chase: out of memory for %zu line indices", lines);
		return -1;
	}
	for (size_t i = 0; i < lines; i++)
		order[i] = (uint32_t)i;
	for (size_t i = lines - 1; i > 0; i--) {
		size_t j = (size_t)(rng_next(&seed) % i);
		uint32_t t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < lines; i++)
		buf[(size_t)order[i] * (LINE / 8)] = order[(i + 1) % lines];
	free(order);
	return 0;
}

/* Guest-physical address of @p from /proc/self/pagemap; 0 if unknown. */
static uint64_t gpa_of(int fd, const void *p)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t e, va = (uint64_t)(uintptr_t)p;

	if (fd < 0 || pread(fd, &e, sizeof(e), (off_t)(va / (uint64_t)page * 8)) != sizeof(e))
		return 0;
	if (!(e >> 63 & 1) || !(e & ((1ULL << 55) - 1)))
		return 0;	/* not present, or the PFN hidden (no CAP_SYS_ADMIN) */
	return (e & ((1ULL << 55) - 1)) * (uint64_t)page + va % (uint64_t)page;
}

static bool chase_node(int node, int pagemap, bool calibrate)
{
	const struct rowkey k = { VOCAB_BENCH_CHASE, "bind", "4k", "chase" };
	const struct rowkey kc = { VOCAB_BENCH_CHASE, "bind", "4k", "calibration" };
	const struct rowkey km = { VOCAB_BENCH_CHASE, "bind", "4k", "msc" };
	uint64_t t0;
	long msc;
	size_t len = CHASE_MIB * MIB, lines = len / LINE;
	struct nodeset one;
	long per_node[MAX_NODE + 1] = { 0 }, total;
	char metric[48];
	uint64_t *buf, end;
	bool ok = true;

	ns_clear(&one);
	ns_set(&one, node);
	out_set_nodes("node", &one);
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		msg("chase: mmap %zu MiB: %s", len / MIB, strerror(errno));
		return tap(false, "chase node %d: buffer mapped", node);
	}
	/* 4 KiB pages, so that a probe's page is the page pagemap names */
	if (madvise(buf, len, MADV_NOHUGEPAGE))
		msg("chase: MADV_NOHUGEPAGE: %s", strerror(errno));
	if (sys_mbind(buf, len, MPOL_BIND, &one, 0)) {
		msg("chase: mbind BIND node %d: %s", node, strerror(errno));
		munmap(buf, len);
		return tap(false, "chase node %d: buffer bound", node);
	}
	if (link_cycle(buf, lines)) {
		munmap(buf, len);
		return tap(false, "chase node %d: buffer linked", node);
	}
	/* probes: the first and last line, two between */
	for (int i = 0; i < NPROBES; i++) {
		size_t line = i == 0 ? 0 : i == NPROBES - 1 ? lines - 1 : lines / NPROBES * (size_t)i + 7;
		const uint64_t *p = buf + line * (LINE / 8);

		probe_load(p);
		out_memprobe(&k, (uint64_t)(uintptr_t)p, gpa_of(pagemap, p), node);
	}
	end = walk(buf, 0, (long)lines);	/* warm-up: the LLC holds the cycle's tail */
	if (calibrate) {
		/* a whole cycle: it ends where it began, the LLC as the warm-up left it */
		t0 = now_ns();
		MT_MARK(MT_OP_BEGIN, MT_PHASE_CALIB);
		end = walk(buf, end, (long)lines);
		MT_MARK(MT_OP_END, MT_PHASE_CALIB);
		out_phase(&kc, MT_PHASE_CALIB,
			  &(struct phase_label){ .x_mib = -1, .loads = (long)lines, .pages = -1, .bound = -1,
						 .walk_ns = (long)(now_ns() - t0) });
	}
	t0 = now_ns();
	MT_MARK(MT_OP_BEGIN, MT_PHASE_CHASE);
	end = walk(buf, end, (long)lines);
	MT_MARK(MT_OP_END, MT_PHASE_CHASE);
	out_phase(&k, MT_PHASE_CHASE,
		  &(struct phase_label){ .x_mib = -1, .loads = (long)lines, .pages = -1, .bound = node,
					 .walk_ns = (long)(now_ns() - t0) });
	msc = node_memside_cache_bytes(node);
	if (msc >= (long)len) {
		/* two cycles in one phase: the cache filled, then read */
		t0 = now_ns();
		MT_MARK(MT_OP_BEGIN, MT_PHASE_CHASE);
		end = walk(buf, end, 2 * (long)lines);
		MT_MARK(MT_OP_END, MT_PHASE_CHASE);
		out_phase(&km, MT_PHASE_CHASE,
			  &(struct phase_label){ .x_mib = -1, .loads = 2 * (long)lines, .pages = -1,
						 .bound = node, .walk_ns = (long)(now_ns() - t0) });
		out_row(&km, "msc_bytes", (double)msc, "bytes");
	}
	out_row(&k, "loads", (double)lines, "count");
	out_row(&k, "buffer_mib", CHASE_MIB, "MiB");
	total = placement(buf, len, 4096, per_node, MAX_NODE);
	for (int n = 0; n <= MAX_NODE; n++) {
		if (!per_node[n])
			continue;
		snprintf(metric, sizeof(metric), "pages_node%d", n);
		out_row(&k, metric, (double)per_node[n], "pages");
	}
	out_row(&k, "on_node_frac", total > 0 ? (double)per_node[node] / (double)total : 0, "ratio");
	ok &= tap(total > 0 && per_node[node] == total,
		  "chase node %d: all %ld pages of the buffer on node %d", node, total, node);
	/* one cycle through every line: from line 0, back to it after exactly all of them */
	{
		uint64_t at = 0;
		long len_cycle = 0;

		do {
			at = walk(buf, at, 1);
			len_cycle++;
		} while (at != 0 && len_cycle <= (long)lines);
		ok &= tap(len_cycle == (long)lines, "chase node %d: one cycle through all %zu lines (length %ld)",
			  node, lines, len_cycle);
	}
	munmap(buf, len);
	return ok;
}

static int run_chase(const struct opts *o)
{
	struct nodeset mem;
	char why[200];
	int pagemap, failed = 0;
	bool first = true;

	(void)o;
	/* CPU 0: the initiator the host's HMAT figures are taken from */
	if (pin_to_cpu0(why, sizeof(why)))
		msg("chase: %s", why);
	pagemap = open("/proc/self/pagemap", O_RDONLY);
	if (pagemap < 0)
		msg("chase: /proc/self/pagemap: %s; probes carry gpa=0", strerror(errno));
	mem_nodes(&mem);
	ns_for_each(n, &mem) {
		failed += !chase_node(n, pagemap, first);
		first = false;
	}
	if (pagemap >= 0)
		close(pagemap);
	return failed ? 1 : 0;
}

const struct bench bench_chase = {
	.name = VOCAB_BENCH_CHASE,
	.help = "memory-timing calibration: a 64 MiB pointer chase bound to each node",
	.options = "",	/* every memory node, 64 MiB each */
	.needs = { .min_mem_nodes = 1 },
	.every_node = true,
	.timeout_secs = 300,
	.run = run_chase,
};
