// SPDX-License-Identifier: GPL-2.0
/*
 * plugin/memtiming.c, the memory-timing plugin's pure parts: markers from
 * instruction bytes, address -> node under each address rule (QEMU 7.2's
 * doubled RAM-block offset, 8.2's guest-physical address), the LLC
 * simulation and the plugin's arguments.
 */
#include <pthread.h>
#include <stdlib.h>

#include "harness.h"
#include "memtiming.h"

#define GIB (1ULL << 30)
#define MIB (1ULL << 20)

/* nopl 0x71e50105(%rax), as gas assembles it */
TEST(plugin_marker_decode)
{
	const uint8_t begin[] = { 0x0f, 0x1f, 0x80, 0x05, 0x01, 0xe5, 0x71 };
	const uint8_t end[] = { 0x0f, 0x1f, 0x80, 0xff, 0x02, 0xe5, 0x71 };
	const uint8_t probe[] = { 0x0f, 0x1f, 0x80, 0x00, 0x03, 0xe5, 0x71 };
	const uint8_t bad_op[] = { 0x0f, 0x1f, 0x80, 0x05, 0x04, 0xe5, 0x71 };
	const uint8_t bad_magic[] = { 0x0f, 0x1f, 0x80, 0x05, 0x01, 0xe5, 0x72 };
	/* nopl 0x71e50105(%rcx): another register is not a marker */
	const uint8_t other_reg[] = { 0x0f, 0x1f, 0x81, 0x05, 0x01, 0xe5, 0x71 };
	const uint8_t prefixed[] = { 0x66, 0x0f, 0x1f, 0x80, 0x05, 0x01, 0xe5, 0x71 };
	struct mt_marker m;

	CHECK(mt_marker_decode(begin, sizeof(begin), &m) && m.op == MT_OP_BEGIN && m.id == 5);
	CHECK(mt_marker_decode(end, sizeof(end), &m) && m.op == MT_OP_END && m.id == 255);
	CHECK(mt_marker_decode(probe, sizeof(probe), &m) && m.op == MT_OP_PROBE && m.id == 0);
	CHECK(!mt_marker_decode(bad_op, sizeof(bad_op), &m));
	CHECK(!mt_marker_decode(bad_magic, sizeof(bad_magic), &m));
	CHECK(!mt_marker_decode(other_reg, sizeof(other_reg), &m));
	CHECK(!mt_marker_decode(prefixed, sizeof(prefixed), &m));
	CHECK(!mt_marker_decode(begin, 6, &m));
	/* the guest's macro builds the same displacement */
	CHECK(MT_MARK_DISP(MT_OP_BEGIN, 5) == 0x71e50105u);
}

static struct mt_map dram_pmem(enum mt_rule rule)
{
	struct mt_map m = { .n = 2, .rule = rule };

	m.node[0] = (struct mt_node){ 0, 0, GIB };
	m.node[1] = (struct mt_node){ 1, GIB, GIB };
	return m;
}

/* Measured on QEMU 7.2: node 1's 0x40000000.. read back as 0x80000000.. */
TEST(plugin_map_doubled_rule)
{
	struct mt_map m = dram_pmem(MT_RULE_DOUBLED);
	uint64_t off = 0;

	CHECK(mt_map_addr(&m, 0x1000, &off) == 0 && off == 0x1000);
	CHECK(mt_map_addr(&m, 0x80000000, &off) == 1 && off == 0x40000000);
	CHECK(mt_map_addr(&m, 0xbfffffff, &off) == 1 && off == 0x7fffffff);
	/* the plain reading of node 1 is no node's under this rule */
	CHECK(mt_map_addr(&m, 0x40000000, &off) == -1);
	CHECK(mt_map_addr(&m, 0xc0000000, &off) == -1);
	/* three nodes: 1 GiB + 512 MiB + 512 MiB (three-tier.yaml) */
	m.n = 3;
	m.node[1].size = 512 * MIB;
	m.node[2] = (struct mt_node){ 2, GIB + 512 * MIB, 512 * MIB };
	CHECK(mt_map_addr(&m, 2 * (GIB + 512 * MIB) + 64, &off) == 2 && off == GIB + 512 * MIB + 64);
	CHECK(mt_map_addr(&m, 2 * GIB + 512 * MIB, &off) == -1);	/* past node 1's */
}

/*
 * QEMU 8.2 on: guest-physical addresses, mapped by the gpa= ranges.  4 GiB
 * of boot memory (2 + 2 GiB) splits at 3 GiB: node 1's RAM offsets 2-3 GiB
 * below the hole, 3-4 GiB from 4 GiB; node 2, a 1 GiB DIMM at RAM offset 4
 * GiB, at the device-memory base (4 GiB + the 1 GiB above, rounded) plus
 * that: 9 GiB.
 */
TEST(plugin_map_physical_rule)
{
	struct mt_map m = { .n = 3, .rule = MT_RULE_PHYSICAL, .nseg = 3 };
	uint64_t off = 0;

	m.node[0] = (struct mt_node){ 0, 0, 2 * GIB };
	m.node[1] = (struct mt_node){ 1, 2 * GIB, 2 * GIB };
	m.node[2] = (struct mt_node){ 2, 4 * GIB, GIB };
	m.seg[0] = (struct mt_seg){ 0, 0, 3 * GIB };
	m.seg[1] = (struct mt_seg){ 4 * GIB, 3 * GIB, GIB };
	m.seg[2] = (struct mt_seg){ 9 * GIB, 4 * GIB, GIB };
	CHECK(mt_map_addr(&m, 0x1000, &off) == 0 && off == 0x1000);
	CHECK(mt_map_addr(&m, 2 * GIB - 1, &off) == 0 && off == 2 * GIB - 1);
	/* node 1, both sides of the hole */
	CHECK(mt_map_addr(&m, 2 * GIB + 64, &off) == 1 && off == 2 * GIB + 64);
	CHECK(mt_map_addr(&m, 3 * GIB - 1, &off) == 1 && off == 3 * GIB - 1);
	CHECK(mt_map_addr(&m, 3 * GIB, &off) == -1);	/* the PCI hole */
	CHECK(mt_map_addr(&m, 4 * GIB - 1, &off) == -1);
	CHECK(mt_map_addr(&m, 4 * GIB, &off) == 1 && off == 3 * GIB);
	CHECK(mt_map_addr(&m, 5 * GIB - 64, &off) == 1 && off == 4 * GIB - 64);
	/* between the boot memory and the DIMM, the DIMM, past it */
	CHECK(mt_map_addr(&m, 5 * GIB, &off) == -1);
	CHECK(mt_map_addr(&m, 9 * GIB - 1, &off) == -1);
	CHECK(mt_map_addr(&m, 9 * GIB + 0x200, &off) == 2 && off == 4 * GIB + 0x200);
	CHECK(mt_map_addr(&m, 10 * GIB - 1, &off) == 2 && off == 5 * GIB - 1);
	CHECK(mt_map_addr(&m, 10 * GIB, &off) == -1);
	CHECK(mt_map_gpa(&m, 4 * GIB + 8, &off) == 0 && off == 3 * GIB + 8);
	CHECK(mt_map_gpa(&m, 3 * GIB, &off) == -1);
	/* a range whose RAM offsets no node holds: no node */
	m.node[2].size = GIB / 2;
	CHECK(mt_map_addr(&m, 9 * GIB + GIB / 2, &off) == -1);
}

