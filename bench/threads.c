// SPDX-License-Identifier: GPL-2.0
/*
 * threads: the latency and fallback cases with several threads of one
 * task, each pinned to its own CPU, allocating at once.
 *
 * Two layouts (the rows' bench column):
 *   threads_node    every thread on a CPU of one node (the first node with
 *                   two or more online CPUs): contention between the CPUs
 *                   of one socket, one "local" for all;
 *   threads_2nodes  the threads spread over the first two nodes with CPUs,
 *                   alternating: each socket's threads have another local
 *                   node, which decides where default, bind and
 *                   preferred-many put their pages (the zonelist the kernel
 *                   walks is the faulting CPU's node's, the policy's mask
 *                   filters it).
 * A layout the machine cannot give is a SKIP that says why (one CPU per
 * node: no threads_node; one node with CPUs: no threads_2nodes).
 *
 * Per policy (mbind() on each thread's own region; 4 KiB pages, nothing
 * filled): --threads N threads (default: one per CPU of the layout; a CPU
 * gets two threads when N is larger), --mib split evenly between them
 * (at most half the free memory of the set's first node and of each
 * thread's node in all).
 * Every round maps each thread's region and applies the policy in the
 * main thread, then the threads pin themselves, meet on a barrier and
 * write one byte per page, each write timed; the main thread only waits.
 * One warm-up round (times discarded), then --reps timed rounds; a fresh
 * region each round.  Rows per thread i (thread<i>_...): its CPU and that
 * CPU's node, its pages per node (last round), the share on its own node,
 * on the set and in the policy's mask, the node with most of them, and
 * its fault count, p50 and mean over the rounds; per case the same
 * pooled over the threads, how far apart the threads started
 * (start_skew_max) and how much the threads' write spans overlapped
 * (concurrency: their busy time over the round's span, 1 = one after
 * another).  It is overlap of spans, not simultaneous writes: under
 * icount the vCPUs take turns on one host thread, and under wall no more
 * than the host's cores run at once; with more threads than CPUs, threads
 * share CPUs and both figures include that time-sharing.
 */
#include "tb.h"
#include "nearest.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MIB (1024UL * 1024)
#define TH_MAX 64

enum layout { LAY_NODE, LAY_2NODES, LAY_COUNT };
static const char *const layout_names[LAY_COUNT] = { VOCAB_BENCH_THREADS_NODE, VOCAB_BENCH_THREADS_2NODES };

struct th_case {
	const struct opts *o;
	struct rowkey k;
	enum pol pol;
	int nthreads;
	int cpu[TH_MAX];	/* where thread i runs */
	int node[TH_MAX];	/* that CPU's node */
	size_t bytes;		/* per thread */
};

struct th_arg {
	const struct th_case *c;
	int idx;
	char *p;
	pthread_barrier_t *bar;
	struct hist *h;		/* this round's faults, NULL: not kept (warm-up) */
	uint64_t t_start, t_end;
	int err;		/* errno of a failed pin, else 0 */
};

static void *th_body(void *argp)
{
	struct th_arg *a = argp;
	const struct th_case *c = a->c;
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	CPU_SET(c->cpu[a->idx], &cpus);
	/* glibc's sched_setaffinity(0) is the calling thread's */
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		a->err = errno;
	/* every thread waits, pinned or not: a missing one would hang the others */
	pthread_barrier_wait(a->bar);
	if (a->err)
		return NULL;
	a->t_start = now_ns();
	for (size_t off = 0; off < c->bytes; off += 4096) {
		uint64_t t0 = now_ns(), dt;

		a->p[off] = 1;
		dt = now_ns() - t0;
		if (a->h)
			hist_add(a->h, dt);
	}
	a->t_end = now_ns();
	return NULL;
}

/* Per-thread results over the rounds, in the child; rows at the end. */
struct th_acc {
	struct hist *h[TH_MAX];
	long per_node[TH_MAX][MAX_NODE + 1];	/* last round */
	uint64_t skew_max;	/* the largest start spread of a timed round */
	double conc_sum;	/* sum over timed rounds of the threads' busy time / the round's span */
	int conc_rounds;
};

/*
 * One round: a fresh region per thread with the policy, the threads
 * started together; @timed keeps the faults' times.  The regions stay
 * mapped in @regions until the caller has counted their placement.
 * 0, or the child's exit code (3: setup failed, 1: a thread could not run).
 */
