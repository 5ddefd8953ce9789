// SPDX-License-Identifier: GPL-2.0
/*
 * plugin/memtiming.c, the memory-timing plugin's pure parts: markers from
 * instruction bytes, address -> node under both address rules (QEMU 7.2's
 * doubled RAM-block offset), the LLC simulation and the plugin's arguments.
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
	CHECK_STR(err, "missing rule=plain|doubled");
	CHECK(mt_parse_args(3, bad_rule, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "argument 2 'rule=twice': rule is plain or doubled");
	CHECK(mt_parse_args(3, bad_node, &cfg, err, sizeof(err)) == -1);
	CHECK(strstr(err, "argument 3 'node=0:0x0'") != NULL);
	CHECK(mt_parse_args(4, unknown, &cfg, err, sizeof(err)) == -1);
	CHECK(strstr(err, "argument 4 'colour=red': unknown key") != NULL);
}
