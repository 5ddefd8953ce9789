/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lab's words, spelled once (README "Words the lab uses"): what the
 * guest prints on the results channel (tierbench, wlrun) and what the host
 * parses, plans and reports with (labtool).  Both sides expand these lists
 * (X-macros, as bench/benches.h) into their enums, name tables and lookups,
 * so a word added here reaches the guest's CLI, its rows and the host's
 * parser in one change; tests/unit/test_vocab.c checks that the host knows
 * every word, tests/test_bench_cli.sh that tierbench prints no other.
 *
 * Pure macros: included by bench/ and guest/ (static, guest) and lab/ (host).
 */
#ifndef TIERLAB_VOCAB_H
#define TIERLAB_VOCAB_H

/*
 * Memory policies, in the order every benchmark compares them (the guest's
 * enum pol).  X(ID, name, report_rank, reference): report_rank is the
 * host's order in tables (the policies under test first, the references
 * after); a reference policy spreads pages by design and is never the
 * answer to "which policy?".
 */
#define VOCAB_POLICIES(X) \
	X(BIND, "bind", 0, 0) \
	X(PREFERRED, "preferred", 1, 0) \
	X(PREFERRED_MANY, "preferred-many", 2, 0) \
	X(DEFAULT, "default", 5, 1) \
	X(INTERLEAVE, "interleave", 4, 1) \
	X(WEIGHTED_INTERLEAVE, "weighted-interleave", 3, 1)

/*
 * How a case or a workload ended (row outcome_<name>=1).  X(ID, name,
 * rank): the host's rank, best first (a case that could not be set up or
 * met EFAULT before a harness error or timeout, before a signal, before a
 * kill); VOCAB_OUTCOME_UNRANKED for the words that judge the scenario,
 * not the policy (invalid, killed_other), and for wlrun's failed.
 * Printed by tierbench (all but failed) and wlrun (completed, oom_killed,
 * failed, timeout).
 */
#define VOCAB_OUTCOME_UNRANKED 9
#define VOCAB_OUTCOMES(X) \
	X(COMPLETED, "completed", 0) \
	X(OOM_KILLED, "oom_killed", 8) \
	X(KILLED, "killed", 7) \
	X(KILLED_OTHER, "killed_other", VOCAB_OUTCOME_UNRANKED) \
	X(SIGBUS, "sigbus", 6) \
	X(SIGSEGV, "sigsegv", 5) \
	X(SETUP_ERROR, "setup_error", 1) \
	X(EFAULT, "efault", 2) \
	X(ERROR, "error", 3) \
	X(TIMEOUT, "timeout", 4) \
	X(INVALID, "invalid", VOCAB_OUTCOME_UNRANKED) \
	X(FAILED, "failed", VOCAB_OUTCOME_UNRANKED)

/*
 * Profiles (--profile of run-lab.sh, labtool plan, tierbench, wlrun).
 * X(ID, name, step_timeout, wl_timeout): the plan's timeout of a benchmark
 * step (seconds, wall clock), and wlrun's own timeout of a workload, which
 * the plan's step outlives by 30 s.
 */
#define VOCAB_PROFILES(X) \
	X(QUICK, "quick", 300, 120) \
	X(DEFAULT, "default", 1200, 600) \
	X(FULL, "full", 7200, 3600)

/*
 * Scenarios of a case (row scenario=): what holds the nodes.  X(ID, name)
 * The two full-reclaimable variants hold the preferred nodes full of
 * memory the kernel can reclaim: clean page cache of a file on the guest's
 * ext4 disk (-cache), or anonymous memory with the swap disk on (-anon).
 * They run where asked (--scenarios) and in bench reclaim, not by default
 * in latency and fallback (VOCAB_SCENARIOS_DEFAULT_MASK).
 */
#define VOCAB_SCENARIOS(X) \
	X(FREE, "free") \
	X(FULL, "full") \
	X(PRESSURE, "pressure") \
	X(FULL_RECLAIMABLE_CACHE, "full-reclaimable-cache") \
	X(FULL_RECLAIMABLE_ANON, "full-reclaimable-anon")
/* The scenarios a benchmark runs without --scenarios: free, full, pressure. */
#define VOCAB_SCENARIOS_DEFAULT_MASK 7u

/* Page sizes (row pagesize=).  X(ID, name) */
#define VOCAB_PAGESIZES(X) \
	X(4K, "4k") \
	X(THP, "thp") \
	X(2M, "2m")

/*
 * The keys of a ROW line, in the order tierbench prints them and
 * summary.csv stores them (README "Results channel").  X(ID, name)
 */
#define VOCAB_ROW_KEYS(X) \
	X(BENCH, "bench") \
	X(POLICY, "policy") \
	X(NODES, "nodes") \
	X(PAGESIZE, "pagesize") \
	X(SCENARIO, "scenario") \
	X(METRIC, "metric") \
	X(VALUE, "value") \
	X(UNIT, "unit")

