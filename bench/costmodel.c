// SPDX-License-Identifier: GPL-2.0
/*
 * The cost model's arithmetic; the formulas and why are in costmodel.h.
 */
#include "costmodel.h"

#include <math.h>

static int known(enum cost_kind kind, double v)
{
	return kind == COST_LATENCY ? v >= 0 : v > 0;
}

double cost_node_figure(enum cost_kind kind, const struct cost_node *n)
{
	double h = n->hit;

	if (!known(kind, n->figure))
		return -1;
	if (!known(kind, n->cache_figure) || !(h > 0))
		return n->figure;
	if (h > 1)
		h = 1;
	if (kind == COST_LATENCY)
		return h * n->cache_figure + (1 - h) * n->figure;
	return 1 / (h / n->cache_figure + (1 - h) / n->figure);
}

void cost_mix(enum cost_kind kind, const struct cost_node *n, size_t nn, struct cost_mix *out)
{
	double sum = 0, bound = INFINITY, bw_sum = 0;

	out->pages = 0;
	out->covered = 0;
	for (size_t i = 0; i < nn; i++) {
		if (n[i].pages <= 0)
			continue;
		out->pages += n[i].pages;
		if (known(kind, cost_node_figure(kind, &n[i])))
			out->covered += n[i].pages;
	}
	out->coverage = out->pages ? (double)out->covered / (double)out->pages : 0;
	out->value = NAN;
	out->parallel_bound = NAN;
	if (!out->covered)
		return;
	for (size_t i = 0; i < nn; i++) {
		double v = n[i].pages > 0 ? cost_node_figure(kind, &n[i]) : -1;
		double f = (double)n[i].pages / (double)out->covered;

		if (!known(kind, v))
			continue;
		if (kind == COST_LATENCY) {
			sum += f * v;
		} else {
			sum += f / v;	/* v > 0: known() */
			bw_sum += v;
			if (v / f < bound)
				bound = v / f;
		}
	}
	if (kind == COST_LATENCY) {
		out->value = sum;
		return;
	}
	out->value = 1 / sum;	/* sum > 0: some f > 0 and every v finite */
	/* min_i B_i / f_i <= sum B_i always (sum f_i = 1); said, not assumed */
	out->parallel_bound = bound < bw_sum ? bound : bw_sum;
}
