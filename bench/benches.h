/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one list of benchmarks (as stress-ng's core-stressors.h): main.c
 * expands it into the declarations, the table, --list and --help, so they
 * never drift apart.  Each bench/<name>.c ends in
 * `const struct bench bench_<name> = { ... };`.
 */
#define BENCHES(X) \
	X(latency) \
	X(fallback) \
	X(fallback_order) \
	X(oom) \
	X(model) \
	X(chase) \
	X(features) \
	X(checks) \
	X(threads) \
	X(tiers) \
	X(tiering) \
	X(reclaim)
