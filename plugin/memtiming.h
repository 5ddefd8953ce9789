/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pure parts of the memory-timing plugin (plugin/tiermem.c), with no
 * QEMU in them, so the host unit tests can run them (tests/unit/
 * test_plugin_memtiming.c): the plugin's arguments, guest-physical address
 * -> NUMA node (by the address rule of the QEMU in use), the simulated
 * set-associative LLC (one per vCPU) and memory-side caches (one per node
 * and level, shared by every vCPU), the phase markers and the report file
 * it writes.
 *
 * Addresses are "RAM offsets": a node's memory backend sits in the
 * machine's RAM container at the sum of the sizes of the nodes before it
 * (QEMU lays out -numa node,memdev=memN in node order, the 4 GiB hole aside:
 * that is applied to guest-physical addresses, not to the container); a
 * movable node's follow the boot memory's.  The caches are indexed by them.
 */
#ifndef TIERLAB_PLUGIN_MEMTIMING_H
#define TIERLAB_PLUGIN_MEMTIMING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MT_MAX_NODES 16
#define MT_NODE_NONE MT_MAX_NODES	/* counters of accesses in no node's range */
#define MT_REPORT_VERSION 3

#include "marker.h"

struct mt_marker {
	enum mt_op op;
	unsigned int id;
};
/* Is [insn, insn+len) exactly a marker?  Fills @m when it is. */
bool mt_marker_decode(const uint8_t *insn, size_t len, struct mt_marker *m);

/*
 * What qemu_plugin_hwaddr_phys_addr() returns for RAM, by QEMU version
 * (README, "Memory timing", nodes; labtool picks it: acct_rule_for_qemu):
 *  - "doubled" (QEMU 7.0 to 8.1: block->offset + offset + block->mr->addr)
 *    the RAM offset plus the RAM block's own offset once more -- node 1 of
 *    1 GiB + 1 GiB at 0x40000000 reads as 0x80000000 -- which holds while
 *    each node's RAM block sits at the same ram_addr as its place in the
 *    container (backends allocated in node order, before any other RAM
 *    block) and a movable node's DIMM at the device-memory base plus its
 *    RAM offset;
 *  - "physical" (QEMU 8.2 on: the TLB entry's guest-physical address) the
 *    guest-physical address, turned into a RAM offset by the map's gpa=
 *    ranges (struct mt_seg: boot memory below the 4 GiB hole and above it,
 *    each DIMM);
 *  - "plain" the RAM offset itself: no QEMU release reports that (the
 *    lab's old guess for 8.0 on); the identity, kept for tests.
 * Checked in the guest by the chase benchmark's address probes.
 */
enum mt_rule { MT_RULE_PLAIN, MT_RULE_DOUBLED, MT_RULE_PHYSICAL };
extern const char *const mt_rule_names[3];

struct mt_node {
	int id;			/* the guest's NUMA node id */
	uint64_t start, size;	/* RAM offsets */
};

/* Guest-physical [gpa, gpa + size) holds RAM offsets [start, start + size). */
struct mt_seg {
	uint64_t gpa, start, size;
};
#define MT_MAX_SEGS (MT_MAX_NODES + 2)	/* boot memory below and above 4 GiB, a DIMM per node */

struct mt_map {
	int n;
	struct mt_node node[MT_MAX_NODES];
	enum mt_rule rule;
	int nseg;			/* rule physical only: ascending gpa */
	struct mt_seg seg[MT_MAX_SEGS];
};

/*
 * The node index (into map->node) of address @hwaddr as the plugin API
 * reports it, its RAM offset in @offset; -1 when no node holds it.
 */
int mt_map_addr(const struct mt_map *m, uint64_t hwaddr, uint64_t *offset);
/* The node index of RAM offset @offset; -1 when no node holds it. */
int mt_map_offset(const struct mt_map *m, uint64_t offset);
/* Guest-physical @gpa's RAM offset by the map's gpa= ranges: 0, or -1 in none. */
int mt_map_gpa(const struct mt_map *m, uint64_t gpa, uint64_t *offset);