static int th_round(const struct th_case *c, struct th_acc *acc, bool timed, char **regions,
		    struct hist *const *round_h)
{
	pthread_t tid[TH_MAX];
	struct th_arg arg[TH_MAX];
	pthread_barrier_t bar;
	int started = 0, rc = 0;
	uint64_t s_min = UINT64_MAX, s_max = 0, e_max = 0, busy = 0;

	for (int i = 0; i < c->nthreads; i++) {
		regions[i] = map_region(PS_4K, c->bytes);
		if (!regions[i])
			return 3;
		if (pol_apply(c->pol, VIA_MBIND, &c->o->preferred, regions[i], c->bytes))
			return 3;
	}
	if ((errno = pthread_barrier_init(&bar, NULL, (unsigned)c->nthreads))) {
		msg("%s/%s: pthread_barrier_init: %s", c->k.bench, c->k.policy, strerror(errno));
		return 1;
	}
	for (int i = 0; i < c->nthreads; i++) {
		arg[i] = (struct th_arg){ c, i, regions[i], &bar, timed ? round_h[i] : NULL, 0, 0, 0 };
		if (timed)
			hist_init(round_h[i]);
	}
	for (; started < c->nthreads; started++) {
		int e = pthread_create(&tid[started], NULL, th_body, &arg[started]);

		if (e) {
			/* the barrier counts on every thread: nothing else can go on */
			msg("%s/%s: pthread_create of thread %d of %d: %s", c->k.bench, c->k.policy,
			    started, c->nthreads, strerror(e));
			_exit(1);
		}
	}
	for (int i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	pthread_barrier_destroy(&bar);
	for (int i = 0; i < c->nthreads; i++) {
		if (arg[i].err) {
			msg("%s/%s: thread %d cannot run on CPU %d: %s", c->k.bench, c->k.policy, i,
			    c->cpu[i], strerror(arg[i].err));
			rc = 1;
			continue;
		}
		if (arg[i].t_start < s_min)
			s_min = arg[i].t_start;
		if (arg[i].t_start > s_max)
			s_max = arg[i].t_start;
		if (arg[i].t_end > e_max)
			e_max = arg[i].t_end;
		busy += arg[i].t_end - arg[i].t_start;
		if (timed)
			hist_merge(acc->h[i], round_h[i]);
	}
	if (timed && !rc && s_max - s_min > acc->skew_max)
		acc->skew_max = s_max - s_min;
	/* how many threads were writing at once, on average: 1 one after another */
	if (timed && !rc && e_max > s_min) {
		acc->conc_sum += (double)busy / (double)(e_max - s_min);
		acc->conc_rounds++;
	}
	return rc;
}

static void unmap_all(char **regions, int n, size_t bytes)
{
	for (int i = 0; i < n; i++)
		if (regions[i]) {
			munmap(regions[i], bytes);
			regions[i] = NULL;
		}
}

/* The node with most of @per_node's pages, -1 for none. */
static int top_node(const long *per_node)
{
	int top = -1;

	for (int n = 0; n <= MAX_NODE; n++)
		if (per_node[n] > 0 && (top < 0 || per_node[n] > per_node[top]))
			top = n;
	return top;
}

static void one_node(int n, struct nodeset *ns)
{
	ns_clear(ns);
	if (n >= 0)
		ns_set(ns, n);
}

/*
 * The rows of one case.  sh->result[0..2]: the worst thread's share in the
 * mask, on its own node, and 1 when every thread's top node is the one the
 * kernel's zonelist order predicts for preferred-many (the set's node
 * nearest the thread's node; result[3] = 1 when some thread's nearest was
 * a tie, so nothing is predicted).  sh->per_node: the case's pages.
 */
static void th_rows(const struct th_case *c, struct th_acc *acc, struct shared *sh)
{
	const struct rowkey *k = &c->k;
	struct nodeset mem, polnodes, own, none;
	struct hist *all = malloc(sizeof(*all));
	long local = 0, total = 0;
	char metric[64];
	double worst_mask = 1, worst_local = 1;
	bool nearest_ok = true, tie = false;

	mem_nodes(&mem);
	pol_nodes(c->pol, &c->o->preferred, &polnodes);
	ns_clear(&none);
	memset(sh->per_node, 0, sizeof(sh->per_node));
	if (all)
		hist_init(all);
	out_row(k, "threads", c->nthreads, "count");
	out_row(k, "thread_mib", (double)c->bytes / MIB, "MiB");
	for (int i = 0; i < c->nthreads; i++) {
		const long *pn = acc->per_node[i];
		long t = 0;
		int dist[MAX_NODE + 1];
		struct nodeset near;

		for (int n = 0; n <= MAX_NODE; n++) {
			t += pn[n];
			if (n < (int)(sizeof(sh->per_node) / sizeof(sh->per_node[0])))
				sh->per_node[n] += pn[n];
		}
		total += t;
		local += c->node[i] >= 0 && c->node[i] <= MAX_NODE ? pn[c->node[i]] : 0;
		one_node(c->node[i], &own);
		snprintf(metric, sizeof(metric), "thread%d_cpu", i);
		out_row(k, metric, c->cpu[i], "id");
		snprintf(metric, sizeof(metric), "thread%d_node", i);
		out_row(k, metric, c->node[i], "id");
		ns_for_each(n, &mem) {
			if (n > MAX_NODE)
				break;
			snprintf(metric, sizeof(metric), "thread%d_pages_node%d", i, n);
			out_row(k, metric, (double)pn[n], "pages");
		}
		snprintf(metric, sizeof(metric), "thread%d_local_frac", i);
		out_row(k, metric, frac_in(pn, &own), "ratio");
		snprintf(metric, sizeof(metric), "thread%d_on_set_frac", i);
		out_row(k, metric, frac_in(pn, &c->o->preferred), "ratio");
		snprintf(metric, sizeof(metric), "thread%d_in_mask_frac", i);
		out_row(k, metric, frac_in(pn, &polnodes), "ratio");
		snprintf(metric, sizeof(metric), "thread%d_top_node", i);
		out_row(k, metric, top_node(pn), "id");
		if (top_node(pn) >= 0) {
			snprintf(metric, sizeof(metric), "thread%d_top_frac", i);
			out_row(k, metric, (double)pn[top_node(pn)] / (double)(t ? t : 1), "ratio");
		}
		snprintf(metric, sizeof(metric), "thread%d_count", i);
		out_row(k, metric, (double)acc->h[i]->count, "pages");
		if (acc->h[i]->count) {
			snprintf(metric, sizeof(metric), "thread%d_p50", i);
			out_row(k, metric, (double)hist_quantile(acc->h[i], 0.5), out_time_unit());
			snprintf(metric, sizeof(metric), "thread%d_mean", i);
			out_row(k, metric, hist_mean(acc->h[i]), out_time_unit());
		}
		if (all)
			hist_merge(all, acc->h[i]);
		if (t > 0 && frac_in(pn, &polnodes) < worst_mask)
			worst_mask = frac_in(pn, &polnodes);
		if (t > 0 && frac_in(pn, &own) < worst_local)
			worst_local = frac_in(pn, &own);
		/* the set's node nearest the thread's: what its zonelist meets first */
		for (int n = 0; n <= MAX_NODE; n++)
			dist[n] = c->node[i] >= 0 ? node_distance(c->node[i], n) : -1;
		nearest_nodes(dist, MAX_NODE + 1, &c->o->preferred, &none, &near);
		if (ns_count(&near) != 1)
			tie = true;
		else if (top_node(pn) != ns_first(&near))
			nearest_ok = false;
	}
	ns_for_each(n, &mem) {
		if (n > MAX_NODE)
			break;
		snprintf(metric, sizeof(metric), "pages_node%d", n);
		out_row(k, metric, (double)sh->per_node[n], "pages");
	}
	out_row(k, "pages_total", (double)total, "pages");
	out_row(k, "in_mask_frac", frac_in(sh->per_node, &polnodes), "ratio");
	out_row(k, "on_set_frac", frac_in(sh->per_node, &c->o->preferred), "ratio");
	out_row(k, "local_frac", total ? (double)local / (double)total : 0.0, "ratio");
	if (all && all->count) {
		out_row(k, "count", (double)all->count, "pages");
		out_row(k, "mean", hist_mean(all), out_time_unit());
		out_row(k, "p50", (double)hist_quantile(all, 0.50), out_time_unit());
		out_row(k, "p90", (double)hist_quantile(all, 0.90), out_time_unit());
		out_row(k, "max", (double)all->max, out_time_unit());
	}
	out_row(k, "start_skew_max", (double)acc->skew_max, out_time_unit());
	if (acc->conc_rounds)
		out_row(k, "concurrency", acc->conc_sum / acc->conc_rounds, "ratio");
	out_row(k, "reps", c->o->reps, "count");
	free(all);
	sh->result[0] = worst_mask;
	sh->result[1] = worst_local;
	sh->result[2] = nearest_ok;
	sh->result[3] = tie;
	sh->result[4] = (double)total;
}

static int th_child(void *arg, struct shared *sh)
{
	const struct th_case *c = arg;
	struct th_acc *acc = calloc(1, sizeof(*acc));
	struct hist *round_h[TH_MAX] = { 0 };
	char *regions[TH_MAX] = { 0 };
	int rc = 0;

	if (!acc) {
		msg("%s: out of memory", c->k.bench);
		return 1;
	}
	for (int i = 0; i < c->nthreads; i++) {
		acc->h[i] = malloc(sizeof(struct hist));
		round_h[i] = malloc(sizeof(struct hist));
		if (!acc->h[i] || !round_h[i]) {
			msg("%s: out of memory for %d histograms", c->k.bench, c->nthreads);
			return 1;
		}
		hist_init(acc->h[i]);
	}
	/* the warm-up: a whole round, its times discarded */
	rc = th_round(c, acc, false, regions, round_h);
	unmap_all(regions, c->nthreads, c->bytes);
	for (int r = 0; !rc && r < c->o->reps; r++) {
		rc = th_round(c, acc, true, regions, round_h);
		if (!rc)
			sh->pages_done += (long)(c->bytes / 4096) * c->nthreads;
		if (!rc && r == c->o->reps - 1)
			for (int i = 0; i < c->nthreads && !rc; i++)
				if (placement(regions[i], c->bytes, 4096, acc->per_node[i], MAX_NODE) <= 0)
					rc = 1;
		unmap_all(regions, c->nthreads, c->bytes);
	}
	if (!rc)
		th_rows(c, acc, sh);
	for (int i = 0; i < c->nthreads; i++) {
		free(acc->h[i]);
		free(round_h[i]);
	}
	free(acc);
	return rc;
}

/* Online CPUs of @node, in order, into @cpus; returns how many. */
static int node_cpus(int node, int *cpus, int max)
{
	struct nodeset list, online;
	char path[96], err[160];
	int n = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", node);
	if (read_cpulist(path, &list, err, sizeof(err)) ||
	    read_cpulist("/sys/devices/system/cpu/online", &online, err, sizeof(err))) {
		msg("threads: %s", err);
		return 0;
	}
	ns_for_each(c, &list)
		if (ns_has(&online, c) && n < max)
			cpus[n++] = c;
	return n;
}

/*
 * The CPUs of @lay, in the order threads take them, into c->cpu/c->node
 * (c->nthreads of them, from --threads or one per CPU); NULL, or why the
 * machine cannot give the layout.
 */
static const char *th_layout(const struct opts *o, enum layout lay, struct th_case *c,
			     char *why, size_t len)
{
	struct nodeset cpun;
	int cpus[2][TH_MAX], ncpu[2] = { 0, 0 }, nodes[2] = { -1, -1 }, have = 0, pool[TH_MAX],
	    pool_node[TH_MAX], npool = 0;
	char seen[160] = "";
	size_t used = 0;

	cpu_nodes(&cpun);
	ns_for_each(n, &cpun) {
		int tmp[TH_MAX], k = node_cpus(n, tmp, TH_MAX);

		/* "node 0: 1, node 1: 1" for the SKIP's reason, cut at the buffer's end */
		if (used < sizeof(seen) - 1) {
			int w = snprintf(seen + used, sizeof(seen) - used, "%snode %d: %d",
					 used ? ", " : "", n, k);

			used = w < 0 ? sizeof(seen) - 1 : used + (size_t)w;
			if (used > sizeof(seen) - 1)
				used = sizeof(seen) - 1;
		}
		if (k == 0 || have == 2)
			continue;
		if (lay == LAY_NODE && k < 2)
			continue;
		memcpy(cpus[have], tmp, sizeof(tmp));
		ncpu[have] = k;
		nodes[have++] = n;
		if (lay == LAY_NODE)
			break;
	}
	if (lay == LAY_NODE && have < 1) {
		snprintf(why, len, "no node has two online CPUs (online CPUs per node: %s)", seen);
		return why;
	}
	if (lay == LAY_2NODES && have < 2) {
		snprintf(why, len, "needs two nodes with online CPUs (online CPUs per node: %s)", seen);
		return why;
	}
	/* alternate between the nodes: thread 0 on the first, thread 1 on the second, ... */
	for (int j = 0; npool < TH_MAX && (j < ncpu[0] || j < ncpu[1]); j++)
		for (int g = 0; g < have && npool < TH_MAX; g++)
			if (j < ncpu[g]) {
				pool[npool] = cpus[g][j];
				pool_node[npool++] = nodes[g];
			}
	c->nthreads = o->threads > 0 ? o->threads : npool;
	if (c->nthreads > TH_MAX)
		c->nthreads = TH_MAX;
	for (int i = 0; i < c->nthreads; i++) {
		c->cpu[i] = pool[i % npool];
		c->node[i] = pool_node[i % npool];
	}
	return NULL;
}

static int run_threads(const struct opts *o)
{
	struct shared *sh = shared_new();
	char why[240];
	int failed = 0;

	if (!sh)
		return 1;
	for (int lay = 0; lay < LAY_COUNT; lay++) {
		struct th_case base = { .o = o };
		struct rowkey k0 = { layout_names[lay], "-", "4k", "free" };
		struct nodeset room;
		long total;
		int limit;

		if (th_layout(o, (enum layout)lay, &base, why, sizeof(why))) {
			tap_skip(why, "%s", layout_names[lay]);
			continue;
		}
		/*
		 * --mib split between the threads, whole 4 KiB pages, at least
		 * 1 MiB each; the whole at most half the free memory of the
		 * set's first node (preferred's) and of each thread's node
		 * (default's), so that nothing is full: the checks are about
		 * where free nodes put each thread (full profile: 256 MiB on a
		 * 256 MiB PMEM node would overflow it).
		 */
		total = o->mib;
		limit = -1;
		one_node(ns_first(&o->preferred), &room);
		for (int i = 0; i < base.nthreads; i++)
			ns_set(&room, base.node[i]);
		ns_for_each(n, &room) {
			struct nodeset one;

			one_node(n, &one);
			if (nodes_free_mib(&one) / 2 < total) {
				total = nodes_free_mib(&one) / 2;
				limit = n;
			}
		}
		if (limit >= 0)
			msg("%s: %ld MiB in all, not --mib %ld: half of node %d's free memory",
			    layout_names[lay], total, o->mib, limit);
		base.bytes = (size_t)(total > 0 ? total : 0) * MIB / (size_t)base.nthreads / 4096 * 4096;
		if (base.bytes < MIB)
			base.bytes = MIB;
		if (o->threads > 0)
			out_row(&k0, "threads_asked", o->threads, "count");
		msg("%s: %d threads, %zu KiB each", layout_names[lay], base.nthreads, base.bytes / 1024);
		for (int p = 0; p < POL_COUNT; p++) {
			struct th_case c = base;
			enum outcome oc;
			struct nodeset first;

			if (!pol_wanted(o, (enum pol)p, layout_names[lay]))
				continue;
			c.pol = (enum pol)p;
			c.k = (struct rowkey){ layout_names[lay], pol_names[p], "4k", "free" };
			memset(sh, 0, sizeof(*sh));
			oc = run_case(&c.k, NULL, th_child, &c, sh, 600);
			report_outcome(&c.k, oc, sh, 4096);
			if (oc != OUT_COMPLETED)
				continue;
			switch (p) {
			case POL_BIND:
				failed |= !tap(sh->result[0] >= 1.0,
					       "%s bind: every thread's pages on the bound nodes (worst thread %.4f)",
					       layout_names[lay], sh->result[0]);
				break;
			case POL_PREFERRED:
				one_node(ns_first(&o->preferred), &first);
				failed |= !tap(sh->result[0] >= 0.99,
					       "%s preferred: every thread's pages on the preferred node %d, whatever its CPU (worst thread %.4f)",
					       layout_names[lay], ns_first(&first), sh->result[0]);
				break;
			case POL_PREFERRED_MANY:
				failed |= !tap(sh->result[0] >= 0.99,
					       "%s preferred-many: every thread's pages on the set (worst thread %.4f)",
					       layout_names[lay], sh->result[0]);
				if (sh->result[3])
					tap_skip("a thread's node is as near to two nodes of the set",
						 "%s preferred-many: each thread on the set's node nearest its CPU",
						 layout_names[lay]);
				else
					failed |= !tap(sh->result[2] > 0,
						       "%s preferred-many: each thread's pages on the set's node nearest its own CPU's node",
						       layout_names[lay]);
				break;
			case POL_DEFAULT:
				failed |= !tap(sh->result[1] >= 0.99,
					       "%s default: each thread's pages on its own CPU's node (worst thread %.4f)",
					       layout_names[lay], sh->result[1]);
				break;
			default:
				break;
			}
		}
	}
	return failed;
}

const struct bench bench_threads = {
	.name = VOCAB_BENCH_THREADS,
	.help = "latency and placement with N threads on different CPUs allocating at once",
	.options = "--policies --reps --mib --threads",
	.needs = { .min_mem_nodes = 1 },
	.timeout_secs = 900,
	.run = run_threads,
};