TEST(plugin_map_plain_rule)
{
	struct mt_map m = dram_pmem(MT_RULE_PLAIN);
	uint64_t off = 0;

	CHECK(mt_map_addr(&m, 0x40000000, &off) == 1 && off == 0x40000000);
	CHECK(mt_map_addr(&m, 0x3fffffff, &off) == 0 && off == 0x3fffffff);
	CHECK(mt_map_addr(&m, 0x80000000, &off) == -1);
	CHECK(mt_map_offset(&m, 0x40000040) == 1);
	CHECK(mt_map_offset(&m, 2 * GIB) == -1);
}

/* A 2-set, 2-way cache of 64-byte lines: LRU, write-back, write-allocate. */
TEST(plugin_llc_lru_and_writeback)
{
	struct mt_llc c;
	char err[128];
	uint64_t wb = 0;
	bool has_wb;

	CHECK(mt_llc_init(&c, 256, 2, 64, err, sizeof(err)) == 0);
	CHECK(c.sets == 2 && c.ways == 2);
	/* lines 0, 2, 4 all map to set 0 */
	CHECK(mt_llc_access(&c, 0 * 64, false, &wb, &has_wb) && !has_wb);
	CHECK(mt_llc_access(&c, 2 * 64, true, &wb, &has_wb) && !has_wb);	/* dirty */
	CHECK(!mt_llc_access(&c, 0 * 64 + 8, false, &wb, &has_wb));	/* hit; line 2 now LRU */
	CHECK(mt_llc_access(&c, 4 * 64, false, &wb, &has_wb));	/* evicts dirty line 2 */
	CHECK(has_wb && wb == 2 * 64);
	CHECK(mt_llc_access(&c, 2 * 64, false, &wb, &has_wb) && !has_wb);	/* line 0 clean out */
	/* set 1 is untouched by all of that */
	CHECK(mt_llc_access(&c, 1 * 64, false, &wb, &has_wb));
	CHECK(!mt_llc_access(&c, 1 * 64, false, &wb, &has_wb));
	mt_llc_free(&c);
}

static void sum_writeback(uint64_t offset, void *ctx)
{
	*(uint64_t *)ctx += offset;
}

/*
 * A phase starts with an empty cache and is charged, at its end, the
 * write-backs of the lines it left dirty (tiermem.c): the flush names each
 * dirty line once and leaves nothing behind.
 */
TEST(plugin_llc_flush_names_dirty_lines)
{
	struct mt_llc c;
	char err[128];
	uint64_t wb = 0, sum = 0;
	bool has_wb;

	CHECK(mt_llc_init(&c, 256, 2, 64, err, sizeof(err)) == 0);
	mt_llc_access(&c, 0 * 64, true, &wb, &has_wb);
	mt_llc_access(&c, 1 * 64, false, &wb, &has_wb);
	mt_llc_access(&c, 3 * 64 + 5, true, &wb, &has_wb);
	mt_llc_access(&c, 3 * 64, false, &wb, &has_wb);	/* a read keeps it dirty */
	CHECK(mt_llc_flush(&c, sum_writeback, &sum) == 2);
	CHECK(sum == 0 * 64 + 3 * 64);
	/* empty: every line misses again, and there is nothing left to write */
	CHECK(mt_llc_access(&c, 1 * 64, false, &wb, &has_wb) && !has_wb);
	CHECK(mt_llc_flush(&c, NULL, NULL) == 0);
	mt_llc_free(&c);
}

/*
 * The chase's premise: a cycle through more lines than the cache holds
 * misses on every access under LRU once warm; one that fits, never.
 */
TEST(plugin_llc_cyclic_walk)
{
	struct mt_llc c;
	char err[128];
	uint64_t wb, misses = 0;
	bool has_wb;
	const uint64_t lines = 3 * 64;	/* 3x a 4 KiB cache of 64 lines */

	CHECK(mt_llc_init(&c, 4096, 4, 64, err, sizeof(err)) == 0);
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t l = 0; l < lines; l++)
			misses += mt_llc_access(&c, l * 64, false, &wb, &has_wb) && pass == 1;
	CHECK(misses == lines);
	mt_llc_free(&c);
	CHECK(mt_llc_init(&c, 4096, 4, 64, err, sizeof(err)) == 0);
	misses = 0;
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t l = 0; l < 64; l++)
			misses += mt_llc_access(&c, l * 64, false, &wb, &has_wb) && pass == 1;
	CHECK(misses == 0);
	mt_llc_free(&c);
}

/* The default: Xeon Gold 6230's 27.5 MiB, 11 ways, 64 B = 40960 sets. */
TEST(plugin_llc_default_and_bad_geometry)
{
	struct mt_llc c;
	char err[128];

	CHECK(mt_llc_init(&c, MT_LLC_DEFAULT_SIZE, MT_LLC_DEFAULT_WAYS, MT_LLC_DEFAULT_LINE,
			  err, sizeof(err)) == 0);
	CHECK(c.sets == 40960);
	mt_llc_free(&c);
	CHECK(mt_llc_init(&c, 1000, 11, 64, err, sizeof(err)) == -1);
	CHECK(strstr(err, "llc_size=1000") != NULL);
	CHECK(mt_llc_init(&c, 4096, 4, 48, err, sizeof(err)) == -1);
	CHECK(strstr(err, "llc_line=48") != NULL);
	CHECK(mt_llc_init(&c, 4096, 0, 64, err, sizeof(err)) == -1);
}

