// SPDX-License-Identifier: GPL-2.0
/*
 * labtool plan TOPOLOGY.yaml --boot-id ID [--profile quick|default|full]
 *              [--benches LIST|default|none] [--workloads LIST|all|none]
 *              [--workloads-dir DIR] [--step-timeout S] [--clock wall|icount]
 *              [--memory-timing off|count|delay] [--tiering off|demotion|balancing]
 *              [--bench-list FILE]
 *
 * Writes one boot's guest plan (README.md, "Guest plan") on stdout.  This is
 * where the topology's words become node ids: every benchmark runs once per
 * "target set" -- the nodes of each slower or faster kind (pmem, cxl, hbm),
 * or the remote DRAM nodes of a DRAM-only machine -- so the guest never
 * needs to read YAML.  --clock says what the guest's clock counts (README,
 * "Clocks"); tierbench is told, so that its timing rows carry the unit.
 * latency gets --seed, a hash of the boot id (bench/order.c): its cases'
 * order, shuffled per boot, the same again in a resumed boot.
 *
 * What each benchmark needs, reads and covers is tierbench's to say: the
 * plan reads it from `tierbench --list=machine` (build/guest/benches.list,
 * or --bench-list FILE; lab/boot/benchlist.c), and judges the needs it can judge
 * from the topology with tierbench's own code (bench/needs.c).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accounting.h"
#include "benchlist.h"
#include "commands.h"
#include "order.h"
#include "textfile.h"
#include "topology.h"
#include "util.h"
#include "words.h"

/*
 * Benchmarks run when --benches is "default", in this order, each where the
 * topology meets its declared needs (plan_needs_unmet()): fallback-order,
 * for one, only where the overflow has more than one place to go; threads
 * skips by itself what the machine's CPUs cannot give (1.3 guest seconds
 * on 2s2c-dram-pmem, quick); reclaim, the scenarios full-reclaimable-cache
 * and -anon, where a node outside the preferred set can take the overflow,
 * last: a step killed inside -anon would leave the swap on for the steps
 * after it.
 */
static const char *const default_benches[] = { "checks", "latency", "fallback", "fallback-order", "features",
					       "threads", "oom", "model", "reclaim" };

/*
 * The cost model of fallback-order and model: the HMAT figures seen from CPU
 * 0's node, where the benchmark runs (the guest's sysfs only has each node's nearest
 * initiator's).  " --model-hmat N=RL/WL/RB/WB,..." or nothing; then
 * " --model-cache-hmat N=..." for the memory-side caches whose figures the
 * topology gives (the guest's sysfs has their size only).  Those are seen
 * from the node's own initiator, so they go only where that is CPU 0's node:
 * elsewhere the model prices the cache as its memory, and says so.
 */
void plan_model_args(const struct topo *t, struct sbuf *sb)
{
	int init = -1, first = 1;

	for (int i = 0; i < t->nnodes && init < 0; i++)
		if (t->node[i].cpus & 1)
			init = i;
	if (!t->has_hmat || init < 0)
		return;
	for (int j = 0; j < t->nnodes; j++) {
		const struct topo_perf *p = &t->hmat[init][j];

		if (!p->set || !t->node[j].mem_bytes)
			continue;
		sb_printf(sb, "%s%d=%u/%u/%u/%u", first ? " --model-hmat " : ",", j,
			  p->read_latency_ns, p->write_latency_ns, p->read_bandwidth_mbps,
			  p->write_bandwidth_mbps);
		first = 0;
	}
	first = 1;
	for (int j = 0; j < t->nnodes; j++) {
		const struct topo_perf *p = &t->node[j].cache[0].perf;

		if (!t->node[j].ncache || !p->set || t->node[j].initiator != init ||
		    !t->hmat[init][j].set)
			continue;
		sb_printf(sb, "%s%d=%u/%u/%u/%u", first ? " --model-cache-hmat " : ",", j,
			  p->read_latency_ns, p->write_latency_ns, p->read_bandwidth_mbps,
			  p->write_bandwidth_mbps);
		first = 0;
	}
}

struct target {
	char label[32];
	char ids[64]; /* "1+3" */
	unsigned long long nodes; /* the same as a mask */
};

