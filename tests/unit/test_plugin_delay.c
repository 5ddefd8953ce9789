// SPDX-License-Identifier: GPL-2.0
/*
 * plugin/memtiming.c, delay injection's pure parts (--memory-timing delay,
 * experimental): the wait per miss from the dilation, the node's latency
 * and the calibration; the calibration's arithmetic; the pacing that pays
 * the waits in epochs with the host time the vCPU did not run credited;
 * and the delay= and lat= arguments.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "harness.h"
#include "memtiming.h"

#define GIB (1ULL << 30)

TEST(plugin_delay_per_miss)
{
	/* dram-pmem at dilation 24, calibrated at 306 host ns per miss (a boot of 2026-12-07) */
	CHECK(mt_delay_ns(24, 81, 306.013) == 1638);
	CHECK(mt_delay_ns(24, 305, 306.013) == 7014);
	/* so a DRAM miss costs 24 x 81 in all, a PMEM one 24 x 305: HMAT's ratio */
	CHECK_NEAR((306.013 + (double)mt_delay_ns(24, 305, 306.013)) /
		   (306.013 + (double)mt_delay_ns(24, 81, 306.013)), 305.0 / 81, 1e-3);
	/* uncalibrated: the dilated latency, nothing taken off */
	CHECK(mt_delay_ns(16, 81, 0) == 1296);
	CHECK(mt_delay_ns(16, 81, -1) == 1296);
	/* below the calibration: no wait at all, never a negative one */
	CHECK(mt_delay_ns(1, 81, 400) == 0);
	CHECK(mt_delay_ns(2.5, 3, 0) == 8);
}

TEST(plugin_delay_feasible_and_calibration)
{
	const uint32_t lat[2] = { 81, 305 };

	CHECK(mt_delay_feasible(24, lat, 2, 306));
	/* 3 x 81 = 243 < 306: DRAM's misses would not wait, the ratio would be lost */
	CHECK(!mt_delay_feasible(3, lat, 2, 306));
	CHECK(!mt_delay_feasible(2, lat, 2, 162));	/* equal is not enough */
	CHECK(!mt_delay_feasible(24, lat, 0, 306));
	CHECK_NEAR(mt_calib_ns_per_miss(421801788, 1048955), 402.116, 1e-3);
	CHECK(mt_calib_ns_per_miss(421801788, 0) < 0);
}

TEST(plugin_delay_pacing)
{
	struct mt_pace p = { 0 };

	/* owed in epochs: paid once MT_PACE_EPOCH_NS are owed */
	CHECK(!mt_pace_owe(&p, MT_PACE_EPOCH_NS - 1));
	CHECK(mt_pace_owe(&p, 1));
	/* no payment before: all of it, nothing credited */
	CHECK(mt_pace_settle(&p, 1000000, 500000) == MT_PACE_EPOCH_NS);
	CHECK(p.pending == 0 && p.credit == 0);
	/* the spin overshot its deadline by 300 ns: credit */
	mt_pace_mark(&p, 1000300, 520300, 1000000);
	CHECK(p.credit == 300);
	/* 10 us of wall time, of which the thread ran 4 us: 6 us felt already */
	mt_pace_owe(&p, 20000);
	CHECK(mt_pace_settle(&p, 1000300 + 10000, 520300 + 4000) == 20000 - 300 - 6000);
	CHECK(p.credit == 0);
	mt_pace_mark(&p, 1050000, 540000, 1050000);
	/* more credit than owed: nothing to pay, the rest kept */
	mt_pace_owe(&p, 1000);
	CHECK(mt_pace_settle(&p, 1050000 + 9000, 540000 + 1000) == 0);
	CHECK(p.credit == 8000 - 1000);
	/* a long stall is credited up to MT_PACE_CREDIT_NS only */
	mt_pace_mark(&p, 1059000, 541000, 1059000);
	mt_pace_owe(&p, 0);
	mt_pace_settle(&p, 1059000 + 5ULL * MT_PACE_CREDIT_NS, 541000);
	CHECK(p.credit == MT_PACE_CREDIT_NS);
	/* a clock read out of order (CPU ahead of wall) credits nothing */
	p = (struct mt_pace){ .marked = true, .mark_wall = 100, .mark_cpu = 100 };
	mt_pace_owe(&p, 500);
	CHECK(mt_pace_settle(&p, 200, 400) == 500);
}

