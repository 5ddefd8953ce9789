// SPDX-License-Identifier: GPL-2.0
/*
 * The decision rule (README "Which policy? The decision rule"): the verdict
 * for what the user says of the workload, every figure in it read from this
 * run's rows and cited by its summary.csv lines.
 *
 *   fits yes: bind, when this run shows its pages on its nodes (bench
 *     fallback with free memory, and the fill curve); it never falls back,
 *     and how it ends when the workload does outgrow the nodes is said too.
 *   fits no: drop each subject policy that was killed or faulted in an OOM
 *     test (or did not complete one); of the rest, the one that put the most
 *     memory on its preferred nodes over the fill curve (else
 *     the placement share); a tie (within one fill step) goes to the lower
 *     fault cost with the preferred nodes full; else no one is chosen and the
 *     report names the run that would separate them.
 *   unknown: the "no" answer, the safe one, with the "yes" answer beside it.
 *
 * Nothing here is a conclusion by itself: every sentence that states a
 * result takes its words from the rows (tests/unit/test_report.c feeds the
 * rule contrary data).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modes.h"
#include "report_int.h"

int fits_parse(const char *s, enum fits *f)
{
	static const struct {
		const char *name;
		enum fits f;
	} words[] = { { "yes", FITS_YES }, { "no", FITS_NO }, { "unknown", FITS_UNKNOWN } };

	for (size_t i = 0; s && i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(s, words[i].name)) {
			*f = words[i].f;
			return 0;
		}
	return -1;
}

const char *fits_name(enum fits f)
{
	return f == FITS_YES ? "yes" : f == FITS_NO ? "no" : "unknown";
}

/* ---- citations: the summary.csv lines behind figures ---- */

void cites_add(struct cites *c, const struct row *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i] == w)
			return;
	c->v = xrealloc(c->v, (c->n + 1) * sizeof(*c->v));
	c->v[c->n++] = w;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

#define CITE_SHOWN 4

void cites_put(const struct run *r, struct cites *c, struct sbuf *b)
{
	unsigned *lines = NULL;
	size_t n = 0;

	for (size_t i = 0; i < r->nboot_rows; i++) {
		const struct row *w = &r->boot_rows[i];

		for (size_t k = 0; k < c->n; k++)
			if (w->line && w->agg == c->v[k]) {
				lines = xrealloc(lines, (n + 1) * sizeof(*lines));
				lines[n++] = w->line;
				break;
			}
	}
	if (n) {
		size_t runs = 0, shown = 0, i = 0;

		qsort(lines, n, sizeof(*lines), cmp_uint);
		sb_printf(b, " (summary.csv line%s ", n == 1 ? "" : "s");
		/* consecutive lines as a range: "12–14, 27–29" */
		while (i < n) {
			size_t j = i;

			while (j + 1 < n && lines[j + 1] == lines[j] + 1)
				j++;
			if (runs++ < CITE_SHOWN) {
				sb_printf(b, "%s%u", i ? ", " : "", lines[i]);
				if (j > i)
					sb_printf(b, "%s%u", j > i + 1 ? "–" : ", ", lines[j]);
				shown = j + 1;
			}
			i = j + 1;
		}
		if (shown < n)
			sb_printf(b, " and %zu more", n - shown);
		sb_puts(b, ")");
	}
	free(lines);
	free(c->v);
	*c = (struct cites){ 0 };
}

void cite(const struct run *r, const struct row *w, struct sbuf *b)
{
	cite_rows(r, &w, 1, b);
}

void cite_rows(const struct run *r, const struct row *const *w, size_t n, struct sbuf *b)
{
	struct cites c = { 0 };

	for (size_t i = 0; i < n; i++)
		cites_add(&c, w[i]);
	cites_put(r, &c, b);
}