/*
 * Why the topology cannot meet @n for a step on @g, or NULL: the needs a
 * topology decides (memory nodes, one outside the set) by tierbench's own
 * judge; those the guest's kernel decides (hugetlb, HMAT in sysfs, a
 * CPU-less node as the guest sees it, vm.panic_on_oom) are taken as met,
 * left to the step's SKIP.
 */
const char *plan_needs_unmet(const struct topo *t, unsigned long long target,
			     const struct needs *n, char *why, size_t len)
{
	struct machine_facts m = { .hugetlb = true, .cpuless_node = true, .hmat = true,
				   .panic_on_oom = 0 };

	for (int i = 0; i < t->nnodes; i++)
		if (t->node[i].mem_bytes) {
			m.mem_nodes++;
			m.mem_nodes_outside_set += i >= 64 || !(target >> i & 1);
		}
	return needs_unmet(n, &m, why, len);
}

static void add_id(struct target *g, int id)
{
	size_t len = strlen(g->ids);

	snprintf(g->ids + len, sizeof(g->ids) - len, "%s%d", len ? "+" : "", id);
	if (id < 64)
		g->nodes |= 1ull << id;
}

/* The node sets the benchmarks prefer, by kind.  Returns how many. */
static int plan_targets(const struct topo *t, struct target *out, int max)
{
	int n = 0;

	for (int k = 0; k < TOPO_KIND_NR && n < max; k++) {
		if (k == TOPO_KIND_dram)
			continue;
		out[n].ids[0] = '\0';
		out[n].nodes = 0;
		for (int i = 0; i < t->nnodes; i++)
			if ((int)t->node[i].kind == k && t->node[i].mem_bytes)
				add_id(&out[n], i);
		if (out[n].ids[0]) {
			snprintf(out[n].label, sizeof(out[n].label), "%s", topo_kind_names[k]);
			n++;
		}
	}
	if (n == 0 && max > 0) {
		/* DRAM only: prefer the DRAM away from CPU 0, or node 0 if alone. */
		out[0].ids[0] = '\0';
		out[0].nodes = 0;
		for (int i = 0; i < t->nnodes; i++)
			if (t->node[i].mem_bytes && !(t->node[i].cpus & 1))
				add_id(&out[0], i);
		if (out[0].ids[0]) {
			snprintf(out[0].label, sizeof(out[0].label), "dram-remote");
		} else {
			snprintf(out[0].ids, sizeof(out[0].ids), "0");
			out[0].nodes = 1;
			snprintf(out[0].label, sizeof(out[0].label), "dram");
		}
		n = 1;
	}
	return n;
}

/*
 * Policies each workload runs under, per profile (as tierbench's fallback):
 * guest/vocab.h's up to default, all of them in full.
 */

/*
 * The workloads' directory: --workloads-dir DIR, else $TIERLAB_WORKLOADS,
 * else workloads/ of the tree labtool was built in (build/host/labtool ->
 * ../../workloads), else ./workloads.
 */
static char *workloads_dir(const char *given)
{
	const char *env = getenv("TIERLAB_WORKLOADS");
	char exe[PATH_MAX];
	ssize_t n;

	if (given)
		return xstrdup(given);
	if (env && *env)
		return xstrdup(env);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');

		if (slash) {
			*slash = '\0';
			char *p = xasprintf("%s/../../workloads", exe);

			if (access(p, R_OK) == 0)
				return p;
			free(p);
		}
	}
	return xstrdup("workloads");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Workload names: NAME of DIR/NAME.fio (fio) and DIR/NAME.job (stress-ng). */
static int list_workloads(const char *dir, char ***out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	int n = 0;

	if (!d) {
		fprintf(stderr, "labtool plan: --workloads: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len > 4 && (!strcmp(e->d_name + len - 4, ".fio") ||
				!strcmp(e->d_name + len - 4, ".job"))) {
			/* out of memory ends labtool (70), not "bad --workloads" (64) */
			names = xrealloc(names, (size_t)(n + 1) * sizeof(*names));
			names[n++] = xasprintf("%.*s", (int)(len - 4), e->d_name);
		}
	}
	closedir(d);
	if (n)
		qsort(names, (size_t)n, sizeof(*names), cmp_str);
	*out = names;
	return n;
}

