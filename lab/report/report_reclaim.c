// SPDX-License-Identifier: GPL-2.0
/*
 * The report's section on bench reclaim (issue 20): the preferred nodes
 * full of memory the kernel can reclaim -- clean page cache
 * (full-reclaimable-cache) or swappable anonymous memory
 * (full-reclaimable-anon) -- and per policy where the case's pages went,
 * whether it reclaimed directly (allocstall, the direct scans on the
 * preferred nodes), whether kswapd was woken there and what it reclaimed,
 * and the fault tail.  The sentences compare each policy with the
 * fallback it could have taken: they say what the rows show (a wake, a
 * direct scan, the share on the preferred nodes) and "not distinguishable"
 * where the rows of two policies do not differ, with the run that would
 * separate them.  Every figure is this run's, followed by its summary.csv
 * lines.
 */
#include "report_int.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const variants[] = { "full-reclaimable-cache", "full-reclaimable-anon" };
static const char *const variant_words[] = {
	"clean page cache", "anonymous memory that can swap",
};
#define NVARIANTS (sizeof(variants) / sizeof(variants[0]))
static const char *const rc_pols[] = { "bind", "preferred", "preferred-many" };
#define NPOLS (sizeof(rc_pols) / sizeof(rc_pols[0]))
/* two shares of the preferred nodes closer than this are not told apart */
#define SHARE_SAME 0.05

/* One case's figures: sums over the preferred set's nodes, NAN without rows. */
struct rc_fig {
	bool have;
	double on_set, stall, direct_scan, direct_steal, wakes, kswapd_steal, node_reclaim;
	double lost;		/* trace_lost_events: vmscan events the buffer dropped */
	double ks_active;	/* start_kswapd_active: kswapd still scanning at the case's start */
	double p50, p99, p999, max;
	const char *unit, *outcome;
	struct cites c;
};

/* The node ids of "pmem:2+3" into @ids; how many. */
static int set_ids(const char *nodes, int *ids, int max)
{
	const char *p = strchr(nodes, ':');
	int n = 0;

	for (p = p ? p + 1 : nodes; *p && n < max;) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		ids[n++] = (int)v;
		p = *end == '+' ? end + 1 : end;
		if (!*end || (*end != '+'))
			break;
	}
	return n;
}

static double one(struct run *r, const char *bench, const char *pol, const char *set,
		  const char *sc, const char *metric, struct cites *c)
{
	struct row *w = run_find(r, bench, pol, set, "4k", sc, metric);

	cites_add(c, w);
	return numval(w);
}

/* sum of METRIC_node<N> over the set's nodes; NAN when none has a row */
static double per_set(struct run *r, const char *bench, const char *pol, const char *set,
		      const char *sc, const char *metric, struct cites *c)
{
	int ids[64], n = set_ids(set, ids, 64);
	double sum = NAN;
	char m[64];

	for (int i = 0; i < n; i++) {
		double v;

		snprintf(m, sizeof(m), "%s_node%d", metric, ids[i]);
		v = one(r, bench, pol, set, sc, m, c);
		if (!isnan(v))
			sum = isnan(sum) ? v : sum + v;
	}
	return sum;
}

static void rc_get(struct run *r, const char *bench, const char *pol, const char *set,
		   const char *sc, struct rc_fig *f)
{
	struct row *p99;

	memset(f, 0, sizeof(*f));
	f->outcome = run_case_outcome(r, bench, pol, set, "4k", sc);
	f->on_set = one(r, bench, pol, set, sc, "on_set_frac", &f->c);
	f->have = f->outcome && !isnan(f->on_set);
	f->stall = one(r, bench, pol, set, sc, "allocstall_delta", &f->c);
	f->direct_scan = per_set(r, bench, pol, set, sc, "pgscan_direct", &f->c);
	f->direct_steal = per_set(r, bench, pol, set, sc, "pgsteal_direct", &f->c);
	f->wakes = per_set(r, bench, pol, set, sc, "kswapd_wake", &f->c);
	f->kswapd_steal = per_set(r, bench, pol, set, sc, "pgsteal_kswapd", &f->c);
	f->node_reclaim = per_set(r, bench, pol, set, sc, "node_reclaim", &f->c);
	f->lost = one(r, bench, pol, set, sc, "trace_lost_events", &f->c);
	f->ks_active = one(r, bench, pol, set, sc, "start_kswapd_active", &f->c);
	f->p50 = one(r, bench, pol, set, sc, "p50", &f->c);
	p99 = run_find(r, bench, pol, set, "4k", sc, "p99");
	cites_add(&f->c, p99);
	f->p99 = numval(p99);
	f->unit = p99 ? p99->f[COL_UNIT] : "";
	f->p999 = one(r, bench, pol, set, sc, "p99_9", &f->c);
	f->max = one(r, bench, pol, set, sc, "max", &f->c);
}

