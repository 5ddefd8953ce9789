// SPDX-License-Identifier: GPL-2.0
/*
 * model: the access cost each policy's placement would have on the modeled
 * machine, from the HMAT figures the guest reports
 * (nodeN/access0/initiators/{read,write}_{latency,bandwidth}, ns and MB/s),
 * mixed over the placement as costmodel.h says:
 *   model_{read,write}_latency_ns: the page-weighted mean (time per access
 *     adds up);
 *   model_{read,write}_bandwidth_serial_mbps: time-weighted (harmonic),
 *     1 / sum(f_i / B_i), one stream touching the pages in turn;
 *   model_{read,write}_bandwidth_parallel_bound_mbps: min_i B_i / f_i, the
 *     most that every node's channel busy at once could give.
 * A model, labelled so in every metric name: QEMU does not make slow nodes
 * slow.  model_coverage_frac says which share of the pages had figures.
 * With --model-hmat (the plan passes the topology's figures from CPU 0's
 * node) the figures are those and the cases run on CPU 0: access0 is each
 * node's nearest initiator, which on two sockets is the other socket's CPU
 * for half the nodes.
 *
 * A node with a memory-side cache (nodeN/memory_side_cache/index1) costs
 * hit * cache + (1 - hit) * memory per access when the cache's figures are
 * given (--model-cache-hmat; sysfs has none); the hit share is
 * --model-cache-hit, else min(1, cache size / node MemTotal): accesses
 * spread evenly over the node's memory.  An assumption, so a row says it.
 */
#include "tb.h"
#include "costmodel.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define MIB (1024UL * 1024)

struct model_case {
	const struct opts *o;
	enum pol pol;
	enum pagesize ps;
};

static int model_child(void *arg, struct shared *sh)
{
	const struct model_case *c = arg;
	size_t len = (size_t)c->o->mib * MIB, stride = touch_stride(c->ps);
	char *p = map_region(c->ps, len);

	if (!p)
		return 3;
	if (pol_apply(c->pol, VIA_MBIND, &c->o->preferred, p, len))
		return 3;
	touch_pages(p, len, stride, sh);
	if (placement(p, len, stride, sh->per_node, MAX_NODE) <= 0)
		return 1;
	munmap(p, len);
	return 0;
}

/* In --model-hmat's order: RL/WL/RB/WB. */
static const struct figure {
	const char *sysfs;	/* access0/initiators/<sysfs>, hmat_<sysfs>_node<N> */
	enum cost_kind kind;
	const char *row;	/* latency: the mean; bandwidth: serial */
	const char *bound_row;	/* bandwidth: the parallel bound */
	const char *unit;
} figures[MODEL_FIGS] = {
	{ "read_latency", COST_LATENCY, "model_read_latency_ns", NULL, "ns" },
	{ "write_latency", COST_LATENCY, "model_write_latency_ns", NULL, "ns" },
	{ "read_bandwidth", COST_BANDWIDTH, "model_read_bandwidth_serial_mbps",
	  "model_read_bandwidth_parallel_bound_mbps", "MB/s" },
	{ "write_bandwidth", COST_BANDWIDTH, "model_write_bandwidth_serial_mbps",
	  "model_write_bandwidth_parallel_bound_mbps", "MB/s" },
};

static long node_figure(const struct opts *o, int n, size_t f)
{
	if (o->model_given)
		return n < MODEL_NODES ? o->model[n][f] : -1;
	return hmat_value(n, figures[f].sysfs);
}

static long cache_figure(const struct opts *o, int n, size_t f)
{
	return o->model_cache_given && n < MODEL_NODES ? o->model_cache[n][f] : -1;
}

static bool cache_figures(const struct opts *o, int n)
{
	for (size_t f = 0; f < MODEL_FIGS; f++)
		if (cache_figure(o, n, f) >= 0)
			return true;
	return false;
}

/* The hit share assumed for node @n's cache: the option's, else cache / node size. */
static double cache_hit(const struct opts *o, int n, long cache_bytes)
{
	long total_kib;
	double h;

	if (o->model_cache_hit_given)
		return o->model_cache_hit;
	total_kib = node_meminfo_kib(n, "MemTotal");
	if (cache_bytes <= 0 || total_kib <= 0)
		return 0;
	h = (double)cache_bytes / ((double)total_kib * 1024);
	return h < 1 ? h : 1;
}

