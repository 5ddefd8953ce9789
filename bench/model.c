// SPDX-License-Identifier: GPL-2.0
/*
 * model: the access cost each policy's placement would have on the modeled
 * machine, from the HMAT figures the guest reports
 * (nodeN/access0/initiators/{read,write}_{latency,bandwidth}, ns and MB/s):
 *   model_read_latency_ns = sum over nodes of pages_on_node * read_latency(node) / pages
 * and likewise for write latency and both bandwidths (a page-weighted mean).
 * A model, labelled so in every metric name: QEMU does not make slow nodes
 * slow.  model_coverage_frac says which share of the pages had figures.
 * With --model-hmat (the plan passes the topology's figures from CPU 0's
 * node) the figures are those and the cases run on CPU 0: access0 is each
 * node's nearest initiator, which on two sockets is the other socket's CPU
 * for half the nodes.
 */
#include "tb.h"

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

static const char *const figures[][3] = {
	{ "read_latency", "model_read_latency_ns", "ns" },
	{ "write_latency", "model_write_latency_ns", "ns" },
	{ "read_bandwidth", "model_read_bandwidth_mbps", "MB/s" },
	{ "write_bandwidth", "model_write_bandwidth_mbps", "MB/s" },
};

void model_rows(const struct rowkey *k, const struct opts *o, const long *per_node)
{
	for (size_t f = 0; f < sizeof(figures) / sizeof(figures[0]); f++) {
		double sum = 0;
		long covered = 0, all = 0;

		for (int n = 0; n <= MAX_NODE; n++) {
			long v = !per_node[n] ? -1 : o->model_given ? o->model[n][f]
					: hmat_value(n, figures[f][0]);

			all += per_node[n];
			if (v < 0)
				continue;
			sum += (double)per_node[n] * (double)v;
			covered += per_node[n];
		}
		if (f == 0)
			out_row(k, "model_coverage_frac", all ? (double)covered / (double)all : 0,
				"ratio");
		if (covered)
			out_row(k, figures[f][1], sum / (double)covered, figures[f][2]);
	}
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
		struct rowkey k = { "model", "-", "-", "-" };
		char metric[64];

		for (size_t f = 0; f < sizeof(figures) / sizeof(figures[0]); f++) {
			long v = o->model_given ? (n < MODEL_NODES ? o->model[n][f] : -1)
						: hmat_value(n, figures[f][0]);

			if (v < 0)
				continue;
			snprintf(metric, sizeof(metric), "hmat_%s_node%d", figures[f][0], n);
			out_row(&k, metric, (double)v, figures[f][2]);
		}
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
			struct rowkey k = { "model", pol_names[p], pagesize_names[ps], "free" };
			enum outcome oc;
			int sig;

			if (!pol_wanted(o, p, "model"))
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
	.name = "model",
	.help = "modeled access cost per policy: placement x HMAT latency/bandwidth",
	.options = "--policies --pagesizes --mib",
	.needs = { .min_mem_nodes = 1, .hmat = true },
	.timeout_secs = 300,
	.run = run_model,
};