static void rc_free(struct rc_fig *f)
{
	free(f->c.v);
	f->c.v = NULL;
	f->c.n = 0;
}

/* The node sets with reclaim rows of @sc, in row order. */
static void rc_sets(struct run *r, const char *sc, struct strlist *sets)
{
	for (size_t i = 0; i < r->nrows; i++)
		if (is_ok(&r->rows[i]) && !strcmp(r->rows[i].f[COL_BENCH], VOCAB_BENCH_RECLAIM) &&
		    !strcmp(r->rows[i].f[COL_SCENARIO], sc) && strcmp(r->rows[i].f[COL_POLICY], "-"))
			sl_add(sets, r->rows[i].f[COL_NODES]);
}

static void num(char *buf, size_t n, double v)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		fmt_num(buf, n, v);
}

static void pct(char *buf, size_t n, double frac)
{
	num(buf, n, isnan(frac) ? NAN : round(frac * 1000) / 10);
}

static bool zero(double v)
{
	return !isnan(v) && v == 0;
}

/*
 * A quantile row as the bucket it lies in: bench/hist.c's quantiles are a
 * bucket's lower bound (HIST_SUB_BITS 5: exact below 64, then 32 buckets
 * per power of two), so two equal figures say only "the same bucket".
 */
static void bucket(char *buf, size_t n, double v)
{
	uint64_t x, lo, hi;
	unsigned shift;

	if (isnan(v) || v < 0 || v > 1.8e19) {
		num(buf, n, v);
		return;
	}
	x = (uint64_t)v;
	if (x < 64) {
		snprintf(buf, n, "%llu", (unsigned long long)x);
		return;
	}
	shift = 63 - (unsigned)__builtin_clzll(x) - 5;
	lo = x >> shift << shift;
	hi = lo + ((uint64_t)1 << shift) - 1;
	snprintf(buf, n, "%llu-%llu", (unsigned long long)lo, (unsigned long long)hi);
}

/* One policy's figures as a sentence, its rows cited. */
static void rc_sentence(struct run *r, const char *pol, const char *zr, struct rc_fig *f,
			struct sbuf *b)
{
	char a[32], s[32], w[32], k[32], p99[48], mx[32];

	pct(a, sizeof(a), f->on_set);
	num(s, sizeof(s), f->stall);
	num(w, sizeof(w), f->wakes);
	num(k, sizeof(k), f->kswapd_steal);
	bucket(p99, sizeof(p99), f->p99);
	num(mx, sizeof(mx), f->max);
	sb_printf(b, "**%s**%s put %s %% of its pages on the preferred nodes (%s); direct reclaim: %s "
		     "stalls, %.0f pages scanned directly there; kswapd woken %s times there and "
		     "%s pages reclaimed by it; fault p99 in the histogram bucket %s %s, longest %s %s",
		  pol, zr, a, f->outcome, s, isnan(f->direct_scan) ? 0 : f->direct_scan, w, k, p99,
		  f->unit, mx, f->unit);
	if (!isnan(f->node_reclaim) && f->node_reclaim > 0)
		sb_printf(b, "; node_reclaim() entered %.0f times", f->node_reclaim);
	if (f->ks_active > 0)
		sb_puts(b, "; kswapd was still scanning on the preferred nodes when the case began "
			   "(start_kswapd_active 1): the case did not start with kswapd asleep");
	else if (isnan(f->ks_active))
		sb_puts(b, "; no row says whether kswapd was asleep when the case began");
	if (f->lost > 0)
		sb_printf(b, "; the trace buffer lost %.0f vmscan events, so the per-node figures "
			     "are a lower bound", f->lost);
	cites_put(r, &f->c, b);
	sb_puts(b, ".");
}

/*
 * The rows show no reclaim on the preferred nodes in the case: no kswapd
 * wake, scan or steal, no direct scan or steal, no node_reclaim(), and a
 * trace that lost nothing.  A missing row is not a zero.
 */
static bool reclaimed_nothing(const struct rc_fig *f)
{
	return zero(f->wakes) && zero(f->direct_scan) && zero(f->kswapd_steal) &&
	       zero(f->direct_steal) && zero(f->node_reclaim) && zero(f->lost);
}