void model_rows(const struct rowkey *k, const struct opts *o, const long *per_node)
{
	struct cost_node nodes[MAX_NODE + 1];
	long cached_pages = 0, modeled_pages = 0;
	double hit_pages = 0;

	for (int n = 0; n <= MAX_NODE; n++) {
		long cb;
		bool figs;

		nodes[n].hit = 0;
		if (per_node[n] <= 0)
			continue;
		cb = node_memside_cache_bytes(n);
		figs = cache_figures(o, n);
		if (cb <= 0 && !figs)
			continue;
		nodes[n].hit = cache_hit(o, n, cb);
		cached_pages += per_node[n];
		hit_pages += nodes[n].hit * (double)per_node[n];
		if (figs)
			modeled_pages += per_node[n];
	}
	for (size_t f = 0; f < MODEL_FIGS; f++) {
		struct cost_mix m;

		for (int n = 0; n <= MAX_NODE; n++) {
			bool some = per_node[n] > 0;

			nodes[n].pages = per_node[n];
			nodes[n].figure = some ? (double)node_figure(o, n, f) : -1;
			nodes[n].cache_figure = some ? (double)cache_figure(o, n, f) : -1;
		}
		cost_mix(figures[f].kind, nodes, MAX_NODE + 1, &m);
		if (f == 0)
			out_row(k, "model_coverage_frac", m.coverage, "ratio");
		if (!m.covered)
			continue;
		out_row(k, figures[f].row, m.value, figures[f].unit);
		if (figures[f].bound_row)
			out_row(k, figures[f].bound_row, m.parallel_bound, figures[f].unit);
	}
	if (!cached_pages)
		return;
	/* the assumption, over the pages on nodes with a memory-side cache */
	out_row(k, "model_cache_hit_frac", hit_pages / (double)cached_pages, "ratio");
	/* 0: no figures for those caches, so their memory's were used */
	out_row(k, "model_cache_coverage_frac", (double)modeled_pages / (double)cached_pages,
		"ratio");
}

static int run_model(const struct opts *o)
{
	struct shared *sh = shared_new();
	struct nodeset mem;
	char why[200];

	if (!sh)
		return 1;
	/* the figures are those seen from CPU 0's node (--model-hmat) */
	if (o->model_given && pin_to_cpu0(why, sizeof(why)))
		msg("model: %s; the default policy's pages may not be where CPU 0 sees them", why);
	mem_nodes(&mem);
	ns_for_each(n, &mem) {
		struct rowkey k = { VOCAB_BENCH_MODEL, "-", "-", "-" };
		long cb = node_memside_cache_bytes(n);
		char metric[80];

		for (size_t f = 0; f < MODEL_FIGS; f++) {
			long v = node_figure(o, n, f), cv = cache_figure(o, n, f);

			if (v >= 0) {
				snprintf(metric, sizeof(metric), "hmat_%s_node%d",
					 figures[f].sysfs, n);
				out_row(&k, metric, (double)v, figures[f].unit);
			}
			if (cv >= 0) {
				snprintf(metric, sizeof(metric), "model_cache_%s_node%d",
					 figures[f].sysfs, n);
				out_row(&k, metric, (double)cv, figures[f].unit);
			}
		}
		if (cb > 0) {
			snprintf(metric, sizeof(metric), "memside_cache_mib_node%d", n);
			out_row(&k, metric, (double)cb / MIB, "MiB");
		}
		if (cb > 0 || cache_figures(o, n)) {
			snprintf(metric, sizeof(metric), "model_cache_hit_frac_node%d", n);
			out_row(&k, metric, cache_hit(o, n, cb), "ratio");
		}
		if (cb > 0 && !cache_figures(o, n))
			msg("model: node %d has a %lu MiB memory-side cache but no figures for it "
			    "(--model-cache-hmat): modeled as its memory", n, (unsigned long)cb / MIB);
	}
	for (int ps = 0; ps < PS_COUNT; ps++) {
		if (!(o->page_mask & 1u << ps) || ps == PS_2M)
			continue;	/* hugetlb placement is the pool's, not the policy's */
		if (pagesize_unavailable(ps, why, sizeof(why))) {
			tap_skip(why, "model %s", pagesize_names[ps]);
			continue;
		}
		for (int p = 0; p < POL_COUNT; p++) {
			struct model_case c = { o, p, ps };
			struct rowkey k = { VOCAB_BENCH_MODEL, pol_names[p], pagesize_names[ps], "free" };
			enum outcome oc;
			int sig;

			if (!pol_wanted(o, p, VOCAB_BENCH_MODEL))
				continue;
			memset(sh, 0, sizeof(*sh));
			oc = run_child(model_child, &c, sh, 300, &sig);
			if (oc != OUT_COMPLETED) {
				report_outcome(&k, oc, sh, touch_stride(ps));
				continue;
			}
			model_rows(&k, o, sh->per_node);
		}
	}
	return 0;
}

const struct bench bench_model = {
	.name = VOCAB_BENCH_MODEL,
	.help = "modeled access cost per policy: placement x HMAT latency/bandwidth",
	.options = "--policies --pagesizes --mib --model-hmat --model-cache-hit --model-cache-hmat",
	.needs = { .min_mem_nodes = 1, .hmat = true },
	.timeout_secs = 300,
	.run = run_model,
};