/* The fill curve's rows of one entry, and its outcome rows. */
static void cite_fill(struct run *r, const struct entry *en, struct cites *c)
{
	for (size_t k = 0; k < r->nrows; k++) {
		const struct row *w = &r->rows[k];

		if (is_ok(w) && !strcmp(w->f[COL_BENCH], "fallback") &&
		    !strcmp(w->f[COL_POLICY], en->policy) && !strcmp(w->f[COL_NODES], en->nodes) &&
		    ((is_fill(w->f[COL_SCENARIO]) && !strcmp(w->f[COL_METRIC], M_FILL)) ||
		     (!strcmp(w->f[COL_SCENARIO], "fill") && row_outcome(w))))
			cites_add(c, w);
	}
}

/*
 * "oom_killed (4k) at 884.7 of 1257 MiB, sigbus (2m)", the rows into @c;
 * without @c only the outcomes ("oom_killed (4k), sigbus (2m)"); count.
 */
static size_t bad_outcomes(struct run *r, const struct entry *en, struct sbuf *b,
			   struct cites *c)
{
	size_t n = 0;

	for (size_t k = 0; k < r->nrows; k++) {
		struct row *w = &r->rows[k];
		const char *o = row_outcome(w), *ps = w->f[COL_PAGESIZE], *sc = w->f[COL_SCENARIO];
		char got[32], asked[32];

		if (!o || !is_ok(w) || strcmp(w->f[COL_BENCH], "oom") || !outcome_is_bad(o) ||
		    strcmp(w->f[COL_POLICY], en->policy) || strcmp(w->f[COL_NODES], en->nodes))
			continue;
		struct row *mr = run_find(r, "oom", en->policy, en->nodes, ps, sc, "mib_obtained");
		struct row *ar = run_find(r, "oom", en->policy, en->nodes, ps, sc, "asked");

		if (!mr || !mr->numeric)
			mr = run_find(r, "oom", en->policy, en->nodes, ps, sc, "mib_before_outcome");
		sb_printf(b, "%s%s (%s)", n++ ? ", " : "", o, ps);
		if (!c)
			continue;
		fmt_num(got, sizeof(got), numval(mr));
		fmt_num(asked, sizeof(asked), numval(ar));
		if (!isnan(numval(mr)))
			sb_printf(b, isnan(numval(ar)) ? " at %s MiB" : " at %s of %s MiB asked", got,
				  asked);
		cites_add(c, w);
		cites_add(c, mr);
		cites_add(c, ar);
	}
	return n;
}

static void lat_text(const struct lat_cell *c, const char *unit, struct sbuf *b)
{
	char v[32], lo[32], hi[32];

	fmt_num(v, sizeof(v), c->p50);
	sb_printf(b, "%s %s", v, unit);
	if (!isnan(c->lo) && !isnan(c->hi) && c->boots > 1) {
		fmt_num(lo, sizeof(lo), c->lo);
		fmt_num(hi, sizeof(hi), c->hi);
		sb_printf(b, " [%s, %s]", lo, hi);
	}
}

/* How many nodes a label names: "pmem:1+3" is 2. */
static size_t node_count(const char *nodes)
{
	const char *ids = strchr(nodes, ':');
	size_t n = 1;

	ids = ids ? ids + 1 : nodes;
	for (; *ids; ids++)
		n += *ids == '+';
	return n;
}

/* "a", "a and b", "a, b and c" for the flagged entries */
static void label_list(const struct entries *e, const bool *pick, struct sbuf *b)
{
	size_t n = 0, k = 0;

	for (size_t i = 0; i < e->n; i++)
		n += pick[i];
	for (size_t i = 0; i < e->n; i++)
		if (pick[i])
			sb_printf(b, "%s**%s**", k++ ? (k == n ? " and " : ", ") : "", e->v[i].label);
}

/* ---- the case "it fits": bind ---- */

