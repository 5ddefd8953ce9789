// SPDX-License-Identifier: GPL-2.0
/*
 * The report's access cost counted by the emulator (--memory-timing count;
 * README, "Memory timing"): each case's phase rows (lab/boot/accounting.c) --
 * LLC misses per node, priced at the HMAT read latency of their node --
 * beside the placement-only model (report_model.c: after the fill; bench
 * model: its own case with nothing full), each workload's counted cost per
 * policy, and every case that ran with no phase counted.  Every sentence is
 * built from this run's rows and cites their summary.csv lines
 * (tests/unit/test_report.c feeds contrary data).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

#define LIST_SHOWN 12	/* cases named one by one before "and N more" */
#define MAX_POLICIES 16	/* known_policies has 6 */

static struct row *numeric(struct row *w)
{
	return w && w->numeric ? w : NULL;
}

static struct row *case_row(struct run *r, const char *bench, const char *policy, const char *nodes,
			    const char *ps, const char *sc, const char *metric)
{
	return numeric(run_find(r, bench, policy, nodes, ps, sc, metric));
}

static void pct(char *buf, size_t n, double frac)
{
	fmt_num(buf, n, round(frac * 1000) / 10);
}

static bool same_key(const struct row *w, const char *bench, const char *policy, const char *nodes,
		     const char *ps, const char *sc)
{
	return !strcmp(w->f[COL_BENCH], bench) && !strcmp(w->f[COL_POLICY], policy) &&
	       !strcmp(w->f[COL_NODES], nodes) && !strcmp(w->f[COL_PAGESIZE], ps) &&
	       !strcmp(w->f[COL_SCENARIO], sc);
}

/* "llc_miss_share_node<N>" -> N; -1 for any other metric. */
static long share_node(const char *metric)
{
	static const char prefix[] = "llc_miss_share_node";
	const char *d = metric + sizeof(prefix) - 1;
	char *end;
	long n;

	if (strncmp(metric, prefix, sizeof(prefix) - 1) || !isdigit((unsigned char)*d))
		return -1;
	n = strtol(d, &end, 10);
	return *end ? -1 : n;
}

/* Is node @n in the node set of a nodes field ("pmem:1+3", "node:1-3")? */
static bool in_set(const char *nodes, long n)
{
	const char *p = strchr(nodes, ':');

	for (p = p ? p + 1 : nodes; *p;) {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (end == p)
			return false;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p)
				return false;
		}
		if (n >= a && n <= b)
			return true;
		p = *end == '+' || *end == ',' ? end + 1 : end;
		if (*end && *end != '+' && *end != ',')
			return false;
	}
	return false;
}

/*
 * The misses of a case by node: " (node 1 99.2%, node 0 0.8%)" largest
 * first into @b; the share on @set into *on_set (NAN without shares).
 */
static void miss_split(struct run *r, const struct row *key, const char *set, double *on_set,
		       struct cites *c, struct sbuf *b)
{
	struct row *share[FILL_MODEL_NODES] = { NULL };
	bool done[FILL_MODEL_NODES] = { false };
	size_t shown = 0;

	*on_set = NAN;
	for (size_t i = 0; i < r->nrows; i++) {
		struct row *w = &r->rows[i];
		long n = share_node(w->f[COL_METRIC]);

		if (n < 0 || n >= FILL_MODEL_NODES || !is_ok(w) || !w->numeric ||
		    !same_key(w, key->f[COL_BENCH], key->f[COL_POLICY], key->f[COL_NODES],
			      key->f[COL_PAGESIZE], key->f[COL_SCENARIO]))
			continue;
		w->used = true;
		share[n] = w;
		if (isnan(*on_set))
			*on_set = 0;
		if (in_set(set, n))
			*on_set += w->num;
		cites_add(c, w);
	}
	for (;;) {
		long best = -1;
		char v[32];

		for (long n = 0; n < FILL_MODEL_NODES; n++)
			if (share[n] && !done[n] && share[n]->num > 0 &&
			    (best < 0 || share[n]->num > share[best]->num))
				best = n;
		if (best < 0)
			break;
		done[best] = true;
		pct(v, sizeof(v), share[best]->num);
		sb_printf(b, "%snode %ld %s%%", shown++ ? ", " : " (", best, v);
	}
	if (shown)
		sb_puts(b, ")");
}