/*
 * The bench= words of tierbench's ROW lines (wlrun's rows carry their
 * workload's name instead): each benchmark's registered name (its .name,
 * the bench of the rows main.c prints around it: the mpol_* counters)
 * and the names its cases' rows carry where they differ.  Each
 * is spelled once, here, as a macro (the benchmarks use it where a string
 * literal must be: their registration, messages pasted together) and
 * listed in VOCAB_ROW_BENCHES(X) as X(ID, name) for the host, which reads
 * every one as a microbenchmark's row (lab/report/report_util.c).
 */
#define VOCAB_BENCH_LATENCY "latency"		/* mbind(2) */
#define VOCAB_BENCH_LATENCY_TASK "latency_task"	/* set_mempolicy(2) */
#define VOCAB_BENCH_LATENCY_AA "latency_aa"	/* latency's back-to-back pass */
#define VOCAB_BENCH_FALLBACK "fallback"
#define VOCAB_BENCH_FALLBACK_ORDER "fallback-order"
#define VOCAB_BENCH_SINGLE_NODE "single-node"	/* fallback-order's single-node case */
#define VOCAB_BENCH_OOM "oom"
#define VOCAB_BENCH_MODEL "model"
#define VOCAB_BENCH_CHASE "chase"
#define VOCAB_BENCH_FEATURES "features"
#define VOCAB_BENCH_CHECKS "checks"
#define VOCAB_BENCH_THREADS "threads"
#define VOCAB_BENCH_THREADS_NODE "threads_node"	/* threads, one node's CPUs */
#define VOCAB_BENCH_THREADS_2NODES "threads_2nodes"	/* threads, two nodes' CPUs */
#define VOCAB_BENCH_TIERS "tiers"		/* the boot's tiering mode, the memory tiers */
#define VOCAB_BENCH_TIERING "tiering"		/* demotion and promotion per policy */
#define VOCAB_BENCH_TIERING_MOF "tiering_mof"	/* tiering's bind, preferred-many with MPOL_F_NUMA_BALANCING */
#define VOCAB_BENCH_RECLAIM "reclaim"
#define VOCAB_BENCH_RECLAIM_ZONE "reclaim_zone_reclaim"	/* reclaim under vm.zone_reclaim_mode=1 */
#define VOCAB_ROW_BENCHES(X) \
	X(LATENCY, VOCAB_BENCH_LATENCY) \
	X(LATENCY_TASK, VOCAB_BENCH_LATENCY_TASK) \
	X(LATENCY_AA, VOCAB_BENCH_LATENCY_AA) \
	X(FALLBACK, VOCAB_BENCH_FALLBACK) \
	X(FALLBACK_ORDER, VOCAB_BENCH_FALLBACK_ORDER) \
	X(SINGLE_NODE, VOCAB_BENCH_SINGLE_NODE) \
	X(OOM, VOCAB_BENCH_OOM) \
	X(MODEL, VOCAB_BENCH_MODEL) \
	X(CHASE, VOCAB_BENCH_CHASE) \
	X(FEATURES, VOCAB_BENCH_FEATURES) \
	X(CHECKS, VOCAB_BENCH_CHECKS) \
	X(THREADS, VOCAB_BENCH_THREADS) \
	X(THREADS_NODE, VOCAB_BENCH_THREADS_NODE) \
	X(THREADS_2NODES, VOCAB_BENCH_THREADS_2NODES) \
	X(TIERS, VOCAB_BENCH_TIERS) \
	X(TIERING, VOCAB_BENCH_TIERING) \
	X(TIERING_MOF, VOCAB_BENCH_TIERING_MOF) \
	X(RECLAIM, VOCAB_BENCH_RECLAIM) \
	X(RECLAIM_ZONE, VOCAB_BENCH_RECLAIM_ZONE)

/* Expansion helpers: a list's names as initialisers, its length. */
#define VOCAB_NAME2(id, name) name,
#define VOCAB_NAME3(id, name, a) name,
#define VOCAB_NAME4(id, name, a, b) name,
#define VOCAB_ONE2(id, name) +1
#define VOCAB_ONE3(id, name, a) +1
#define VOCAB_ONE4(id, name, a, b) +1

#define VOCAB_NPOLICIES (0 VOCAB_POLICIES(VOCAB_ONE4))
#define VOCAB_NOUTCOMES (0 VOCAB_OUTCOMES(VOCAB_ONE3))
#define VOCAB_NPROFILES (0 VOCAB_PROFILES(VOCAB_ONE4))
#define VOCAB_NSCENARIOS (0 VOCAB_SCENARIOS(VOCAB_ONE2))
#define VOCAB_NPAGESIZES (0 VOCAB_PAGESIZES(VOCAB_ONE2))
#define VOCAB_NROW_KEYS (0 VOCAB_ROW_KEYS(VOCAB_ONE2))
#define VOCAB_NROW_BENCHES (0 VOCAB_ROW_BENCHES(VOCAB_ONE2))

#endif