static void free_names(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static int valid_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= '0' && *s <= '9') && *s != '-' && *s != '_')
			return 0;
	return 1;
}

long parse_count(const char *s, long max)
{
	char *end;
	long v;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 1 || v > max)
		return -1;
	return v;
}

/*
 * The tierbench steps: each of @benches (a list, or "default": those of
 * default_benches whose needs the topology meets) on each target set, or
 * once for a benchmark that covers every node itself; the options it reads
 * get the plan's figures.  0, or an exit code after a message.
 */
static int plan_benches(struct sbuf *plan, const struct topo *t, const char *benches,
			const char *list_path, const struct target *targets, int ntargets,
			int timeout, const char *profile, const char *clock, const char *boot,
			bool tiering)
{
	char *list = xstrdup(!strcmp(benches, "default") ? "" : benches), *save = NULL;
	const struct bench_decl *decl[32];
	struct bench_list bl;
	int nnames = 0, rc = 0;
	bool dflt = !strcmp(benches, "default");
	char why[200];

	if (benchlist_load(list_path, &bl, stderr)) {
		free(list);
		return EXIT_NOINPUT;
	}
	if (dflt) {
		for (size_t k = 0; k < sizeof(default_benches) / sizeof(*default_benches); k++) {
			/*
			 * With tiering on, what it does to each policy's pages:
			 * before reclaim, the last, which turns swap on for its
			 * anonymous fill (tiering counts on no swap).
			 */
			if (tiering && !strcmp(default_benches[k], "reclaim") &&
			    (decl[nnames] = benchlist_find(&bl, "tiering")))
				nnames++;
			decl[nnames] = benchlist_find(&bl, default_benches[k]);
			if (decl[nnames])
				nnames++;
			else
				fprintf(stderr, "labtool plan: tierbench lists no '%s' (a default benchmark)\n",
					default_benches[k]);
		}
	} else {
		for (char *b = strtok_r(list, ",", &save); b; b = strtok_r(NULL, ",", &save)) {
			if (nnames == (int)(sizeof(decl) / sizeof(*decl))) {
				fprintf(stderr, "labtool plan: --benches: more than %zu names\n",
					sizeof(decl) / sizeof(*decl));
				rc = EXIT_USAGE;
				goto out;
			}
			decl[nnames] = valid_name(b) ? benchlist_find(&bl, b) : NULL;
			if (!decl[nnames]) {
				fprintf(stderr, "labtool plan: --benches: '%s' is not a benchmark of tierbench (have:", b);
				for (size_t k = 0; k < bl.n; k++)
					fprintf(stderr, " %s", bl.b[k].name);
				fprintf(stderr, "; or default, none)\n");
				rc = EXIT_USAGE;
				goto out;
			}
			nnames++;
		}
	}
	for (int k = 0; k < nnames; k++) {
		const struct bench_decl *d = decl[k];

		/* one that binds to every memory node in turn (chase): one step */
		if (d->every_node) {
			if (!dflt || !plan_needs_unmet(t, 0, &d->needs, why, sizeof(why)))
				sb_printf(plan, "step %s %d tierbench %s --profile %s%s\n", d->name,
					  timeout, d->name, profile,
					  !strcmp(clock, "icount") ? " --clock icount" : "");
			continue;
		}
		for (int g = 0; g < ntargets; g++) {
			/* a benchmark named in --benches runs; its SKIP says why not */
			if (dflt && plan_needs_unmet(t, targets[g].nodes, &d->needs, why, sizeof(why)))
				continue;
			sb_printf(plan, "step %s-%s %d tierbench %s --profile %s --preferred %s --label %s",
				  d->name, targets[g].label, timeout, d->name, profile,
				  targets[g].ids, targets[g].label);
			if (bench_takes(d, "--model-hmat"))
				plan_model_args(t, plan);
			/* the latency cases' order: seeded by the boot id, so a
			 * resumed boot runs them in the same order again */
			if (bench_takes(d, "--seed"))
				sb_printf(plan, " --seed %u", (unsigned)order_seed_of(boot));
			if (!strcmp(clock, "icount"))
				sb_printf(plan, " --clock icount");
			sb_printf(plan, "\n");
		}
	}
out:
	benchlist_free(&bl);
	free(list);
	return rc;
}