/* Appends the "fits" answer; flags the bind entries it recommends in @pick (may be NULL). */
static void rule_fits(struct run *r, const struct entries *e, const struct headline *h,
		      bool brief, bool *pick, struct sbuf *b)
{
	const char *unit = run_time_unit(r);
	size_t nbind = 0;
	char v[32];

	for (size_t i = 0; i < e->n; i++) {
		const struct entry *en = &e->v[i];
		const struct headline_line *l = &h->lines[i];
		struct cites c = { 0 };
		struct sbuf bad = { 0 };
		struct row *pw;
		double f;

		if (strcmp(en->policy, "bind"))
			continue;
		if (nbind++)
			sb_puts(b, " ");
		pw = run_find(r, "fallback", "bind", en->nodes, "4k", "free", M_PREF);
		if (!pw && h->have_fb)
			pw = run_find(r, "fallback", "bind", en->nodes, h->fb_ps, h->fb_sc, M_PREF);
		f = frac_of(pw);
		if (isnan(f) && isnan(l->fill_mib)) {
			sb_printf(b, "%s has no placement figure in this run (bench fallback): whether its "
				     "pages stay on its nodes is not measured.", en->label);
			continue;
		}
		if ((!isnan(f) && f < 0.99) || (!isnan(l->fill_mib) && !isnan(l->fill_first))) {
			fmt_num(v, sizeof(v), 100 * f);
			sb_printf(b, "%s did not keep its pages on its nodes in this run", en->label);
			if (!isnan(f) && f < 0.99)
				sb_printf(b, ": %s%% there (%s, %s)", v, pw->f[COL_PAGESIZE],
					  pw->f[COL_SCENARIO]);
			if (!isnan(l->fill_mib) && !isnan(l->fill_first)) {
				fmt_num(v, sizeof(v), l->fill_first);
				sb_printf(b, "%sits fill curve's step at %s MiB was below 99%% there",
					  !isnan(f) && f < 0.99 ? "; " : ": ", v);
			}
			cites_add(&c, pw);
			cite_fill(r, en, &c);
			cites_put(r, &c, b);
			sb_puts(b, " — not recommended until that is understood (the guest's "
				   "checks, bench checks).");
			continue;
		}
		if (pick)
			pick[i] = true;
		sb_printf(b, "**%s**: ", en->label);
		if (!isnan(f)) {
			fmt_num(v, sizeof(v), 100 * f);
			sb_printf(b, "%s%% of its pages on its nodes (%s pages, scenario %s)", v,
				  pw->f[COL_PAGESIZE], pw->f[COL_SCENARIO]);
			cite(r, pw, b);
		}
		if (!isnan(l->fill_mib)) {
			fmt_num(v, sizeof(v), l->fill_last);
			sb_printf(b, "%sthe fill curve had every step there up to %s MiB", isnan(f) ? "" : "; ",
				  v);
			cite_fill(r, en, &c);
			cites_put(r, &c, b);
		}
		if (!brief && !isnan(l->lat[0].p50)) {
			sb_printf(b, "; its median fault cost (%s pages, scenario %s): ", h->lat_ps,
				  h->lat_sc);
			lat_text(&l->lat[0], unit, b);
			cite(r, l->lat[0].p50_row, b);
		}
		sb_puts(b, isnan(l->fill_mib)
			   ? ". Whether it holds on to its nodes as they fill is not measured (no fill "
			     "curve); bind does not fall back by definition, so it is safe only while the "
			     "workload fits"
			   : ". It did not fall back, so it is safe only while the workload fits");
		if (bad_outcomes(r, en, &bad, brief ? NULL : &c)) {
			sb_printf(b, ": past its nodes this run saw %s", bad.s);
			if (brief)
				sb_puts(b, " (the OOM tests above)");
			cites_put(r, &c, b);
		} else if (l->oom_tests) {
			sb_puts(b, "; it completed every OOM test it ran");
		} else {
			sb_puts(b, "; how it ends past its nodes was not measured (bench oom)");
		}
		sb_puts(b, brief ? "." : ". When in doubt, say --fits no.");
		sb_free(&bad);
		free(c.v);
	}
	if (!nbind)
		sb_puts(b, "bind did not run (add it to --policies): this run cannot answer that case.");
}

/* ---- the case "it may not fit" ---- */

static double score_of(const struct headline *h, size_t i)
{
	return h->have_fill ? h->lines[i].fill_mib : h->lines[i].pref;
}