/*
 * The misses of a case that memory-side caches served: the sum of its
 * msc_hits_node<N> rows, cited; NAN when it has none (no node with one).
 */
static double msc_served(struct run *r, const struct row *key, struct cites *c)
{
	static const char prefix[] = "msc_hits_node";
	double hits = NAN;

	for (size_t i = 0; i < r->nrows; i++) {
		struct row *w = &r->rows[i];

		if (strncmp(w->f[COL_METRIC], prefix, sizeof(prefix) - 1) || !is_ok(w) || !w->numeric ||
		    !same_key(w, key->f[COL_BENCH], key->f[COL_POLICY], key->f[COL_NODES],
			      key->f[COL_PAGESIZE], key->f[COL_SCENARIO]))
			continue;
		w->used = true;
		hits = (isnan(hits) ? 0 : hits) + w->num;
		cites_add(c, w);
	}
	return hits;
}

/* "4.2 ns lower than" / "the same as" / "12 ns higher than", as the figures print. */
static void versus(double counted, double model, struct sbuf *b)
{
	char a[32], z[32], d[32];

	fmt_num(a, sizeof(a), counted);
	fmt_num(z, sizeof(z), model);
	if (!strcmp(a, z)) {
		sb_puts(b, "the same as");
		return;
	}
	fmt_num(d, sizeof(d), fabs(counted - model));
	sb_printf(b, "%s ns %s than", d, counted < model ? "lower" : "higher");
}

/*
 * One case's counted misses: "N LLC misses, S% on SET (split): L ns per
 * miss".  The rows go into @c; false when the case has no phase rows.
 */
static bool counted_words(struct run *r, const char *bench, const char *policy, const char *nodes,
			  const char *ps, const char *sc, double *lat, struct cites *c,
			  struct sbuf *b)
{
	struct row *misses = case_row(r, bench, policy, nodes, ps, sc, "llc_misses");
	struct row *ml = case_row(r, bench, policy, nodes, ps, sc, "miss_latency_ns");
	double on_set;
	char v[32];

	*lat = NAN;
	if (!misses)
		return false;
	cites_add(c, misses);
	fmt_num(v, sizeof(v), misses->num);
	sb_printf(b, "%s LLC misses", v);
	if (misses->num > 0) {
		struct sbuf split = { 0 };

		sb_puts(&split, "");
		miss_split(r, misses, nodes, &on_set, c, &split);
		if (!isnan(on_set)) {
			pct(v, sizeof(v), on_set);
			sb_printf(b, ", %s%% on %s%s", v, nodes, split.s);
		}
		sb_free(&split);
		{
			double hits = msc_served(r, misses, c);

			if (!isnan(hits)) {
				pct(v, sizeof(v), hits / misses->num);
				sb_printf(b, ", %s%% of them served by memory-side caches", v);
			}
		}
	}
	if (ml) {
		cites_add(c, ml);
		*lat = ml->num;
		fmt_num(v, sizeof(v), ml->num);
		sb_printf(b, ": %s ns per miss at the HMAT read latencies", v);
	} else {
		sb_puts(b, ": not priced (a node without HMAT figures)");
	}
	return true;
}

static bool run_has_metric_prefix(const struct run *r, const char *prefix)
{
	for (size_t i = 0; i < r->nrows; i++)
		if (!strncmp(r->rows[i].f[COL_METRIC], prefix, strlen(prefix)))
			return true;
	return false;
}

size_t access_summary(struct run *r, const struct entries *e, const struct headline *h,
		      struct sbuf *b)
{
	size_t said = 0;