/* The benchmarks that mark memory-timing phases (plugin/marker.h). */
static const char *const phase_benches[] = { "chase", "latency", "fallback" };

int plan_memtiming_warning(enum acct_mode mode, const char *const *names, int n, int nworkloads,
			   char *buf, size_t len)
{
	bool marks = nworkloads > 0, chase = false;

	for (int k = 0; k < n; k++)
		for (size_t b = 0; b < sizeof(phase_benches) / sizeof(*phase_benches); b++)
			if (!strcmp(names[k], phase_benches[b])) {
				marks = true;
				chase |= b == 0;
			}
	if (mode != ACCT_OFF && !marks) {
		snprintf(buf, len, "warning: --memory-timing %s: no benchmark of the plan marks a phase (chase, latency, fallback or a workload): the plugin will count nothing",
			 acct_mode_names[mode]);
		return 1;
	}
	if (mode == ACCT_DELAY && !chase) {
		snprintf(buf, len, "warning: --memory-timing delay: no chase in the plan, so no calibration: the delays are the dilated latencies, uncalibrated, and the boot's check fails");
		return 1;
	}
	return 0;
}

/*
 * The plan's tierbench benchmarks and wlrun steps, read back from its text
 * ("step NAME TIMEOUT tierbench BENCH ..."), for plan_memtiming_warning.
 */
static int plan_memtiming_check(const char *plan, enum acct_mode mode, char *buf, size_t len)
{
	const char *names[64];
	char *copy = xstrdup(plan), *save = NULL;
	int n = 0, nwl = 0, rc;

	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *sp = NULL, *w[5];
		int k = 0;

		for (char *x = strtok_r(l, " ", &sp); x && k < 5; x = strtok_r(NULL, " ", &sp))
			w[k++] = x;
		if (k < 4 || strcmp(w[0], "step"))
			continue;
		if (!strcmp(w[3], "wlrun"))
			nwl++;
		else if (k == 5 && !strcmp(w[3], "tierbench") && n < 64)
			names[n++] = w[4];
	}
	rc = plan_memtiming_warning(mode, names, n, nwl, buf, len);
	free(copy);
	return rc;
}