/* "912.5 MiB (summary.csv lines ...)": an entry's placement figure, cited */
static void score_cited(struct run *r, const struct entries *e, const struct headline *h,
			size_t i, struct sbuf *b)
{
	struct cites c = { 0 };
	char v[32];

	fmt_num(v, sizeof(v), h->have_fill ? score_of(h, i) : 100 * score_of(h, i));
	sb_printf(b, "%s %s", v, h->have_fill ? "MiB" : "%");
	if (h->have_fill)
		cite_fill(r, &e->v[i], &c);
	else
		cites_add(&c, run_find(r, "fallback", e->v[i].policy, e->v[i].nodes, h->fb_ps,
				       h->fb_sc, M_PREF));
	cites_put(r, &c, b);
}

/*
 * A tie on placement, decided by the fault cost with the preferred nodes
 * full: the tied entry whose cost is claimed lower than every other tied
 * one's, paired over boots; -1 when none is.
 */
static ssize_t tie_by_cost(struct run *r, const struct entries *e, const struct headline *h,
			   bool *tied, struct sbuf *b, struct sbuf *pairs)
{
	static const char *const scs[] = { "full", "pressure" };
	const char *unit = run_time_unit(r), *ps = h->lat_ps ? h->lat_ps : "4k", *sc = NULL;
	struct lat_cell *c = xcalloc(e->n, sizeof(*c));
	ssize_t win = -1;

	for (size_t s = 0; s < sizeof(scs) / sizeof(scs[0]) && !sc; s++) {
		bool all = true;

		for (size_t i = 0; i < e->n; i++)
			if (tied[i]) {
				lat_cell_get(r, "latency", e->v[i].policy, e->v[i].nodes, ps, scs[s], &c[i]);
				all &= !isnan(c[i].p50) && c[i].p50_row;
			}
		if (all)
			sc = scs[s];
	}
	if (!sc) {
		sb_puts(b, " Their fault cost with the preferred nodes full is not measured (bench "
			   "latency, scenario full), so it cannot break the tie.");
		free(c);
		return -1;
	}
	sb_printf(b, " Median fault cost with the preferred nodes full (%s pages, scenario %s): ",
		  ps, sc);
	for (size_t i = 0, k = 0; i < e->n; i++)
		if (tied[i]) {
			struct cites ct = { 0 };

			sb_printf(b, "%s%s ", k++ ? "; " : "", e->v[i].label);
			lat_text(&c[i], unit, b);
			cites_add(&ct, c[i].p50_row);
			cites_put(r, &ct, b);
		}
	sb_puts(b, ".");
	for (size_t i = 0; i < e->n && win < 0; i++) {
		bool lower = tied[i];

		for (size_t j = 0; j < e->n && lower; j++)
			if (j != i && tied[j])
				lower = lat_verdict(r, &c[i], &c[j], ps, sc).kind == VERDICT_HIGHER;
		if (lower)
			win = (ssize_t)i;
	}
	/* the pairs behind it: the winner against each other, else the first against each */
	size_t a = 0;

	if (win >= 0)
		a = (size_t)win;
	else
		while (!tied[a])
			a++;
	for (size_t i = 0; i < e->n; i++) {
		struct sbuf why = { 0 };

		if (!tied[i] || i == a)
			continue;
		struct verdict v = lat_verdict(r, &c[a], &c[i], ps, sc);

		verdict_why(&v, (size_t)(isnan(c[i].boots) ? 0 : c[i].boots), unit, &why);
		sb_printf(pairs, "%s%s against %s: %s%s", pairs->len ? "; " : "", e->v[a].label,
			  e->v[i].label,
			  v.kind == VERDICT_HIGHER ? "lower " : v.kind == VERDICT_LOWER ? "higher "
			  : v.kind == VERDICT_NONE ? "no boots in common" : "", why.s ? why.s : "");
		sb_free(&why);
	}
	free(c);
	return win;
}

/*
 * Appends the "may not fit" answer; flags what it recommends in @pick;
 * returns false when no policy can be recommended.
 */
