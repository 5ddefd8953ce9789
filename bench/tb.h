/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tierbench: the in-guest microbenchmarks.  Shared declarations for the
 * registration table, the options every benchmark receives, the policy
 * helpers and the results-channel output (README.md, "Results channel").
 */
#ifndef TIERBENCH_TB_H
#define TIERBENCH_TB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "fmt.h"
#include "hist.h"
#include "needs.h"
#include "outcome.h"
#include "vocab.h"

/* Policies in the order every benchmark compares them (guest/vocab.h). */
#define X(id, name, rank, ref) POL_##id,
enum pol { VOCAB_POLICIES(X) POL_COUNT };
#undef X
#define X(id, name) PS_##id,
enum pagesize { VOCAB_PAGESIZES(X) PS_COUNT };
#undef X
#define X(id, name) SC_##id,
enum scenario { VOCAB_SCENARIOS(X) SC_COUNT };
#undef X
#define X(id, name, step_timeout, wl_timeout) PROFILE_##id,
enum profile { VOCAB_PROFILES(X) PROFILE_COUNT };
#undef X
/* How a policy reaches the kernel: a VMA policy or the task policy. */
enum via { VIA_MBIND, VIA_TASK };

struct opts {
	enum profile profile;
	struct nodeset preferred;	/* the node set under test */
	char label[64];			/* how the topology names it */
	unsigned pol_mask;		/* 1 << enum pol */
	unsigned page_mask;		/* 1 << enum pagesize */
	unsigned scen_mask;		/* 1 << enum scenario */
	bool scen_given;		/* --scenarios given (else VOCAB_SCENARIOS_DEFAULT_MASK) */
	int reps;
	long mib;			/* allocation per case */
	long step_mib;			/* fill-curve step */
	long fill_cap_mib;		/* refuse to fill more RAM than this */
	long headroom_mib;		/* what a filler leaves free per node */
	bool seed_given;		/* --seed: the order of the latency cases */
	uint32_t seed;
	int cpu;			/* --cpu: where latency's cases run */
	int threads;			/* --threads: threads per case of bench threads, 0 one per CPU */
	/* --model-hmat: figures seen from CPU 0's node, -1 unknown */
	bool model_given;
	long model[MODEL_NODES][MODEL_FIGS];
	/* --model-cache-hmat: the same for each node's memory-side cache */
	bool model_cache_given;
	long model_cache[MODEL_NODES][MODEL_FIGS];
	/* --model-cache-hit: share of accesses a memory-side cache serves */
	bool model_cache_hit_given;
	double model_cache_hit;
	int tiering;			/* --tiering: enum tiering, -1 not given */
};

/* The boot's tiering modes (tiers --tiering; run-lab's --tiering). */
enum tiering { TIERING_OFF, TIERING_DEMOTION, TIERING_BALANCING, TIERING_COUNT };
extern const char *const tiering_names[TIERING_COUNT];	/* "off", "demotion", "balancing" */
int tiering_parse(const char *s);			/* enum tiering, -1 unknown */

/*
 * A benchmark's registration (benches.h), with what it needs from the
 * machine (needs.h): main.c judges the needs before the run (a miss is a
 * SKIP), saves the declared sysctls and restores them after, arms the
 * timeout, and prints all of it in --list=machine for the host's plan.
 */
struct bench {
	const char *name;
	const char *help;
	const char *options;	/* which of the common options it reads, "" none */
	struct needs needs;
	bool every_node;	/* runs over every memory node itself: no --preferred */
	int timeout_secs;	/* of the default profile; full's is 10 times longer */
	int (*run)(const struct opts *o);	/* 0 ok, 1 a check failed */
};

/* ---- output (out.c): only these write stdout ---- */
struct rowkey {
	const char *bench;
	const char *policy;
	const char *pagesize;
	const char *scenario;
};
void out_row(const struct rowkey *k, const char *metric, double value,
	     const char *unit);
void out_row_x(const struct rowkey *k, const char *metric, double value,
	       const char *unit, long x_mib);
