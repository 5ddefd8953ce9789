/* SPDX-License-Identifier: GPL-2.0 */
/*
 * labtool's side of --memory-timing count (README, "Memory timing"): the
 * -plugin argument computed from the topology, the plugin's report file
 * read back (its one reader; plugin/memtiming.c is its one writer), and
 * the rows and checks made of it with the guest's PHASE and MEMPROBE lines.
 */
#ifndef TIERLAB_ACCOUNTING_H
#define TIERLAB_ACCOUNTING_H

#include <stddef.h>
#include <stdint.h>

#include "memtiming.h"
#include "topology.h"
#include "util.h"

/*
 * The plugin's address rule for a QEMU, from `qemu-system-x86_64
 * --version`'s first line (enum mt_rule): "doubled" for 7.0 to 8.1
 * (measured on 7.2), "physical" from 8.2, whose
 * qemu_plugin_hwaddr_phys_addr() returns the guest-physical address
 * (measured on 10.0; README, "Memory timing").  0, or -1 with why in @err
 * (an unparsable line, or a QEMU before 7).
 */
int acct_rule_for_qemu(const char *version_line, enum mt_rule *rule, char *err, size_t errlen);

/*
 * --memory-timing: off, count (the plugin counts), delay (it counts and
 * makes each LLC miss wait on the host: experimental, README "Memory
 * timing").  acct_mode_parse: 0, or -1 with a one-line why in @err.
 */
enum acct_mode { ACCT_OFF, ACCT_COUNT, ACCT_DELAY };
extern const char *const acct_mode_names[3];
int acct_mode_parse(const char *s, enum acct_mode *mode, char *err, size_t errlen);

/*
 * The time dilation of delay mode: a miss on a node of HMAT read latency L
 * is made to cost the guest ACCT_DELAY_DILATION x L host ns in all.  It
 * must exceed TCG's own cost of a miss (~350-550 ns per chase load here)
 * over the fastest node's latency (81 ns on dram-pmem): 7x at least; the
 * larger, the less the host's noise in that cost moves the ratio, and the
 * longer a delayed phase takes (README, "Delay injection").
 */
#define ACCT_DELAY_DILATION 24

/*
 * A memory-side cache's ways when HMAT does not say "direct" (none, or
 * complex indexing): simulated as this many ways, LRU -- an approximation
 * (README, "Memory timing", memory-side caches).
 */
#define ACCT_MSC_WAYS_NOT_DIRECT 16

/*
 * What the plugin simulates of node @node's memory-side caches: its level
 * 1 (size, line, ways: 1 for direct, else ACCT_MSC_WAYS_NOT_DIRECT;
 * write-through, else write-back).  false when the node has none.
 */
bool acct_msc_of(const struct topo *t, int node, struct mt_msc_cfg *c);
/* The same for level @level (1..MT_MSC_LEVELS); false when the node has no such level. */
bool acct_msc_level_of(const struct topo *t, int node, int level, struct mt_msc_cfg *c);

/*
 * The value of QEMU's -plugin option: file=PLUGIN,out=OUT,rule=R, one
 * node=ID:START:SIZE per memory node (RAM offsets: the sums of the sizes
 * of the nodes before it, in node order, as topo_qemu_args lays out the
 * memory backends), with rule physical a gpa=GPA:START:SIZE per range of
 * acct_ram_segments (where the guest's RAM is), the LLC, an
 * msc=ID:SIZE:WAYS:LINE:wb|wt per level-1 memory-side cache (acct_msc_of)
 * and an msc2=/msc3= per deeper level (acct_msc_level_of); with ACCT_DELAY also delay=DILATION, a lat=ID:NS per
 * memory node, its HMAT read latency from CPU 0's node, and an
 * msc_lat=ID:NS per level-1 cache priced from there (its read latency).
 * With TIERLAB_MEMTIMING_MSC_SIM=0 in the environment (make bench-lab's
 * part msc), msc_sim=0: the caches described, not simulated.
 * Commas in paths are doubled, as QEMU's option syntax wants.  0, or -1
 * with why in @err (delay on a topology without those latencies, or
 * @mode off).
 */
int acct_plugin_arg(const struct topo *t, const char *plugin, enum mt_rule rule,
		    const char *out, enum acct_mode mode, struct sbuf *sb, char *err, size_t errlen);

/*
 * Where the guest's RAM is, as the QEMU command line (lab/boot/qemu.c) lays
 * it out: guest-physical ranges and the RAM offsets they hold, ascending.
 * QEMU's pc machine puts boot memory below 4 GiB up to 3.5 GiB of it, else
 * up to 3 GiB (gigabyte-aligned split: topo_low_mem()), and the rest from
 * 4 GiB; a movable node's DIMM at topo_dimm_addr(), the device-memory base
 * plus its RAM offset.  Fills @seg (MT_MAX_SEGS), returns how many.
 */