/*
 * A simulated cache (the LLC, and each level of a memory-side cache):
 * set-associative, LRU, write-allocate, write-back.  Each set's ways are
 * kept most recently used first; a way holds the line number << 1 | dirty,
 * or MT_LLC_EMPTY.  Every way and every touched[] entry is one word read
 * and written with relaxed atomics (__atomic builtins, plain loads and
 * stores on x86): a memory-side cache is one structure shared by every
 * vCPU, and under multi-threaded TCG (one host thread per vCPU) two vCPUs
 * may update one set at once.  No lock: such a race can lose or duplicate
 * a line of that set (an approximation, README "Memory timing"), never
 * corrupt memory or index out of bounds.  One thread at a time (the LLC,
 * always; everything under --clock icount, where QEMU runs the vCPUs
 * round-robin on one thread) is exact.
 */
#define MT_LLC_EMPTY UINT64_MAX
struct mt_llc {
	uint32_t sets, ways, line_shift;
	uint64_t *way;		/* sets * ways */
	/*
	 * The sets filled since the last flush, each once (a set is empty
	 * while its first way is): a flush visits these only, so emptying a
	 * memory-side cache of millions of lines costs what the phase touched.
	 * ntouched past sets (only a race can do that) makes the next flush
	 * visit every set.
	 */
	uint32_t *touched, ntouched;
};
/*
 * Whether an LLC of this shape can be simulated: line a power of two from 8
 * to 4096, 1 to 64 ways, size a multiple of ways x line with at most 2^24
 * sets.  0, or -1 with the reason in @err (which names the llc_ key).  The
 * topology's lab.llc is checked by the same rule.
 */
int mt_llc_check(uint64_t size, uint32_t ways, uint32_t line, char *err, size_t errlen);
/* The same rule, the reason naming @prefix's keys ("msc_" -> msc_size=...). */
int mt_cache_check(const char *prefix, uint64_t size, uint32_t ways, uint32_t line,
		   char *err, size_t errlen);
/* 0, or -1 with the reason in @err (size not sets x ways x line, ...). */
int mt_llc_init(struct mt_llc *c, uint64_t size, uint32_t ways, uint32_t line,
		char *err, size_t errlen);
void mt_llc_free(struct mt_llc *c);
/*
 * One access at RAM offset @addr: true on a miss.  A dirty line evicted to
 * make room is returned in @wb (its first byte's RAM offset) with true in
 * @has_wb.
 */
bool mt_llc_access(struct mt_llc *c, uint64_t addr, bool write, uint64_t *wb, bool *has_wb);
/*
 * Empties the cache, calling @writeback (if not NULL) with the RAM offset
 * of each dirty line: what the work that dirtied them will still write.
 * Returns how many lines were dirty.
 */
uint64_t mt_llc_flush(struct mt_llc *c, void (*writeback)(uint64_t offset, void *ctx), void *ctx);

/*
 * The part the defaults come from: Intel Xeon Gold 6230 (Cascade Lake,
 * dram-pmem.yaml's machine): 27.5 MiB shared L3, 11 ways, 64-byte lines
 * (Intel ARK; 1.375 MiB per core x 20 cores), i.e. 40960 sets.
 */
#define MT_LLC_DEFAULT_SIZE (27ULL * 1024 * 1024 + 512 * 1024)
#define MT_LLC_DEFAULT_WAYS 11
#define MT_LLC_DEFAULT_LINE 64

/*
 * A node's memory-side cache (ACPI HMAT; topologies/README.md): in front of
 * that node's memory, it sees the LLC's misses and write-backs to the node
 * (README, "Memory timing", memory-side caches).  Simulated like the LLC
 * (set-associative, LRU; "direct" is 1 way); write-back (write-allocate: a
 * write-back from the LLC lands in it, its dirty lines go on when evicted)
 * or write-through (every write-back from the LLC goes on; the cache is not
 * written).  Up to MT_MSC_LEVELS levels per node, level 1 nearest: a read
 * that misses level k is looked up in level k + 1, then the memory (each
 * level allocates the line it missed); what leaves level k (its dirty
 * evictions, or every write of a write-through level) is written into
 * level k + 1, or the memory after the last.  size 0: no such level.
 */
#define MT_MSC_LEVELS 3
struct mt_msc_cfg {
	uint64_t size;
	uint32_t ways, line;
	bool write_through;
};