/* TAP: returns true when ok, so a caller can aggregate failures. */
bool tap(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tap_skip(const char *reason, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tap_plan(void);
int tap_failures(void);
int tap_count_so_far(void);	/* async-signal-safe */
void out_hist(const struct rowkey *k, int rep, const struct hist *h);
/*
 * @h's rows mean, p50, p90, p99 (100 samples or more), p99_9 (1000 or
 * more), max.  The quantiles are bucket lower bounds (bench/hist.c).
 */
void out_hist_summary(const struct rowkey *k, const struct hist *h);
void out_set_nodes(const char *label, const struct nodeset *ns);
/*
 * The clock the guest's CLOCK_MONOTONIC is: "wall" (nanoseconds) or
 * "icount" (QEMU -icount shift=0: one nanosecond per guest instruction).
 * Timing rows and HIST lines carry out_time_unit(): "ns" or "insn".
 */
void out_set_clock(bool icount);
const char *out_time_unit(void);
void msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern const char *msg_prog;	/* msg()'s prefix, "tierbench" unless set */
/* A usage error: "PROG: message (PROG --help)" on stderr, exit 2. */
void die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/*
 * Memory timing (README, "Memory timing"): the label of the phase the
 * guest just ended with a marker (PHASE, matched on the host with the
 * plugin's phases of the same id, in order), and an address probe's
 * guest-physical address from /proc/self/pagemap (MEMPROBE, matched with
 * the plugin's probes in order).  A field below 0 is left out of the line.
 */
struct phase_label {
	long x_mib;	/* a curve's point: the rows' x_mib */
	long loads;	/* chase: the walk's dependent loads */
	long pages;	/* the 4 KiB pages the phase's work wrote */
	int bound;	/* chase: the node the buffer is bound to */
	bool reaped;	/* the harness ended it: the child died inside it */
	long walk_ns;	/* chase: the guest's clock around the walk, 0 not said */
};
void out_phase(const struct rowkey *k, unsigned int id, const struct phase_label *l);
void out_memprobe(const struct rowkey *k, uint64_t vaddr, uint64_t gpa, int node);
/* A line produced in a child: flush before _exit so nothing is lost. */
void out_flush(void);

/* ---- policies (policy.c) ---- */
#ifndef MPOL_DEFAULT
#define MPOL_DEFAULT 0
#define MPOL_PREFERRED 1
#define MPOL_BIND 2
#define MPOL_INTERLEAVE 3
#define MPOL_LOCAL 4
#endif
#ifndef MPOL_PREFERRED_MANY
#define MPOL_PREFERRED_MANY 5
#endif
#ifndef MPOL_WEIGHTED_INTERLEAVE
#define MPOL_WEIGHTED_INTERLEAVE 6
#endif
#ifndef MPOL_F_NODE
#define MPOL_F_NODE (1 << 0)
#define MPOL_F_ADDR (1 << 1)
#define MPOL_F_MEMS_ALLOWED (1 << 2)
#endif
#ifndef MPOL_F_NUMA_BALANCING
#define MPOL_F_NUMA_BALANCING (1 << 13)	/* BIND, PREFERRED_MANY: MPOL_F_MOF | MPOL_F_MORON */
#endif
#ifndef MPOL_MF_STRICT
#define MPOL_MF_STRICT (1 << 0)
#define MPOL_MF_MOVE (1 << 1)
#endif
/* The lab series' fallback orders of MPOL_PREFERRED_MANY (kernel/patches/0006):
 * mode flags of set_mempolicy(2)/mbind(2); a kernel without them says EINVAL. */
#ifndef MPOL_F_FALLBACK_NEAREST
#define MPOL_F_FALLBACK_NEAREST (1 << 12)
#define MPOL_F_FALLBACK_TIER (1 << 11)
#endif
enum fallback { FB_LOCAL, FB_NEAREST, FB_TIER, FB_COUNT };
/* "local" (no flag, the kernel's default), "nearest", "tier" */
extern const char *const fallback_names[FB_COUNT];
int fallback_flag(enum fallback f);		/* the mode flag; 0 for local */
int fallback_parse(const char *s);		/* enum fallback, -1 unknown */

extern const char *const pol_names[POL_COUNT];
extern const char *const pagesize_names[PS_COUNT];
extern const char *const scenario_names[SC_COUNT];
extern const char *const profile_names[PROFILE_COUNT];
int pol_mode(enum pol p);
/* The node mask policy @p gets for the case's preferred set (README table). */
void pol_nodes(enum pol p, const struct nodeset *preferred, struct nodeset *out);
long sys_mbind(void *addr, unsigned long len, int mode,
	       const struct nodeset *ns, unsigned flags);
long sys_set_mempolicy(int mode, const struct nodeset *ns);
long sys_get_mempolicy(int *mode, struct nodeset *ns, void *addr,
		       unsigned long flags);
long sys_move_pages(unsigned long count, void **pages, int *status);
/* Apply @p to [addr, addr+len) or to the task; -1 with errno and a message. */
int pol_apply(enum pol p, enum via v, const struct nodeset *preferred,
	      void *addr, size_t len);
/* The same with mode @flags (MPOL_F_*) or'ed into the mode. */
int pol_apply_flags(enum pol p, enum via v, const struct nodeset *preferred,
		    void *addr, size_t len, int flags);
bool kernel_knows_mode(int mode);

/* ---- machine facts (sysinfo.c) ---- */
void mem_nodes(struct nodeset *out);
void cpu_nodes(struct nodeset *out);
/* A kernel CPU list file ("0-3,8") as a set; -1 with "path: why" in @err. */
int read_cpulist(const char *path, struct nodeset *out, char *err, size_t errlen);
int node_of_cpu(int cpu);
int node_distance(int from, int to);	/* SLIT, -1 unknown */
int node_first_cpu(int node);		/* -1: no CPU */
long node_meminfo_kib(int node, const char *field);	/* -1 if unknown */
long node_wmark_kib(int node, const char *which);	/* min/low/high, KiB */
/*
 * Has kswapd given up on @node (MAX_RECLAIM_RETRIES balancing runs that
 * reclaimed nothing; /proc/zoneinfo node_unreclaimable)?  1, 0, -1 unknown.
 * It wakes kswapd no more until a direct reclaim on the node makes progress.
 */
int node_unreclaimable(int node);
/* Zones of @node with managed pages (/proc/zoneinfo); -1 unknown. */
int node_zones(int node);
/* Pages on @node's per-CPU lists (zoneinfo pagesets): free, yet not in MemFree. */
long node_pcp_kib(int node);
/*
 * Empty the per-CPU lists of @ns into the free lists until each node holds
 * at most @max_kib there (vm.stat_refresh, up to 64 times); 0, or -1.
 */
int pcp_drain(const struct nodeset *ns, long max_kib);
/* A /proc/meminfo field in KiB (SwapTotal), -1 if absent. */
long vmstat_meminfo_kib(const char *field);
long long vmstat_get(const char *name);	/* one /proc/vmstat counter, -1 if absent */
/* one counter of node @node's vmstat (sysfs), -1 if absent */
long long node_vmstat_get(int node, const char *name);
/* vmstat_get(@name) - @before, -1 when either is unknown */
long long vmstat_delta(const char *name, long long before);
long nodes_free_mib(const struct nodeset *ns);
long nodes_total_mib(const struct nodeset *ns);
/* HMAT figure of nodeN/access0/initiators/<name>; -1 if absent. */
long hmat_value(int node, const char *name);
/* Size of @node's nearest memory-side cache (memory_side_cache/index1); -1: none. */
long node_memside_cache_bytes(int node);
bool hmat_present(void);
bool hugetlb_present(void);
/* THP: "always", "madvise", "never" or NULL. */
const char *thp_mode(char *buf, size_t len);

/* numastat + vmstat snapshot, compared before/after a case. */
struct counters {
	int nnames, cap;
	char (*names)[48];
	long long *vals;
};
void counters_read(struct counters *c);
void counters_free(struct counters *c);
long long counters_get(const struct counters *c, const char *name);
void counter_delta_rows(const struct rowkey *k, const struct counters *a,
			const struct counters *b, const char *prefix);

/*
 * @len bytes of @s written to @path in one write(), the file opened with
 * O_TRUNC (as a shell's ">": tracefs's trace file is emptied so); 0, or
 * -1 with errno.  Safe in knobs_restore() at exit.
 */
int write_str(const char *path, const char *s, size_t len);
/* Files written and restored (sysctls, hugepage pools). */
int knob_read_long(const char *path, long *val);
int knob_save_write(const char *path, long val);	/* restored at exit */
/*
 * A sysctl ("vm.x") of the running benchmark's declared needs set to @val,
 * restored at exit; one it did not declare is refused (-1, said).
 */
int sysctl_save_write(const char *name, long val);
/* The sysctl that sizes the per-CPU lists (a bench with filled cases declares it). */
#define PCP_HIGH_SYSCTL "vm.percpu_pagelist_high_fraction"
/*
 * Drain the per-CPU lists of @ns to @max_kib per node or less with the
 * lists made small for the moment (PCP_HIGH_SYSCTL at its largest, which
 * the running benchmark declares), then their sizing as it was just
 * before.  0; 1 (said) when they did not get there; -1 (said) when the
 * sizing could not be set or written back (the lists may stay small).
 */
int pcp_drain_small(const struct nodeset *ns, long max_kib);
struct needs;
void sysctls_declared(const struct needs *n);	/* the harness, before a run */
int knob_save_write_str(const char *path, const char *val);	/* the same */
int knob_save(const char *path);	/* restored at exit, unchanged now; -1 absent */
void knobs_restore(void);
int hugetlb_reserve(int node, long pages, long *got);

/* ---- memory plumbing (mem.c) ---- */
size_t page_bytes(enum pagesize ps);
/*
 * What a case writes and counts placement at: 4 KiB, THP included (a THP
 * fault that finds no huge page maps one 4 KiB base page, so one write per
 * 2 MiB would leave 511 pages untouched and placement would count 512 per
 * probe), 2 MiB for hugetlb (a fault maps the whole page).
 */
size_t touch_stride(enum pagesize ps);
/* Is the page at @addr mapped (mincore)?  For THP: did a fault map 2 MiB. */
bool page_resident(const void *addr);
void *map_region(enum pagesize ps, size_t len);	/* NULL + message on error */
/* Pages per node of [addr, addr+len), stepped by @stride; returns pages seen. */
long placement(void *addr, size_t len, size_t stride, long *per_node,
	       int max_node);
double clock_overhead_ns(void);

/*
 * A child that holds nodes full until stopped, at oom_score_adj -1000 (the
 * OOM killer never picks it, so a BIND case's OOM falls on the case), and
 * the band each filled node's MemFree must stay in for a case to be valid.
 */
#define MAX_NODE 63	/* per-node arrays; nodes above are not reported */
/*
 * What a filler holds the nodes with: anonymous memory (full, pressure,
 * the fill curve: unreclaimable, swap is off), clean page cache of a
 * sparse file on the guest's ext4 disk (full-reclaimable-cache), or
 * anonymous memory with the swap disk on (full-reclaimable-anon).
 */
enum fill_kind { FILL_ANON, FILL_CACHE, FILL_ANON_SWAP };
/*
 * The guest's reclaim disks, set up by /init (guest/init): the ext4 file
 * system of the page-cache fill and the swap device (a symlink to the
 * virtio-blk disk of serial tierlab-swap), left off until a
 * full-reclaimable-anon scenario turns it on.  /init writes why they are
 * not there into RECLAIM_DISKS_ERR.
 */
#define RECLAIM_FS_DIR "/mnt/tierlab-fs"
#define RECLAIM_SWAP_DEV "/dev/tierlab-swap"
#define RECLAIM_DISKS_ERR "/run/tierlab-disks.err"
/*
 * The page-cache fill's files per node on RECLAIM_FS_DIR: each refill of
 * the scenario reads a new one, the names wrapping after this many (a
 * name used again is truncated first).  (MAX_NODE + 1) * this fits the
 * file system's inodes (lab/boot/disks.h DISK_FS_INODES): no refill meets
 * ENOSPC.
 */
#define RECLAIM_FILL_FILES 8
/*
 * What a reclaimable fill leaves free on each node: the low watermark plus
 * this, so that kswapd sleeps at a case's start (it is woken only by an
 * allocation that finds a zone under low) and the case's first faults
 * meet the watermark themselves.
 */
#define RECLAIM_MARGIN_MIB 6
struct filler {
	int pid;
	long mib;
	bool held;			/* a full/pressure scenario: cases must find it filled */
	bool reaped;			/* filler_alive() found it gone and reaped it */
	int status;			/* its wait status then */
	struct nodeset nodes;		/* the filled nodes */
	struct nodeset roomy;		/* of those, left roomy_mib more than the headroom */
	long headroom_mib, roomy_mib;
	long band_lo_kib[MAX_NODE + 1], band_hi_kib[MAX_NODE + 1];
	bool level;			/* filled to level_kib (filler_start_level) */
	long level_kib[MAX_NODE + 1];	/* MemFree each filled node is taken down to */
	enum fill_kind kind;		/* what holds the nodes */
	bool swap_on;			/* the scenario turned the swap disk on */
	int gen;			/* FILL_CACHE: fills so far of the scenario (its files) */
	int ballast_pid;		/* the killable holder of memory on each node, or -1 */
	bool ballast_reaped;		/* filler_alive() found the ballast gone */
};
/* Children take SIGTERM/SIGINT by default: only the harness reports. */
void child_signals(void);
/* SIGKILL every case child and filler alive (async-signal-safe). */
void children_kill(void);
/*
 * Fill @nodes until @headroom_mib are left on each (never under min + 4 MiB),
 * @roomy_mib more on those of them in @roomy (may be NULL).
 */
int filler_start(struct filler *f, const struct nodeset *nodes, long headroom_mib,
		 const struct nodeset *roomy, long roomy_mib);
/*
 * Fill @nodes with reclaimable memory of @kind (FILL_CACHE, FILL_ANON_SWAP)
 * until each has its low watermark + RECLAIM_MARGIN_MIB free; the swap, for
 * FILL_ANON_SWAP, is the caller's to turn on.
 */
int filler_start_reclaimable(struct filler *f, const struct nodeset *nodes, enum fill_kind kind);
/* Is @sc one of the full-reclaimable scenarios, and which fill it takes. */
bool scenario_reclaimable(enum scenario sc);
enum fill_kind scenario_fill_kind(enum scenario sc);
/* Why the reclaim disks are not usable, or NULL (@swap: the swap device too). */
const char *reclaim_disks_missing(bool swap, char *why, size_t len);
/* Fill @nodes until MemFree of node N is at most level_kib[N], to the page. */
int filler_start_level(struct filler *f, const struct nodeset *nodes, const long *level_kib);
/* The same fill again, after a filler was lost. */
int filler_restart(struct filler *f);
void filler_stop(struct filler *f);
/* The page-cache fill's files, removed (scenario end). */
void filler_files_remove(struct filler *f);
/* Is the filler (and its ballast) still there?  A dead one is reaped here (f->status). */
bool filler_alive(struct filler *f);
/* The filler task alone, the ballast aside; reaped here the same way. */
bool filler_holder_alive(struct filler *f);
/* A child of the harness that children_kill() must also kill, and its end. */
void child_track(int pid);
void child_untrack(int pid);
/* Write /proc/self/oom_score_adj (a failure is said, not fatal). */
void oom_adj_self(int adj);
/* MemFree + per-CPU list pages of @node: what a case's band is checked on. */
long node_free_pcp_kib(int node);

struct shared {
	volatile long pages_done;	/* progress, updated by the child */
	volatile int errno_seen;
	volatile long long t_start_ns;
	double inside_frac;
	char oom_constraint[48];	/* filled by run_child for OUT_OOM_KILLED */
	long long oom_kill_delta;	/* /proc/vmstat oom_kill around the child */
	int oom_victim_other;		/* a victim that was not the child, or 0 */
	bool oom_other_after;		/* ...killed after the child's own OOM kill */
	char invalid_why[200];		/* why the case is OUT_INVALID */
	/* /proc/vmstat thp_fault_alloc, thp_fault_fallback around the child; -1 unknown */
	long long thp_fault_alloc_delta, thp_fault_fallback_delta;
	double secs;			/* fork to reap */
	double result[12];
	long per_node[64];		/* 4 KiB-page equivalents per node */
	/* memory timing (phase.c): 1 the child is inside a phase, 2 run_child ended it */
	volatile int phase_open;
	volatile long phase_x_mib;	/* that phase's x_mib, -1 none */
};
struct shared *shared_new(void);
/* Runs fn(arg, sh) in a child; waits up to @timeout_secs.  Child exit code
 * 0 = completed, 3 = setup failed (mmap, mbind), 4 = EFAULT, other = error.
 * A SIGKILL is oom_killed when /proc/vmstat oom_kill rose and the kernel
 * log names the child as the victim; any other OOM victim in the meantime
 * makes the outcome killed_other. */
enum outcome run_child(int (*fn)(void *arg, struct shared *sh), void *arg,
		       struct shared *sh, int timeout_secs, int *sig_out);
/* AnonHugePages of the mapping that starts at @addr, from /proc/self/smaps. */
long smaps_anon_huge_kib(void *addr);

/*
 * ---- memory-timing phases (phase.c; README, "Memory timing") ----
 * A case's child marks its touch work -- outside any timed loop, so that
 * the instructions a timing counts stay the same -- and labels the phase
 * once it has ended it; a child that dies inside its phase (an OOM kill, a
 * SIGBUS, the case's timeout) leaves it to the harness: run_child() ends it
 * as soon as the child is reaped and report_outcome() labels it.  Without
 * --memory-timing count a marker is a NOP and a label a line nothing reads.
 */
void phase_case_begin(struct shared *sh, long x_mib);
/* @pages: the 4 KiB pages the phase's work wrote, -1 not said */
void phase_case_end(struct shared *sh, const struct rowkey *k, long pages);
void phase_case_reaped(struct shared *sh);			/* run_child */
void phase_case_label_reaped(const struct rowkey *k, const struct shared *sh);
/* wlrun: the workload's whole life, fork to reap, one phase */
void phase_workload_begin(void);
void phase_workload_end(const struct rowkey *k);

/* ---- cost model (model.c, the arithmetic in costmodel.c) ---- */
/*
 * Rows model_coverage_frac, model_{read,write}_latency_ns (page-weighted
 * mean), model_{read,write}_bandwidth_serial_mbps (time-weighted) and
 * model_{read,write}_bandwidth_parallel_bound_mbps over @per_node (4 KiB
 * units), from o->model when --model-hmat was given, else the guest's
 * access0 figures (each node's nearest initiator); with pages on a node with
 * a memory-side cache, model_cache_hit_frac and model_cache_coverage_frac.
 */
void model_rows(const struct rowkey *k, const struct opts *o, const long *per_node);

/* ---- shared case plumbing (cases.c) ---- */
/* Why a scenario cannot run here, or NULL; starts the filler it needs. */
/* Rows (bench @bench, policy -): filler_mib and free_mib_node<N> after it. */
const char *scenario_begin(const struct opts *o, const char *bench,
			   enum scenario sc, struct filler *f, char *why, size_t len);
void scenario_end(struct filler *f);
/*
 * A case of a scenario: checks the filler is alive and each filled node's
 * MemFree is in its band (re-filling once when not), writes the start state
 * (start_free_mib_node<N>, wmark_{min,low,high}_mib_node<N>), runs the
 * child, checks again.  A broken scenario or another OOM victim makes the
 * outcome OUT_INVALID (sh->invalid_why), with a failing TAP line.
 */
/* Bytes a latency/fallback case maps: --mib, past the preferred nodes when filled. */
size_t case_bytes(const struct opts *o, const char *scenario, enum pagesize ps);
enum outcome run_case(const struct rowkey *k, struct filler *f,
		      int (*fn)(void *arg, struct shared *sh), void *arg,
		      struct shared *sh, int timeout_secs);
/* Why a page size cannot run here, or NULL. */
const char *pagesize_unavailable(enum pagesize ps, char *why, size_t len);
/*
 * The 2 MiB pools of scenario @sc, set before its fill (the filler fills
 * around them) when @o asks for 2m.  free: --mib/2 pages on every memory
 * node.  full, pressure: the preferred nodes hold half a case between them,
 * the others --mib/2 each.  Rows hugetlb_pool_node<N> under bench @bench,
 * page size 2m, scenario @sc.  Restored by knobs_restore().
 */
void hugetlb_scenario_pools(const struct opts *o, const char *bench, enum scenario sc);
/* Touch [p, p+len) one write per @stride; progress into sh->pages_done. */
void touch_pages(char *p, size_t len, size_t stride, struct shared *sh);
/* Share of @per_node (4 KiB units) that lies in @ns. */
double frac_in(const long *per_node, const struct nodeset *ns);
/* One row per outcome of a child, plus what it got. */
void report_outcome(const struct rowkey *k, enum outcome oc,
		    const struct shared *sh, size_t page);
bool pol_supported(enum pol p, char *why, size_t len);
/* Pin the caller (and the children it forks) to CPU 0; why not, or NULL. */
const char *pin_to_cpu0(char *why, size_t len);
/* Is p selected by --policies and known to the kernel?  A SKIP says why not. */
bool pol_wanted(const struct opts *o, enum pol p, const char *bench);

/* Kernel log, positioned at its end (run_child reads the OOM records). */
int kmsg_open(void);

#include <time.h>
static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