int acct_ram_segments(const struct topo *t, struct mt_seg *seg);
/*
 * A guest-physical address as a RAM offset, by acct_ram_segments (the
 * plugin's rule physical maps by the same ranges, mt_map_gpa).  -1 when
 * @gpa is in no RAM.
 */
int acct_gpa_to_offset(const struct topo *t, uint64_t gpa, uint64_t *offset);

/* The plugin's report, parsed (version 1, 2 or 3). */
struct acct_file {
	int version;
	enum mt_rule rule;
	uint64_t llc_size;
	uint32_t llc_ways, llc_line;
	bool msc_sim;	/* the memory-side caches simulated (config's msc_sim=, version 3; else true) */
	int nnodes;
	struct mt_node node[MT_MAX_NODES];
	struct mt_msc_cfg msc[MT_MAX_NODES][MT_MSC_LEVELS];	/* [index into node[]][level - 1]; size 0 none */
	size_t nphases, nprobes;
	struct mt_phase *phase;	/* count[i] is node[i]'s; count[MT_NODE_NONE] none's */
	struct mt_probe *probe;
	uint64_t dropped;
	/* delay injection: the report's "delay" and "lat" lines */
	bool delay;
	double dilation;
	struct mt_calib calib;
	uint32_t lat_ns[MT_MAX_NODES];	/* by index into node[] */
	uint64_t delay_ns[MT_MAX_NODES];
	/* a priced level-1 memory-side cache's hit (msc_lat lines, version 3); 0 none */
	uint32_t msc_lat_ns[MT_MAX_NODES];
	uint64_t msc_delay_ns[MT_MAX_NODES];
};

/*
 * Parses a report held in @text; @name is what errors call the file.
 * 0, or -1 with "NAME:LINE: what is wrong" in @err.
 */
int acct_file_parse(const char *name, const char *text, struct acct_file *f,
		    char *err, size_t errlen);
void acct_file_free(struct acct_file *f);

/*
 * The plugin's node table against the topology's (what acct_plugin_arg
 * gives the plugin): the same memory nodes, ranges, memory-side caches
 * and, with delay injection, latencies (the nodes' and the priced caches').  0, or -1 with the first
 * difference in @err.
 */
int acct_nodes_check(const struct acct_file *f, const struct topo *t, char *err, size_t errlen);

/*
 * Rows and checks of one boot.  @phase_lines are the payloads of the
 * guest's PHASE lines ("id=1 bench=chase ..."), @probe_lines its MEMPROBE
 * lines, both in channel order.  Each PHASE line labels the next plugin
 * phase of its id, in order; a plugin phase without one is labelled
 * bench=phase scenario=id<ID> and fails a check.  The phases of one label
 * (a latency case's repetitions) are summed into one set of rows; a label
 * with x_mib (a fill step) gets its own rows, with x_mib, and the curve's
 * total without.  Rows are ROW payloads, one per line, in @rows; checks
 * "ok TEXT" or "not ok TEXT", one per line, in @checks.  Access cost =
 * misses x read latency + write-backs x write latency, the HMAT figures
 * from CPU 0's node (where the chase and the cases' figures are seen from);
 * on a node with a memory-side cache whose figures the topology gives
 * (and whose initiator is CPU 0's node, as the cost model's), its hits x
 * the cache's read latency + the other misses x the node's, and for a
 * write-back cache the LLC's write-backs x the cache's write latency + the
 * cache's own write-backs x the node's (write-through: the LLC's
 * write-backs x the node's); without those figures the cache is not priced
 * (misses and write-backs at the node's figures) and a check line says so;
 * miss_latency_ns = the misses' mean read latency, the counted twin of the
 * model's page-weighted model_read_latency_ns.  The node table is checked
 * (acct_nodes_check).  A chase PHASE line's walk_ns (the guest's own clock
 * around the walk) gives guest_ns_per_load.  With delay injection, each
 * chase bound to a node also gets the boot's delay_dilation,
 * delay_calib_ns_per_miss, delay_dropped_ns, guest_ns_per_load_undilated and, against CPU
 * 0's node, delay_ratio_vs_node<N> (guest time per load) beside
 * hmat_ratio_vs_node<N>; a check says the calibration was made and that
 * dilation x every node's latency exceeds it.  The ratio itself is a row,
 * not a check: host time is noisy (make bench-lab judges 5 pairs).
 */
void acct_derive(const struct acct_file *f, const struct topo *t, char *const *phase_lines,
		 size_t nphase_lines, char *const *probe_lines, size_t nprobe_lines,
		 struct sbuf *rows, struct sbuf *checks);

#endif
