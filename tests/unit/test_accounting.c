// SPDX-License-Identifier: GPL-2.0
/*
 * lab/boot/accounting.c: the -plugin argument, QEMU's address rule by version,
 * guest-physical -> RAM offset, the plugin's report read strictly, and the
 * rows and checks made of it.  The report below is the one a quick
 * `--benches chase --memory-timing count` boot of dram-pmem wrote
 * (2026-12-07), its probes' pagemap addresses from the same boot.
 */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "accounting.h"
#include "commands.h"

#define GIB (1ULL << 30)

/* node 1 boot memory, as in the boot the report below comes from */
static const char dram_pmem_yaml[] =
	"name: t\ncpus: 2\nnodes:\n"
	"  - {id: 0, kind: dram, memory: 1G, cpus: 0-1, read_latency_ns: 81, write_latency_ns: 86,"
	" read_bandwidth: 100GB/s, write_bandwidth: 57GB/s}\n"
	"  - {id: 1, kind: pmem, zone: normal, memory: 1G, initiator: 0, read_latency_ns: 305, write_latency_ns: 94,"
	" read_bandwidth: 39.4GB/s, write_bandwidth: 13.9GB/s}\n"
	"distances:\n  matrix:\n    - [10, 17]\n    - [17, 10]\n";

static const char report[] =
	"tierlab-memtiming 1\n"
	"config rule=doubled llc_size=28835840 llc_ways=11 llc_line=64 nodes=2\n"
	"node id=0 start=0x0 size=0x40000000\n"
	"node id=1 start=0x40000000 size=0x40000000\n"
	"phase seq=1 id=1 closed=1 io=1\n"
	"count phase=1 node=0 reads=1049415 writes=574 misses=1048713 writebacks=46\n"
	"count phase=1 node=1 reads=0 writes=0 misses=0 writebacks=0\n"
	"count phase=1 node=none reads=0 writes=0 misses=0 writebacks=0\n"
	"phase seq=2 id=1 closed=1 io=1\n"
	"count phase=2 node=0 reads=837 writes=573 misses=136 writebacks=77\n"
	"count phase=2 node=1 reads=1048576 writes=0 misses=1048576 writebacks=0\n"
	"count phase=2 node=none reads=0 writes=0 misses=0 writebacks=0\n"
	"probe seq=1 vaddr=0x7f16b9600000 raw=0xc9f4000 offset=0xc9f4000 node=0\n"
	"probe seq=2 vaddr=0x7f16b9600000 raw=0xbf4ae000 offset=0x7f4ae000 node=1\n"
	"end phases=2 probes=2 dropped=0\n";

static char *phase_lines[] = {
	"id=1 bench=chase policy=bind nodes=node:0 pagesize=4k scenario=chase loads=1048576 bound=0",
	"id=1 bench=chase policy=bind nodes=node:1 pagesize=4k scenario=chase loads=1048576 bound=1",
};
static char *probe_lines[] = {
	"bench=chase nodes=node:0 vaddr=0x7f16b9600000 gpa=0xc9f4000 node=0",
	"bench=chase nodes=node:1 vaddr=0x7f16b9600000 gpa=0x7f4ae000 node=1",
};

static struct topo *load(const char *yaml)
{
	struct topo *t = calloc(1, sizeof(*t));

	if (t && topo_load_buffer("t.yaml", yaml, strlen(yaml), 0, t, stderr)) {
		free(t);
		return NULL;
	}
	return t;
}

/* The value of metric @m in the rows of nodes=@nodes; NAN if absent. */
static double row_value(const char *rows, const char *nodes, const char *m)
{
	char key[160];
	const char *p = rows;

	snprintf(key, sizeof(key), "nodes=%s pagesize=4k scenario=chase metric=%s value=", nodes, m);
	p = strstr(p, key);
	return p ? atof(p + strlen(key)) : 0.0 / 0.0;
}

/*
 * 7.2 to 8.1 add the RAM block's offset twice; 8.2 ("plugin: Simplify
 * struct qemu_plugin_hwaddr") returns the guest-physical address.
 */
TEST(accounting_rule_by_qemu_version)
{
	static const struct {
		const char *line;
		enum mt_rule want;
	} cases[] = {
		{ "QEMU emulator version 7.2.22 (Debian 1:7.2+dfsg-7+deb12u18+b3)", MT_RULE_DOUBLED },
		{ "QEMU emulator version 7.0.0", MT_RULE_DOUBLED },
		{ "QEMU emulator version 8.0.4", MT_RULE_DOUBLED },
		{ "QEMU emulator version 8.1.5 (qemu-8.1.5-1.fc39)", MT_RULE_DOUBLED },
		{ "QEMU emulator version 8.2.0", MT_RULE_PHYSICAL },
		{ "QEMU emulator version 8.2.2 (Debian 1:8.2.2+ds-0ubuntu1)", MT_RULE_PHYSICAL },
		{ "QEMU emulator version 9.0.0", MT_RULE_PHYSICAL },
		{ "QEMU emulator version 9.2.3", MT_RULE_PHYSICAL },
		{ "QEMU emulator version 10.0.2 (Debian 1:10.0.2+ds-2+deb13u1~bpo12+1)", MT_RULE_PHYSICAL },
	};
	enum mt_rule r;
	char err[200];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		r = cases[i].want == MT_RULE_DOUBLED ? MT_RULE_PHYSICAL : MT_RULE_DOUBLED;
		if (acct_rule_for_qemu(cases[i].line, &r, err, sizeof(err)) || r != cases[i].want) {
			fprintf(stderr, "  '%s': got %s, want %s\n", cases[i].line, mt_rule_names[r],
				mt_rule_names[cases[i].want]);
			(*failures)++;
		}
	}
	CHECK(acct_rule_for_qemu("QEMU emulator version 6.2.0", &r, err, sizeof(err)) == -1);
	CHECK(strstr(err, "QEMU 6.2") != NULL);
	CHECK(acct_rule_for_qemu("qemu, surely", &r, err, sizeof(err)) == -1);
}

TEST(accounting_plugin_arg_and_gpa)
{
	struct topo *t = load(dram_pmem_yaml);
	struct sbuf sb = { 0 };
	uint64_t off = 0;

	CHECK(t != NULL);
	if (!t)
		return;
	char err[256];

	CHECK(acct_plugin_arg(t, "/lab/tiermem.so", MT_RULE_DOUBLED, "/r/raw/memtiming-1,x.txt",
			      ACCT_COUNT, &sb, err, sizeof(err)) == 0);
	CHECK_STR(sb.s, "file=/lab/tiermem.so,out=/r/raw/memtiming-1,,x.txt,rule=doubled,"
		  "node=0:0x0:0x40000000,node=1:0x40000000:0x40000000,"
		  "llc_size=28835840,llc_ways=11,llc_line=64");
	sb_free(&sb);
	/* the topology's lab.llc replaces the default part's */
	t->llc_size = 1 << 20;
	t->llc_ways = 16;
	t->llc_line = 128;
	CHECK(acct_plugin_arg(t, "/p.so", MT_RULE_PLAIN, "/o", ACCT_COUNT, &sb, err, sizeof(err)) == 0);
	CHECK_STR(sb.s, "file=/p.so,out=/o,rule=plain,node=0:0x0:0x40000000,node=1:0x40000000:0x40000000,"
		  "llc_size=1048576,llc_ways=16,llc_line=128");
	sb_free(&sb);
	t->llc_size = 0;
	/* physical: one guest-physical range, all of it below the hole */
	CHECK(acct_plugin_arg(t, "/p.so", MT_RULE_PHYSICAL, "/o", ACCT_COUNT, &sb, err, sizeof(err)) == 0);
	CHECK_STR(sb.s, "file=/p.so,out=/o,rule=physical,node=0:0x0:0x40000000,node=1:0x40000000:0x40000000,"
		  "gpa=0x0:0x0:0x80000000,llc_size=28835840,llc_ways=11,llc_line=64");
	sb_free(&sb);
	/* 2 GiB: all of it below 4 GiB */
	CHECK(acct_gpa_to_offset(t, 0x7f4ae000, &off) == 0 && off == 0x7f4ae000);
	CHECK(acct_gpa_to_offset(t, 0x80000000, &off) == -1);
	/* 4 GiB of RAM: 3 GiB below the hole, 1 GiB from 4 GiB */
	t->node[1].mem_bytes = 3ULL << 30;
	CHECK(acct_gpa_to_offset(t, 0xbfffffff, &off) == 0 && off == 0xbfffffff);
	CHECK(acct_gpa_to_offset(t, 0xc0000000, &off) == -1);
	CHECK(acct_gpa_to_offset(t, 0x100000000ULL, &off) == 0 && off == 0xc0000000);
	CHECK(acct_gpa_to_offset(t, 0x140000000ULL, &off) == -1);
	free(t);
}

/*
 * Movable nodes: each DIMM's RAM offset follows the boot memory, in node
 * order, and the DIMM sits at the device-memory base (4 GiB here) plus that
 * offset; an SRAT anchor is no node's RAM.
 */