size_t reclaim_summary(struct run *r, struct sbuf *b)
{
	size_t said = 0;

	for (size_t v = 0; v < NVARIANTS; v++) {
		struct strlist sets = { 0 };

		rc_sets(r, variants[v], &sets);
		for (size_t s = 0; s < sets.n; s++) {
			struct rc_fig f[NPOLS], z;
			struct rc_fig *bind = &f[0], *pref = &f[1], *pm = &f[2];
			char x[32], y[32];

			for (size_t p = 0; p < NPOLS; p++)
				rc_get(r, VOCAB_BENCH_RECLAIM, rc_pols[p], sets.v[s], variants[v], &f[p]);
			sb_printf(b, "%sWith the preferred nodes %s full of %s (scenario %s): ",
				  said++ ? "\n" : "", sets.v[s], variant_words[v], variants[v]);
			for (size_t p = 0, n = 0; p < NPOLS; p++)
				if (f[p].have) {
					sb_puts(b, n++ ? " " : "");
					rc_sentence(r, rc_pols[p], "", &f[p], b);
				}
			/* preferred against preferred-many */
			if (pref->have && pm->have) {
				sb_puts(b, "\n");
				said++;
				if (reclaimed_nothing(pref))
					sb_puts(b, "preferred reclaimed nothing on the preferred nodes: no "
						   "kswapd wake or steal, no direct scan or steal and no "
						   "node_reclaim() there during its case, and no trace event "
						   "lost; its "
						   "pages that did not fit went to another node (the allocator's "
						   "fast path passes a zone under its low watermark to the next "
						   "one when vm.zone_reclaim_mode is 0). ");
				else if (pref->wakes > 0 || pref->direct_scan > 0 || pref->kswapd_steal > 0 ||
					 pref->direct_steal > 0 || pref->node_reclaim > 0)
					sb_puts(b, "preferred did reclaim on the preferred nodes (the figures "
						   "above). ");
				else
					sb_puts(b, "Whether preferred reclaimed on the preferred nodes is "
						   "not distinguishable from the rows (the trace lost events, "
						   "or a figure has no row). ");
				if (pm->wakes > 0 && zero(pm->direct_scan) && pm->kswapd_steal > 0)
					sb_puts(b, "preferred-many reclaimed there only through kswapd: it "
						   "woke kswapd on the preferred nodes and scanned nothing "
						   "directly (its first pass, over the preferred nodes, has no "
						   "__GFP_DIRECT_RECLAIM and wakes kswapd in the slow path). ");
				else if (pm->wakes > 0 && zero(pm->direct_scan))
					sb_puts(b, "preferred-many woke kswapd on the preferred nodes and "
						   "scanned nothing directly (its first pass has no "
						   "__GFP_DIRECT_RECLAIM), but kswapd reclaimed nothing there "
						   "before the case ended. ");
				else if (pm->direct_scan > 0)
					sb_puts(b, "preferred-many scanned the preferred nodes directly. ");
				else
					sb_puts(b, "preferred-many woke no kswapd there either. ");
				pct(x, sizeof(x), pm->on_set);
				pct(y, sizeof(y), pref->on_set);
				if (fabs(pm->on_set - pref->on_set) > SHARE_SAME)
					sb_printf(b, "So they differ: preferred-many kept %s %% on the preferred "
						     "nodes, preferred %s %%.", x, y);
				else
					sb_printf(b, "By placement they are not distinguishable (%s %% against "
						     "%s %%).", x, y);
				/* the waits are in the tail: one fault's worth of reclaim, not the p99 */
				num(x, sizeof(x), pm->max);
				num(y, sizeof(y), pref->max);
				if (pm->max > 2 * pref->max)
					sb_printf(b, " The tail shows it too: preferred-many's longest fault "
						     "took %.0f times preferred's (%s against %s %s)%s.",
						  pm->max / pref->max, x, y, pm->unit,
						  pm->p99 > 1.5 * pref->p99 ? "" :
						  ", while their p99 buckets' lower bounds are within half of "
						  "each other");
				else if (pref->max > 2 * pm->max)
					sb_printf(b, " preferred's longest fault took %.0f times "
						     "preferred-many's (%s against %s %s).",
						  pref->max / pm->max, y, x, pm->unit);
				else
					sb_printf(b, " By their longest fault they are not distinguishable "
						     "(%s against %s %s).", x, y, pm->unit);
			}
			/* bind against preferred-many: does bind's direct reclaim show? */
			if (bind->have && pm->have) {
				sb_puts(b, "\n");
				said++;
				if (bind->stall > 0 || bind->direct_scan > 0) {
					num(x, sizeof(x), bind->stall);
					sb_printf(b, "bind reclaimed directly (%s stalls, %.0f pages scanned "
						     "directly on the preferred nodes)%s.", x, bind->direct_scan,
						  pm->direct_scan > 0 ? ", and so did preferred-many" :
						  ", preferred-many did not");
					num(x, sizeof(x), bind->max);
					num(y, sizeof(y), pm->max);
					sb_printf(b, " bind's longest fault took %s %s, preferred-many's %s.",
						  x, bind->unit, y);
				} else if (zero(bind->stall) && zero(bind->direct_scan) &&
					   zero(pm->stall) && zero(pm->direct_scan)) {
					num(x, sizeof(x), bind->kswapd_steal);
					num(y, sizeof(y), pm->kswapd_steal);
					sb_printf(b, "bind and preferred-many did not differ by direct reclaim "
						     "(0 stalls and 0 pages scanned directly on the preferred "
						     "nodes each; kswapd reclaimed %s pages there in bind's case, "
						     "%s in preferred-many's): by reclaim they are not "
						     "distinguishable in this run. (A suggestion, not a finding: "
						     "a case that asks for more than kswapd frees while it runs, "
						     "e.g. --profile full, might separate them.)", x, y);
				} else {
					sb_puts(b, "bind did not reclaim directly; whether preferred-many did "
						   "is not in the rows, so by direct reclaim they are not "
						   "distinguishable in this run.");
				}
			}
			/* the zone_reclaim_mode=1 pass, where it ran */
			rc_get(r, VOCAB_BENCH_RECLAIM_ZONE, "preferred", sets.v[s], variants[v], &z);
			if (z.have && pref->have) {
				sb_puts(b, "\n");
				said++;
				rc_sentence(r, "preferred", " with vm.zone_reclaim_mode=1", &z, b);
				pct(x, sizeof(x), z.on_set);
				pct(y, sizeof(y), pref->on_set);
				if (z.on_set - pref->on_set > SHARE_SAME)
					sb_printf(b, " Reclaiming its own node first kept more of preferred's "
						     "pages there: %s %% against %s %% with the mode at 0.", x, y);
				else
					sb_printf(b, " Not distinguishable from mode 0 by placement (%s %% "
						     "against %s %%).", x, y);
			}
			rc_free(&z);
			for (size_t p = 0; p < NPOLS; p++)
				rc_free(&f[p]);
		}
		sl_free(&sets);
	}
	return said;
}