	for (size_t i = 0; i < e->n; i++) {
		const struct entry *en = &e->v[i];
		struct sbuf s = { 0 };
		struct cites c = { 0 };
		struct row *steps = case_row(r, "fallback", en->policy, en->nodes, "4k", "fill",
					     "mem_phases");
		struct row *model = model_free_row(r, en->policy, en->nodes, "model_read_latency_ns");
		const char *lat_ps = h->lat_ps ? h->lat_ps : "4k", *lat_sc = h->lat_sc ? h->lat_sc : "free";
		struct row *per_page = case_row(r, "latency", en->policy, en->nodes, lat_ps, lat_sc,
						"access_ns_per_page");
		size_t parts = 0;
		double lat;
		char v[32];

		sb_printf(&s, "**%s**: ", en->label);
		/* the fill curve, against the model after the fill */
		if (steps) {
			struct fill_model fm;
			const char *oc = run_case_outcome(r, "fallback", en->policy, en->nodes, "4k",
							  "fill");

			fmt_num(v, sizeof(v), steps->num);
			sb_printf(&s, "over its fill curve (%s step%s counted", v, steps->num == 1 ? "" : "s");
			if (oc && strcmp(oc, "completed")) {
				char *m = xasprintf("outcome_%s", oc);

				sb_printf(&s, "; it ended %s", oc);
				cites_add(&c, run_find(r, "fallback", en->policy, en->nodes, "4k", "fill", m));
				free(m);
			}
			sb_puts(&s, ") the emulator counted ");
			cites_add(&c, steps);
			counted_words(r, "fallback", en->policy, en->nodes, "4k", "fill", &lat, &c, &s);
			fill_model_get(r, en, &fm, &c);
			if (!isnan(lat) && !isnan(fm.lat)) {
				sb_puts(&s, ", ");
				versus(lat, fm.lat, &s);
				fmt_num(v, sizeof(v), fm.lat);
				sb_printf(&s, " the placement-only model after the fill (%s ns per access)", v);
			} else if (!isnan(lat)) {
				sb_puts(&s, "; no model after the fill to set beside it");
			}
			cites_put(r, &c, &s);
			parts++;
		}
		/* bench fallback's case with nothing full, against bench model's own case */
		if (case_row(r, "fallback", en->policy, en->nodes, "4k", "free", "llc_misses")) {
			sb_printf(&s, "%sin bench fallback's 4k/free case ", parts ? "; " : "");
			counted_words(r, "fallback", en->policy, en->nodes, "4k", "free", &lat, &c, &s);
			if (!isnan(lat) && model) {
				sb_puts(&s, ", ");
				versus(lat, model->num, &s);
				fmt_num(v, sizeof(v), model->num);
				sb_printf(&s, " bench model's own case with nothing full (%s ns per access)", v);
				cites_add(&c, model);
			}
			cites_put(r, &c, &s);
			parts++;
		}
		/* what a first-touch fault's memory accesses cost, at the headline condition */
		if (per_page) {
			struct row *ml = case_row(r, "latency", en->policy, en->nodes, lat_ps, lat_sc,
						  "miss_latency_ns");

			fmt_num(v, sizeof(v), per_page->num);
			sb_printf(&s, "%sits first-touch faults (bench latency, %s/%s) cost %s ns of "
				      "counted memory access per 4 KiB page written", parts ? "; " : "",
				  lat_ps, lat_sc, v);
			cites_add(&c, per_page);
			if (ml) {
				fmt_num(v, sizeof(v), ml->num);
				sb_printf(&s, ", %s ns per miss", v);
				cites_add(&c, ml);
			}
			cites_put(r, &c, &s);
			parts++;
		}
		if (parts) {
			sb_printf(b, "%s%s.", said++ ? "\n" : "", s.s);
		}
		sb_free(&s);
		free(c.v);
	}
	return said;
}

/* The workload benches (wlrun's rows: not a microbenchmark, not chase) with counted rows. */
static void workload_groups(struct run *r, struct strlist *keys)
{
	for (size_t i = 0; i < r->nrows; i++) {
		const struct row *w = &r->rows[i];
		char *key;
		bool have = false;

		if (!is_ok(w) || strcmp(w->f[COL_METRIC], "mem_phases") ||
		    bench_is_micro(w->f[COL_BENCH]) || !strcmp(w->f[COL_BENCH], "chase") ||
		    !strcmp(w->f[COL_BENCH], "phase"))
			continue;
		key = xasprintf("%s\t%s\t%s", w->f[COL_BENCH], w->f[COL_NODES], w->f[COL_SCENARIO]);
		for (size_t k = 0; k < keys->n && !have; k++)
			have = !strcmp(keys->v[k], key);
		if (have)
			free(key);
		else
			sl_add(keys, key);	/* keeps the pointer: freed below */
	}
}