static bool rule_not_fits(struct run *r, const struct entries *e, const struct headline *h,
			  bool *pick, struct sbuf *b)
{
	bool refs_only = true, any_oom = false, ok = false;
	bool *cand = xcalloc(e->n, sizeof(bool));
	ssize_t top = -1;
	size_t nbest = 0;
	char v1[32], v2[32];

	for (size_t i = 0; i < e->n; i++) {
		refs_only &= policy_is_reference(e->v[i].policy);
		any_oom |= h->lines[i].oom_tests > 0;
	}
	for (size_t i = 0; i < e->n; i++) {
		const struct headline_line *l = &h->lines[i];

		cand[i] = (refs_only || !policy_is_reference(e->v[i].policy)) &&
			  oom_survivor(l, any_oom) && !isnan(score_of(h, i));
		if (cand[i] && (top < 0 || score_of(h, i) > score_of(h, (size_t)top)))
			top = (ssize_t)i;
	}
	if (top < 0) {
		sb_puts(b, "No policy can be recommended from this run: ");
		sb_puts(b, h->have_fill || h->have_fb
			   ? "no subject policy with a placement figure ran and completed every OOM "
			     "test."
			   : "it has no placement figures (bench fallback: on_set_frac or the fill "
			     "curve's step_on_set_frac).");
		goto out_policies;
	}
	ok = true;
	for (size_t i = 0; i < e->n; i++) {
		double tol = h->have_fill ? h->fill_step : 0.01;

		if (cand[i] && score_of(h, (size_t)top) - score_of(h, i) <= tol) {
			pick[i] = true;
			nbest++;
		}
	}
	if (nbest == 1) {
		struct cites c = { 0 };

		label_list(e, pick, b);
		if (h->have_fill) {
			fmt_num(v1, sizeof(v1), h->lines[top].fill_mib);
			sb_printf(b, ": it put %s MiB on its preferred nodes over the fill curve", v1);
			if (!isnan(h->lines[top].fill_first)) {
				fmt_num(v2, sizeof(v2), h->lines[top].fill_before);
				sb_printf(b, " (all of it until %s MiB)", v2);
			}
			cite_fill(r, &e->v[top], &c);
		} else {
			struct row *w = run_find(r, "fallback", e->v[top].policy, e->v[top].nodes,
						 h->fb_ps, h->fb_sc, M_PREF);

			fmt_num(v1, sizeof(v1), 100 * h->lines[top].pref);
			sb_printf(b, ": %s%% of its pages landed on its preferred nodes (%s pages, "
				     "scenario %s)", v1, h->fb_ps, h->fb_sc);
			cites_add(&c, w);
		}
		cites_put(r, &c, b);
		sb_puts(b, any_oom ? ", the most of the policies that completed every OOM test"
				   : ", the most of the policies (OOM behaviour was not measured: bench "
				     "oom did not run)");
		for (size_t i = 0, k = 0; i < e->n; i++)
			if (cand[i] && !pick[i]) {
				sb_printf(b, "%s%s ", k++ ? ", " : "; then ", e->v[i].label);
				score_cited(r, e, h, i, b);
			}
		sb_puts(b, ".");
	} else {
		struct sbuf pairs = { 0 };
		ssize_t win;

		label_list(e, pick, b);
		sb_puts(b, h->have_fill ? " are not distinguishable by placement: "
					: " are not distinguishable by placement share: ");
		for (size_t i = 0, k = 0; i < e->n; i++)
			if (pick[i]) {
				sb_puts(b, k++ ? ", " : "");
				score_cited(r, e, h, i, b);
			}
		if (h->have_fill) {
			fmt_num(v2, sizeof(v2), h->fill_step);
			sb_printf(b, " on the preferred nodes over the fill curve, within one %s MiB "
				     "fill step of each other", v2);
		} else {
			sb_printf(b, " of the pages on the preferred nodes (%s pages, scenario %s), "
				     "within 1 point of each other", h->fb_ps, h->fb_sc);
		}
		sb_puts(b, any_oom ? "; each completed every OOM test it ran." : ".");
		win = tie_by_cost(r, e, h, pick, b, &pairs);
		if (win >= 0) {
			for (size_t i = 0; i < e->n; i++)
				pick[i] = (ssize_t)i == win;
			sb_printf(b, " So **%s**, by the lower fault cost with the nodes full (%s).",
				  e->v[win].label, pairs.s);
		} else {
			sb_puts(b, " Not distinguishable by placement or by fault cost in this run");
			if (pairs.len)
				sb_printf(b, " (%s)", pairs.s);
			sb_puts(b, ": either is as good on this evidence. What would separate them: ");
			if (h->have_fill && h->fill_step > 16)
				sb_puts(b, "a finer fill curve (--profile full: 16 MiB steps), ");
			sb_puts(b, "more boots, or --clock icount (fault cost as kernel path length, "
				   "the same in every boot).");
		}
		sb_free(&pairs);
	}
	{
		/* one preferred node each: whether they differ is this run's to say */
		bool one_node = true, pref = false, many = false;
		struct sbuf sn = { 0 };

		for (size_t i = 0; i < e->n; i++)
			if (pick[i] || (nbest > 1 && cand[i] &&
					score_of(h, (size_t)top) - score_of(h, i) <=
						(h->have_fill ? h->fill_step : 0.01))) {
				one_node &= node_count(e->v[i].nodes) == 1;
				pref |= !strcmp(e->v[i].policy, "preferred");
				many |= !strcmp(e->v[i].policy, "preferred-many");
			}
		if (one_node && pref && many) {
			if (single_node_summary(r, &sn))
				sb_printf(b, " With one preferred node, where the overflow went: %s",
					  sn.s);
			else
				sb_puts(b, " With one preferred node, whether preferred and preferred-many "
					   "send the overflow to the same place is not measured in this run "
					   "(bench fallback-order's single-node cases, on a machine with two "
					   "nodes with CPUs).");
		}
		sb_free(&sn);
	}
out_policies:
	{
		/* a node set that other benches used (fallback-order's one-node sets) */
		struct sbuf none = { 0 };
		size_t n = 0;

		for (size_t i = 0; i < e->n; i++)
			if (!policy_is_reference(e->v[i].policy) && any_oom && !h->lines[i].oom_tests)
				sb_printf(&none, "%s%s", n++ ? ", " : "", e->v[i].label);
		if (n)
			sb_printf(b, "\nNot compared, for want of an OOM test of %s: %s.",
				  n == 1 ? "it" : "them", none.s);
		sb_free(&none);
	}
	for (size_t i = 0; i < e->n; i++) {
		const struct headline_line *o = &h->lines[i];
		struct sbuf bad = { 0 };
		struct cites c = { 0 };

		if (policy_is_reference(e->v[i].policy) || !o->oom_tests ||
		    (oom_survivor(o, any_oom) && !o->oom_bad))
			continue;
		sb_putc(b, '\n');
		if (bad_outcomes(r, &e->v[i], &bad, &c)) {
			sb_printf(b, "%s is out: %s in the OOM tests", e->v[i].label, bad.s);
			cites_put(r, &c, b);
			sb_puts(b, ".");
		} else {
			for (size_t k = 0; k < r->nrows; k++) {
				const struct row *w = &r->rows[k];

				if (is_ok(w) && !strcmp(w->f[COL_BENCH], "oom") && row_outcome(w) &&
				    !strcmp(w->f[COL_POLICY], e->v[i].policy) &&
				    !strcmp(w->f[COL_NODES], e->v[i].nodes))
					cites_add(&c, w);
			}
			sb_printf(b, "%s is out: it did not complete its OOM tests (%zu of %zu "
				     "completed)", e->v[i].label, o->oom_done, o->oom_tests);
			cites_put(r, &c, b);
			sb_puts(b, ".");
		}
		sb_free(&bad);
		free(c.v);
	}
	free(cand);
	return ok;
}