void sec_reclaim(struct doc *d, struct run *r)
{
	static const char *const cols[] = { "scenario", "nodes", "policy", "on preferred nodes",
					    "allocstall", "direct scan there", "kswapd wakes there",
					    "kswapd reclaimed there", "fault p50", "p99", "longest" };
	static const char *const benches[] = { VOCAB_BENCH_RECLAIM, VOCAB_BENCH_RECLAIM_ZONE };
	struct sbuf b = { 0 };

	if (!reclaim_summary(r, &b)) {
		sb_free(&b);
		return;
	}
	doc_heading(d, 2, "reclaim", "The preferred nodes full of reclaimable memory");
	doc_para(d, NULL, "bench reclaim: the preferred nodes filled down to their low watermark "
		      "+ 6 MiB with clean page cache or with anonymous memory that can swap; before "
		      "each case the harness waits up to 2 s for pgscan_kswapd to stay still for "
		      "200 ms (row start_kswapd_active: 0 it did, 1 kswapd was still scanning, said "
		      "with the case); the case (mbind() policy, 4 KiB pages) asks for what the "
		      "nodes still give above their min watermark plus --mib. Per node, the reclaim "
		      "figures come from the kernel's vmscan tracepoints (kswapd, or the case's own "
		      "direct reclaim); allocstall is machine-wide (bench/README.md, \"reclaim\").");
	doc_paras(d, b.s);
	doc_table_start(d, cols, sizeof(cols) / sizeof(cols[0]));
	for (size_t v = 0; v < NVARIANTS; v++) {
		struct strlist sets = { 0 };

		rc_sets(r, variants[v], &sets);
		for (size_t s = 0; s < sets.n; s++)
			for (size_t bi = 0; bi < 2; bi++)
				for (size_t p = 0; p < NPOLS; p++) {
					struct rc_fig f;
					char c[64];

					rc_get(r, benches[bi], rc_pols[p], sets.v[s], variants[v], &f);
					if (!f.outcome) {
						rc_free(&f);
						continue;
					}
					doc_row_start(d);
					doc_cell(d, variants[v]);
					doc_cell(d, sets.v[s]);
					snprintf(c, sizeof(c), "%s%s", rc_pols[p],
						 bi ? " (zone_reclaim_mode=1)" : "");
					doc_cell(d, c);
					pct(c, sizeof(c), f.on_set);
					if (strcmp(c, "-"))
						strncat(c, " %", sizeof(c) - strlen(c) - 1);
					doc_cell(d, c);
					doc_cell_num(d, f.stall);
					doc_cell_num(d, f.direct_scan);
					doc_cell_num(d, f.wakes);
					doc_cell_num(d, f.kswapd_steal);
					doc_cell_num(d, f.p50);
					bucket(c, sizeof(c), f.p99);
					doc_cell(d, c);
					doc_cell_num(d, f.max);
					doc_row_end(d);
					rc_free(&f);
				}
		sl_free(&sets);
	}
	doc_table_end(d);
	sb_free(&b);
}
