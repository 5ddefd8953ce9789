/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machine model: what a topologies/NAME.yaml file describes, after
 * validation.  Every consumer (QEMU arguments, guest plan, the guest check,
 * the report) reads this struct, never the YAML.  The schema is documented
 * in topologies/README.md.
 */
#ifndef TIERLAB_TOPOLOGY_H
#define TIERLAB_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TOPO_MAX_NODES 16
#define TOPO_MAX_CPUS 64	/* a CPU set is one uint64_t */
#define TOPO_MAX_CACHE 3	/* ACPI HMAT memory-side cache levels */
#define TOPO_NAME_MAX 64
#define TOPO_DESC_MAX 200
#define TOPO_MAX_FILE (1 << 20)	/* bigger inputs are refused unread */

/* The host limit on total guest memory unless TIERLAB_MAX_GUEST_MEM says. */
#define TOPO_DEFAULT_MAX_GUEST_MEM (8ULL << 30)

#define TOPO_KINDS(X) X(dram) X(pmem) X(hbm) X(cxl)
enum topo_kind {
#define X(k) TOPO_KIND_##k,
	TOPO_KINDS(X)
#undef X
	TOPO_KIND_NR
};
extern const char *const topo_kind_names[TOPO_KIND_NR];

/* Values as QEMU's -numa hmat-cache spells them. */
enum topo_assoc { TOPO_ASSOC_none, TOPO_ASSOC_direct, TOPO_ASSOC_complex };
enum topo_policy { TOPO_POLICY_none, TOPO_POLICY_write_back, TOPO_POLICY_write_through };
extern const char *const topo_assoc_names[3];
extern const char *const topo_policy_names[3];

/*
 * Where the guest's kernel puts a node's memory.  normal: boot memory
 * (QEMU -numa memdev=; ZONE_DMA32/NORMAL).  movable: what dax/kmem gives a
 * PMEM or CXL node, a CPU-less node with no memory at boot whose memory is
 * a coldplugged pc-dimm, added through ACPI memory hotplug and onlined
 * ZONE_MOVABLE by the guest (topologies/README.md, "Zones").
 */
enum topo_zone { TOPO_ZONE_normal, TOPO_ZONE_movable };
extern const char *const topo_zone_names[2];

/* A movable node's SRAT anchor (an NVDIMM, never onlined): its size. */
#define TOPO_ANCHOR_SIZE (128ULL << 20)

/* One initiator -> target HMAT entry (hierarchy "memory"). */
struct topo_perf {
	bool set;
	uint32_t read_latency_ns, write_latency_ns;
	uint32_t read_bandwidth_mbps, write_bandwidth_mbps;	/* MB/s */
};

struct topo_cache {
	int level;		/* 1..3, in order */
	uint64_t size;		/* bytes */
	enum topo_assoc assoc;
	enum topo_policy policy;
	uint32_t line;		/* bytes */
	/*
	 * Its access figures from the node's initiator (level 1 only; optional).
	 * Not for QEMU or the guest: the guest's sysfs shows a cache's size
	 * only, so these reach the cost model through the plan.
	 */
	struct topo_perf perf;
};

struct topo_node {
	enum topo_kind kind;
	uint64_t mem_bytes;	/* 0 for a memory-less CPU node */
	uint64_t cpus;		/* bit i = guest CPU i */
	int initiator;		/* itself for CPU nodes; nearest CPU node otherwise */
	int ncache;
	struct topo_cache cache[TOPO_MAX_CACHE];
	unsigned int hugetlb_pages;	/* 2 MiB pages to reserve at boot */
	enum topo_zone zone;	/* normal for a node without memory */
};

struct topo {
	char name[TOPO_NAME_MAX + 1];
	char description[TOPO_DESC_MAX + 1];
	int ncpus;
	int nnodes;
	struct topo_node node[TOPO_MAX_NODES];
	uint8_t distance[TOPO_MAX_NODES][TOPO_MAX_NODES];	/* SLIT */
	bool has_hmat;
	struct topo_perf hmat[TOPO_MAX_NODES][TOPO_MAX_NODES];	/* [initiator][target] */
	/*
	 * lab.llc: the LLC the memory-timing plugin simulates per vCPU, all
	 * three given or all 0 (then plugin/memtiming.h's defaults, a real part)
	 */
	uint64_t llc_size;
	uint32_t llc_ways, llc_line;
};