TEST(plugin_parse_args)
{
	char *good[] = { "out=/tmp/r.txt", "rule=doubled", "node=0:0x0:0x40000000",
			 "node=1:0x40000000:0x40000000", "llc_size=4096", "llc_ways=4", "llc_line=64" };
	char *overlap[] = { "out=x", "rule=plain", "node=0:0:0x2000", "node=1:0x1000:0x1000" };
	char *no_rule[] = { "out=x", "node=0:0:0x1000" };
	char *bad_rule[] = { "out=x", "rule=twice", "node=0:0:0x1000" };
	char *bad_node[] = { "out=x", "rule=plain", "node=0:0x0" };
	char *unknown[] = { "out=x", "rule=plain", "node=0:0:1", "colour=red" };
	struct mt_config cfg;
	char err[200];

	CHECK(mt_parse_args(7, good, &cfg, err, sizeof(err)) == 0);
	CHECK_STR(cfg.out, "/tmp/r.txt");
	CHECK(cfg.map.rule == MT_RULE_DOUBLED && cfg.map.n == 2);
	CHECK(cfg.map.node[1].id == 1 && cfg.map.node[1].start == 0x40000000);
	CHECK(cfg.llc_size == 4096 && cfg.llc_ways == 4 && cfg.llc_line == 64);
	CHECK(mt_parse_args(3, good, &cfg, err, sizeof(err)) == 0);
	CHECK(cfg.llc_size == MT_LLC_DEFAULT_SIZE && cfg.llc_ways == 11);
	CHECK(mt_parse_args(4, overlap, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "argument 4 'node=1:0x1000:0x1000': overlaps or precedes node 0");
	CHECK(mt_parse_args(2, no_rule, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "missing rule=doubled|physical|plain");
	CHECK(mt_parse_args(3, bad_rule, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "argument 2 'rule=twice': rule is doubled, physical or plain");
	CHECK(mt_parse_args(3, bad_node, &cfg, err, sizeof(err)) == -1);
	CHECK(strstr(err, "argument 3 'node=0:0x0'") != NULL);
	CHECK(mt_parse_args(4, unknown, &cfg, err, sizeof(err)) == -1);
	CHECK(strstr(err, "argument 4 'colour=red': unknown key") != NULL);
}

/* rule=physical and its gpa= ranges: node 1 split by the 4 GiB hole, a DIMM */
TEST(plugin_parse_args_physical)
{
	char *good[] = { "out=x", "rule=physical", "node=0:0:0x80000000", "node=1:0x80000000:0x80000000",
			 "node=2:0x100000000:0x40000000", "gpa=0:0:0xc0000000",
			 "gpa=0x100000000:0xc0000000:0x40000000", "gpa=0x240000000:0x100000000:0x40000000" };
	char *no_gpa[] = { "out=x", "rule=physical", "node=0:0:0x1000" };
	char *not_physical[] = { "out=x", "rule=doubled", "node=0:0:0x1000", "gpa=0:0:0x1000" };
	char *descending[] = { "out=x", "rule=physical", "node=0:0:0x2000", "gpa=0x10000:0x1000:0x1000",
			       "gpa=0:0:0x1000" };
	char *twice[] = { "out=x", "rule=physical", "node=0:0:0x2000", "gpa=0:0:0x2000",
			  "gpa=0x10000:0x1000:0x1000" };
	char *uncovered[] = { "out=x", "rule=physical", "node=0:0:0x2000", "node=1:0x2000:0x1000",
			      "gpa=0:0:0x2000" };
	char *bad_form[] = { "out=x", "rule=physical", "node=0:0:0x1000", "gpa=0:0" };
	struct mt_config cfg;
	char err[200];

	CHECK(mt_parse_args(8, good, &cfg, err, sizeof(err)) == 0);
	CHECK(cfg.map.rule == MT_RULE_PHYSICAL && cfg.map.nseg == 3 && cfg.map.n == 3);
	CHECK(cfg.map.seg[1].gpa == 4 * GIB && cfg.map.seg[1].start == 3 * GIB && cfg.map.seg[1].size == GIB);
	CHECK(cfg.map.seg[2].gpa == 9 * GIB && cfg.map.seg[2].start == 4 * GIB);
	CHECK(mt_parse_args(3, no_gpa, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "missing gpa=GPA:START:SIZE (rule=physical)");
	CHECK(mt_parse_args(4, not_physical, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "argument 4 'gpa=...': a guest-physical range with rule=doubled (physical only)");
	CHECK(mt_parse_args(5, descending, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "argument 5 'gpa=0:0:0x1000': overlaps or precedes gpa=0x10000");
	CHECK(mt_parse_args(5, twice, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "gpa=0x0:0x0:0x2000 and gpa=0x10000:0x1000:0x1000: the same RAM offsets at two addresses");
	CHECK(mt_parse_args(5, uncovered, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "node 1: 0x1000 of its 0x1000 bytes (RAM offsets from 0x2000) at no gpa= address");
	CHECK(mt_parse_args(4, bad_form, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "argument 4 'gpa=0:0': want gpa=GPA:START:SIZE (size > 0)");
}

/*
 * Memory-side caches: a tiny LLC (4 lines) in front of node 1's cache of
 * 16 lines.  A cycle of 8 lines on node 1 misses the LLC on every access;
 * its first pass misses the memory-side cache too, its second hits it.
 */
static struct mt_config msc_cfg(bool write_through, uint32_t msc_ways)
{
	struct mt_config cfg = { .map = dram_pmem(MT_RULE_PLAIN), .llc_size = 256, .llc_ways = 4,
				 .llc_line = 64, .msc_sim = true };

	cfg.msc[1][0] = (struct mt_msc_cfg){ 1024, msc_ways, 64, write_through };
	return cfg;
}

/* One vCPU's hierarchy over its own memory-side caches. */
static int hier_init(struct mt_hier *h, struct mt_memside *ms, const struct mt_config *cfg)
{
	char err[200];

	if (mt_memside_init(ms, cfg, err, sizeof(err)))
		return -1;
	if (mt_hier_init(h, cfg, ms, err, sizeof(err))) {
		mt_memside_free(ms);
		return -1;
	}
	return 0;
}

static void hier_free(struct mt_hier *h, struct mt_memside *ms)
{
	mt_hier_free(h);
	mt_memside_free(ms);
}

TEST(plugin_msc_hits_after_the_first_pass)
{
	struct mt_config cfg = msc_cfg(false, 1);
	struct mt_count cnt[MT_MAX_NODES + 1] = { 0 };
	struct mt_memside ms;
	struct mt_hier h;
	int at[MT_AT_MEMORY + 1] = { 0 };

	CHECK(hier_init(&h, &ms, &cfg) == 0);
	CHECK(ms.node[0].nlevels == 0 && ms.node[0].level[0].way == NULL);
	CHECK(ms.node[1].nlevels == 1 && ms.node[1].level[0].sets == 16 && ms.node[1].level[0].ways == 1);
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t l = 0; l < 8; l++)
			at[mt_hier_access(&h, &cfg.map, 1, GIB + l * 64, false, cnt)]++;
	CHECK(cnt[1].misses == 16 && cnt[1].msc_hits[0] == 8 && cnt[1].msc_writebacks[0] == 0);
	CHECK(at[MT_AT_LLC] == 0 && at[MT_AT_MSC] == 8 && at[MT_AT_MEMORY] == 8);
	/* the LLC still serves what it holds */
	CHECK(mt_hier_access(&h, &cfg.map, 1, GIB + 7 * 64, false, cnt) == MT_AT_LLC);
	/* node 0 has no memory-side cache: its misses are memory's */
	CHECK(mt_hier_access(&h, &cfg.map, 0, 64, false, cnt) == MT_AT_MEMORY && cnt[0].msc_hits[0] == 0);
	/* direct-mapped: lines 16 lines apart take the same slot and evict each other */
	mt_hier_flush(&h, &cfg.map, NULL);
	memset(cnt, 0, sizeof(cnt));
	for (int pass = 0; pass < 4; pass++)
		for (uint64_t l = 0; l < 8; l++)	/* lines 0, 16, 1, 17, 2, 18, 3, 19 */
			mt_hier_access(&h, &cfg.map, 1, GIB + (l / 2 + (l % 2) * 16) * 64, false, cnt);
	CHECK(cnt[1].misses == 32 && cnt[1].msc_hits[0] == 0);
	hier_free(&h, &ms);
}

/*
 * Write-back: the LLC's write-backs land in the cache (counted as the
 * node's writebacks); what reaches memory is the cache's own dirty lines,
 * when evicted or at the flush that ends a phase.  Write-through: every
 * write-back of the LLC reaches memory.
 */
TEST(plugin_msc_writebacks_by_policy)
{
	struct mt_count cnt[MT_MAX_NODES + 1] = { 0 };
	struct mt_config cfg = msc_cfg(false, 1);
	struct mt_memside ms;
	struct mt_hier h;

	CHECK(hier_init(&h, &ms, &cfg) == 0);
	/* 8 dirty lines through a 4-line LLC: 4 written back on the way, 4 at the flush */
	for (uint64_t l = 0; l < 8; l++)
		mt_hier_access(&h, &cfg.map, 1, GIB + l * 64, true, cnt);
	CHECK(cnt[1].misses == 8 && cnt[1].writebacks == 4 && cnt[1].msc_writebacks[0] == 0);
	mt_hier_flush(&h, &cfg.map, cnt);
	CHECK(cnt[1].writebacks == 8 && cnt[1].msc_writebacks[0] == 8);
	CHECK(h.llc.ntouched == 0 && ms.node[1].level[0].ntouched == 0);
	/* flushed: nothing left, the next phase starts cold */
	memset(cnt, 0, sizeof(cnt));
	CHECK(mt_hier_access(&h, &cfg.map, 1, GIB, false, cnt) == MT_AT_MEMORY);
	mt_hier_flush(&h, &cfg.map, cnt);
	CHECK(cnt[1].writebacks == 0 && cnt[1].msc_writebacks[0] == 0);
	/* a dirty line evicted from a direct-mapped cache by a conflicting read */
	memset(cnt, 0, sizeof(cnt));
	mt_hier_access(&h, &cfg.map, 1, GIB, true, cnt);
	for (uint64_t l = 1; l < 5; l++)	/* pushes line 0 out of the LLC into the cache, dirty */
		mt_hier_access(&h, &cfg.map, 1, GIB + l * 64, false, cnt);
	CHECK(cnt[1].writebacks == 1 && cnt[1].msc_writebacks[0] == 0);
	mt_hier_access(&h, &cfg.map, 1, GIB + 16 * 64, false, cnt);	/* line 0's slot */
	CHECK(cnt[1].msc_writebacks[0] == 1);
	hier_free(&h, &ms);

	cfg = msc_cfg(true, 4);
	memset(cnt, 0, sizeof(cnt));
	CHECK(hier_init(&h, &ms, &cfg) == 0);
	for (uint64_t l = 0; l < 8; l++)
		mt_hier_access(&h, &cfg.map, 1, GIB + l * 64, true, cnt);
	mt_hier_flush(&h, &cfg.map, cnt);
	CHECK(cnt[1].writebacks == 8 && cnt[1].msc_writebacks[0] == 8);
	/* the writes did not allocate: the lines read before are what it holds */
	memset(cnt, 0, sizeof(cnt));
	for (uint64_t l = 0; l < 8; l++)
		mt_hier_access(&h, &cfg.map, 1, GIB + l * 64, false, cnt);
	CHECK(cnt[1].msc_hits[0] == 0);
	hier_free(&h, &ms);
}

TEST(plugin_msc_args)
{
	char *good[] = { "out=x", "rule=plain", "node=0:0:0x40000000", "node=1:0x40000000:0x40000000",
			 "msc=1:268435456:1:64:wb", "msc=0:0x1000000:16:64:wt" };
	char *bad_line[] = { "out=x", "rule=plain", "node=0:0:0x40000000", "msc=0:4096:1:48:wb" };
	char *bad_form[] = { "out=x", "rule=plain", "node=0:0:0x40000000", "msc=0:4096:1:64" };
	char *no_node[] = { "out=x", "rule=plain", "node=0:0:0x40000000", "msc=3:4096:1:64:wb" };
	char *too_big[] = { "out=x", "rule=plain", "node=0:0:0x40000", "msc=0:0x40000:1:64:wb" };
	char *twice[] = { "out=x", "rule=plain", "node=0:0:0x40000000", "msc=0:4096:1:64:wb", "msc=0:4096:1:64:wt" };
	char *delay[] = { "out=x", "rule=plain", "node=0:0:0x40000000", "msc=0:4096:1:64:wb", "delay=24", "lat=0:81" };
	struct mt_config cfg;
	char err[200];

	CHECK(mt_parse_args(6, good, &cfg, err, sizeof(err)) == 0);
	CHECK(cfg.msc[1][0].size == 256 * MIB && cfg.msc[1][0].ways == 1 && cfg.msc[1][0].line == 64 &&
	      !cfg.msc[1][0].write_through);
	CHECK(cfg.msc[0][0].size == 16 * MIB && cfg.msc[0][0].ways == 16 && cfg.msc[0][0].write_through);
	CHECK(cfg.msc[1][1].size == 0);
	CHECK(mt_parse_args(4, bad_line, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "argument 4 'msc=0:4096:1:48:wb': msc_line=48: must be a power of two from 8 to 4096");
	CHECK(mt_parse_args(4, bad_form, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "argument 4 'msc=0:4096:1:64': want msc=ID:SIZE:WAYS:LINE:wb|wt");
	CHECK(mt_parse_args(4, no_node, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "argument 4 'msc=3:...': no node=3");
	CHECK(mt_parse_args(4, too_big, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "argument 4 'msc=0:262144:...': not smaller than node 0's memory");
	CHECK(mt_parse_args(5, twice, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "argument 5 'msc=0:4096:1:64:wt': node 0's memory-side cache given twice");
	/* delay= with a memory-side cache: its hits wait the node's latency unless msc_lat= says its own */
	CHECK(mt_parse_args(6, delay, &cfg, err, sizeof(err)) == 0);
	CHECK(cfg.msc[0][0].size == 4096 && cfg.msc_lat_ns[0] == 0);
}

/* The report carries each cache and each count's hits and write-backs. */
TEST(plugin_msc_report_lines)
{
	struct mt_config cfg = msc_cfg(false, 1);
	struct mt_phase ph = { .id = 1, .closed = true };
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	CHECK(m != NULL);
	if (!m)
		return;
	cfg.out = "x";
	ph.count[1] = (struct mt_count){ 10, 2, 8, 1, { 5 }, { 1 } };
	CHECK(mt_report_write(m, &cfg, NULL, &ph, 1, NULL, 0, 0) == 0);
	fclose(m);
	CHECK(strncmp(text, "tierlab-memtiming 3\n", 20) == 0);
	CHECK(strstr(text, "\nnode id=1 start=0x40000000 size=0x40000000\nmsc id=1 level=1 size=1024 ways=1 line=64 policy=wb\nphase") != NULL);
	CHECK(strstr(text, "\ncount phase=1 node=1 reads=10 writes=2 misses=8 writebacks=1 msc_hits=5 msc_writebacks=1 msc2_hits=0 msc2_writebacks=0 msc3_hits=0 msc3_writebacks=0\n") != NULL);
	free(text);
}

/*
 * A memory-side cache is one per node, shared by every vCPU: a line vCPU 0
 * brought in is a hit for vCPU 1, whose own LLC still misses it (the LLC
 * is per vCPU).
 */
TEST(plugin_msc_shared_between_vcpus)
{
	struct mt_config cfg = msc_cfg(false, 1);
	struct mt_count cnt0[MT_MAX_NODES + 1] = { 0 }, cnt1[MT_MAX_NODES + 1] = { 0 };
	struct mt_memside ms;
	struct mt_hier h0, h1;
	char err[200];

	CHECK(mt_memside_init(&ms, &cfg, err, sizeof(err)) == 0);
	CHECK(mt_hier_init(&h0, &cfg, &ms, err, sizeof(err)) == 0);
	CHECK(mt_hier_init(&h1, &cfg, &ms, err, sizeof(err)) == 0);
	CHECK(mt_hier_access(&h0, &cfg.map, 1, GIB + 3 * 64, false, cnt0) == MT_AT_MEMORY);
	CHECK(mt_hier_access(&h1, &cfg.map, 1, GIB + 3 * 64 + 8, false, cnt1) == MT_AT_MSC);
	CHECK(cnt1[1].misses == 1 && cnt1[1].msc_hits[0] == 1 && cnt0[1].msc_hits[0] == 0);
	/* each vCPU's LLC holds what it read itself */
	CHECK(mt_hier_access(&h0, &cfg.map, 1, GIB + 3 * 64, false, cnt0) == MT_AT_LLC);
	CHECK(mt_hier_access(&h1, &cfg.map, 1, GIB + 3 * 64, false, cnt1) == MT_AT_LLC);
	/* and the other way round: vCPU 1's line, a hit for vCPU 0 */
	CHECK(mt_hier_access(&h1, &cfg.map, 1, GIB + 9 * 64, false, cnt1) == MT_AT_MEMORY);
	CHECK(mt_hier_access(&h0, &cfg.map, 1, GIB + 9 * 64, false, cnt0) == MT_AT_MSC);
	CHECK(cnt0[1].misses == 2 && cnt0[1].msc_hits[0] == 1);
	/* a dirty line vCPU 1's LLC wrote back is in the cache for vCPU 0 */
	mt_hier_access(&h1, &cfg.map, 1, GIB + 12 * 64, true, cnt1);
	for (uint64_t l = 0; l < 4; l++)	/* pushes it out of vCPU 1's 4-line LLC */
		mt_hier_access(&h1, &cfg.map, 1, GIB + (20 + l) * 64, false, cnt1);
	CHECK(cnt1[1].writebacks == 1);
	CHECK(mt_hier_access(&h0, &cfg.map, 1, GIB + 12 * 64, false, cnt0) == MT_AT_MSC);
	mt_hier_free(&h0);
	mt_hier_free(&h1);
	mt_memside_free(&ms);
}

/*
 * The phase flush with a shared cache: each vCPU empties its own LLC when
 * it first counts in the next phase, the first of them the memory-side
 * cache too; every dirty line is charged once, to the phase that dirtied
 * it, whichever vCPU moves first; the next phase starts with the cache
 * empty.
 */
TEST(plugin_msc_shared_phase_flush)
{
	struct mt_config cfg = msc_cfg(false, 1);
	struct mt_count c0[2][MT_MAX_NODES + 1], c1[2][MT_MAX_NODES + 1];
	struct mt_memside ms;
	struct mt_hier h0, h1;
	char err[200];

	memset(c0, 0, sizeof(c0));
	memset(c1, 0, sizeof(c1));
	CHECK(mt_memside_init(&ms, &cfg, err, sizeof(err)) == 0);
	CHECK(mt_hier_init(&h0, &cfg, &ms, err, sizeof(err)) == 0);
	CHECK(mt_hier_init(&h1, &cfg, &ms, err, sizeof(err)) == 0);
	/* phase 1: vCPU 0 dirties lines 0 and 1 and reads 4, vCPU 1 dirties 2 and 3 */
	mt_hier_settle(&h0, &cfg.map, c0, 0, 1);
	mt_hier_settle(&h1, &cfg.map, c1, 0, 1);
	CHECK(ms.phase == 1);
	mt_hier_access(&h0, &cfg.map, 1, GIB + 0 * 64, true, c0[0]);
	mt_hier_access(&h0, &cfg.map, 1, GIB + 1 * 64, true, c0[0]);
	mt_hier_access(&h0, &cfg.map, 1, GIB + 4 * 64, false, c0[0]);
	mt_hier_access(&h1, &cfg.map, 1, GIB + 2 * 64, true, c1[0]);
	mt_hier_access(&h1, &cfg.map, 1, GIB + 3 * 64, true, c1[0]);
	/*
	 * vCPU 0 moves to phase 2 first: its dirty lines land in the cache,
	 * which it then empties, their write-backs to memory charged to phase 1
	 */
	mt_hier_settle(&h0, &cfg.map, c0, 1, 2);
	CHECK(ms.phase == 2);
	CHECK(c0[0][1].writebacks == 2 && c0[0][1].msc_writebacks[0] == 2);
	/* vCPU 1's dirty lines: straight through to memory, charged to phase 1 */
	mt_hier_settle(&h1, &cfg.map, c1, 1, 2);
	CHECK(c1[0][1].writebacks == 2 && c1[0][1].msc_writebacks[0] == 2);
	/* phase 1, summed over the vCPUs: each of its 4 dirty lines written to memory once */
	CHECK(c0[0][1].msc_writebacks[0] + c1[0][1].msc_writebacks[0] == 4);
	CHECK(c0[1][1].writebacks == 0 && c0[1][1].msc_writebacks[0] == 0 &&
	      c1[1][1].writebacks == 0 && c1[1][1].msc_writebacks[0] == 0);
	/* phase 2 starts empty: phase 1's lines miss, the ones written through too */
	CHECK(mt_hier_access(&h1, &cfg.map, 1, GIB + 4 * 64, false, c1[1]) == MT_AT_MEMORY);
	CHECK(mt_hier_access(&h0, &cfg.map, 1, GIB + 2 * 64, false, c0[1]) == MT_AT_MEMORY);
	CHECK(c0[1][1].msc_hits[0] + c1[1][1].msc_hits[0] == 0);
	/* at exit: the LLCs, then the cache, charged to phase 2 once */
	mt_hier_access(&h1, &cfg.map, 1, GIB + 5 * 64, true, c1[1]);
	mt_hier_settle(&h0, &cfg.map, c0, 2, 0);
	mt_hier_settle(&h1, &cfg.map, c1, 2, 0);
	CHECK(c1[1][1].writebacks == 1 && c1[1][1].msc_writebacks[0] == 0);
	mt_memside_claim(&ms, &cfg.map, c0, 0);
	mt_memside_claim(&ms, &cfg.map, c1, 0);	/* already done: nothing twice */
	CHECK(ms.phase == 0);
	CHECK(c0[1][1].msc_writebacks[0] + c1[1][1].msc_writebacks[0] == 1);
	CHECK(c0[0][1].msc_writebacks[0] + c1[0][1].msc_writebacks[0] == 4);
	mt_hier_free(&h0);
	mt_hier_free(&h1);
	mt_memside_free(&ms);
}

/*
 * The approximation memtiming.h states: a line dirty both in a late vCPU's
 * LLC and in the memory-side cache is written to memory twice when another
 * vCPU flushed the cache first (its flush, then the late settle's write
 * through), once when the late vCPU settles first (merged in the cache).
 * And a claim for an older phase leaves a newer one alone.
 */
static unsigned int charges_of_a_line_dirty_twice(bool holder_first)
{
	struct mt_config cfg = msc_cfg(false, 1);	/* LLC: 4 lines, one set; cache: 16 lines */
	struct mt_count c0[2][MT_MAX_NODES + 1], c1[2][MT_MAX_NODES + 1];
	struct mt_memside ms;
	struct mt_hier h0, h1;
	char err[200];
	unsigned int n;

	memset(c0, 0, sizeof(c0));
	memset(c1, 0, sizeof(c1));
	if (mt_memside_init(&ms, &cfg, err, sizeof(err)) || mt_hier_init(&h0, &cfg, &ms, err, sizeof(err)) ||
	    mt_hier_init(&h1, &cfg, &ms, err, sizeof(err)))
		return 99;
	mt_hier_settle(&h0, &cfg.map, c0, 0, 1);
	mt_hier_settle(&h1, &cfg.map, c1, 0, 1);
	/* vCPU 1 dirties X, four reads push it into the cache, dirty; it writes X again */
	mt_hier_access(&h1, &cfg.map, 1, GIB, true, c1[0]);
	for (int k = 1; k <= 4; k++)
		mt_hier_access(&h1, &cfg.map, 1, GIB + (uint64_t)k * 64, false, c1[0]);
	if (mt_hier_access(&h1, &cfg.map, 1, GIB, true, c1[0]) != MT_AT_MSC)
		return 98;
	if (holder_first) {
		mt_hier_settle(&h1, &cfg.map, c1, 1, 2);
		mt_hier_settle(&h0, &cfg.map, c0, 1, 2);
	} else {
		mt_hier_settle(&h0, &cfg.map, c0, 1, 2);
		mt_hier_settle(&h1, &cfg.map, c1, 1, 2);
	}
	/* a claim for phase 1 now: the caches stay phase 2's, nothing flushed */
	mt_memside_claim(&ms, &cfg.map, c0, 1);
	n = ms.phase == 2 ? (unsigned int)(c0[0][1].msc_writebacks[0] + c1[0][1].msc_writebacks[0]) : 97;
	mt_hier_free(&h0);
	mt_hier_free(&h1);
	mt_memside_free(&ms);
	return n;
}

TEST(plugin_msc_settle_after_flush_charges_twice)
{
	CHECK(charges_of_a_line_dirty_twice(true) == 1);
	CHECK(charges_of_a_line_dirty_twice(false) == 2);
}

/*
 * Shared caches take no lock: under multi-threaded TCG two vCPUs may both
 * record a set as touched, pushing the count past the sets.  A flush then
 * visits every set rather than reading past its list: every dirty line
 * named once, the cache left empty.
 */
TEST(plugin_cache_flush_after_a_race)
{
	struct mt_llc c;
	char err[128];
	uint64_t wb = 0, sum = 0;
	bool has_wb;

	CHECK(mt_llc_init(&c, 256, 2, 64, err, sizeof(err)) == 0);
	mt_llc_access(&c, 0 * 64, true, &wb, &has_wb);
	mt_llc_access(&c, 1 * 64, true, &wb, &has_wb);
	mt_llc_access(&c, 3 * 64, false, &wb, &has_wb);
	c.ntouched = c.sets + 3;	/* as two threads adding the same sets would leave it */
	CHECK(mt_llc_flush(&c, sum_writeback, &sum) == 2);
	CHECK(sum == 0 * 64 + 1 * 64 && c.ntouched == 0);
	for (uint32_t k = 0; k < c.sets * c.ways; k++)
		CHECK(c.way[k] == MT_LLC_EMPTY);
	mt_llc_free(&c);
}

/*
 * Levels 2 and 3: node 1's level 1 of 16 lines (direct), level 2 of 64
 * and, in the second half, level 3 of 128 behind a level 2 of 32.  A line
 * level 1 misses is looked up in level 2, then level 3, then the memory;
 * each level allocates what it missed.
 */
static struct mt_config levels_cfg(uint64_t l2, bool l2_wt, uint64_t l3)
{
	struct mt_config cfg = msc_cfg(false, 1);

	cfg.msc[1][1] = (struct mt_msc_cfg){ l2, 1, 64, l2_wt };
	if (l3)
		cfg.msc[1][2] = (struct mt_msc_cfg){ l3, 1, 64, false };
	return cfg;
}

TEST(plugin_msc_levels_chain)
{
	struct mt_config cfg = levels_cfg(4096, false, 0);
	struct mt_count cnt[MT_MAX_NODES + 1] = { 0 };
	int at[MT_AT_MEMORY + 1] = { 0 };
	struct mt_memside ms;
	struct mt_hier h;

	CHECK(hier_init(&h, &ms, &cfg) == 0);
	CHECK(ms.node[1].nlevels == 2 && ms.node[1].level[1].sets == 64);
	/*
	 * 32 lines, twice: the first pass misses everywhere; in the second
	 * level 1 misses them all (lines 16 apart take one slot), level 2
	 * holds them all
	 */
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t l = 0; l < 32; l++)
			at[mt_hier_access(&h, &cfg.map, 1, GIB + l * 64, false, cnt)]++;
	CHECK(at[MT_AT_MEMORY] == 32 && at[MT_AT_MSC2] == 32 && at[MT_AT_MSC] == 0);
	CHECK(cnt[1].misses == 64 && cnt[1].msc_hits[0] == 0 && cnt[1].msc_hits[1] == 32);
	/* 8 lines fit in level 1: served there, level 2 not asked */
	mt_hier_flush(&h, &cfg.map, NULL);
	memset(cnt, 0, sizeof(cnt));
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t l = 0; l < 8; l++)
			mt_hier_access(&h, &cfg.map, 1, GIB + l * 64, false, cnt);
	CHECK(cnt[1].msc_hits[0] == 8 && cnt[1].msc_hits[1] == 0);
	hier_free(&h, &ms);

	/* three levels: 64 lines conflict in levels 1 and 2, level 3 holds them */
	cfg = levels_cfg(2048, false, 8192);
	memset(cnt, 0, sizeof(cnt));
	memset(at, 0, sizeof(at));
	CHECK(hier_init(&h, &ms, &cfg) == 0);
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t l = 0; l < 64; l++)
			at[mt_hier_access(&h, &cfg.map, 1, GIB + l * 64, false, cnt)]++;
	CHECK(at[MT_AT_MEMORY] == 64 && at[MT_AT_MSC3] == 64);
	CHECK(cnt[1].msc_hits[0] == 0 && cnt[1].msc_hits[1] == 0 && cnt[1].msc_hits[2] == 64);
	hier_free(&h, &ms);
}

/*
 * Write-backs flow down: the LLC's into level 1, level 1's dirty
 * evictions into level 2 (not the memory), level 2's to memory; at the
 * flush each level's dirty lines go on to the next.  Every dirty line
 * leaves each level once.  A write-through level 2 passes each write on.
 */
TEST(plugin_msc_levels_writeback_flow)
{
	struct mt_config cfg = levels_cfg(4096, false, 0);
	struct mt_count cnt[MT_MAX_NODES + 1] = { 0 };
	struct mt_memside ms;
	struct mt_hier h;

	CHECK(hier_init(&h, &ms, &cfg) == 0);
	/* 32 dirty lines through a 4-line LLC and a 16-line level 1 */
	for (uint64_t l = 0; l < 32; l++)
		mt_hier_access(&h, &cfg.map, 1, GIB + l * 64, true, cnt);
	CHECK(cnt[1].writebacks == 28);
	/* level 1 evicted dirty lines, into level 2, which holds all 32: none reached memory */
	CHECK(cnt[1].msc_writebacks[0] > 0 && cnt[1].msc_writebacks[1] == 0);
	/* line 0, dirty, pushed out of level 1 by line 16: level 2 has it */
	CHECK(mt_hier_access(&h, &cfg.map, 1, GIB, false, cnt) == MT_AT_MSC2);
	mt_hier_flush(&h, &cfg.map, cnt);
	CHECK(cnt[1].writebacks == 32 && cnt[1].msc_writebacks[0] == 32 && cnt[1].msc_writebacks[1] == 32);
	hier_free(&h, &ms);

	/* level 2 too small: its own dirty evictions reach memory before the flush */
	cfg = levels_cfg(2048, false, 0);
	memset(cnt, 0, sizeof(cnt));
	CHECK(hier_init(&h, &ms, &cfg) == 0);
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t l = 0; l < 64; l++)
			mt_hier_access(&h, &cfg.map, 1, GIB + l * 64, true, cnt);
	CHECK(cnt[1].msc_writebacks[1] > 0);
	mt_hier_flush(&h, &cfg.map, cnt);
	/* each level passes on what it took: level 2's out = level 1's out, level 1's = the LLC's */
	CHECK(cnt[1].msc_writebacks[0] == cnt[1].writebacks && cnt[1].msc_writebacks[1] == cnt[1].msc_writebacks[0]);
	hier_free(&h, &ms);

	/*
	 * a write-back that pushes a dirty line out of level 1: line 0 leaves
	 * the LLC first and takes level 1's slot from line 16 (clean there);
	 * then line 16 leaves the LLC and pushes dirty line 0 into level 2
	 */
	cfg = levels_cfg(4096, false, 0);
	memset(cnt, 0, sizeof(cnt));
	CHECK(hier_init(&h, &ms, &cfg) == 0);
	mt_hier_access(&h, &cfg.map, 1, GIB + 0 * 64, true, cnt);
	mt_hier_access(&h, &cfg.map, 1, GIB + 16 * 64, true, cnt);
	for (uint64_t l = 1; l <= 4; l++)
		mt_hier_access(&h, &cfg.map, 1, GIB + l * 64, false, cnt);
	CHECK(cnt[1].writebacks == 2 && cnt[1].msc_writebacks[0] == 1 && cnt[1].msc_writebacks[1] == 0);
	mt_hier_flush(&h, &cfg.map, cnt);
	/* both dirty lines reach memory, once each, through level 2 */
	CHECK(cnt[1].msc_writebacks[0] == 2 && cnt[1].msc_writebacks[1] == 2);
	hier_free(&h, &ms);

	/* write-through level 2: every write level 1 passes on goes straight on to memory */
	cfg = levels_cfg(4096, true, 0);
	memset(cnt, 0, sizeof(cnt));
	CHECK(hier_init(&h, &ms, &cfg) == 0);
	for (uint64_t l = 0; l < 32; l++)
		mt_hier_access(&h, &cfg.map, 1, GIB + l * 64, true, cnt);
	CHECK(cnt[1].msc_writebacks[1] == cnt[1].msc_writebacks[0] && cnt[1].msc_writebacks[0] > 0);
	mt_hier_flush(&h, &cfg.map, cnt);
	CHECK(cnt[1].msc_writebacks[0] == 32 && cnt[1].msc_writebacks[1] == 32);
	hier_free(&h, &ms);
}

TEST(plugin_msc_level_args)
{
	char *good[] = { "out=x", "rule=plain", "node=0:0:0x40000000", "msc2=0:0x2000000:16:64:wt",
			 "msc=0:0x1000000:1:64:wb", "msc3=0:0x4000000:1:64:wb" };
	char *no_l1[] = { "out=x", "rule=plain", "node=0:0:0x40000000", "msc2=0:0x2000000:16:64:wb" };
	char *no_l2[] = { "out=x", "rule=plain", "node=0:0:0x40000000", "msc=0:4096:1:64:wb",
			  "msc3=0:0x2000000:16:64:wb" };
	char *bad[] = { "out=x", "rule=plain", "node=0:0:0x40000000", "msc=0:4096:1:64:wb",
			"msc2=0:8192:1:48:wb" };
	char *twice[] = { "out=x", "rule=plain", "node=0:0:0x40000000", "msc=0:4096:1:64:wb",
			  "msc2=0:8192:1:64:wb", "msc2=0:8192:1:64:wb" };
	struct mt_config cfg;
	char err[200];

	CHECK(mt_parse_args(6, good, &cfg, err, sizeof(err)) == 0);
	CHECK(cfg.msc[0][0].size == 16 * MIB && cfg.msc[0][1].size == 32 * MIB && cfg.msc[0][1].write_through &&
	      cfg.msc[0][1].ways == 16 && cfg.msc[0][2].size == 64 * MIB);
	CHECK(mt_parse_args(4, no_l1, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "argument 4 'msc2=0:...': node 0 has no level-1 cache (msc=0:...)");
	CHECK(mt_parse_args(5, no_l2, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "argument 5 'msc3=0:...': node 0 has no level-2 cache (msc2=0:...)");
	CHECK(mt_parse_args(5, bad, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "argument 5 'msc2=0:8192:1:48:wb': msc2_line=48: must be a power of two from 8 to 4096");
	CHECK(mt_parse_args(6, twice, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "argument 6 'msc2=0:8192:1:64:wb': node 0's memory-side cache level 2 given twice");
}

/*
 * msc_sim=0 (make bench-lab's host-cost measure): the caches are described
 * in the report but not simulated, every LLC miss is the memory's.
 */
TEST(plugin_msc_sim_off)
{
	char *args[] = { "out=x", "rule=plain", "node=0:0:0x40000000", "node=1:0x40000000:0x40000000",
			 "llc_size=256", "llc_ways=4", "llc_line=64", "msc=1:1024:1:64:wb", "msc_sim=0" };
	struct mt_count cnt[MT_MAX_NODES + 1] = { 0 };
	struct mt_phase ph = { .id = 1, .closed = true };
	struct mt_config cfg;
	struct mt_memside ms;
	struct mt_hier h;
	char err[200], *text = NULL;
	size_t len = 0;
	FILE *m;

	CHECK(mt_parse_args(8, args, &cfg, err, sizeof(err)) == 0 && cfg.msc_sim);
	CHECK(mt_parse_args(9, args, &cfg, err, sizeof(err)) == 0 && !cfg.msc_sim);
	CHECK(hier_init(&h, &ms, &cfg) == 0);
	CHECK(ms.node[1].nlevels == 0);
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t l = 0; l < 8; l++)
			CHECK(mt_hier_access(&h, &cfg.map, 1, GIB + l * 64, false, cnt) == MT_AT_MEMORY);
	CHECK(cnt[1].misses == 16 && cnt[1].msc_hits[0] == 0);
	hier_free(&h, &ms);
	m = open_memstream(&text, &len);
	CHECK(m != NULL);
	if (!m)
		return;
	CHECK(mt_report_write(m, &cfg, NULL, &ph, 1, NULL, 0, 0) == 0);
	fclose(m);
	CHECK(strstr(text, " nodes=2 msc_sim=0\n") != NULL && strstr(text, "\nmsc id=1 level=1 size=1024") != NULL);
	free(text);
	args[8] = "msc_sim=off";
	CHECK(mt_parse_args(9, args, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "argument 9 'msc_sim=off': msc_sim is 0 or 1");
}

/*
 * At exit the memory-side caches are emptied set by set, not by their
 * list of filled sets: under MTTCG a flush racing another vCPU's fill may
 * lose a set from that list, and its dirty lines still count.
 */
TEST(plugin_msc_exit_flush_visits_every_set)
{
	struct mt_config cfg = msc_cfg(false, 1);
	struct mt_count c[1][MT_MAX_NODES + 1];
	struct mt_memside ms;
	struct mt_hier h;
	struct mt_llc *l1;

	memset(c, 0, sizeof(c));
	CHECK(hier_init(&h, &ms, &cfg) == 0);
	l1 = &ms.node[1].level[0];
	mt_hier_settle(&h, &cfg.map, c, 0, 1);
	mt_hier_access(&h, &cfg.map, 1, GIB + 3 * 64, false, c[0]);
	/* a dirty line in set 5 that the list does not name, as a lost race leaves it */
	l1->way[5] = ((GIB >> 6) + 5) << 1 | 1;
	mt_hier_settle(&h, &cfg.map, c, 1, 0);
	mt_memside_claim(&ms, &cfg.map, c, 0);
	CHECK(c[0][1].msc_writebacks[0] == 1);
	for (uint32_t k = 0; k < l1->sets * l1->ways; k++)
		CHECK(l1->way[k] == MT_LLC_EMPTY);
	hier_free(&h, &ms);
}

/*
 * Two threads, two vCPUs' hierarchies on one shared two-level cache, as
 * under multi-threaded TCG: no crash or out-of-bounds access (ASan), each
 * thread's own LLC counts are what one thread alone counts (the race is in
 * the shared caches only), no level serves more than reaches it, and every
 * level is empty after the exit flush.
 */
struct race_arg {
	struct mt_config *cfg;
	struct mt_memside *ms;
	unsigned int seed;
	struct mt_count cnt[4][MT_MAX_NODES + 1];
};

static void *race_vcpu(void *p)
{
	struct race_arg *r = p;
	struct mt_hier h;
	char err[200];
	unsigned int seed = r->seed, phase = 0;

	if (mt_hier_init(&h, r->cfg, r->ms, err, sizeof(err)))
		return p;
	for (unsigned int ph = 1; ph <= 4; ph++) {
		mt_hier_settle(&h, &r->cfg->map, r->cnt, phase, ph);
		phase = ph;
		for (int k = 0; k < 50000; k++) {
			uint64_t l = rand_r(&seed) % 4096;

			mt_hier_access(&h, &r->cfg->map, 1, GIB + l * 64, rand_r(&seed) & 1, r->cnt[ph - 1]);
		}
	}
	mt_hier_settle(&h, &r->cfg->map, r->cnt, phase, 0);
	mt_hier_free(&h);
	return NULL;
}

TEST(plugin_msc_two_threads)
{
	char *args[] = { "out=x", "rule=plain", "node=0:0:0x40000000", "node=1:0x40000000:0x40000000",
			 "llc_size=4096", "llc_ways=4", "llc_line=64", "msc=1:65536:1:64:wb",
			 "msc2=1:131072:4:64:wb" };
	static struct race_arg r[2], alone[2];
	struct mt_config cfg;
	struct mt_memside ms, ms1;
	pthread_t t[2];
	char err[200];
	uint64_t served = 0, misses = 0;

	CHECK(mt_parse_args(9, args, &cfg, err, sizeof(err)) == 0);
	CHECK(mt_memside_init(&ms, &cfg, err, sizeof(err)) == 0);
	CHECK(mt_memside_init(&ms1, &cfg, err, sizeof(err)) == 0);
	for (int i = 0; i < 2; i++) {
		memset(&r[i], 0, sizeof(r[i]));
		r[i] = (struct race_arg){ .cfg = &cfg, .ms = &ms, .seed = (unsigned int)i + 1 };
		alone[i] = (struct race_arg){ .cfg = &cfg, .ms = &ms1, .seed = (unsigned int)i + 1 };
	}
	for (int i = 0; i < 2; i++)
		CHECK(pthread_create(&t[i], NULL, race_vcpu, &r[i]) == 0);
	for (int i = 0; i < 2; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	mt_memside_claim(&ms, &cfg.map, r[0].cnt, 0);
	/* the same accesses on one thread, one vCPU after the other */
	for (int i = 0; i < 2; i++)
		CHECK(race_vcpu(&alone[i]) == NULL);
	for (int i = 0; i < 2; i++)
		for (int p = 0; p < 4; p++) {
			const struct mt_count *a = &r[i].cnt[p][1], *b = &alone[i].cnt[p][1];

			CHECK(a->misses == b->misses && a->writebacks == b->writebacks);
			misses += a->misses;
			served += a->msc_hits[0] + a->msc_hits[1];
		}
	CHECK(misses > 0 && served > 0 && served <= misses);
	for (int k = 0; k < 2; k++) {
		const struct mt_llc *c = &ms.node[1].level[k];
		uint64_t left = 0;

		for (uint64_t w = 0; w < (uint64_t)c->sets * c->ways; w++)
			left += c->way[w] != MT_LLC_EMPTY;
		CHECK(left == 0);
	}
	mt_memside_free(&ms);
	mt_memside_free(&ms1);
}