size_t workload_access_summary(struct run *r, struct sbuf *b)
{
	struct strlist keys = { 0 };
	size_t said = 0;

	workload_groups(r, &keys);
	for (size_t k = 0; k < keys.n; k++) {
		char *copy = xstrdup(keys.v[k]), *nodes = strchr(copy, '\t'), *sc;
		struct row *cost[MAX_POLICIES] = { NULL };
		struct cites c = { 0 };
		size_t n = 0, most = 0, least = 0;
		char v[32];

		*nodes++ = '\0';
		sc = strchr(nodes, '\t');
		*sc++ = '\0';
		sb_printf(b, "%s**%s** (%s, scenario %s), counted memory access per policy: ",
			  said++ ? "\n" : "", copy, nodes, sc);
		for (size_t p = 0; known_policies[p] && p < MAX_POLICIES; p++) {
			struct row *w = case_row(r, copy, known_policies[p], nodes, "-", sc, "access_cost_ns");
			struct row *ml = case_row(r, copy, known_policies[p], nodes, "-", sc, "miss_latency_ns");
			struct row *misses = case_row(r, copy, known_policies[p], nodes, "-", sc, "llc_misses");
			double on_set;

			if (!w)
				continue;
			cost[p] = w;
			if (!n || w->num > cost[most]->num)
				most = p;
			if (!n || w->num < cost[least]->num)
				least = p;
			fmt_num(v, sizeof(v), w->num / 1e6);
			sb_printf(b, "%s%s %s ms", n++ ? ", " : "", known_policies[p], v);
			cites_add(&c, w);
			if (misses && misses->num > 0) {
				struct sbuf split = { 0 };

				sb_puts(&split, "");
				miss_split(r, misses, nodes, &on_set, &c, &split);
				cites_add(&c, misses);
				if (!isnan(on_set)) {
					pct(v, sizeof(v), on_set);
					sb_printf(b, " (%s%% of its misses on the set", v);
					if (ml) {
						fmt_num(v, sizeof(v), ml->num);
						sb_printf(b, ", %s ns per miss", v);
						cites_add(&c, ml);
					}
					sb_puts(b, ")");
				}
				sb_free(&split);
			}
		}
		if (n > 1) {
			char a[32], z[32];

			fmt_num(a, sizeof(a), cost[most]->num / 1e6);
			fmt_num(z, sizeof(z), cost[least]->num / 1e6);
			if (!strcmp(a, z)) {
				sb_puts(b, "; the same for every policy");
			} else {
				sb_printf(b, "; the most under %s", known_policies[most]);
				if (cost[least]->num > 0) {
					fmt_num(v, sizeof(v), cost[most]->num / cost[least]->num);
					sb_printf(b, ", %s times", v);
				} else {
					sb_puts(b, ", against");
				}
				sb_printf(b, " the least, under %s", known_policies[least]);
			}
		}
		cites_put(r, &c, b);
		sb_puts(b, ".");
		free(copy);
	}
	for (size_t k = 0; k < keys.n; k++)
		free((char *)keys.v[k]);
	free(keys.v);
	return said;
}

/* Does a case of this bench get a phase (bench/phase.c)? */
static bool phased_bench(const char *bench)
{
	static const char *const cases[] = { "latency", "latency_task", "latency_aa", "fallback", NULL };

	for (int i = 0; cases[i]; i++)
		if (!strcmp(bench, cases[i]))
			return true;
	/* wlrun's workloads: every bench that is neither a microbenchmark nor chase */
	return !bench_is_micro(bench) && strcmp(bench, "chase") && strcmp(bench, "phase");
}

bool run_counts_access(const struct run *r)
{
	const char *mt = run_meta(r, META_memory_timing);

	if (mt)
		return !strcmp(mt, "count") || !strcmp(mt, "delay");
	for (size_t i = 0; i < r->nboot_rows; i++)
		if (!strcmp(r->boot_rows[i].f[COL_METRIC], "mem_phases"))
			return true;
	return false;
}