TEST(plugin_delay_args)
{
	struct mt_config cfg;
	char err[200];
	char *good[] = { "out=r.txt", "rule=doubled", "lat=1:305", "node=0:0:0x40000000",
			 "node=1:0x40000000:0x40000000", "delay=24", "lat=0:81" };
	char *lat_only[] = { "out=r.txt", "rule=plain", "node=0:0:0x40000000", "lat=0:81" };
	char *one_lat[] = { "out=r.txt", "rule=plain", "node=0:0:4096", "node=1:4096:4096", "delay=24",
			    "lat=0:81" };
	char *stray[] = { "out=r.txt", "rule=plain", "node=0:0:4096", "delay=24", "lat=0:81", "lat=3:9" };
	char *twice[] = { "out=r.txt", "rule=plain", "node=0:0:4096", "delay=24", "lat=0:81", "lat=0:82" };
	char *bad_d[] = { "out=r.txt", "rule=plain", "node=0:0:4096", "delay=0", "lat=0:81" };

	CHECK(mt_parse_args(7, good, &cfg, err, sizeof(err)) == 0);
	CHECK(cfg.dilation == 24 && cfg.lat_ns[0] == 81 && cfg.lat_ns[1] == 305);
	/* count mode: no dilation */
	CHECK(mt_parse_args(4, good + 1, &cfg, err, sizeof(err)) == -1);	/* no out= */
	CHECK(mt_parse_args(3, lat_only, &cfg, err, sizeof(err)) == 0 && cfg.dilation == 0);
	CHECK(mt_parse_args(4, lat_only, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "argument 4 'lat=...': a latency without delay=DILATION");
	CHECK(mt_parse_args(6, one_lat, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "missing lat=1:NS (delay= needs every node's latency)");
	CHECK(mt_parse_args(6, stray, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "argument 6 'lat=3:9': no node=3");
	CHECK(mt_parse_args(6, twice, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "argument 6 'lat=0:82': node 0's latency given twice");
	CHECK(mt_parse_args(5, bad_d, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "argument 4 'delay=0': the dilation is a number from 1 to 1000");
	bad_d[3] = "delay=24x";
	CHECK(mt_parse_args(5, bad_d, &cfg, err, sizeof(err)) == -1);
	bad_d[3] = "delay=1001";
	CHECK(mt_parse_args(5, bad_d, &cfg, err, sizeof(err)) == -1);
	bad_d[3] = "delay=2.5";
	CHECK(mt_parse_args(5, bad_d, &cfg, err, sizeof(err)) == 0 && cfg.dilation == 2.5);
	bad_d[4] = "lat=0:0";
	CHECK(mt_parse_args(5, bad_d, &cfg, err, sizeof(err)) == -1);
}

/*
 * A phase's delays are paid by its end, never in the next phase: what a
 * vCPU owes is paid at its first access outside a phase, dropped if that
 * access is already in a later phase, kept within the phase.
 */
TEST(plugin_delay_phase_boundary)
{
	struct mt_pace p = { 0 };

	CHECK(mt_pace_boundary(&p, 3, 0) == MT_PACE_KEEP);	/* nothing owed */
	CHECK(mt_pace_boundary(&p, 3, 4) == MT_PACE_KEEP);
	mt_pace_owe(&p, 5000);
	CHECK(mt_pace_boundary(&p, 3, 3) == MT_PACE_KEEP);	/* the same phase: owed on */
	CHECK(mt_pace_boundary(&p, 3, 0) == MT_PACE_PAY);	/* after it: paid */
	CHECK(mt_pace_boundary(&p, 3, 4) == MT_PACE_DROP);	/* in the next: dropped */
}

/*
 * Delay with a memory-side cache: an LLC miss waits where it was served.
 * A hit in a priced level-1 cache (msc_lat=) waits the cache's own read
 * latency, dilated, less the calibration (mt_delay_ns, the misses' rule);
 * a miss the node's; an unpriced cache's hit the node's too; an LLC hit
 * nothing.  A tiny LLC (4 lines) and node 1's cache of 16 lines: a cycle
 * of 8 lines misses the LLC every time, the cache on its first pass only.
 */
TEST(plugin_delay_with_a_memside_cache)
{
	char *args[] = { "out=r.txt", "rule=plain", "node=0:0:0x40000000", "node=1:0x40000000:0x40000000",
			 "llc_size=256", "llc_ways=4", "llc_line=64", "msc=1:1024:1:64:wb", "delay=24",
			 "lat=0:81", "lat=1:305", "msc_lat=1:81" };
	const double calib = 306.013;
	uint64_t delay_ns[MT_MAX_NODES] = { 0 }, msc_delay_ns[MT_MAX_NODES] = { 0 };
	uint64_t wait[2] = { 0 };
	struct mt_count cnt[MT_MAX_NODES + 1] = { 0 };
	struct mt_config cfg;
	struct mt_memside ms;
	struct mt_hier h;
	char err[200];
	enum mt_level at;

	CHECK(mt_parse_args(12, args, &cfg, err, sizeof(err)) == 0);
	CHECK(cfg.msc_lat_ns[1] == 81 && cfg.msc_lat_ns[0] == 0 && cfg.lat_ns[1] == 305);
	for (int i = 0; i < cfg.map.n; i++) {
		delay_ns[i] = mt_delay_ns(cfg.dilation, cfg.lat_ns[i], calib);
		msc_delay_ns[i] = mt_delay_ns(cfg.dilation, cfg.msc_lat_ns[i], calib);
	}
	CHECK(mt_memside_init(&ms, &cfg, err, sizeof(err)) == 0);
	CHECK(mt_hier_init(&h, &cfg, &ms, err, sizeof(err)) == 0);
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t l = 0; l < 8; l++) {
			at = mt_hier_access(&h, &cfg.map, 1, GIB + l * 64, false, cnt);
			wait[pass] += mt_delay_of(&cfg, delay_ns, msc_delay_ns, 1, at);
		}
	CHECK(cnt[1].msc_hits[0] == 8);
	/* the first pass missed the cache: the node's wait; the second hit it: the cache's */
	CHECK(wait[0] == 8 * delay_ns[1] && wait[1] == 8 * msc_delay_ns[1]);
	/* so a hit costs the dilated cache latency in all, as a miss costs the node's */
	CHECK_NEAR(calib + (double)wait[1] / 8, 24 * 81, 0.5);
	CHECK_NEAR(calib + (double)wait[0] / 8, 24 * 305, 0.5);
	/* an LLC hit waits nothing; node 0 (no cache) its own latency */
	at = mt_hier_access(&h, &cfg.map, 1, GIB + 7 * 64, false, cnt);
	CHECK(at == MT_AT_LLC && mt_delay_of(&cfg, delay_ns, msc_delay_ns, 1, at) == 0);
	at = mt_hier_access(&h, &cfg.map, 0, 64, false, cnt);
	CHECK(at == MT_AT_MEMORY && mt_delay_of(&cfg, delay_ns, msc_delay_ns, 0, at) == delay_ns[0]);
	/* a deeper level's hit has no figures of its own: the node's wait */
	CHECK(mt_delay_of(&cfg, delay_ns, msc_delay_ns, 1, MT_AT_MSC2) == delay_ns[1]);
	CHECK(mt_delay_of(&cfg, delay_ns, msc_delay_ns, 1, MT_AT_MSC3) == delay_ns[1]);
	/* without msc_lat= the cache is not priced: its hits wait the node's latency */
	cfg.msc_lat_ns[1] = 0;
	CHECK(mt_delay_of(&cfg, delay_ns, msc_delay_ns, 1, MT_AT_MSC) == delay_ns[1]);
	mt_hier_free(&h);
	mt_memside_free(&ms);
}

TEST(plugin_delay_msc_lat_args_and_report)
{
	char *args[] = { "out=r.txt", "rule=plain", "node=0:0:0x40000000", "node=1:0x40000000:0x40000000",
			 "msc=1:1024:1:64:wb", "delay=24", "lat=0:81", "lat=1:305", "msc_lat=1:81" };
	char *no_delay[] = { "out=r.txt", "rule=plain", "node=1:0:0x40000000", "msc=1:1024:1:64:wb",
			     "msc_lat=1:81" };
	char *no_msc[] = { "out=r.txt", "rule=plain", "node=0:0:0x40000000", "delay=24", "lat=0:81",
			   "msc_lat=0:81" };
	struct mt_calib calib = { .done = true, .phase = 1, .host_ns = 306013, .misses = 1000,
				  .ns_per_miss = 306.013 };
	struct mt_config cfg;
	char err[200], *text = NULL, want[128];
	size_t len = 0;
	FILE *m;

	CHECK(mt_parse_args(5, no_delay, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "argument 5 'msc_lat=...': a latency without delay=DILATION");
	CHECK(mt_parse_args(6, no_msc, &cfg, err, sizeof(err)) == -1);
	CHECK_STR(err, "argument 6 'msc_lat=0:81': no msc=0");
	args[8] = "msc_lat=1:0";
	CHECK(mt_parse_args(9, args, &cfg, err, sizeof(err)) == -1);
	args[8] = "msc_lat=1:81";
	CHECK(mt_parse_args(9, args, &cfg, err, sizeof(err)) == 0);
	/* the report's msc_lat line: the cache's latency and its wait after the calibration */
	m = open_memstream(&text, &len);
	CHECK(m != NULL);
	if (!m)
		return;
	CHECK(mt_report_write(m, &cfg, &calib, NULL, 0, NULL, 0, 0) == 0);
	fclose(m);
	snprintf(want, sizeof(want), "\nlat id=1 ns=305 delay_ns=%" PRIu64 "\nmsc_lat id=1 ns=81 delay_ns=%" PRIu64 "\n",
		 mt_delay_ns(24, 305, 306.013), mt_delay_ns(24, 81, 306.013));
	CHECK(strstr(text, want) != NULL);
	free(text);
}