/* The plan of cmd_plan's options (argv[0] the command name) into @out; 0 or an exit code. */
int plan_text(int argc, char **argv, struct sbuf *out)
{
	const char *path = NULL, *boot = NULL, *profile = "default";
	const char *benches = "default", *workloads = "none", *step_timeout = NULL;
	const char *wl_dir_opt = NULL, *clock = "wall", *bench_list = NULL, *mt = "off", *tiering = "off";
	enum acct_mode mt_mode;
	char warn[256];
	char **wl_avail = NULL, **wl_run = NULL;
	int wl_navail = 0, wl_nrun = 0;
	struct topo *t;
	struct target targets[TOPO_KIND_NR];
	int ntargets, rc, timeout, prof;

	for (int i = 1; i < argc; i++) {
		const char **opt = !strcmp(argv[i], "--boot-id") ? &boot :
				   !strcmp(argv[i], "--profile") ? &profile :
				   !strcmp(argv[i], "--benches") ? &benches :
				   !strcmp(argv[i], "--workloads") ? &workloads :
				   !strcmp(argv[i], "--workloads-dir") ? &wl_dir_opt :
				   !strcmp(argv[i], "--clock") ? &clock :
				   !strcmp(argv[i], "--bench-list") ? &bench_list :
				   !strcmp(argv[i], "--memory-timing") ? &mt :
				   !strcmp(argv[i], "--tiering") ? &tiering :
				   !strcmp(argv[i], "--step-timeout") ? &step_timeout : NULL;

		if (opt && i + 1 < argc) {
			*opt = argv[++i];
		} else if (argv[i][0] != '-' && !path) {
			path = argv[i];
		} else {
			fprintf(stderr, "labtool plan: unexpected argument '%s'\n", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (!path || !boot) {
		fprintf(stderr, "usage: labtool plan TOPOLOGY.yaml --boot-id ID [--profile P] [--benches LIST] [--workloads LIST|all|none] [--workloads-dir DIR] [--step-timeout S] [--clock wall|icount] [--bench-list FILE] [--memory-timing off|count|delay] [--tiering off|demotion|balancing]\n");
		return EXIT_USAGE;
	}
	prof = vocab_profile(profile);
	if (!valid_name(boot) || prof < 0) {
		fprintf(stderr, "labtool plan: bad --boot-id or --profile\n");
		return EXIT_USAGE;
	}
	if (step_timeout && parse_count(step_timeout, 86400) < 0) {
		fprintf(stderr, "labtool plan: --step-timeout: '%s' is not a whole number of seconds from 1 to 86400\n",
			step_timeout);
		return EXIT_USAGE;
	}
	if (strcmp(clock, "wall") && strcmp(clock, "icount")) {
		fprintf(stderr, "labtool plan: --clock: '%s' is not wall or icount\n", clock);
		return EXIT_USAGE;
	}
	if (strcmp(tiering, "off") && strcmp(tiering, "demotion") && strcmp(tiering, "balancing")) {
		fprintf(stderr, "labtool plan: --tiering: '%s' is not off, demotion or balancing\n", tiering);
		return EXIT_USAGE;
	}
	if (acct_mode_parse(mt, &mt_mode, warn, sizeof(warn))) {
		fprintf(stderr, "labtool plan: %s\n", warn);
		return EXIT_USAGE;
	}
	if (strcmp(workloads, "none")) {
		/* Checked before anything boots: a typo must not cost a boot. */
		char *dir = workloads_dir(wl_dir_opt), *list, *save = NULL;

		wl_navail = list_workloads(dir, &wl_avail);
		if (wl_navail < 0) {
			free(dir);
			return EXIT_USAGE;
		}
		wl_run = xcalloc((size_t)wl_navail + 1, sizeof(*wl_run));
		list = xstrdup(workloads);
		for (char *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
			int found = 0;

			for (int k = 0; k < wl_navail; k++)
				if (!strcmp(w, "all") || !strcmp(w, wl_avail[k])) {
					found = 1;
					int dup = 0;

					for (int r = 0; r < wl_nrun; r++)
						dup |= wl_run[r] == wl_avail[k];
					if (!dup)
						wl_run[wl_nrun++] = wl_avail[k];
				}
			if (!found) {
				fprintf(stderr, "labtool plan: --workloads: '%s' is not a workload of %s (have:",
					w, dir);
				for (int k = 0; k < wl_navail; k++)
					fprintf(stderr, " %s", wl_avail[k]);
				fprintf(stderr, "%s; or all, none)\n", wl_navail ? "" : " none");
				free(list);
				free(dir);
				free(wl_run);
				free_names(wl_avail, wl_navail);
				return EXIT_USAGE;
			}
		}
		free(list);
		free(dir);
	}
	t = xcalloc(1, sizeof(*t));
	rc = topo_load(path, t, stderr);
	if (rc) {
		free(t);
		free(wl_run);
		free_names(wl_avail, wl_navail);
		return rc;
	}
	ntargets = plan_targets(t, targets, TOPO_KIND_NR);
	timeout = step_timeout ? (int)parse_count(step_timeout, 86400) : vocab_profile_step_timeout(prof);
	/*
	 * Under icount the guest's seconds are 1e9 instructions: a busy step
	 * was measured at 0.12 guest seconds per host second (TCG, README
	 * "Clocks"; 0.065-0.087 with the host's cores busy building a kernel),
	 * so a quarter of the profile's timeout still allows about twice the
	 * host time the wall clock's timeout does.  A step's need in guest
	 * seconds does not grow with the host's load (quick latency: 9.9 of
	 * its 75), which the wall clock's could not promise.
	 */
	if (!step_timeout && !strcmp(clock, "icount"))
		timeout = (timeout + 3) / 4;
	if (timeout <= 0) {
		fprintf(stderr, "labtool plan: --step-timeout: '%s' is not a positive number of seconds\n",
			step_timeout);
		free(t);
		free(wl_run);
		free_names(wl_avail, wl_navail);
		return EXIT_USAGE;
	}

	struct sbuf plan = { 0 };

	plan_begin(&plan, boot, !strcmp(clock, "icount"));
	plan_online(t, &plan);
	sb_printf(&plan, "step topology 60 topoprobe\n");
	/*
	 * The tiering mode, set (and left so) before any benchmark or
	 * workload, checked and the memory tiers shown (bench/tiering.c).
	 */
	if (strcmp(tiering, "off"))
		sb_printf(&plan, "step tiers 60 tierbench tiers --tiering %s%s\n", tiering,
			  !strcmp(clock, "icount") ? " --clock icount" : "");
	plan_hugetlb(t, &plan);

	if (strcmp(benches, "none")) {
		rc = plan_benches(&plan, t, benches, bench_list, targets, ntargets, timeout, profile,
				  clock, boot, strcmp(tiering, "off") != 0);
		if (rc) {
			free(plan.s);
			free(t);
			free(wl_run);
			free_names(wl_avail, wl_navail);
			return rc;
		}
	}
	if (wl_nrun) {
		/* wlrun's own timeout kills the workload; the step's is a backstop. */
		int npol = prof == vocab_profile("full") ? VOCAB_NPOLICIES : vocab_policy("default") + 1;
		int wl_timeout = step_timeout ? (timeout > 60 ? timeout - 30 : timeout / 2 + 1) :
				 vocab_profile_wl_timeout(prof);
		int wl_step = step_timeout ? timeout : wl_timeout + 30;

		for (int k = 0; k < wl_nrun; k++)
			for (int p = 0; p < npol; p++)
				for (int g = 0; g < ntargets; g++)
					sb_printf(&plan, "step wl-%s-%s-%s %d wlrun %s --policy %s --nodes %s:%s --profile %s --timeout %d\n",
						  wl_run[k], vocab_policy_names[p], targets[g].label, wl_step,
						  wl_run[k], vocab_policy_names[p], targets[g].label,
						  targets[g].ids, profile, wl_timeout);
	}
	if (plan_memtiming_check(plan.s, mt_mode, warn, sizeof(warn)))
		fprintf(stderr, "labtool plan: %s\n", warn);
	sb_putn(out, plan.s, plan.len);
	free(plan.s);
	free(t);
	free(wl_run);
	free_names(wl_avail, wl_navail);
	return 0;
}

void sb_plan_token(struct sbuf *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		    strchr("._,:+=/-", *p))
			sb_putc(b, (char)*p);
		else
			sb_printf(b, "%%%02X", *p);
}

void plan_online(const struct topo *t, struct sbuf *plan)
{
	if (topo_has_movable(t))
		sb_printf(plan, "step memory-online 60 topoprobe --online-movable\n");
}

void plan_hugetlb(const struct topo *t, struct sbuf *plan)
{
	for (int i = 0; i < t->nnodes; i++)
		if (t->node[i].hugetlb_pages)
			sb_printf(plan, "step hugetlb-node%d 60 sh -c echo%%20%u%%20>/sys/devices/system/node/node%d/hugepages/hugepages-2048kB/nr_hugepages\n",
				  i, t->node[i].hugetlb_pages, i);
}

void plan_begin(struct sbuf *plan, const char *boot, bool icount)
{
	sb_printf(plan, "boot %s\n", boot);
	/*
	 * Under icount each step starts at a whole guest second (labrun's
	 * align_step): what the disks' host-timed reads at /init shifted is
	 * put back before any step runs.
	 */
	if (icount)
		sb_printf(plan, "align 1\n");
}

void plan_exec(const char *boot, bool icount, long timeout, const char *cmd,
	       const struct topo *t, struct sbuf *out)
{
	char *wrapped = xasprintf("exec 2>&1; %s", cmd);

	plan_begin(out, boot, icount);
	/* the topology's movable memory and hugetlb pools, as for the benchmarks */
	if (t) {
		plan_online(t, out);
		plan_hugetlb(t, out);
	}
	/* its stderr comes back with its stdout, in the order written */
	sb_printf(out, "step exec %ld sh -c ", timeout);
	sb_plan_token(out, wrapped);
	sb_putc(out, '\n');
	free(wrapped);
}

int cmd_plan(int argc, char **argv)
{
	struct sbuf plan = { 0 };
	int rc = plan_text(argc, argv, &plan);

	if (!rc && plan.len && (fwrite(plan.s, 1, plan.len, stdout) != plan.len || fflush(stdout))) {
		fprintf(stderr, "labtool plan: cannot write the plan\n");
		rc = EXIT_IOERR;
	}
	sb_free(&plan);
	return rc;
}