/*
 * Parse and validate.  Returns 0, EXIT_INVALID (every problem printed to
 * err as one "FILE:LINE:COL: path: message" line), EXIT_NOINPUT, or
 * EXIT_SOFTWARE when memory ran out (the file may be fine).  The
 * limit on total guest memory is max_mem bytes; 0 means "the environment's
 * TIERLAB_MAX_GUEST_MEM, else TOPO_DEFAULT_MAX_GUEST_MEM".
 */
int topo_load(const char *path, struct topo *t, FILE *err);
int topo_load_limit(const char *path, uint64_t max_mem, struct topo *t, FILE *err);
/* The same from memory; name is what the error lines call the file. */
int topo_load_buffer(const char *name, const char *data, size_t len,
		     uint64_t max_mem, struct topo *t, FILE *err);

/* "1G", "512M", "64K", "4096"; binary units.  0 ok, -1 invalid. */
int topo_parse_size(const char *s, uint64_t *out);
/* Writes the size in its largest exact binary unit ("1G", "384M"). */
void topo_format_size(uint64_t bytes, char *buf, size_t len);
/* Writes a CPU set as "0-1+4" ("-" when empty): no commas, no spaces. */
void topo_format_cpus(uint64_t cpus, char *buf, size_t len);
/* Reads one: "0-1+4" (or with ';' for '+'), "-" or "" for none.  0, or -1 if malformed. */
int topo_parse_cpus(const char *s, uint64_t *out);

/* The HMAT figures the guest reports for a node (access0), or NULL. */
const struct topo_perf *topo_node_perf(const struct topo *t, int node);
/*
 * The memory tier the 6.12 kernel puts the node in (memory_tierN), from its
 * HMAT figures as mm/memory-tiers.c computes it; -1 for a memory-less node.
 */
int topo_expected_tier(const struct topo *t, int node);
uint64_t topo_total_mem(const struct topo *t);

/*
 * Movable nodes and where their memory lives (QEMU 7.2, machine pc).  The
 * guest's RAM blocks are allocated in the order of the -object options:
 * the boot nodes' backends first (node order), then the movable nodes'
 * (node order), then the SRAT anchors'.  A node's "RAM offset" is where its
 * block starts in that order; a movable node's DIMM sits at guest-physical
 * topo_dimm_base() + its RAM offset, so the memory-timing plugin's address
 * rule holds for it as for boot memory (README, "Memory timing").
 */
bool topo_has_movable(const struct topo *t);
/* The boot memory (-m): the normal nodes' sizes. */
uint64_t topo_boot_mem(const struct topo *t);
/* Boot memory below 4 GiB (hw/i386/pc_piix.c: all of it, or 3 GiB when it must split). */
uint64_t topo_low_mem(const struct topo *t);
/* The node's RAM offset (see above); its size is mem_bytes. */
uint64_t topo_ram_offset(const struct topo *t, int node);
/* QEMU's device-memory base: 4 GiB plus the boot memory above it, rounded up to 1 GiB. */
uint64_t topo_dimm_base(const struct topo *t);
/* The guest-physical address of a movable node's DIMM. */
uint64_t topo_dimm_addr(const struct topo *t, int node);
/*
 * QEMU 7.2 gives the device-memory range one hotpluggable SRAT entry, with
 * the last node's proximity domain; any other movable node has no SRAT
 * entry, so no NUMA node in the guest and no HMAT target, unless an NVDIMM
 * on that node gives it one (nvdimm_build_srat).  -1 if @node needs none,
 * else its anchor's index (0, 1, ...).
 */
int topo_anchor_index(const struct topo *t, int node);
int topo_nanchors(const struct topo *t);
/* An anchor's guest-physical address: after the last DIMM. */
uint64_t topo_anchor_addr(const struct topo *t, int index);
/* -m's maxmem=: room in device memory for every DIMM and anchor at its address. */
uint64_t topo_max_mem(const struct topo *t);

/* The QEMU command line built from a machine: lab/boot/qemu.h. */

#endif