/* ---- fault cost: the chosen policy against every other ---- */

/*
 * The fault cost the user's case meets: with the preferred nodes full
 * (scenario full, where the policies' kernel paths differ) unless the
 * workload fits, or the run has no such figure; then the headline's
 * condition (free, where they are the same up to the policy lookup).
 */
static const char *case_lat_scenario(struct run *r, const struct entries *e,
				     const struct headline *h, enum fits fits)
{
	if (fits == FITS_YES || !h->lat_ps)
		return h->lat_sc;
	for (size_t i = 0; i < e->n; i++)
		if (run_find(r, lat_benches[0].bench, e->v[i].policy, e->v[i].nodes, h->lat_ps,
			     "full", M_P50))
			return "full";
	return h->lat_sc;
}

static void latency_para(struct run *r, const struct entries *e, const struct headline *h,
			 const bool *pick, enum fits fits, struct sbuf *b)
{
	ssize_t ref = -1;
	const struct lat_cell *lc;
	struct sbuf same = { 0 }, lower = { 0 }, higher = { 0 }, noci = { 0 }, iw = { 0 };
	struct sbuf ended = { 0 };
	double mincov = NAN, boots = NAN;
	const char *unit = run_time_unit(r);
	const char *sc;
	struct lat_cell *cells;

	if (!h->have_lat) {
		sb_puts(b, "\nThere are no fault-latency figures to compare.");
		return;
	}
	sc = case_lat_scenario(r, e, h, fits);
	cells = xcalloc(e->n ? e->n : 1, sizeof(*cells));
	for (size_t i = 0; i < e->n; i++)
		lat_cell_get(r, lat_benches[0].bench, e->v[i].policy, e->v[i].nodes, h->lat_ps, sc,
			     &cells[i]);
	for (size_t i = 0; i < e->n && ref < 0; i++)
		if (pick[i] && !isnan(cells[i].p50))
			ref = (ssize_t)i;
	for (size_t i = 0; i < e->n && ref < 0; i++)
		if (!isnan(cells[i].p50))
			ref = (ssize_t)i;
	if (ref < 0) {
		sb_printf(b, "\nNo policy has a fault-latency figure in scenario %s.", sc);
		free(cells);
		return;
	}
	lc = &cells[ref];
	sb_printf(b, "\nMedian fault latency (%s pages, scenario %s%s, policy set with %s) of %s: ",
		  h->lat_ps, sc, !strcmp(sc, "full") ? ": the preferred nodes held full" :
		  !strcmp(sc, "free") ? ": no node full" : "", lat_benches[0].via, e->v[ref].label);
	lat_text(lc, unit, b);
	cite(r, lc->p50_row, b);
	sb_puts(b, ".");
	/* every other policy against it, paired over the boots (lab/report/verdict.h) */
	for (size_t i = 0; i < e->n; i++) {
		const struct lat_cell *o = &cells[i];
		struct sbuf *dst, why = { 0 };

		if ((ssize_t)i != ref && isnan(o->p50) && o->outcome && strcmp(o->outcome, "completed"))
			sb_printf(&ended, "%s%s %s", ended.len ? "; " : "", e->v[i].label, o->outcome);
		if ((ssize_t)i == ref || isnan(o->p50))
			continue;
		struct verdict v = lat_verdict(r, lc, o, h->lat_ps, sc);

		dst = v.kind == VERDICT_NONE ? &noci : v.kind == VERDICT_SAME ? &same
		      : v.kind == VERDICT_HIGHER ? &lower : &higher;
		if (!isnan(o->cov) && (isnan(mincov) || o->cov < mincov))
			mincov = o->cov;
		if (!isnan(o->boots) && (isnan(boots) || o->boots < boots))
			boots = o->boots;
		sb_printf(dst, "%s%s (", dst->len ? "; " : "", e->v[i].label);
		lat_text(o, unit, dst);
		verdict_why(&v, (size_t)(isnan(o->boots) ? 0 : o->boots), unit, &why);
		if (why.len)
			sb_printf(dst, ", %s", why.s);
		sb_puts(dst, ")");
		sb_free(&why);
	}
	if (!isnan(lc->cov) && (isnan(mincov) || lc->cov < mincov))
		mincov = lc->cov;
	if (!isnan(lc->boots) && (isnan(boots) || lc->boots < boots))
		boots = lc->boots;
	if (same.len)
		sb_printf(b, " It cannot be told apart from %s.", same.s);
	if (lower.len)
		sb_printf(b, " It is lower than %s.", lower.s);
	if (higher.len)
		sb_printf(b, " It is higher than %s.", higher.s);
	if (noci.len)
		sb_printf(b, " %s has no value in the same boots, so nothing is claimed there.",
			  noci.s);
	if (ended.len)
		sb_printf(b, " No fault latency in this scenario for %s.", ended.s);
	interval_words(mincov, boots, &iw);
	if (boots == 1)
		sb_printf(b, "\n**How sure:** each figure comes from one boot: there is no "
			     "interval over boots. ");
	else
		sb_printf(b, "\n**How sure:** each figure is the median over boots, its bracket "
			     "the %s. ", iw.s ? iw.s : "");
	sb_printf(b, "A difference is claimed only where the interval of the per-boot "
		     "differences has at least 95%% coverage and excludes 0 (%zu boots or "
		     "more)", verdict_min_boots(true));
	if (!strcmp(unit, "insn"))
		sb_puts(b, ", or, the clock being icount, where every boot differs the same way "
			   "and the median difference is at least the spread between identical "
			   "cases: the A/A pair (the same case twice in one boot) and any case of "
			   "the condition from boot to boot");
	sb_puts(b, ".");
	{
		char aa[32], fl[32];
		double sp = aa_spread(r, h->lat_ps, sc);
		double floor = icount_floor(r, h->lat_ps, sc);

		fmt_num(aa, sizeof(aa), sp);
		fmt_num(fl, sizeof(fl), floor);
		if (!isnan(sp))
			sb_printf(b, " A/A spread here: %s %s; between identical cases: %s %s.", aa,
				  unit, fl, unit);
		if (r->nboots == 1)
			sb_puts(b, " All figures come from one boot.");
	}
	const char *acc = run_meta(r, META_accelerator);

	if (!strcmp(unit, "insn"))
		sb_puts(b, " These are guest instruction counts (--clock icount, TCG): they rank "
			   "kernel paths by length, not by speed.");
	else if (!acc || !strcmp(acc, "tcg"))
		sb_puts(b, " These are emulation (TCG) timings: they rank policies within this "
			   "run, they are not hardware latencies.");
	sb_free(&same);
	sb_free(&lower);
	sb_free(&higher);
	sb_free(&noci);
	sb_free(&iw);
	sb_free(&ended);
	free(cells);
}