size_t missing_phase_summary(struct run *r, struct sbuf *b)
{
	struct sbuf list = { 0 };
	struct cites c = { 0 };
	size_t missing = 0, unlabelled = 0;

	for (size_t i = 0; i < r->nboot_rows; i++) {
		const struct row *w = &r->boot_rows[i];
		const char *oc = row_outcome(w);
		bool found = false;

		if (!strcmp(w->f[COL_BENCH], "phase") && !strcmp(w->f[COL_METRIC], "mem_phases")) {
			unlabelled += w->numeric ? (size_t)w->num : 1;
			cites_add(&c, w->agg);
			continue;
		}
		if (!oc || strcmp(w->f[COL_BOOT_STATUS], "ok") || !phased_bench(w->f[COL_BENCH]))
			continue;
		for (size_t k = 0; k < r->nboot_rows && !found; k++) {
			const struct row *p = &r->boot_rows[k];

			found = !strcmp(p->f[COL_METRIC], "mem_phases") &&
				!strcmp(p->f[COL_BOOT_ID], w->f[COL_BOOT_ID]) &&
				same_key(p, w->f[COL_BENCH], w->f[COL_POLICY], w->f[COL_NODES],
					 w->f[COL_PAGESIZE], w->f[COL_SCENARIO]);
		}
		if (found)
			continue;
		if (missing++ < LIST_SHOWN)
			sb_printf(&list, "%s%s %s %s %s/%s (%s, boot %s)", missing > 1 ? "; " : "",
				  w->f[COL_BENCH], w->f[COL_POLICY], w->f[COL_NODES], w->f[COL_PAGESIZE],
				  w->f[COL_SCENARIO], oc, w->f[COL_BOOT_ID]);
		cites_add(&c, w->agg);
	}
	if (missing) {
		sb_printf(b, "No access phase was counted for %zu case%s that ran: %s", missing,
			  missing == 1 ? "" : "s", list.s);
		if (missing > LIST_SHOWN)
			sb_printf(b, " and %zu more", missing - LIST_SHOWN);
		sb_puts(b, " (a case that ended before its touch work began has none; an older "
			   "guest's cases had none)");
	}
	if (unlabelled)
		sb_printf(b, "%s%zu phase%s of the plugin had no PHASE line from the guest: "
			     "counted, but not a case's (rows of bench phase)",
			  missing ? ". " : "", unlabelled, unlabelled == 1 ? "" : "s");
	if (missing || unlabelled) {
		cites_put(r, &c, b);
		sb_puts(b, ".");
	}
	free(c.v);
	sb_free(&list);
	return missing + unlabelled;
}