TEST(accounting_movable_nodes_plugin_arg_and_gpa)
{
	struct topo *t = calloc(1, sizeof(*t));
	struct sbuf sb = { 0 };
	uint64_t off = 0;
	char err[256];

	CHECK(t && topo_load("topologies/2s-dram-pmem.yaml", t, stderr) == 0);
	if (!t)
		return;
	CHECK(acct_plugin_arg(t, "/p.so", MT_RULE_DOUBLED, "/o", ACCT_COUNT, &sb, err, sizeof(err)) == 0);
	CHECK_STR(sb.s, "file=/p.so,out=/o,rule=doubled,node=0:0x0:0x20000000,node=1:0x20000000:0x20000000,"
		  "node=2:0x40000000:0x20000000,node=3:0x60000000:0x20000000,"
		  "llc_size=28835840,llc_ways=11,llc_line=64");
	sb_free(&sb);
	CHECK(acct_gpa_to_offset(t, 0x3fffffff, &off) == 0 && off == 0x3fffffff);
	CHECK(acct_gpa_to_offset(t, 0x40000000, &off) == -1);	/* boot memory is 1 GiB */
	CHECK(acct_gpa_to_offset(t, 0x100000000ULL, &off) == -1);	/* below the first DIMM */
	CHECK(acct_gpa_to_offset(t, 0x140000000ULL, &off) == 0 && off == 0x40000000);
	CHECK(acct_gpa_to_offset(t, 0x17fffffffULL, &off) == 0 && off == 0x7fffffff);
	CHECK(acct_gpa_to_offset(t, 0x180000000ULL, &off) == -1);	/* node 2's anchor */
	/* what the doubled rule makes of node 3's first byte */
	{
		struct mt_map m = { .rule = MT_RULE_DOUBLED };

		for (int i = 0; i < t->nnodes; i++)
			m.node[m.n++] = (struct mt_node){ i, topo_ram_offset(t, i), t->node[i].mem_bytes };
		CHECK(mt_map_addr(&m, 2 * 0x60000000ULL, &off) == 3 && off == 0x60000000);
	}
	free(t);
}

/*
 * Rule physical (QEMU 8.2 on): the guest-physical ranges labtool gives the
 * plugin are the command line's layout.  2s-dram-pmem.yaml with node 1 at
 * 3.5 GiB: 4 GiB of boot memory, split at 3 GiB (node 1's last GiB from 4
 * GiB), the device memory from 5 GiB, so node 2's DIMM (RAM offset 4 GiB)
 * at 9 GiB and node 3's at 9.5 GiB.  The argument, read by the plugin's own
 * parser, maps addresses on both sides of the hole and in each DIMM to
 * their node and RAM offset, as acct_gpa_to_offset does the guest's
 * pagemap addresses.
 */
TEST(accounting_physical_split_and_dimm)
{
	struct topo *t = calloc(1, sizeof(*t));
	struct mt_seg seg[MT_MAX_SEGS];
	struct sbuf sb = { 0 };
	struct mt_config cfg;
	char err[256], *argv[64], *save = NULL;
	uint64_t off = 0;
	int n, argc = 0;

	CHECK(t && topo_load("topologies/2s-dram-pmem.yaml", t, stderr) == 0);
	if (!t)
		return;
	t->node[1].mem_bytes = 3 * GIB + GIB / 2;
	n = acct_ram_segments(t, seg);
	CHECK(n == 4);
	CHECK(n >= 4 && seg[0].gpa == 0 && seg[0].start == 0 && seg[0].size == 3 * GIB);
	CHECK(n >= 4 && seg[1].gpa == 4 * GIB && seg[1].start == 3 * GIB && seg[1].size == GIB);
	CHECK(n >= 4 && seg[2].gpa == 9 * GIB && seg[2].start == 4 * GIB && seg[2].size == GIB / 2);
	CHECK(n >= 4 && seg[3].gpa == 9 * GIB + GIB / 2 && seg[3].start == 4 * GIB + GIB / 2);
	/* the DIMMs where the QEMU command line puts them */
	CHECK(topo_dimm_addr(t, 2) == 9 * GIB && topo_dimm_addr(t, 3) == 9 * GIB + GIB / 2);
	CHECK(acct_plugin_arg(t, "/p.so", MT_RULE_PHYSICAL, "/o", ACCT_COUNT, &sb, err, sizeof(err)) == 0);
	CHECK(strstr(sb.s, ",gpa=0x0:0x0:0xc0000000,gpa=0x100000000:0xc0000000:0x40000000,"
		     "gpa=0x240000000:0x100000000:0x20000000,gpa=0x260000000:0x120000000:0x20000000,") != NULL);
	/* the plugin's reading of it (file= is QEMU's) */
	for (char *w = strtok_r(sb.s, ",", &save); w && argc < 64; w = strtok_r(NULL, ",", &save))
		if (strncmp(w, "file=", 5))
			argv[argc++] = w;
	CHECK(mt_parse_args(argc, argv, &cfg, err, sizeof(err)) == 0);
	CHECK(mt_map_addr(&cfg.map, 0x1000, &off) == 0 && off == 0x1000);
	CHECK(mt_map_addr(&cfg.map, 3 * GIB - 64, &off) == 1 && off == 3 * GIB - 64);
	CHECK(mt_map_addr(&cfg.map, 3 * GIB, &off) == -1);
	CHECK(mt_map_addr(&cfg.map, 4 * GIB + 64, &off) == 1 && off == 3 * GIB + 64);
	CHECK(mt_map_addr(&cfg.map, 9 * GIB - 64, &off) == -1);
	CHECK(mt_map_addr(&cfg.map, 9 * GIB + 64, &off) == 2 && off == 4 * GIB + 64);
	CHECK(mt_map_addr(&cfg.map, 9 * GIB + GIB / 2, &off) == 3 && off == 4 * GIB + GIB / 2);
	/* the guest's pagemap addresses by the same layout */
	CHECK(acct_gpa_to_offset(t, 4 * GIB + 64, &off) == 0 && off == 3 * GIB + 64);
	CHECK(acct_gpa_to_offset(t, 9 * GIB + GIB / 2, &off) == 0 && off == 4 * GIB + GIB / 2);
	CHECK(acct_gpa_to_offset(t, 5 * GIB, &off) == -1);
	sb_free(&sb);
	free(t);
}

TEST(accounting_parse_report)
{
	struct acct_file f;
	char err[256];

	CHECK(acct_file_parse("memtiming-1.txt", report, &f, err, sizeof(err)) == 0);
	CHECK(f.rule == MT_RULE_DOUBLED && f.nnodes == 2 && f.nphases == 2 && f.nprobes == 2);
	CHECK(f.phase[1].count[1].misses == 1048576 && f.phase[1].closed);
	CHECK(f.phase[0].count[0].writebacks == 46 && f.phase[0].io == 1);
	CHECK(f.probe[1].raw == 0xbf4ae000 && f.probe[1].node == 1);
	acct_file_free(&f);
	/* a QEMU 8.2-on report: rule physical */
	{
		const char *at = strstr(report, "rule=doubled");
		char *text = xasprintf("%.*srule=physical%s", (int)(at - report), report,
				       at + strlen("rule=doubled"));

		CHECK(acct_file_parse("memtiming-1.txt", text, &f, err, sizeof(err)) == 0);
		CHECK(f.rule == MT_RULE_PHYSICAL);
		acct_file_free(&f);
		free(text);
	}
}