void recommendation(struct run *r, const struct entries *e, const struct headline *h,
		    enum fits fits, struct sbuf *b, struct sbuf *why)
{
	bool *pick = xcalloc(e->n ? e->n : 1, sizeof(bool));
	struct sbuf un = { 0 };

	sb_printf(b, "**Your case (--fits %s):** ", fits_name(fits));
	switch (fits) {
	case FITS_YES:
		sb_puts(b, "the workload fits the nodes it is given. ");
		rule_fits(r, e, h, false, pick, b);
		break;
	case FITS_NO:
		sb_puts(b, "the workload may outgrow its preferred nodes. ");
		rule_not_fits(r, e, h, pick, b);
		break;
	case FITS_UNKNOWN:
		sb_puts(b, "not said, so this is the answer for a workload that may outgrow its "
			   "preferred nodes, the safe one. ");
		rule_not_fits(r, e, h, pick, b);
		sb_puts(b, "\n**If it fits (--fits yes):** ");
		rule_fits(r, e, h, true, NULL, b);
		break;
	}
	if (why == b)
		sb_putc(b, '\n');	/* else the rule starts its own box */
	unrunnable_oom_cases(r, &un);
	if (un.s)
		sb_printf(why, "The OOM test %s could not be set up for any policy (setup_error "
			       "in every case): it is this machine's, not a policy's, and decides "
			       "nothing here.\n", un.s);
	sb_free(&un);
	sb_puts(why, "**Rule:** if the workload fits, bind, where this run shows its pages on its "
		   "nodes; if it may not, drop each policy killed or faulted in an OOM test, keep "
		   "the one that put the most memory on its preferred nodes over the fill curve, a "
		   "tie within one fill step going to the lower fault cost with the nodes full; "
		   "what the figures do not separate is said so (README: \"Which policy? The "
		   "decision rule\").");
	latency_para(r, e, h, pick, fits, why);
	free(pick);
}