struct mt_config {
	struct mt_map map;
	uint64_t llc_size;
	uint32_t llc_ways, llc_line;
	/* [index into map.node][level - 1]; a node's levels are 1..n, in order */
	struct mt_msc_cfg msc[MT_MAX_NODES][MT_MSC_LEVELS];
	/*
	 * msc_sim=0: the memory-side caches are described (msc= lines of the
	 * report) but not simulated, every LLC miss goes to the memory: what
	 * simulating them costs in host time, measured against the same boot
	 * (make bench-lab, part msc).  Default true.
	 */
	bool msc_sim;
	const char *out;	/* the report file */
	/*
	 * Delay injection (--memory-timing delay, experimental): 0 counts
	 * only; else the time dilation factor, and each node's HMAT read
	 * latency (ns, by index into map.node) that a miss on it is made to
	 * cost, dilated (mt_delay_ns); msc_lat_ns, a node's level-1
	 * memory-side cache read latency that a hit in it is made to cost
	 * (0: the cache is not priced, a hit waits the node's latency).
	 */
	double dilation;
	uint32_t lat_ns[MT_MAX_NODES];
	uint32_t msc_lat_ns[MT_MAX_NODES];
};

/*
 * The plugin's arguments, each "key=value": out=FILE (required),
 * rule=doubled|physical|plain (required; enum mt_rule), node=ID:START:SIZE
 * (hex or decimal RAM offsets, one per memory node, ascending); with
 * rule=physical (only) gpa=GPA:START:SIZE, guest-physical GPA holding RAM
 * offsets START to START+SIZE, ascending GPA, disjoint, covering every
 * node's range (at most MT_MAX_SEGS); llc_size=BYTES, llc_ways=N,
 * llc_line=BYTES; for delay injection delay=DILATION (1 to 1000) and
 * lat=ID:NS for every node (a lat= without delay=, or delay= without a
 * lat= for each node, is an error); msc=ID:SIZE:WAYS:LINE:wb|wt for a
 * node's level-1 memory-side cache, msc2= and msc3= (the same form) for its
 * level 2 and 3 (each needs the level in front of it); with delay=,
 * msc_lat=ID:NS for a
 * level-1 cache whose hits wait their own latency (else a hit waits the
 * node's); msc_sim=0|1 (default 1; 0: the caches not simulated).  0, or -1
 * with "argument N 'text': why" (or "missing ...") in @err.
 */
int mt_parse_args(int argc, char **argv, struct mt_config *cfg, char *err, size_t errlen);

/*
 * What a phase counted on one node (or MT_NODE_NONE): the guest's reads
 * and writes, the LLC's misses and write-backs to the node and, with
 * memory-side caches, per level (index level - 1) the LLC misses it served
 * (msc_hits; the rest went on to the next level or the memory) and the
 * writes that left it for the next level or the memory (msc_writebacks: a
 * write-back level's dirty evictions, every write of a write-through one).
 */
struct mt_count {
	uint64_t reads, writes, misses, writebacks;
	uint64_t msc_hits[MT_MSC_LEVELS], msc_writebacks[MT_MSC_LEVELS];
};
/* Adds @c to @t, field by field. */
void mt_count_add(struct mt_count *t, const struct mt_count *c);

/*
 * The memory-side caches: one per node and level, shared by every vCPU
 * (the machine's are: a line one CPU brought in is a hit for another).
 * @phase is the phase whose lines they hold (index + 1, 0 none), read and
 * moved with atomics (mt_memside_claim).
 */
struct mt_msc_node {
	int nlevels;
	struct mt_llc level[MT_MSC_LEVELS];
	bool wt[MT_MSC_LEVELS];
};
struct mt_memside {
	struct mt_msc_node node[MT_MAX_NODES];
	unsigned int phase;
};
/* 0, or -1 with the reason (naming the node and level) in @err; with !cfg->msc_sim, no level. */
int mt_memside_init(struct mt_memside *s, const struct mt_config *cfg, char *err, size_t errlen);
void mt_memside_free(struct mt_memside *s);

/* One vCPU's view: its own LLC, the machine's memory-side caches. */
struct mt_hier {
	struct mt_llc llc;
	struct mt_memside *ms;
};
/* Where an access was served: the LLC, a memory-side cache level (1..3), the memory. */
enum mt_level { MT_AT_LLC, MT_AT_MSC, MT_AT_MSC2, MT_AT_MSC3, MT_AT_MEMORY };
/* 0, or -1 with the reason in @err. */
int mt_hier_init(struct mt_hier *h, const struct mt_config *cfg, struct mt_memside *ms,
		 char *err, size_t errlen);
/* Frees the LLC (not the shared memory-side caches). */
void mt_hier_free(struct mt_hier *h);
/*
 * One access at RAM offset @off of node index @i (of @m): counts its LLC
 * miss, the memory-side caches' hits, the write-backs, into @cnt (by node
 * index, MT_NODE_NONE last).  Not its read or write: the caller counts
 * those.  Returns where it was served.
 */
