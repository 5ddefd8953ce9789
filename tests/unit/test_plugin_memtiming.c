// SPDX-License-Identifier: GPL-2.0
/*
 * plugin/memtiming.c, the memory-timing plugin's pure parts: markers from
 * instruction bytes, address -> node under each address rule (QEMU 7.2's
 * doubled RAM-block offset, 8.2's guest-physical address), the LLC
 * simulation and the plugin's arguments.
 */
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
				 .llc_line = 64 };

	cfg.msc[1] = (struct mt_msc_cfg){ 1024, msc_ways, 64, write_through };
	return cfg;
}

TEST(plugin_msc_hits_after_the_first_pass)
{
	struct mt_config cfg = msc_cfg(false, 1);
	struct mt_count cnt[MT_MAX_NODES + 1] = { 0 };
	struct mt_hier h;
	char err[200];
	int at[3] = { 0 };

	CHECK(mt_hier_init(&h, &cfg, err, sizeof(err)) == 0);
	CHECK(h.msc[0].way == NULL && h.msc[1].sets == 16 && h.msc[1].ways == 1);
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t l = 0; l < 8; l++)
			at[mt_hier_access(&h, &cfg.map, 1, GIB + l * 64, false, cnt)]++;
	CHECK(cnt[1].misses == 16 && cnt[1].msc_hits == 8 && cnt[1].msc_writebacks == 0);
	CHECK(at[MT_AT_LLC] == 0 && at[MT_AT_MSC] == 8 && at[MT_AT_MEMORY] == 8);
	/* the LLC still serves what it holds */
	CHECK(mt_hier_access(&h, &cfg.map, 1, GIB + 7 * 64, false, cnt) == MT_AT_LLC);
	/* node 0 has no memory-side cache: its misses are memory's */
	CHECK(mt_hier_access(&h, &cfg.map, 0, 64, false, cnt) == MT_AT_MEMORY && cnt[0].msc_hits == 0);
	/* direct-mapped: lines 16 lines apart take the same slot and evict each other */
	mt_hier_flush(&h, &cfg.map, NULL);
	memset(cnt, 0, sizeof(cnt));
	for (int pass = 0; pass < 4; pass++)
		for (uint64_t l = 0; l < 8; l++)	/* lines 0, 16, 1, 17, 2, 18, 3, 19 */
			mt_hier_access(&h, &cfg.map, 1, GIB + (l / 2 + (l % 2) * 16) * 64, false, cnt);
	CHECK(cnt[1].misses == 32 && cnt[1].msc_hits == 0);
	mt_hier_free(&h);
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
	struct mt_hier h;
	char err[200];

	CHECK(mt_hier_init(&h, &cfg, err, sizeof(err)) == 0);
	/* 8 dirty lines through a 4-line LLC: 4 written back on the way, 4 at the flush */
	for (uint64_t l = 0; l < 8; l++)
		mt_hier_access(&h, &cfg.map, 1, GIB + l * 64, true, cnt);
	CHECK(cnt[1].misses == 8 && cnt[1].writebacks == 4 && cnt[1].msc_writebacks == 0);
	mt_hier_flush(&h, &cfg.map, cnt);
	CHECK(cnt[1].writebacks == 8 && cnt[1].msc_writebacks == 8);
	CHECK(h.llc.ntouched == 0 && h.msc[1].ntouched == 0);
	/* flushed: nothing left, the next phase starts cold */
	memset(cnt, 0, sizeof(cnt));
	CHECK(mt_hier_access(&h, &cfg.map, 1, GIB, false, cnt) == MT_AT_MEMORY);
	mt_hier_flush(&h, &cfg.map, cnt);
	CHECK(cnt[1].writebacks == 0 && cnt[1].msc_writebacks == 0);
	/* a dirty line evicted from a direct-mapped cache by a conflicting read */
	memset(cnt, 0, sizeof(cnt));
	mt_hier_access(&h, &cfg.map, 1, GIB, true, cnt);
	for (uint64_t l = 1; l < 5; l++)	/* pushes line 0 out of the LLC into the cache, dirty */
		mt_hier_access(&h, &cfg.map, 1, GIB + l * 64, false, cnt);
	CHECK(cnt[1].writebacks == 1 && cnt[1].msc_writebacks == 0);
	mt_hier_access(&h, &cfg.map, 1, GIB + 16 * 64, false, cnt);	/* line 0's slot */
	CHECK(cnt[1].msc_writebacks == 1);
	mt_hier_free(&h);

	cfg = msc_cfg(true, 4);
	memset(cnt, 0, sizeof(cnt));
	CHECK(mt_hier_init(&h, &cfg, err, sizeof(err)) == 0);
	for (uint64_t l = 0; l < 8; l++)
		mt_hier_access(&h, &cfg.map, 1, GIB + l * 64, true, cnt);
	mt_hier_flush(&h, &cfg.map, cnt);
	CHECK(cnt[1].writebacks == 8 && cnt[1].msc_writebacks == 8);
	/* the writes did not allocate: the lines read before are what it holds */
	memset(cnt, 0, sizeof(cnt));
	for (uint64_t l = 0; l < 8; l++)
		mt_hier_access(&h, &cfg.map, 1, GIB + l * 64, false, cnt);
	CHECK(cnt[1].msc_hits == 0);
	mt_hier_free(&h);
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
	CHECK(cfg.msc[1].size == 256 * MIB && cfg.msc[1].ways == 1 && cfg.msc[1].line == 64 &&
	      !cfg.msc[1].write_through);
	CHECK(cfg.msc[0].size == 16 * MIB && cfg.msc[0].ways == 16 && cfg.msc[0].write_through);
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
	CHECK(mt_parse_args(6, delay, &cfg, err, sizeof(err)) == -1);
	CHECK(strstr(err, "delay= does not model memory-side caches") != NULL);
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
	ph.count[1] = (struct mt_count){ 10, 2, 8, 1, 5, 1 };
	CHECK(mt_report_write(m, &cfg, NULL, &ph, 1, NULL, 0, 0) == 0);
	fclose(m);
	CHECK(strncmp(text, "tierlab-memtiming 2\n", 20) == 0);
	CHECK(strstr(text, "\nnode id=1 start=0x40000000 size=0x40000000\nmsc id=1 size=1024 ways=1 line=64 policy=wb\nphase") != NULL);
	CHECK(strstr(text, "\ncount phase=1 node=1 reads=10 writes=2 misses=8 writebacks=1 msc_hits=5 msc_writebacks=1\n") != NULL);
	free(text);
}