/* Each damage names the file and the line it is on. */
TEST(accounting_parse_errors_name_the_line)
{
	static const struct {
		const char *from, *to, *want;
	} cases[] = {
		{ "tierlab-memtiming 1", "tierlab-memtiming 4", "memtiming-1.txt:1: not a version 1, 2 or 3" },
		/* version 1 has no memory-side caches */
		{ "node id=1 start=0x40000000 size=0x40000000\n",
		  "node id=1 start=0x40000000 size=0x40000000\nmsc id=1 size=268435456 ways=1 line=64 policy=wb\n",
		  "memtiming-1.txt:5: msc: malformed, or not after the nodes" },
		{ "misses=136 ", "misses=13x6 ", "memtiming-1.txt:10: count: malformed" },
		{ "phase seq=2", "phase seq=3", "memtiming-1.txt:9: phase: malformed, out of sequence" },
		{ "count phase=2 node=none reads=0 writes=0 misses=0 writebacks=0\n", "",
		  "memtiming-1.txt:12: probe: malformed" },
		{ "end phases=2 probes=2 dropped=0\n", "", "memtiming-1.txt:15: no end line" },
		{ "end phases=2", "end phases=3", "memtiming-1.txt:15: end: its totals differ" },
		{ "node=1 reads=0", "node=7 reads=0", "memtiming-1.txt:7: count: malformed, outside a phase, or of an unknown node" },
		{ "config rule=doubled", "config rule=tripled", "memtiming-1.txt:2: config: rule is" },
		{ "0x7f16b9600000 raw=0xc9f", "0x7f16b9600000 rawx=0xc9f", "memtiming-1.txt:13: probe: malformed" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *at = strstr(report, cases[i].from);
		struct acct_file f;
		char err[256], *text;

		CHECK(at != NULL);
		if (!at)
			continue;
		text = xasprintf("%.*s%s%s", (int)(at - report), report, cases[i].to,
				 at + strlen(cases[i].from));
		CHECK(acct_file_parse("memtiming-1.txt", text, &f, err, sizeof(err)) == -1);
		if (strncmp(err, cases[i].want, strlen(cases[i].want))) {
			fprintf(stderr, "  case %zu: got \"%s\", want \"%s...\"\n", i, err, cases[i].want);
			(*failures)++;
		}
		free(text);
	}
}

TEST(accounting_rows_and_checks)
{
	struct topo *t = load(dram_pmem_yaml);
	struct sbuf rows = { 0 }, checks = { 0 };
	struct acct_file f;
	char err[256];

	CHECK(t != NULL);
	if (!t || acct_file_parse("m", report, &f, err, sizeof(err))) {
		free(t);
		(*failures)++;
		return;
	}
	acct_derive(&f, t, phase_lines, 2, probe_lines, 2, &rows, &checks);
	CHECK(row_value(rows.s, "node:1", "llc_misses_node1") == 1048576);
	CHECK_NEAR(row_value(rows.s, "node:1", "llc_miss_share_node1"), 1048576.0 / 1048712, 1e-6);
	/* 1048576 misses x 305 ns, the 136 on node 0 x 81 and 77 write-backs x 86 */
	CHECK_NEAR(row_value(rows.s, "node:1", "access_cost_ns"),
		   1048576.0 * 305 + 136.0 * 81 + 77.0 * 86, 1e-3);
	CHECK_NEAR(row_value(rows.s, "node:1", "access_ns_per_load"),
		   (1048576.0 * 305 + 136.0 * 81 + 77.0 * 86) / 1048576, 1e-3);
	CHECK_NEAR(row_value(rows.s, "node:1", "hmat_ratio_vs_node0"), 305.0 / 81, 1e-5);
	CHECK(fabs(row_value(rows.s, "node:1", "access_ratio_vs_node0") / (305.0 / 81) - 1) < 0.01);
	CHECK(strstr(checks.s, "not ok") == NULL);
	CHECK(strstr(checks.s, "ok 2 phases, 2 of them labelled") != NULL);
	CHECK(strstr(checks.s, "ok chase bound to node 1: 0.9999 of its 1048712 LLC misses on node 1") != NULL);
	CHECK(strstr(checks.s, "ok probe 2: pagemap 0x7f4ae000 (RAM offset 0x7f4ae000), plugin 0xbf4ae000") != NULL);
	sb_free(&rows);
	sb_free(&checks);

	/* the plain rule's reading of the same probe is wrong: the check says so */
	f.probe[1].offset = 0xbf4ae000;
	/* misses on the wrong node: under 99 % on the bound one */
	f.phase[1].count[0].misses = 20000;
	/* a PHASE line with no phase of its id */
	char *three[] = { phase_lines[0], phase_lines[1], "id=9 bench=chase loads=1 bound=1" };

	acct_derive(&f, t, three, 3, probe_lines, 2, &rows, &checks);
	CHECK(strstr(checks.s, "not ok probe 2:") != NULL);
	CHECK(strstr(checks.s, "not ok chase bound to node 1: 0.9813") != NULL);
	CHECK(strstr(checks.s, "not ok PHASE line 3 (id=9") != NULL);
	sb_free(&rows);
	sb_free(&checks);

	/* a chase whose PMEM misses were half its loads: the ratio is off */
	f.phase[1].count[0].misses = 0;
	f.phase[1].count[1].misses = 524288;
	acct_derive(&f, t, phase_lines, 2, probe_lines, 1, &rows, &checks);
	CHECK(strstr(checks.s, "not ok chase: node 1 / node 0 cost per load") != NULL);
	CHECK(strstr(checks.s, "not ok the guest made 1 address probes, the plugin recorded 2") != NULL);
	sb_free(&rows);
	sb_free(&checks);
	acct_file_free(&f);
	free(t);
}

/*
 * Per-case phases (bench/phase.c): a latency case's two repetitions, a fill
 * curve's two steps (the second ended by the harness after an OOM kill,
 * so without its pages) and a phase no PHASE line labels.
 */
static const char case_report[] =
	"tierlab-memtiming 1\n"
	"config rule=doubled llc_size=28835840 llc_ways=11 llc_line=64 nodes=2\n"
	"node id=0 start=0x0 size=0x40000000\n"
	"node id=1 start=0x40000000 size=0x40000000\n"
	"phase seq=1 id=2 closed=1 io=0\n"
	"count phase=1 node=0 reads=100 writes=50 misses=10 writebacks=2\n"
	"count phase=1 node=1 reads=0 writes=4096 misses=64 writebacks=0\n"
	"count phase=1 node=none reads=0 writes=0 misses=0 writebacks=0\n"
	"phase seq=2 id=2 closed=1 io=0\n"
	"count phase=2 node=0 reads=100 writes=50 misses=10 writebacks=0\n"
	"count phase=2 node=1 reads=0 writes=4096 misses=64 writebacks=0\n"
	"count phase=2 node=none reads=0 writes=0 misses=0 writebacks=0\n"
	"phase seq=3 id=2 closed=1 io=0\n"
	"count phase=3 node=0 reads=0 writes=0 misses=0 writebacks=0\n"
	"count phase=3 node=1 reads=0 writes=0 misses=100 writebacks=0\n"
	"count phase=3 node=none reads=0 writes=0 misses=0 writebacks=0\n"
	"phase seq=4 id=2 closed=1 io=0\n"
	"count phase=4 node=0 reads=0 writes=0 misses=300 writebacks=0\n"
	"count phase=4 node=1 reads=0 writes=0 misses=100 writebacks=0\n"
	"count phase=4 node=none reads=0 writes=0 misses=0 writebacks=0\n"
	"phase seq=5 id=3 closed=1 io=0\n"
	"count phase=5 node=0 reads=0 writes=0 misses=1 writebacks=0\n"
	"count phase=5 node=1 reads=0 writes=0 misses=0 writebacks=0\n"
	"count phase=5 node=none reads=0 writes=0 misses=0 writebacks=0\n"
	"end phases=5 probes=0 dropped=0\n";

static char *case_lines[] = {
	"id=2 bench=latency policy=bind nodes=pmem:1 pagesize=4k scenario=free pages=1",
	"id=2 bench=latency policy=bind nodes=pmem:1 pagesize=4k scenario=free pages=1",
	"id=2 bench=fallback policy=preferred nodes=pmem:1 pagesize=4k scenario=fill x_mib=16 pages=4096",
	"id=2 bench=fallback policy=preferred nodes=pmem:1 pagesize=4k scenario=fill x_mib=32 ended=reaped",
};

/* The value of row @key (its fields up to "metric=M value=") without x_mib; NAN if absent. */
static double key_value(const char *rows, const char *key)
{
	for (const char *p = rows; p && (p = strstr(p, key)); p++) {
		const char *nl = strchr(p, '\n'), *x = strstr(p, " x_mib=");

		if (!x || (nl && x > nl))
			return atof(p + strlen(key));
	}
	return 0.0 / 0.0;
}

TEST(accounting_case_phases_summed_per_case)
{
	struct topo *t = load(dram_pmem_yaml);
	struct sbuf rows = { 0 }, checks = { 0 };
	struct acct_file f;
	char err[256];
	const char *lat = "bench=latency policy=bind nodes=pmem:1 pagesize=4k scenario=free metric=";
	const char *fill = "bench=fallback policy=preferred nodes=pmem:1 pagesize=4k scenario=fill metric=";
	char key[200];

	CHECK(t != NULL);
	if (!t || acct_file_parse("m", case_report, &f, err, sizeof(err))) {
		free(t);
		(*failures)++;
		return;
	}
	acct_derive(&f, t, case_lines, 4, NULL, 0, &rows, &checks);
	/* the two repetitions: one set of rows, their sum */
	snprintf(key, sizeof(key), "%sllc_misses_node1 value=", lat);
	CHECK(key_value(rows.s, key) == 128);
	snprintf(key, sizeof(key), "%smem_phases value=", lat);
	CHECK(key_value(rows.s, key) == 2);
	/* 20 misses x 81 + 2 write-backs x 86 + 128 x 305 */
	snprintf(key, sizeof(key), "%saccess_cost_ns value=", lat);
	CHECK_NEAR(key_value(rows.s, key), 20 * 81.0 + 2 * 86.0 + 128 * 305.0, 1e-6);
	snprintf(key, sizeof(key), "%saccess_ns_per_page value=", lat);
	CHECK_NEAR(key_value(rows.s, key), (20 * 81.0 + 2 * 86.0 + 128 * 305.0) / 2, 1e-3);
	/* the misses' mean read latency, write-backs not in it */
	snprintf(key, sizeof(key), "%smiss_latency_ns value=", lat);
	CHECK_NEAR(key_value(rows.s, key), (20 * 81.0 + 128 * 305.0) / 148, 1e-3);
	CHECK(strstr(rows.s, "scenario=free metric=llc_misses_node1 value=128 unit=count\n") != NULL);
	/* each fill step its own rows, with x_mib; the curve's total without */
	CHECK(strstr(rows.s, "scenario=fill metric=llc_misses_node0 value=300 unit=count x_mib=32\n") != NULL);
	CHECK(strstr(rows.s, "scenario=fill metric=llc_misses_node1 value=100 unit=count x_mib=16\n") != NULL);
	CHECK(strstr(rows.s, "scenario=fill metric=llc_misses_node0 value=300 unit=count\n") != NULL);
	snprintf(key, sizeof(key), "%sllc_misses value=500 unit=count\n", fill);
	CHECK(strstr(rows.s, key) != NULL);
	snprintf(key, sizeof(key), "%smiss_latency_ns value=", fill);
	CHECK_NEAR(key_value(rows.s, key), (300 * 81.0 + 200 * 305.0) / 500, 1e-3);
	/* the step the harness ended has no pages: no per-page cost for it or the curve */
	CHECK(strstr(rows.s, "scenario=fill metric=access_ns_per_page value=7.44629 unit=ns x_mib=16\n") != NULL);
	snprintf(key, sizeof(key), "%saccess_ns_per_page value=", fill);
	CHECK(isnan(key_value(rows.s, key)));
	/* the workload phase has no PHASE line: its rows say so, and a check fails */
	CHECK(strstr(rows.s, "bench=phase policy=- nodes=- pagesize=- scenario=id3 metric=llc_misses_node0 value=1") != NULL);
	CHECK(strstr(checks.s, "not ok phase 5 (id 3) has no PHASE line") != NULL);
	CHECK(strstr(checks.s, "not ok 5 phases, 4 of them labelled") != NULL);
	sb_free(&rows);
	sb_free(&checks);
	acct_file_free(&f);
	free(t);
}

/* ---- delay injection (--memory-timing delay, experimental) ---- */

/*
 * A delay boot of dram-pmem (2026-12-07, dilation 24): the calibration
 * walk, then the two chases, their guest times in walk_ns.
 */
static const char delay_report[] =
	"tierlab-memtiming 1\n"
	"config rule=doubled llc_size=28835840 llc_ways=11 llc_line=64 nodes=2\n"
	"node id=0 start=0x0 size=0x40000000\n"
	"node id=1 start=0x40000000 size=0x40000000\n"
	"delay dilation=24 calibrated=1 calib_phase=1 calib_host_ns=320969672 calib_misses=1048875 calib_ns_per_miss=306.013\n"
	"lat id=0 ns=81 delay_ns=1638\n"
	"lat id=1 ns=305 delay_ns=7014\n"
	"phase seq=1 id=4 closed=1 io=0\n"
	"count phase=1 node=0 reads=1048990 writes=20 misses=1048875 writebacks=3\n"
	"count phase=1 node=1 reads=0 writes=0 misses=0 writebacks=0\n"
	"count phase=1 node=none reads=0 writes=0 misses=0 writebacks=0\n"
	"phase seq=2 id=1 closed=1 io=0\n"
	"count phase=2 node=0 reads=1049415 writes=574 misses=1048713 writebacks=46\n"
	"count phase=2 node=1 reads=0 writes=0 misses=0 writebacks=0\n"
	"count phase=2 node=none reads=0 writes=0 misses=0 writebacks=0\n"
	"phase seq=3 id=1 closed=1 io=0\n"
	"count phase=3 node=0 reads=15837 writes=573 misses=14126 writebacks=77\n"
	"count phase=3 node=1 reads=1048576 writes=0 misses=1048576 writebacks=0\n"
	"count phase=3 node=none reads=0 writes=0 misses=0 writebacks=0\n"
	"end phases=3 probes=0 dropped=0\n";

static char *delay_phase_lines[] = {
	"id=4 bench=chase policy=bind nodes=node:0 pagesize=4k scenario=calibration loads=1048576 walk_ns=320969672",
	"id=1 bench=chase policy=bind nodes=node:0 pagesize=4k scenario=chase loads=1048576 bound=0 walk_ns=2181293056",
	"id=1 bench=chase policy=bind nodes=node:1 pagesize=4k scenario=chase loads=1048576 bound=1 walk_ns=8236597023",
};

TEST(accounting_mode_and_delay_plugin_arg)
{
	struct topo *t = load(dram_pmem_yaml);
	struct sbuf sb = { 0 };
	enum acct_mode m = ACCT_OFF;
	char err[200];

	CHECK(acct_mode_parse("delay", &m, err, sizeof(err)) == 0 && m == ACCT_DELAY);
	CHECK(acct_mode_parse("count", &m, err, sizeof(err)) == 0 && m == ACCT_COUNT);
	CHECK(acct_mode_parse("off", &m, err, sizeof(err)) == 0 && m == ACCT_OFF);
	CHECK(acct_mode_parse("Delay", &m, err, sizeof(err)) == -1);
	CHECK_STR(err, "--memory-timing: 'Delay' is not off, count or delay");
	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(acct_plugin_arg(t, "p.so", MT_RULE_DOUBLED, "m.txt", ACCT_DELAY, &sb, err, sizeof(err)) == 0);
	CHECK(sb.s && strstr(sb.s, ",llc_line=64,delay=24,lat=0:81,lat=1:305") != NULL);
	CHECK(sb.s && sb.s[strlen(sb.s) - 1] == '5');
	sb_free(&sb);
	CHECK(acct_plugin_arg(t, "p.so", MT_RULE_DOUBLED, "m.txt", ACCT_OFF, &sb, err, sizeof(err)) == -1);
	sb_free(&sb);
	/* a node without HMAT figures has no latency to delay by */
	t->hmat[0][1].set = false;
	CHECK(acct_plugin_arg(t, "p.so", MT_RULE_DOUBLED, "m.txt", ACCT_DELAY, &sb, err, sizeof(err)) == -1);
	CHECK(strstr(err, "node 1 has no HMAT read latency") != NULL);
	sb_free(&sb);
	/* count mode does not need it */
	CHECK(acct_plugin_arg(t, "p.so", MT_RULE_DOUBLED, "m.txt", ACCT_COUNT, &sb, err, sizeof(err)) == 0);
	sb_free(&sb);
	free(t);
}

TEST(accounting_delay_report_rows_and_checks)
{
	struct topo *t = load(dram_pmem_yaml);
	struct sbuf rows = { 0 }, checks = { 0 };
	struct acct_file f;
	char err[256];

	CHECK(t != NULL);
	if (!t || acct_file_parse("m", delay_report, &f, err, sizeof(err))) {
		free(t);
		(*failures)++;
		return;
	}
	CHECK(f.delay && f.dilation == 24 && f.calib.done && f.calib.phase == 1);
	CHECK(f.lat_ns[1] == 305 && f.delay_ns[1] == 7014);
	CHECK_NEAR(f.calib.ns_per_miss, 306.013, 1e-9);
	acct_derive(&f, t, delay_phase_lines, 3, NULL, 0, &rows, &checks);
	CHECK(strstr(checks.s, "not ok") == NULL);
	CHECK(strstr(checks.s, "ok delay (experimental): calibrated by phase 1, 306.0 host ns per miss") != NULL);
	CHECK(strstr(checks.s, "ok node table: the plugin's 2 memory nodes are the topology's (ids, RAM ranges, memory-side caches, read latencies)") != NULL);
	/* 14126 kernel misses on node 0 in a walk of seconds (measured in a 13 s walk): 0.9867, enough in delay mode */
	CHECK(strstr(checks.s, "ok chase bound to node 1: 0.9867") != NULL);
	/* rows carry 6 significant digits */
	CHECK_NEAR(row_value(rows.s, "node:0", "guest_ns_per_load"), 2181293056.0 / 1048576, 0.01);
	CHECK_NEAR(row_value(rows.s, "node:1", "guest_ns_per_load"), 8236597023.0 / 1048576, 0.01);
	CHECK_NEAR(row_value(rows.s, "node:1", "delay_ratio_vs_node0"), 8236597023.0 / 2181293056, 1e-5);
	CHECK_NEAR(row_value(rows.s, "node:1", "guest_ns_per_load_undilated"), 8236597023.0 / 1048576 / 24, 0.001);
	CHECK(row_value(rows.s, "node:0", "delay_dilation") == 24);
	CHECK_NEAR(row_value(rows.s, "node:1", "delay_calib_ns_per_miss"), 306.013, 1e-9);
	/* a version 1 report says nothing of dropped waits: 0 */
	CHECK(row_value(rows.s, "node:1", "delay_dropped_ns") == 0);
	sb_free(&rows);
	sb_free(&checks);
	f.calib.dropped_ns = 777;
	acct_derive(&f, t, delay_phase_lines, 3, NULL, 0, &rows, &checks);
	CHECK(row_value(rows.s, "node:0", "delay_dropped_ns") == 777);
	/* the base node has no ratio against itself */
	CHECK(isnan(row_value(rows.s, "node:0", "delay_ratio_vs_node0")));
	/* the calibration walk is a labelled phase of its own, not a chase */
	CHECK(strstr(rows.s, "scenario=calibration metric=llc_misses value=1048875") != NULL);
	sb_free(&rows);
	sb_free(&checks);

	/* never calibrated, or a dilation too small for the calibration: the check fails */
	f.calib.done = false;
	acct_derive(&f, t, delay_phase_lines, 3, NULL, 0, &rows, &checks);
	CHECK(strstr(checks.s, "not ok delay (experimental): no calibration phase") != NULL);
	CHECK(isnan(row_value(rows.s, "node:1", "delay_calib_ns_per_miss")));
	sb_free(&rows);
	sb_free(&checks);
	f.calib.done = true;
	f.dilation = 3;
	acct_derive(&f, t, delay_phase_lines, 3, NULL, 0, &rows, &checks);
	CHECK(strstr(checks.s, "not ok delay (experimental): calibrated by phase 1") != NULL);
	sb_free(&rows);
	sb_free(&checks);
	/* count mode holds chases to 0.99 on the bound node */
	f.delay = false;
	acct_derive(&f, t, delay_phase_lines, 3, NULL, 0, &rows, &checks);
	CHECK(strstr(checks.s, "not ok chase bound to node 1: 0.9867") != NULL);
	CHECK(isnan(row_value(rows.s, "node:1", "delay_ratio_vs_node0")));
	CHECK(!isnan(row_value(rows.s, "node:1", "guest_ns_per_load")));
	sb_free(&rows);
	sb_free(&checks);
	acct_file_free(&f);
	free(t);
}

TEST(accounting_delay_report_strict)
{
	static const struct {
		const char *from, *to, *why;
	} cut[] = {
		/* a lat line without its delay line */
		{ "delay dilation=24 calibrated=1 calib_phase=1 calib_host_ns=320969672 calib_misses=1048875 calib_ns_per_miss=306.013\n",
		  "", "m:5: lat: malformed, without a delay line" },
		/* lat lines out of node order */
		{ "lat id=0 ns=81 delay_ns=1638\n", "", "m:6: lat: malformed, without a delay line, or not in node order" },
		{ "dilation=24", "dilation=0", "m:5: delay: malformed" },
		{ "calibrated=1", "calibrated=2", "m:5: delay: malformed" },
	};
	struct acct_file f;
	char err[256];

	for (size_t i = 0; i < sizeof(cut) / sizeof(*cut); i++) {
		char *text = strdup(delay_report), *at = strstr(text, cut[i].from);

		CHECK(at != NULL);
		if (!at) {
			free(text);
			continue;
		}
		memmove(at + strlen(cut[i].to), at + strlen(cut[i].from), strlen(at + strlen(cut[i].from)) + 1);
		memcpy(at, cut[i].to, strlen(cut[i].to));
		CHECK(acct_file_parse("m", text, &f, err, sizeof(err)) == -1);
		if (strncmp(err, cut[i].why, strlen(cut[i].why)))
			fprintf(stderr, "  case %zu: '%s'\n", i, err);
		CHECK(!strncmp(err, cut[i].why, strlen(cut[i].why)));
		free(text);
	}
}

TEST(accounting_report_round_trip_with_delay)
{
	struct mt_config cfg = { .map = { .n = 2, .node = { { 0, 0, 1ULL << 30 }, { 1, 1ULL << 30, 1ULL << 30 } },
					  .rule = MT_RULE_DOUBLED },
				 .llc_size = 28835840, .llc_ways = 11, .llc_line = 64, .out = "x",
				 .dilation = 24, .lat_ns = { 81, 305 } };
	struct mt_calib cal = { true, 1, 320969672, 1048875, 306.013, 4242 };
	struct mt_phase ph = { .id = 4, .closed = true };
	struct acct_file f;
	char *text = NULL, err[256];
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	CHECK(m != NULL);
	if (!m)
		return;
	CHECK(mt_report_write(m, &cfg, &cal, &ph, 1, NULL, 0, 0) == 0);
	fclose(m);
	CHECK(strstr(text, "\nlat id=1 ns=305 delay_ns=7014\n") != NULL);
	/* version 2: the waits dropped at phase boundaries, read back and a row of each chase */
	CHECK(strstr(text, " calib_ns_per_miss=306.013 dropped_ns=4242\n") != NULL);
	CHECK(acct_file_parse("m", text, &f, err, sizeof(err)) == 0);
	CHECK(f.delay && f.calib.misses == 1048875 && f.delay_ns[0] == 1638 && f.calib.dropped_ns == 4242);
	acct_file_free(&f);
	{
		char *cut = xasprintf("%s", text);

		*strstr(cut, " dropped_ns=4242") = '\0';
		strcat(cut, strstr(text, "\nlat id=0"));
		CHECK(acct_file_parse("m", cut, &f, err, sizeof(err)) == -1);
		CHECK(strstr(err, "m:5: delay: malformed") != NULL);
		free(cut);
	}
	free(text);
	/* uncalibrated: said so, the waits the dilated latencies */
	text = NULL;
	m = open_memstream(&text, &len);
	CHECK(m != NULL);
	if (!m)
		return;
	CHECK(mt_report_write(m, &cfg, NULL, &ph, 1, NULL, 0, 0) == 0);
	fclose(m);
	CHECK(strstr(text, "calibrated=0") != NULL && strstr(text, "lat id=0 ns=81 delay_ns=1944\n") != NULL);
	free(text);
}

TEST(accounting_node_table_against_topology)
{
	struct topo *t = load(dram_pmem_yaml);
	struct acct_file f;
	char err[256];

	CHECK(t != NULL);
	if (!t || acct_file_parse("m", delay_report, &f, err, sizeof(err))) {
		free(t);
		(*failures)++;
		return;
	}
	CHECK(acct_nodes_check(&f, t, err, sizeof(err)) == 0);
	f.node[1].size = 0x20000000;
	CHECK(acct_nodes_check(&f, t, err, sizeof(err)) == -1);
	CHECK_STR(err, "the plugin's node 1 at 0x40000000 size 0x20000000, the topology's node 1 at 0x40000000 size 0x40000000");
	f.node[1].size = 0x40000000;
	f.lat_ns[1] = 300;
	CHECK(acct_nodes_check(&f, t, err, sizeof(err)) == -1);
	CHECK(strstr(err, "delays node 1's misses by a latency of 300 ns") != NULL);
	f.lat_ns[1] = 305;
	f.nnodes = 1;
	CHECK(acct_nodes_check(&f, t, err, sizeof(err)) == -1);
	CHECK_STR(err, "the plugin has 1 memory nodes, the topology more (node 1)");
	f.nnodes = 2;
	{
		struct sbuf rows = { 0 }, checks = { 0 };

		f.node[0].id = 5;
		acct_derive(&f, t, delay_phase_lines, 3, NULL, 0, &rows, &checks);
		CHECK(strstr(checks.s, "not ok node table: the plugin's node 5") != NULL);
		sb_free(&rows);
		sb_free(&checks);
	}
	acct_file_free(&f);
	free(t);
}

TEST(accounting_plan_warns_when_nothing_marks_a_phase)
{
	const char *none[] = { "checks", "oom", "model" };
	const char *lat[] = { "checks", "latency" };
	const char *chase[] = { "chase" };
	char buf[300];

	CHECK(plan_memtiming_warning(ACCT_COUNT, none, 3, 0, buf, sizeof(buf)) == 1);
	CHECK(strstr(buf, "warning: --memory-timing count: no benchmark of the plan marks a phase") == buf);
	CHECK(plan_memtiming_warning(ACCT_COUNT, NULL, 0, 0, buf, sizeof(buf)) == 1);
	CHECK(plan_memtiming_warning(ACCT_OFF, none, 3, 0, buf, sizeof(buf)) == 0);
	CHECK(plan_memtiming_warning(ACCT_COUNT, lat, 2, 0, buf, sizeof(buf)) == 0);
	/* a workload marks its run */
	CHECK(plan_memtiming_warning(ACCT_COUNT, none, 3, 1, buf, sizeof(buf)) == 0);
	/* delay: calibrated by chase only */
	CHECK(plan_memtiming_warning(ACCT_DELAY, lat, 2, 0, buf, sizeof(buf)) == 1);
	CHECK(strstr(buf, "no chase in the plan, so no calibration") != NULL);
	CHECK(plan_memtiming_warning(ACCT_DELAY, chase, 1, 0, buf, sizeof(buf)) == 0);
	CHECK(plan_memtiming_warning(ACCT_DELAY, none, 3, 0, buf, sizeof(buf)) == 1);
	CHECK(strstr(buf, "--memory-timing delay: no benchmark") != NULL);
}

/* topologies/memside-cache.yaml: a DRAM cache in front of each PMEM node */
static const char memside_yaml[] =
	"name: m\ncpus: 2\nnodes:\n"
	"  - {id: 0, kind: pmem, memory: 1G, cpus: 0, read_latency_ns: 305, write_latency_ns: 94,"
	" read_bandwidth: 39.4GB/s, write_bandwidth: 13.9GB/s,"
	" cache: [{level: 1, size: 256M, associativity: direct, policy: write-back, line: 64,"
	" read_latency_ns: 81, write_latency_ns: 86, read_bandwidth: 100GB/s, write_bandwidth: 57GB/s}]}\n"
	"  - {id: 1, kind: pmem, memory: 1G, cpus: 1, read_latency_ns: 305, write_latency_ns: 94,"
	" read_bandwidth: 39.4GB/s, write_bandwidth: 13.9GB/s,"
	" cache: [{level: 1, size: 256M, associativity: complex, policy: write-through, line: 64}]}\n"
	"distances:\n  pairs:\n    - [0, 1, 21]\n"
	"hmat:\n"
	"  - {initiator: 0, target: 1, read_latency_ns: 400, write_latency_ns: 180, read_bandwidth: 20GB/s, write_bandwidth: 8GB/s}\n"
	"  - {initiator: 1, target: 0, read_latency_ns: 400, write_latency_ns: 180, read_bandwidth: 20GB/s, write_bandwidth: 8GB/s}\n";

/*
 * Each node's level-1 memory-side cache reaches the plugin; with delay, a
 * cache priced from CPU 0's node (node 0's) its read latency, msc_lat=.
 */
TEST(accounting_msc_plugin_arg)
{
	struct topo *t = load(memside_yaml);
	struct sbuf sb = { 0 };
	struct mt_msc_cfg c;
	char err[256];

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(acct_msc_of(t, 0, &c) && c.size == 256 << 20 && c.ways == 1 && c.line == 64 && !c.write_through);
	/* complex indexing: an approximation of as many ways */
	CHECK(acct_msc_of(t, 1, &c) && c.ways == ACCT_MSC_WAYS_NOT_DIRECT && c.write_through);
	CHECK(acct_plugin_arg(t, "p.so", MT_RULE_DOUBLED, "o", ACCT_COUNT, &sb, err, sizeof(err)) == 0);
	CHECK(sb.s && strstr(sb.s, ",llc_line=64,msc=0:268435456:1:64:wb,msc=1:268435456:16:64:wt") != NULL);
	sb_free(&sb);
	CHECK(acct_plugin_arg(t, "p.so", MT_RULE_PLAIN, "o", ACCT_DELAY, &sb, err, sizeof(err)) == 0);
	CHECK(sb.s && strstr(sb.s, ",msc=1:268435456:16:64:wt,delay=24,lat=0:305,lat=1:400,msc_lat=0:81") != NULL);
	/* node 1's cache has no figures from CPU 0's node: its hits wait the node's latency */
	CHECK(sb.s && strstr(sb.s, "msc_lat=1") == NULL);
	sb_free(&sb);
	/* a cache the plugin cannot hold names the node and the key */
	t->node[0].cache[0].line = 8;
	t->node[0].cache[0].size = 1ULL << 29;
	CHECK(acct_plugin_arg(t, "p.so", MT_RULE_DOUBLED, "o", ACCT_COUNT, &sb, err, sizeof(err)) == -1);
	CHECK(strstr(err, "node 0's memory-side cache cannot be simulated: msc_size=536870912: more than 2^24 sets") != NULL);
	sb_free(&sb);
	free(t);
}

static const char msc_report[] =
	"tierlab-memtiming 2\n"
	"config rule=doubled llc_size=28835840 llc_ways=11 llc_line=64 nodes=2\n"
	"node id=0 start=0x0 size=0x40000000\n"
	"node id=1 start=0x40000000 size=0x40000000\n"
	"msc id=0 size=268435456 ways=1 line=64 policy=wb\n"
	"msc id=1 size=268435456 ways=16 line=64 policy=wt\n"
	"phase seq=1 id=1 closed=1 io=0\n"
	"count phase=1 node=0 reads=2000 writes=0 misses=2000 writebacks=100 msc_hits=1000 msc_writebacks=10 \n"
	"count phase=1 node=1 reads=0 writes=0 misses=0 writebacks=0 msc_hits=0 msc_writebacks=0\n"
	"count phase=1 node=none reads=0 writes=0 misses=0 writebacks=0 msc_hits=0 msc_writebacks=0\n"
	"phase seq=2 id=1 closed=1 io=0\n"
	"count phase=2 node=0 reads=0 writes=0 misses=0 writebacks=0 msc_hits=0 msc_writebacks=0\n"
	"count phase=2 node=1 reads=1000 writes=0 misses=1000 writebacks=50 msc_hits=400 msc_writebacks=50\n"
	"count phase=2 node=none reads=0 writes=0 misses=0 writebacks=0 msc_hits=0 msc_writebacks=0\n"
	"end phases=2 probes=0 dropped=0\n";

static char *msc_phase_lines[] = {
	"id=1 bench=chase policy=bind nodes=node:0 pagesize=4k scenario=chase loads=2000 bound=0",
	"id=1 bench=chase policy=bind nodes=node:1 pagesize=4k scenario=chase loads=1000 bound=1",
};

/*
 * Hits in node 0's cache (initiator CPU 0's node, figures given) cost its
 * 81/86 ns; node 1's cache has no figures from CPU 0's node: counted, not
 * priced, and a check says so.
 */
TEST(accounting_msc_rows_and_price)
{
	struct topo *t = load(memside_yaml);
	struct sbuf rows = { 0 }, checks = { 0 };
	struct acct_file f;
	char err[256], *text;

	CHECK(t != NULL);
	if (!t)
		return;
	/* the trailing space above is a malformed line: the parser is strict */
	CHECK(acct_file_parse("m", msc_report, &f, err, sizeof(err)) == -1);
	CHECK_STR(err, "m:8: count: malformed, outside a phase, or of an unknown node");
	text = xasprintf("%s", msc_report);
	*strstr(text, " \n") = '\n';
	memmove(strstr(text, "\n\n") + 1, strstr(text, "\n\n") + 2, strlen(strstr(text, "\n\n") + 2) + 1);
	CHECK(acct_file_parse("m", text, &f, err, sizeof(err)) == 0);
	CHECK(f.version == 2 && f.msc[0][0].size == 256 << 20 && f.msc[0][0].ways == 1 && !f.msc[0][0].write_through);
	CHECK(f.msc[1][0].ways == 16 && f.msc[1][0].write_through);
	CHECK(f.phase[0].count[0].msc_hits[0] == 1000 && f.phase[0].count[0].msc_writebacks[0] == 10);
	acct_derive(&f, t, msc_phase_lines, 2, NULL, 0, &rows, &checks);
	CHECK(strstr(checks.s, "ok node table: the plugin's 2 memory nodes are the topology's (ids, RAM ranges, memory-side caches)") != NULL);
	CHECK(strstr(checks.s, "ok memory-side cache of node 0 (268435456 bytes, 1 way, 64-byte lines, write-back): simulated, one cache shared by the vCPUs; a hit is priced at its HMAT figures, 81 ns read, 86 ns write") != NULL);
	CHECK(strstr(checks.s, "ok memory-side cache of node 1 (268435456 bytes, 16 ways, 64-byte lines, write-through): simulated, one cache shared by the vCPUs, its hits counted but not priced") != NULL);
	CHECK(row_value(rows.s, "node:0", "msc_hits_node0") == 1000);
	CHECK(row_value(rows.s, "node:0", "msc_misses_node0") == 1000);
	CHECK(row_value(rows.s, "node:0", "msc_writebacks_node0") == 10);
	CHECK_NEAR(row_value(rows.s, "node:0", "msc_hit_share_node0"), 0.5, 1e-9);
	/* 1000 x 81 + 1000 x 305 + 100 x 86 (into the cache) + 10 x 94 (to PMEM) */
	CHECK_NEAR(row_value(rows.s, "node:0", "access_cost_ns"), 81000 + 305000 + 8600 + 940, 1e-6);
	CHECK_NEAR(row_value(rows.s, "node:0", "miss_latency_ns"), (81000 + 305000) / 2000.0, 1e-6);
	/* node 1: the memory figures from CPU 0's node, the cache not priced */
	CHECK_NEAR(row_value(rows.s, "node:1", "access_cost_ns"), 1000 * 400 + 50 * 180, 1e-6);
	CHECK(row_value(rows.s, "node:1", "msc_hits_node1") == 400);
	CHECK(isnan(row_value(rows.s, "node:1", "msc_hits_node0")) || row_value(rows.s, "node:1", "msc_hits_node0") == 0);
	sb_free(&rows);
	sb_free(&checks);
	/* the plugin's caches against the topology's */
	CHECK(acct_nodes_check(&f, t, err, sizeof(err)) == 0);
	f.msc[0][0].ways = 4;
	CHECK(acct_nodes_check(&f, t, err, sizeof(err)) == -1);
	CHECK_STR(err, "the plugin's memory-side cache of node 0: size 268435456 ways 4 line 64 wb, the topology's: size 268435456 ways 1 line 64 wb");
	acct_file_free(&f);
	/* more hits than misses cannot be */
	{
		char *bad = xasprintf("%s", text);

		memcpy(strstr(bad, "msc_hits=400"), "msc_hits=999", 12);
		memcpy(strstr(bad, "misses=1000 writebacks=50"), "misses=0100 writebacks=50", 25);
		CHECK(acct_file_parse("m", bad, &f, err, sizeof(err)) == -1);
		CHECK_STR(err, "m:13: count: more memory-side cache hits than misses, or counts of a cache the node has not");
		free(bad);
	}
	free(text);
	free(t);
}

/* chase's memory-side cache walk: from half a cycle of hits to one (and 1 %). */
TEST(accounting_msc_chase_walk_check)
{
	static char *lines[] = {
		"id=1 bench=chase policy=bind nodes=node:0 pagesize=4k scenario=msc loads=2000 bound=0",
		"id=1 bench=chase policy=bind nodes=node:1 pagesize=4k scenario=chase loads=1000 bound=1",
	};
	struct topo *t = load(memside_yaml);
	struct sbuf rows = { 0 }, checks = { 0 };
	struct acct_file f;
	char err[256], *text = xasprintf("%s", msc_report);

	*strstr(text, " \n") = '\0';
	{
		char *fixed = xasprintf("%s\n%s", text, text + strlen(text) + 2);

		free(text);
		text = fixed;
	}
	CHECK(t != NULL && acct_file_parse("m", text, &f, err, sizeof(err)) == 0);
	if (!t || f.nphases != 2) {
		free(t);
		free(text);
		return;
	}
	acct_derive(&f, t, lines, 2, NULL, 0, &rows, &checks);
	CHECK(strstr(checks.s, "ok chase bound to node 0, memory-side cache walk: 1000 hits in its cache for 2 cycles of 1000 loads") != NULL);
	/* the walk is not the chase whose cost per load is checked */
	CHECK(strstr(rows.s, "nodes=node:1 pagesize=4k scenario=chase metric=access_ratio_vs_node0") == NULL);
	sb_free(&rows);
	sb_free(&checks);
	f.phase[0].count[0].msc_hits[0] = 400;
	acct_derive(&f, t, lines, 2, NULL, 0, &rows, &checks);
	CHECK(strstr(checks.s, "not ok chase bound to node 0, memory-side cache walk: 400 hits") != NULL);
	sb_free(&rows);
	sb_free(&checks);
	/* the kernel's own accesses hit too, up to 1 % more; past that the first cycle hit */
	f.phase[0].count[0].msc_hits[0] = 1010;
	acct_derive(&f, t, lines, 2, NULL, 0, &rows, &checks);
	CHECK(strstr(checks.s, "ok chase bound to node 0, memory-side cache walk: 1010 hits") != NULL);
	sb_free(&rows);
	sb_free(&checks);
	f.phase[0].count[0].msc_hits[0] = 1011;
	acct_derive(&f, t, lines, 2, NULL, 0, &rows, &checks);
	CHECK(strstr(checks.s, "not ok chase bound to node 0, memory-side cache walk: 1011 hits") != NULL);
	sb_free(&rows);
	sb_free(&checks);
	acct_file_free(&f);
	free(text);
	free(t);
}

/*
 * Whichever address rule labtool gave the plugin, a wrong one must fail the
 * per-boot probe check wherever it reads a node wrong.  For every shipped
 * topology and each pair of rules (QEMU reports under one, the plugin reads
 * under another): a probe in the middle of each memory node, what QEMU
 * reports for it (its RAM offset o, plain; o plus its block's offset,
 * doubled; its guest-physical address, worked out here from the pc
 * machine's layout, physical), read as the plugin reads it (its arguments
 * from acct_plugin_arg through mt_parse_args, then mt_map_addr), checked
 * against the pagemap address the guest would print.  Under the right rule
 * every probe passes; under a wrong one exactly the probes read wrong fail:
 * with doubled on either side every node's but the one at RAM offset 0
 * (where the rules agree); between physical and plain the nodes whose
 * guest-physical address is not their RAM offset (a DIMM, boot memory
 * past the split), so none on a topology whose RAM all sits below the hole
 * (there the two read alike and count right).
 */
TEST(accounting_wrong_address_rule_caught_by_probes)
{
	static const char *const files[] = {
		"topologies/dram-pmem.yaml", "topologies/three-tier.yaml", "topologies/dram-hbm.yaml",
		"topologies/2s-dram-pmem.yaml", "topologies/2s2c-dram-pmem.yaml",
		"topologies/dram-only-2s.yaml", "topologies/memside-cache.yaml",
	};
	size_t caught = 0;

	for (size_t fi = 0; fi < sizeof(files) / sizeof(files[0]); fi++)
		for (int qemu = 0; qemu < 3; qemu++)
			for (int given = 0; given < 3; given++) {
				struct topo *t = calloc(1, sizeof(*t));
				struct acct_file f = { 0 };
				struct sbuf rows = { 0 }, checks = { 0 }, arg = { 0 };
				struct mt_config cfg;
				char *lines[MT_MAX_NODES] = { 0 }, *p, *argv[64], *save = NULL, err[256];
				size_t nok = 0, nbad = 0, nprobes = 0, want_bad = 0;
				int argc = 0;

				if (!t || topo_load(files[fi], t, stderr) ||
				    acct_plugin_arg(t, "/p.so", (enum mt_rule)given, "/o", ACCT_COUNT, &arg, err,
						    sizeof(err))) {
					CHECK(!"topology loads, plugin argument made");
					free(t);
					sb_free(&arg);
					continue;
				}
				for (char *w = strtok_r(arg.s, ",", &save); w && argc < 64; w = strtok_r(NULL, ",", &save))
					if (strncmp(w, "file=", 5))
						argv[argc++] = w;
				if (mt_parse_args(argc, argv, &cfg, err, sizeof(err))) {
					fprintf(stderr, "  %s, rule %s: the plugin refuses its argument: %s\n",
						files[fi], mt_rule_names[given], err);
					(*failures)++;
					sb_free(&arg);
					free(t);
					continue;
				}
				f.rule = (enum mt_rule)given;
				f.probe = calloc(MT_MAX_NODES, sizeof(*f.probe));
				for (int i = 0; i < t->nnodes && f.probe; i++) {
					uint64_t o, raw, off = 0, gpa, at = topo_ram_offset(t, i);
					bool wrong, want_wrong;
					int k;

					if (!t->node[i].mem_bytes)
						continue;
					f.node[f.nnodes++] = (struct mt_node){ i, at, t->node[i].mem_bytes };
					o = at + t->node[i].mem_bytes / 2;
					/* the guest's pagemap: the RAM offset as a guest-physical address */
					gpa = t->node[i].zone == TOPO_ZONE_movable ? topo_dimm_base(t) + o :
					      o < 0xc0000000ULL || topo_boot_mem(t) < 0xe0000000ULL ? o :
						o - 0xc0000000ULL + 4 * GIB;
					/* what QEMU reports under its rule, read under the plugin's */
					raw = qemu == MT_RULE_PLAIN ? o : qemu == MT_RULE_DOUBLED ? o + at : gpa;
					k = mt_map_addr(&cfg.map, raw, &off);
					f.probe[nprobes] = (struct mt_probe){ 0x1000, raw, k < 0 ? 0 : off,
									     k < 0 ? -1 : cfg.map.node[k].id };
					lines[nprobes++] = xasprintf("bench=chase nodes=node:%d vaddr=0x1000 gpa=0x%llx node=%d",
								     i, (unsigned long long)gpa, i);
					wrong = k < 0 || cfg.map.node[k].id != i || off != o;
					want_wrong = qemu == given ? false :
						     qemu == MT_RULE_DOUBLED || given == MT_RULE_DOUBLED ? at != 0 :
						     gpa != o;
					want_bad += wrong;
					if (wrong != want_wrong) {
						fprintf(stderr, "  %s, QEMU %s, plugin %s: node %d read %s\n", files[fi],
							mt_rule_names[qemu], mt_rule_names[given], i,
							wrong ? "wrong" : "right");
						(*failures)++;
					}
				}
				f.nprobes = nprobes;
				acct_derive(&f, t, NULL, 0, lines, nprobes, &rows, &checks);
				for (p = checks.s; p && (p = strstr(p, "probe ")); p++)
					if (p >= checks.s + 3 && !strncmp(p - 3, "ok ", 3))
						(p >= checks.s + 7 && !strncmp(p - 7, "not ok ", 7)) ? nbad++ : nok++;
				if (nbad != want_bad || nok + nbad != nprobes) {
					fprintf(stderr, "  %s, QEMU %s, plugin %s: %zu probes ok, %zu not, want %zu not\n",
						files[fi], mt_rule_names[qemu], mt_rule_names[given], nok, nbad, want_bad);
					(*failures)++;
				}
				caught += nbad;
				for (size_t k = 0; k < nprobes; k++)
					free(lines[k]);
				sb_free(&rows);
				sb_free(&checks);
				sb_free(&arg);
				free(f.probe);
				free(t);
			}
	/* the wrong rules are caught somewhere: the loop above is not vacuous */
	CHECK(caught > 0);
}

/*
 * Delay with memory-side caches: the plugin's msc_lat lines (version 3)
 * read back, checked against the topology's priced caches (node 0's, 81
 * ns; node 1's has no figures from CPU 0's node, so none), and in the
 * calibration check's feasibility.
 */
TEST(accounting_delay_with_msc_round_trip)
{
	struct topo *t = load(memside_yaml);
	struct mt_config cfg = { .map = { .n = 2, .node = { { 0, 0, 1ULL << 30 }, { 1, 1ULL << 30, 1ULL << 30 } },
					  .rule = MT_RULE_DOUBLED },
				 .llc_size = 28835840, .llc_ways = 11, .llc_line = 64, .out = "x",
				 .dilation = 24, .lat_ns = { 305, 400 }, .msc_lat_ns = { 81, 0 }, .msc_sim = true };
	struct mt_calib cal = { true, 1, 320969672, 1048875, 306.013, 0 };
	struct mt_phase ph = { .id = 4, .closed = true };
	struct sbuf rows = { 0 }, checks = { 0 };
	struct acct_file f;
	char *text = NULL, err[256];
	size_t len = 0;
	FILE *m;

	CHECK(t != NULL);
	if (!t)
		return;
	acct_msc_of(t, 0, &cfg.msc[0][0]);
	acct_msc_of(t, 1, &cfg.msc[1][0]);
	m = open_memstream(&text, &len);
	CHECK(m != NULL);
	if (!m) {
		free(t);
		return;
	}
	CHECK(mt_report_write(m, &cfg, &cal, &ph, 1, NULL, 0, 0) == 0);
	fclose(m);
	CHECK(acct_file_parse("m", text, &f, err, sizeof(err)) == 0);
	CHECK(f.version == 3 && f.msc_lat_ns[0] == 81 && f.msc_lat_ns[1] == 0);
	CHECK(f.msc_delay_ns[0] == mt_delay_ns(24, 81, 306.013));
	CHECK(acct_nodes_check(&f, t, err, sizeof(err)) == 0);
	acct_derive(&f, t, NULL, 0, NULL, 0, &rows, &checks);
	CHECK(strstr(checks.s, "ok delay (experimental): calibrated by phase 1, 306.0 host ns per miss over 1048875 misses; dilation 24 x every node's latency and every priced memory-side cache's exceeds it") != NULL);
	sb_free(&rows);
	sb_free(&checks);
	/* a cache latency the topology does not give, or none where it does */
	f.msc_lat_ns[0] = 86;
	CHECK(acct_nodes_check(&f, t, err, sizeof(err)) == -1);
	CHECK_STR(err, "the plugin delays a hit in node 0's memory-side cache by 86 ns (0: the node's latency), the topology prices it at 81 ns");
	f.msc_lat_ns[0] = 0;
	CHECK(acct_nodes_check(&f, t, err, sizeof(err)) == -1);
	f.msc_lat_ns[0] = 81;
	f.msc_lat_ns[1] = 81;
	CHECK(acct_nodes_check(&f, t, err, sizeof(err)) == -1);
	CHECK_STR(err, "the plugin delays a hit in node 1's memory-side cache by 81 ns (0: the node's latency), the topology prices it at 0 ns");
	acct_file_free(&f);
	/* an msc_lat line of a node without a cache, or before the lat lines: malformed */
	{
		char *bad = xasprintf("%s", text);

		memcpy(strstr(bad, "msc_lat id=0"), "msc_lat id=5", 12);
		CHECK(acct_file_parse("m", bad, &f, err, sizeof(err)) == -1);
		CHECK(strstr(err, "msc_lat: malformed") != NULL);
		free(bad);
	}
	free(text);
	free(t);
}

/* memside-cache.yaml's node 0 with a level 2 (a 512 MiB write-back cache, no figures) */
static const char memside2_yaml[] =
	"name: m2\ncpus: 1\nnodes:\n"
	"  - {id: 0, kind: pmem, memory: 1G, cpus: 0, read_latency_ns: 305, write_latency_ns: 94,"
	" read_bandwidth: 39.4GB/s, write_bandwidth: 13.9GB/s,"
	" cache: [{level: 1, size: 256M, associativity: direct, policy: write-back, line: 64,"
	" read_latency_ns: 81, write_latency_ns: 86, read_bandwidth: 100GB/s, write_bandwidth: 57GB/s},"
	" {level: 2, size: 512M, associativity: complex, policy: write-back, line: 64}]}\n";

static const char msc2_report[] =
	"tierlab-memtiming 3\n"
	"config rule=doubled llc_size=28835840 llc_ways=11 llc_line=64 nodes=1 msc_sim=1\n"
	"node id=0 start=0x0 size=0x40000000\n"
	"msc id=0 level=1 size=268435456 ways=1 line=64 policy=wb\n"
	"msc id=0 level=2 size=536870912 ways=16 line=64 policy=wb\n"
	"phase seq=1 id=1 closed=1 io=0\n"
	"count phase=1 node=0 reads=2000 writes=0 misses=2000 writebacks=100 msc_hits=1000 msc_writebacks=10 msc2_hits=600 msc2_writebacks=4 msc3_hits=0 msc3_writebacks=0\n"
	"count phase=1 node=none reads=0 writes=0 misses=0 writebacks=0 msc_hits=0 msc_writebacks=0 msc2_hits=0 msc2_writebacks=0 msc3_hits=0 msc3_writebacks=0\n"
	"end phases=1 probes=0 dropped=0\n";

/*
 * Levels 2 and 3: the plugin gets msc2= (and msc3=), its report's level
 * lines and counts are read back, checked against the topology, and give
 * msc2_* rows; a level-2 hit is priced as the node's memory (figures are
 * for level 1 only), and a check line says so.
 */
TEST(accounting_msc_levels)
{
	static char *lines[] = { "id=1 bench=chase policy=bind nodes=node:0 pagesize=4k scenario=chase loads=2000 bound=0" };
	struct topo *t = load(memside2_yaml);
	struct sbuf sb = { 0 }, rows = { 0 }, checks = { 0 };
	struct mt_msc_cfg c;
	struct acct_file f;
	char err[256];

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(acct_msc_level_of(t, 0, 2, &c) && c.size == 512 << 20 && c.ways == ACCT_MSC_WAYS_NOT_DIRECT);
	CHECK(!acct_msc_level_of(t, 0, 3, &c));
	CHECK(acct_plugin_arg(t, "p.so", MT_RULE_DOUBLED, "o", ACCT_COUNT, &sb, err, sizeof(err)) == 0);
	CHECK(sb.s && strstr(sb.s, ",msc=0:268435456:1:64:wb,msc2=0:536870912:16:64:wb") != NULL);
	sb_free(&sb);
	CHECK(acct_file_parse("m", msc2_report, &f, err, sizeof(err)) == 0);
	CHECK(f.msc[0][1].size == 512 << 20 && f.phase[0].count[0].msc_hits[1] == 600);
	CHECK(acct_nodes_check(&f, t, err, sizeof(err)) == 0);
	acct_derive(&f, t, lines, 1, NULL, 0, &rows, &checks);
	CHECK(strstr(checks.s, "ok memory-side cache of node 0, level 2 (536870912 bytes, 16 ways, 64-byte lines, write-back): simulated behind level 1, one cache shared by the vCPUs; its hits counted (msc2_* rows), priced as the node's memory") != NULL);
	CHECK(row_value(rows.s, "node:0", "msc_hits_node0") == 1000);
	CHECK(row_value(rows.s, "node:0", "msc2_hits_node0") == 600);
	/* level 2 sees level 1's 1000 misses: 600 hits, 400 on to the memory */
	CHECK(row_value(rows.s, "node:0", "msc2_misses_node0") == 400);
	CHECK_NEAR(row_value(rows.s, "node:0", "msc2_hit_share_node0"), 0.6, 1e-9);
	CHECK(row_value(rows.s, "node:0", "msc2_writebacks_node0") == 4);
	/* 1000 x 81 + 1000 x 305 (level 2's hits as memory) + 100 x 86 + 10 x 94 */
	CHECK_NEAR(row_value(rows.s, "node:0", "access_cost_ns"), 81000 + 305000 + 8600 + 940, 1e-6);
	sb_free(&rows);
	sb_free(&checks);
	/* a level the topology does not have */
	f.msc[0][1].ways = 1;
	CHECK(acct_nodes_check(&f, t, err, sizeof(err)) == -1);
	CHECK_STR(err, "the plugin's memory-side cache of node 0, level 2: size 536870912 ways 1 line 64 wb, the topology's: size 536870912 ways 16 line 64 wb");
	acct_file_free(&f);
	/* strict: level 2's hits beyond level 1's misses, a level 2 without level 1 */
	{
		char *bad = xasprintf("%s", msc2_report);

		/* 2000 misses: 1900 served by level 1 leave level 2 100, not its 600 */
		memcpy(strstr(bad, "msc_hits=1000"), "msc_hits=1900", 13);
		CHECK(acct_file_parse("m", bad, &f, err, sizeof(err)) == -1);
		CHECK_STR(err, "m:7: count: more memory-side cache hits than misses, or counts of a cache the node has not");
		free(bad);
		bad = xasprintf("%s", msc2_report);
		memcpy(strstr(bad, "msc2_hits=600"), "msc2_hits=601", 13);
		memcpy(strstr(bad, "msc_hits=1000"), "msc_hits=1400", 13);
		CHECK(acct_file_parse("m", bad, &f, err, sizeof(err)) == -1);
		CHECK_STR(err, "m:7: count: more memory-side cache hits than misses, or counts of a cache the node has not");
		free(bad);
		bad = xasprintf("%s", msc2_report);
		memcpy(strstr(bad, "msc id=0 level=1"), "msc id=0 level=3", 16);
		CHECK(acct_file_parse("m", bad, &f, err, sizeof(err)) == -1);
		CHECK_STR(err, "m:4: msc: of an unknown node, repeated, or a level without the one in front of it");
		free(bad);
	}
	free(t);
}

/* TIERLAB_MEMTIMING_MSC_SIM=0: msc_sim=0 to the plugin, and its report's boot says the caches went unsimulated */
TEST(accounting_msc_sim_off)
{
	struct topo *t = load(memside2_yaml);
	struct sbuf sb = { 0 }, rows = { 0 }, checks = { 0 };
	struct acct_file f;
	char err[256], *text;

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(setenv("TIERLAB_MEMTIMING_MSC_SIM", "0", 1) == 0);
	CHECK(acct_plugin_arg(t, "p.so", MT_RULE_DOUBLED, "o", ACCT_COUNT, &sb, err, sizeof(err)) == 0);
	CHECK(sb.s && strstr(sb.s, ",msc2=0:536870912:16:64:wb,msc_sim=0") != NULL);
	sb_free(&sb);
	unsetenv("TIERLAB_MEMTIMING_MSC_SIM");
	CHECK(acct_plugin_arg(t, "p.so", MT_RULE_DOUBLED, "o", ACCT_COUNT, &sb, err, sizeof(err)) == 0);
	CHECK(sb.s && strstr(sb.s, "msc_sim") == NULL);
	sb_free(&sb);
	text = xasprintf("%s", msc2_report);
	memcpy(strstr(text, "msc_sim=1"), "msc_sim=0", 9);
	CHECK(acct_file_parse("m", text, &f, err, sizeof(err)) == 0);
	CHECK(!f.msc_sim);
	acct_derive(&f, t, NULL, 0, NULL, 0, &rows, &checks);
	CHECK(strstr(checks.s, "not ok memory-side caches of node 0: not simulated (msc_sim=0") != NULL);
	acct_file_free(&f);
	sb_free(&rows);
	sb_free(&checks);
	memcpy(strstr(text, "msc_sim=0"), "msc_sim=2", 9);
	CHECK(acct_file_parse("m", text, &f, err, sizeof(err)) == -1);
	CHECK_STR(err, "m:2: config: malformed, repeated or a node count outside 1..16");
	free(text);
	free(t);
}