enum mt_level mt_hier_access(struct mt_hier *h, const struct mt_map *m, int i, uint64_t off,
			     bool store, struct mt_count *cnt);
/*
 * Each phase starts with empty caches and is charged the write-backs of
 * the lines it leaves dirty.  A vCPU whose caches hold phase @from's lines
 * (index + 1; 0 none) and that first counts in phase @to (0: QEMU exits)
 * settles: its LLC's dirty lines are written back, charged to @from
 * (count[from - 1]; count is the vCPU's [phase][node] array), into the
 * memory-side caches while they still hold @from's lines, else straight
 * through every level to the memory (they were emptied when another vCPU
 * moved on first: what the flush would have written).  Then, when @to is
 * not 0, it claims the memory-side caches for @to (mt_memside_claim).
 * An approximation: a line dirty both in this LLC and in a memory-side
 * cache another vCPU already flushed is charged twice (once by that flush,
 * once here), where a settle before the flush would have merged it
 * (plugin_msc_settle_after_flush_charges_twice).
 */
void mt_hier_settle(struct mt_hier *h, const struct mt_map *m,
		    struct mt_count (*count)[MT_MAX_NODES + 1], unsigned int from, unsigned int to);
/*
 * Moves the memory-side caches to phase @to: the one caller that moves
 * them from phase q (a compare-and-swap; phases only grow, so a caller
 * late with an older @to leaves a newer phase alone) empties them, each level's dirty
 * lines written into the next, the last's to memory, all charged to q
 * (count[q - 1]; nothing when q is 0), once; a caller that finds them at
 * @to already does nothing.  At exit (@to 0), after every vCPU settled:
 * then every set is visited, not only those filled since the last flush
 * (under MTTCG a race may have lost a set from that list).
 */
void mt_memside_claim(struct mt_memside *s, const struct mt_map *m,
		      struct mt_count (*count)[MT_MAX_NODES + 1], unsigned int to);
/*
 * Empties the LLC and the memory-side caches, the LLC's dirty lines
 * written back through the memory-side caches, theirs to memory, all
 * counted into @cnt (NULL: not counted): one vCPU's phase end when it is
 * the only one.
 */
void mt_hier_flush(struct mt_hier *h, const struct mt_map *m, struct mt_count *cnt);

/*
 * Delay injection: what an access of node index @i served at @at waits
 * (before a calibration, or with it): nothing at the LLC; @msc_delay_ns[i]
 * for a level-1 memory-side cache hit when that cache is priced
 * (cfg->msc_lat_ns[i]); else (a miss, a deeper level's hit, an unpriced
 * cache's) the node's @delay_ns[i].
 */
uint64_t mt_delay_of(const struct mt_config *cfg, const uint64_t *delay_ns,
		     const uint64_t *msc_delay_ns, int i, enum mt_level at);

struct mt_phase {
	unsigned int id;		/* the marker's id */
	bool closed;			/* an end marker ended it */
	uint64_t io;			/* accesses to I/O regions */
	struct mt_count count[MT_MAX_NODES + 1];
};

struct mt_probe {
	uint64_t vaddr, raw, offset;
	int node;			/* guest node id, -1 none, -2 I/O */
};

/*
 * Delay injection (README, "Memory timing", delay mode).  Under TCG a
 * guest load that misses the simulated LLC already costs the host
 * @calib_ns (TCG's own work for the access and the loop around it, the
 * plugin's callback and LLC), whatever its node.  To make the guest feel
 * node latencies in their HMAT proportions, each miss on a node of read
 * latency @lat_ns waits dilation x lat_ns - calib_ns more on the host, so
 * that the miss costs dilation x lat_ns in all: the guest's clock runs
 * @dilation times slower than the modeled machine's.  0 when the dilated
 * latency is below the calibration (the proportions are then lost:
 * mt_delay_feasible says so).
 */
uint64_t mt_delay_ns(double dilation, uint32_t lat_ns, double calib_ns);
/* dilation x the lowest latency exceeds the calibration (every delay > 0). */
bool mt_delay_feasible(double dilation, const uint32_t *lat_ns, int n, double calib_ns);
/* A calibration: host ns per miss of a phase that was not delayed; -1 with no misses. */
double mt_calib_ns_per_miss(uint64_t host_ns, uint64_t misses);