bool access_detail_metric(const char *metric)
{
	static const char *const prefixes[] = { "mem_", "llc_", "msc_", "access_ns_per_page", NULL };

	for (int i = 0; prefixes[i]; i++)
		if (!strncmp(metric, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

static void paras(struct doc *d, struct sbuf *b)
{
	for (char *line = b->s, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		doc_para(d, NULL, line);
	}
}

void sec_access(struct doc *d, struct run *r, const struct entries *e, const struct headline *h)
{
	struct sbuf cases = { 0 }, wl = { 0 }, miss = { 0 };
	size_t nc, nw, nm;

	if (!run_counts_access(r))
		return;
	nc = access_summary(r, e, h, &cases);
	nw = workload_access_summary(r, &wl);
	nm = missing_phase_summary(r, &miss);
	doc_heading(d, 2, "access", run_delays(r) ?
		    "Access cost counted by the emulator (--memory-timing delay: counted as in count mode)" :
		    "Access cost counted by the emulator (--memory-timing count)");
	doc_para(d, NULL, "Counted, then priced: a QEMU plugin counted every memory access of the "
		      "guest while a case's touch work ran (one phase per case: each timed "
		      "repetition of bench latency, the touch loop of bench fallback, each fill "
		      "step, each fill-level probe, a workload from start to end) and simulated an "
		      "LLC; each miss is priced at the HMAT read latency of its node, each "
		      "write-back at the write latency (access_cost_ns). Misses per node follow "
		      "where the accesses went, the kernel's own (page tables, page zeroing) "
		      "included; hits and bandwidth cost nothing here, and the guest ran no slower "
		      "on the slow nodes. Beside each figure: the placement-only model's read "
		      "latency per access (page-weighted), which knows where the pages are but not "
		      "how often they are touched.");
	if (run_has_metric_prefix(r, "msc_hits_node"))
		doc_para(d, NULL, "Memory-side caches (HMAT, in front of a node's memory) are "
			      "simulated too, one per node shared by the vCPUs (exact under the icount "
			      "clock, which runs the vCPUs on one thread), every level the topology "
			      "gives (a level-1 miss looked up in level 2, then 3), empty at each "
			      "phase's start. A miss level 1 "
			      "serves is priced at the cache's own HMAT figures when the topology gives "
			      "them and the node's initiator is CPU 0's node (as the placement model "
			      "prices it); otherwise at the node's, the cache's hits counted but not "
			      "priced (the boot's checks say which). A deeper level has no figures: its "
			      "hits cost the node's.");
	if (nc)
		paras(d, &cases);
	if (nw) {
		int ncpus = run_guest_ncpus(r);
		struct sbuf p = { 0 };

		sb_printf(&p, "Workloads (wlrun): each one's counted access cost per policy, "
			  "its misses' share on the node set and their mean read latency.");
		/* the isolation --memory-timing adds (lab/boot/qemu.c), said where it applied */
		if (ncpus > 1)
			sb_printf(&p, " With the plugin loaded every CPU but CPU 0 was isolated (so "
				  "that the cases' counts repeat from boot to boot; README, \"Memory "
				  "timing\"): of the guest's %d CPUs a workload's threads ran on CPU 0 "
				  "alone, so its work, and what it allocated locally, differ from a run "
				  "without --memory-timing.", ncpus);
		else if (ncpus < 0)
			sb_printf(&p, " With the plugin loaded every CPU but CPU 0 is isolated "
				  "(README, \"Memory timing\"): if the guest had more than one CPU "
				  "(this run has no guest-topology.csv to say), a workload's threads "
				  "ran on CPU 0 alone.");
		doc_para(d, NULL, p.s);
		sb_free(&p);
		paras(d, &wl);
	}
	if (nm)
		paras(d, &miss);
	if (!nc && !nw && !nm)
		doc_para(d, NULL, "No case of this run has counted access rows.");
	sb_free(&cases);
	sb_free(&wl);
	sb_free(&miss);
}

bool run_delays(const struct run *r)
{
	const char *mt = run_meta(r, META_memory_timing);

	return mt && !strcmp(mt, "delay");
}

void delay_caveat(struct doc *d, const struct run *r)
{
	const char *dil = run_meta(r, META_memory_timing_dilation);
	char *s;

	if (!run_delays(r))
		return;
	s = xasprintf("**Experimental: delay injection (--memory-timing delay, dilation %s).** The "
		      "emulator made every LLC miss inside a marked phase wait on the host, "
		      "dilation x its node's HMAT read latency less a per-boot calibration of what a "
		      "miss already costs TCG. That makes a pointer chase feel the tiers (section "
		      "\"Delay injection\"); it does not make any other timing of this run a tier "
		      "effect: fault latencies, fill steps and workloads add TCG's own cost of every "
		      "instruction, the kernel's work and the host's noise to the dilated delays, "
		      "so their differences between policies are not what the tiers would cost. "
		      "Read the counted access cost instead.", dil ? dil : "not recorded");
	doc_para(d, "caveat", s);
	free(s);
}

/* One boot's chase rows of delay mode, by bound node. */
struct delay_boot {
	const char *boot;
	const struct row *per_load[2], *ratio, *hmat, *dilation, *calib;
};

static const struct row *boot_row(const struct run *r, const char *boot, const char *nodes,
				   const char *metric_prefix, bool exact)
{
	for (size_t i = 0; i < r->nboot_rows; i++) {
		const struct row *w = &r->boot_rows[i];

		if (!strcmp(w->f[COL_BENCH], "chase") && !strcmp(w->f[COL_SCENARIO], "chase") &&
		    !strcmp(w->f[COL_BOOT_ID], boot) && w->numeric &&
		    (!nodes || !strcmp(w->f[COL_NODES], nodes)) &&
		    (exact ? !strcmp(w->f[COL_METRIC], metric_prefix) :
			     !strncmp(w->f[COL_METRIC], metric_prefix, strlen(metric_prefix))))
			return w;
	}
	return NULL;
}

size_t delay_summary(const struct run *r, struct sbuf *b_out)
{
	struct sbuf b = { 0 };
	double sum = 0, sum_err = 0, worst = 0, want = NAN;
	size_t pairs = 0, said = 0;
	bool one_base = true;	/* every pair against the same HMAT ratio */

	for (size_t i = 0; i < r->nboot_rows; i++) {
		const struct row *w = &r->boot_rows[i], *ratio = w, *hmat, *dil, *cal, *base_load, *load;
		char base_nodes[32], *s;
		const char *basem;

		if (strcmp(w->f[COL_BENCH], "chase") || strncmp(w->f[COL_METRIC], "delay_ratio_vs_node", 19) ||
		    !w->numeric)
			continue;
		basem = w->f[COL_METRIC] + 19;
		snprintf(base_nodes, sizeof(base_nodes), "node:%s", basem);
		s = xasprintf("hmat_ratio_vs_node%s", basem);
		hmat = boot_row(r, w->f[COL_BOOT_ID], w->f[COL_NODES], s, true);
		free(s);
		dil = boot_row(r, w->f[COL_BOOT_ID], w->f[COL_NODES], "delay_dilation", true);
		cal = boot_row(r, w->f[COL_BOOT_ID], w->f[COL_NODES], "delay_calib_ns_per_miss", true);
		load = boot_row(r, w->f[COL_BOOT_ID], w->f[COL_NODES], "guest_ns_per_load", true);
		base_load = boot_row(r, w->f[COL_BOOT_ID], base_nodes, "guest_ns_per_load", true);
		sb_printf(&b, "Boot %s: %s %.0f ns per load, %s %.0f (guest clock; undilated %.1f and %.1f ns), "
			  "ratio %.3f against HMAT's %s",
			  w->f[COL_BOOT_ID], w->f[COL_NODES], load ? load->num : NAN, base_nodes,
			  base_load ? base_load->num : NAN,
			  load && dil ? load->num / dil->num : NAN,
			  base_load && dil ? base_load->num / dil->num : NAN, ratio->num,
			  hmat ? "" : "(not recorded)");
		if (hmat) {
			sb_printf(&b, "%.3f (%+.1f %%)", hmat->num, 100 * (ratio->num / hmat->num - 1));
			pairs++;
			sum += ratio->num;
			sum_err += ratio->num / hmat->num - 1;
			one_base &= isnan(want) || want == hmat->num;
			want = hmat->num;
			if (fabs(ratio->num / hmat->num - 1) > worst)
				worst = fabs(ratio->num / hmat->num - 1);
		}
		sb_printf(&b, "; dilation %s, calibration %s host ns per miss",
			  dil ? dil->f[COL_VALUE] : "not recorded", cal ? cal->f[COL_VALUE] : "not made");
		{
			/* this boot's own lines (cites_put names a figure's, over all boots) */
			const struct row *cited[] = { ratio, hmat, dil, cal, load, base_load };
			unsigned lines[6];
			size_t n = 0;

			for (size_t k = 0; k < 6; k++)
				if (cited[k] && cited[k]->line) {
					size_t at = n++;

					while (at && lines[at - 1] > cited[k]->line) {
						lines[at] = lines[at - 1];
						at--;
					}
					lines[at] = cited[k]->line;
				}
			for (size_t k = 0; k < n; k++)
				sb_printf(&b, "%s%u", k ? ", " : " (summary.csv lines ", lines[k]);
			sb_puts(&b, n ? ").\n" : ".\n");
		}
		said++;
	}
	/* pairs against different HMAT ratios (three-tier): their deviations are averaged, not their ratios */
	if (pairs > 1 && one_base)
		sb_printf(&b, "Over %zu pairs: mean ratio %.3f against HMAT's %.3f (%+.1f %%), the farthest "
			  "pair %.1f %% off.\n", pairs, sum / (double)pairs, want,
			  100 * (sum / (double)pairs / want - 1), 100 * worst);
	else if (pairs > 1)
		sb_printf(&b, "Over %zu pairs, each against its own nodes' HMAT ratio: mean deviation "
			  "%+.1f %%, the farthest pair %.1f %% off.\n", pairs,
			  100 * sum_err / (double)pairs, 100 * worst);
	if (b.len)
		sb_puts(b_out, b.s);
	sb_free(&b);
	return said;
}

void sec_delay(struct doc *d, struct run *r)
{
	struct sbuf b = { 0 };

	if (!run_delays(r))
		return;
	doc_heading(d, 2, "delay", "Delay injection (experimental): the pointer chase only");
	doc_para(d, NULL, "Each boot's chase walked a 64 MiB cycle bound to each memory node, every "
		      "load a miss, timed on the guest's own clock (--clock wall: host time). With "
		      "each miss made to cost dilation x its node's HMAT read latency, the slower "
		      "node's time per load over the faster's should be HMAT's ratio; how near it "
		      "comes measures the injection (the calibration, the host's noise), not the "
		      "tiers, whose figures come from the topology file. Only this benchmark is "
		      "shown: other timings under delays are not tier effects (above).");
	if (!delay_summary(r, &b))
		sb_puts(&b, "No boot of this run has a chase pair with delay rows (run --benches chase).\n");
	doc_paras(d, b.s);
	sb_free(&b);
}