/*
 * Paying the delays (per vCPU, Quartz-style epochs): each miss's delay is
 * owed (mt_pace_owe) and paid by waiting on the host's wall clock once an
 * epoch's worth is owed (MT_PACE_EPOCH_NS), and at each phase's end.  The
 * calibration is in the vCPU thread's CPU time; the host's wall time the
 * thread did not run since the last payment (preempted by other host
 * processes, or the guest idle) is credited against what is owed, up to
 * MT_PACE_CREDIT_NS, as is a wait's overshoot: what the guest felt of the
 * host's load is then not felt twice.  Without this, a host with other
 * work on its cores stretched a PMEM chase by 80 % and the ratio was 5.6
 * for 3.77.  An epoch is long next to its cost: the thread's CPU clock is
 * a system call (~0.9 us measured here, read twice per payment); with 20
 * us epochs that put a PMEM chase 13 % over its dilated latency.  The
 * credit's cap is above the host's longest preemptions seen (20 ms left
 * DRAM walks 25-50 % slow in 2 of 5 boots).
 */
#define MT_PACE_EPOCH_NS 1000000u
#define MT_PACE_CREDIT_NS 100000000u
struct mt_pace {
	uint64_t pending, credit;	/* ns owed; ns of host time already felt */
	uint64_t mark_wall, mark_cpu;	/* the clocks when the last payment ended */
	bool marked;
};
/* Owes @ns more: true when an epoch's worth is owed (time to pay). */
bool mt_pace_owe(struct mt_pace *p, uint64_t ns);
/*
 * What to spin for now, at wall time @wall and thread CPU time @cpu: what
 * is owed less the credit (the thread's time not run since the last
 * payment added to it first).  Empties what is owed.
 */
uint64_t mt_pace_settle(struct mt_pace *p, uint64_t wall, uint64_t cpu);
/* The spin ended at @wall_end (thread CPU @cpu_end), due at @deadline: its overshoot is credit. */
void mt_pace_mark(struct mt_pace *p, uint64_t wall_end, uint64_t cpu_end, uint64_t deadline);

/*
 * A phase's delays belong to it.  At a vCPU's memory access in phase @a
 * (index + 1, 0 outside any), what it still owes from phase @owed_in (the
 * phase its caches hold) is: MT_PACE_PAY, paid now, when the access is
 * outside any phase (the vCPU's first access after the phase ended: the
 * vCPU that ends a phase pays at its end marker, the others here);
 * MT_PACE_DROP, dropped unpaid, when the access is already in a later
 * phase (the vCPU ran no access between the phases: paying would slow the
 * later phase for the earlier one's misses; what is dropped is under an
 * epoch, MT_PACE_EPOCH_NS, per vCPU and boundary); MT_PACE_KEEP otherwise
 * (the same phase, or nothing owed).
 */
enum mt_pace_act { MT_PACE_KEEP, MT_PACE_PAY, MT_PACE_DROP };
enum mt_pace_act mt_pace_boundary(const struct mt_pace *p, unsigned int owed_in, unsigned int a);

/* The boot's calibration, from the first calibration phase (MT_PHASE_CALIB). */
struct mt_calib {
	bool done;
	unsigned int phase;	/* its phase seq */
	uint64_t host_ns, misses;	/* host_ns: the vCPU thread's CPU time in the phase */
	double ns_per_miss;
	/* the boot's waits owed at a phase boundary and dropped (mt_pace_boundary), all vCPUs */
	uint64_t dropped_ns;
};

/*
 * The report (README, "Memory timing"): a header line, the config, a
 * "node" line per node, an "msc" line per memory-side cache, with delay
 * injection a "delay" line (dilation, latencies, calibration), a "lat"
 * line per node and an "msc_lat" line per priced level-1 cache, one
 * "phase" line and one "count" line per node (and "none") per phase, one
 * "probe" line per address probe, and "end" with the totals.  Version 2
 * added the msc lines, each count's msc_hits and msc_writebacks and the
 * delay line's dropped_ns; version 3 the config line's msc_sim=, the msc
 * lines' level=, the counts of
 * levels 2 and 3 (msc2_hits, msc2_writebacks, msc3_hits, msc3_writebacks)
 * and the msc_lat lines.
 * Returns 0, -1 on a write error.
 */
int mt_report_write(FILE *f, const struct mt_config *cfg, const struct mt_calib *calib,
		    const struct mt_phase *ph, size_t nphases, const struct mt_probe *pr,
		    size_t nprobes, uint64_t dropped);

#endif
