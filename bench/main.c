// SPDX-License-Identifier: GPL-2.0
/*
 * tierbench BENCH [options]: option parsing, the benchmark table generated
 * from benches.h, needs checking (a miss is a SKIP, never a failure), the
 * per-benchmark timeout, and restoring what a benchmark changed.
 *
 * Exit: 0 all checks passed or skipped, 1 a check failed, 2 usage.
 */
#include "tb.h"
#include "benches.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define X(name) extern const struct bench bench_##name;
BENCHES(X)
#undef X

static const struct bench *const benches[] = {
#define X(name) &bench_##name,
	BENCHES(X)
#undef X
};
#define NBENCHES (sizeof(benches) / sizeof(benches[0]))

/* What each profile of guest/vocab.h means to tierbench (its name: profile_names). */
static const struct {
	int reps;
	long mib, step_mib;
	int timeout_mult;
} profiles[PROFILE_COUNT] = {
	[PROFILE_QUICK] = { 2, 16, 16, 1 },
	[PROFILE_DEFAULT] = { 5, 32, 32, 1 },
	[PROFILE_FULL] = { 11, 256, 16, 10 },
};

/* guest/vocab.h's words as help text: " a b c" */
#define HELP2(id, name) " " name
#define HELP4(id, name, a, b) " " name

static const char usage_text[] =
"usage: tierbench BENCH [options]   |   tierbench --list[=machine]   |   tierbench --help\n"
"options (each also as --opt=VALUE):\n"
"  --profile NAME                 sizes and repetitions (default: default), of\n"
"                                " VOCAB_PROFILES(HELP4) "\n"
"  --preferred IDS                the node set under test, e.g. 1+3 or 1,3 or 1-3\n"
"                                 (default: the CPU-less memory nodes, else the\n"
"                                 memory nodes without the local one, else node 0)\n"
"  --label KIND                   how the topology names that set (rows say nodes=KIND:IDS)\n"
"  --policies LIST                comma list (or all, the default) of\n"
"                                " VOCAB_POLICIES(HELP4) "\n"
"  --pagesizes LIST               comma list (or all, the default) of" VOCAB_PAGESIZES(HELP2) "\n"
"  --scenarios LIST               comma list (or all) of" VOCAB_SCENARIOS(HELP2) "\n"
"                                default free,full,pressure; reclaim: the full-reclaimable ones\n"
"  --reps N                       repetitions per case (profile: 2/5/11)\n"
"  --mib N                        MiB allocated per case (profile: 16/32/256)\n"
"  --step-mib N                   fill-curve step (profile: 16/32/16)\n"
"  --fill-cap-mib N               never fill nodes whose total exceeds N MiB (3072)\n"
"  --headroom-mib N               MiB a filler leaves free per node (24)\n"
"  --timeout SECS                 override the benchmark's timeout\n"
"  --cpu N                        latency: run each case on CPU N (default: the first\n"
"                                 CPU of the lowest-numbered node with CPUs; row cpu)\n"
"  --threads N                    threads: threads per case (1..64; default: one per\n"
"                                 CPU of the case's node or nodes)\n"
"  --seed N                       latency: shuffle each group's policy order with\n"
"                                 seed N (0..4294967295; row order_seed; default:\n"
"                                 the listed order)\n"
"  --clock wall|icount            what the guest clock counts: nanoseconds, or\n"
"                                 guest instructions under QEMU -icount shift=0\n"
"                                 (timing rows then say unit=insn; default: wall)\n"
"  --model-hmat N=RL/WL/RB/WB,... HMAT figures from CPU 0's node per target node\n"
"                                 (ns, ns, MB/s, MB/s) for the cost model\n"
"                                 (default: each node's access0 figures)\n"
"  --model-cache-hmat N=RL/WL/RB/WB,... the same for node N's memory-side cache\n"
"                                 (sysfs has none; without them a cache is not modeled)\n"
"  --tiering off|demotion|balancing  tiers: the boot's tiering mode to set\n"
"                                 (demotion_enabled, kernel.numa_balancing=2)\n"
"  --model-cache-hit F            share 0..1 of accesses a memory-side cache serves\n"
"                                 (default: min(1, cache size / node MemTotal))\n"
"stdout carries only ROW/TAP/HIST lines (README.md, results channel).\n";

/* Every option but --list and --help takes a value. */
static bool is_value_option(const char *a)
{
	static const char *const names[] = {
		"--profile", "--preferred", "--label", "--policies", "--pagesizes",
		"--scenarios", "--reps", "--mib", "--step-mib", "--fill-cap-mib",
		"--headroom-mib", "--timeout", "--model-hmat", "--clock", "--seed", "--cpu",
		"--model-cache-hmat", "--model-cache-hit", "--threads", "--tiering",
	};

	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		if (!strcmp(a, names[k]))
			return true;
	return false;
}

static void print_help(void)
{
	fputs(usage_text, stdout);
	fputs("benchmarks:\n", stdout);
	for (size_t i = 0; i < NBENCHES; i++)
		printf("  %-14s %s\n                 options: %s\n", benches[i]->name,
		       benches[i]->help, *benches[i]->options ? benches[i]->options :
		       benches[i]->every_node ? "(none: every memory node)" : "(none)");
}

static void print_list(void)
{
	printf("%-14s %-36s %-8s %s\n", "bench", "needs", "timeout", "what");
	for (size_t i = 0; i < NBENCHES; i++) {
		const struct needs *n = &benches[i]->needs;
		char needs[96];

		snprintf(needs, sizeof(needs), "mem_nodes>=%d%s%s%s%s%s", n->min_mem_nodes,
			 n->outside_set ? ",outside_set" : "", n->hugetlb ? ",hugetlb" : "",
			 n->cpuless_node ? ",cpuless_node" : "", n->hmat ? ",hmat" : "",
			 n->oom_kill ? ",oom_kill" : "");
		printf("%-14s %-36s %-8d %s\n", benches[i]->name, needs,
		       benches[i]->timeout_secs, benches[i]->help);
	}
}

/*
 * --list=machine: what the host's plan reads (lab/boot/benchlist.c), one line
 * per benchmark with its declared needs and options, then the words this
 * binary prints (guest/vocab.h), which the host checks it knows.
 */
/* the bench= words of ROW lines, for the host's check (guest/vocab.h) */
static const char *const row_bench_names[VOCAB_NROW_BENCHES] = { VOCAB_ROW_BENCHES(VOCAB_NAME2) };

static void print_list_machine(void)
{
	static const struct {
		const char *kind;
		const char *const *names;
		int n;
	} words[] = {
		{ "policy", pol_names, POL_COUNT },
		{ "pagesize", pagesize_names, PS_COUNT },
		{ "scenario", scenario_names, SC_COUNT },
		{ "profile", profile_names, PROFILE_COUNT },
		{ "outcome", outcome_names, OUT_COUNT },
		{ "bench", row_bench_names, VOCAB_NROW_BENCHES },
	};

	printf("tierbench-list 1\n");
	for (size_t i = 0; i < NBENCHES; i++) {
		const struct bench *b = benches[i];
		char needs[256], opts[256];
		size_t k = 0;

		needs_format(&b->needs, needs, sizeof(needs));
		/* "--a --b" -> "--a,--b", "-" for none */
		for (const char *p = b->options; *p && k + 1 < sizeof(opts); p++)
			opts[k++] = *p == ' ' ? ',' : *p;
		opts[k] = 0;
		printf("bench name=%s timeout=%d every_node=%d options=%s %s\n", b->name,
		       b->timeout_secs, b->every_node, k ? opts : "-", needs);
	}
	for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++)
		for (int i = 0; i < words[w].n; i++)
			printf("word kind=%s name=%s\n", words[w].kind, words[w].names[i]);
}

static long parse_long(const char *opt, const char *v, long lo, long hi)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || end == v || *end || n < lo || n > hi) {
		fprintf(stderr, "tierbench: %s: \"%s\" is not an integer in %ld..%ld\n",
			opt, v, lo, hi);
		exit(2);
	}
	return n;
}

/* A share 0..1 ("0.25", "1"); exits 2 naming @opt otherwise. */
static double parse_fraction(const char *opt, const char *v)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(v, &end);
	if (errno || end == v || *end || !(x >= 0 && x <= 1)) {
		fprintf(stderr, "tierbench: %s: \"%s\" is not a fraction in 0..1\n", opt, v);
		exit(2);
	}
	return x;
}

/* "a,b,c" of @names (or "all") into a bit mask; exits 2 on an unknown word. */
static unsigned parse_list(const char *opt, const char *v,
			   const char *const *names, int count)
{
	char *copy = strdup(v), *save = NULL;
	unsigned mask = 0;

	if (!copy) {
		fprintf(stderr, "tierbench: out of memory\n");
		exit(2);
	}
	for (char *w = strtok_r(copy, ",+", &save); w; w = strtok_r(NULL, ",+", &save)) {
		int i;

		if (!strcmp(w, "all")) {
			mask |= (1u << count) - 1;
			continue;
		}
		for (i = 0; i < count; i++)
			if (!strcmp(w, names[i]))
				break;
		if (i == count) {
			fprintf(stderr, "tierbench: %s: unknown \"%s\"; one of:", opt, w);
			for (i = 0; i < count; i++)
				fprintf(stderr, " %s", names[i]);
			fputc('\n', stderr);
			free(copy);
			exit(2);
		}
		mask |= 1u << i;
	}
	free(copy);
	if (!mask)
		die_usage("%s: empty list", opt);
	return mask;
}

static void default_preferred(struct opts *o, bool label_given)
{
	struct nodeset mem, cpu, pick;
	int local = node_of_cpu(0);
	const char *label;

	mem_nodes(&mem);
	cpu_nodes(&cpu);
	ns_clear(&pick);
	ns_for_each(n, &mem)
		if (!ns_has(&cpu, n))
			ns_set(&pick, n);
	label = "cpuless";
	if (!ns_count(&pick)) {
		ns_for_each(n, &mem)
			if (n != local)
				ns_set(&pick, n);
		label = "remote";
	}
	if (!ns_count(&pick)) {
		ns_set(&pick, ns_has(&mem, local) ? local : ns_first(&mem));
		label = "local";
	}
	o->preferred = pick;
	if (!label_given)
		snprintf(o->label, sizeof(o->label), "%s", label);
}

#define CPU_DIR "/sys/devices/system/cpu"

/*
 * The CPU latency's cases run on: --cpu, which must be present and online
 * (else one line, exit 2), or the first online CPU of the lowest-numbered
 * node with CPUs, else the first online CPU.
 */
static int case_cpu(long given)
{
	struct nodeset present, online, cpus, nodes;
	char err[160], why[200], path[96];

	if (read_cpulist(CPU_DIR "/present", &present, err, sizeof(err)) ||
	    read_cpulist(CPU_DIR "/online", &online, err, sizeof(err))) {
		if (given >= 0) {
			fprintf(stderr, "tierbench: --cpu %ld: cannot tell whether it exists: %s\n",
				given, err);
			exit(2);
		}
		msg("%s; cases run on CPU 0", err);
		return 0;
	}
	if (given >= 0) {
		if (cpu_problem((int)given, &present, &online, why, sizeof(why))) {
			fprintf(stderr, "tierbench: --cpu %ld: %s\n", given, why);
			exit(2);
		}
		return (int)given;
	}
	cpu_nodes(&nodes);
	ns_for_each(n, &nodes) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", n);
		if (read_cpulist(path, &cpus, err, sizeof(err)))
			continue;
		ns_for_each(c, &cpus)
			if (ns_has(&online, c))
				return c;
	}
	return ns_count(&online) ? ns_first(&online) : 0;
}

static const struct bench *current;
static int timeout_secs;

/* Timeout or termination: take the children down, restore knobs, say so in TAP. */
static void on_fatal(int sig)
{
	int n = tap_count_so_far() + 1, len;
	char line[160];

	children_kill();
	knobs_restore();

	/* snprintf is not async-signal-safe by POSIX, but glibc's does not
	 * allocate for these conversions; the alternative is no TAP line */
	len = snprintf(line, sizeof(line),
		       "TAP not ok %d - %s %s (timeout %d s)\nTAP 1..%d\n", n,
		       current ? current->name : "tierbench",
		       sig == SIGALRM ? "timed out" : "terminated", timeout_secs, n);
	if (write(1, line, (size_t)len) < 0)
		_exit(2);
	_exit(1);
}

static void protect_self(void)
{
	int fd = open("/proc/self/oom_score_adj", O_WRONLY);

	if (fd < 0 || write(fd, "-1000\n", 6) != 6)
		msg("oom_score_adj -1000 for the harness: %s; an OOM case may kill it",
		    strerror(errno));
	if (fd >= 0)
		close(fd);
}

/* The machine's facts that struct needs asks about; @o: --preferred, --model-hmat. */
static void machine_facts(const struct opts *o, struct machine_facts *m)
{
	struct nodeset mem, cpu;

	mem_nodes(&mem);
	cpu_nodes(&cpu);
	m->mem_nodes = ns_count(&mem);
	m->mem_nodes_outside_set = 0;
	ns_for_each(n, &mem)
		m->mem_nodes_outside_set += !ns_has(&o->preferred, n);
	m->hugetlb = hugetlb_present();
	m->cpuless_node = !ns_subset(&mem, &cpu);
	m->hmat = o->model_given || hmat_present();
	if (knob_read_long("/proc/sys/vm/panic_on_oom", &m->panic_on_oom))
		m->panic_on_oom = -1;
}

/* Save the declared sysctls that exist: knobs_restore() puts them back. */
static int save_sysctls(const struct needs *n)
{
	char path[128];

	for (int i = 0; i < NEEDS_MAX_SYSCTLS && n->sysctls[i]; i++) {
		if (sysctl_path(n->sysctls[i], path, sizeof(path))) {
			msg("%s: not a sysctl name", n->sysctls[i]);
			return -1;
		}
		/* one the kernel lacks is the benchmark's to judge (fallback-order) */
		if (access(path, R_OK) == 0 && knob_save(path))
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { .profile = PROFILE_DEFAULT, .fill_cap_mib = 3072,
			  .headroom_mib = 24, .pol_mask = (1u << POL_COUNT) - 1,
			  .page_mask = (1u << PS_COUNT) - 1,
			  .scen_mask = VOCAB_SCENARIOS_DEFAULT_MASK, .tiering = -1 };
	long reps = -1, mib = -1, step = -1, timeout = -1, cpu = -1;
	bool preferred_given = false, label_given = false;
	const char *bench_name = NULL;
	char why[200], err[96];
	struct nodeset mem;
	int rc;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		char *a = argv[i], *val = NULL, *eq;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			print_help();
			return 0;
		}
		if (!strcmp(a, "--list")) {
			print_list();
			return 0;
		}
		if (!strcmp(a, "--list=machine")) {
			print_list_machine();
			return 0;
		}
		if (strncmp(a, "--", 2)) {
			if (bench_name)
				die_usage("unexpected argument \"%s\"", a);
			bench_name = a;
			continue;
		}
		eq = strchr(a, '=');
		if (eq)
			*eq = 0;
		if (!is_value_option(a))
			die_usage("unknown option %s", a);
		if (eq) {
			val = eq + 1;
		} else if (i + 1 < argc) {
			val = argv[++i];
		} else {
			die_usage("%s needs a value", a);
		}
		if (!strcmp(a, "--profile")) {
			unsigned m = parse_list(a, val, profile_names, PROFILE_COUNT);

			if (m & (m - 1)) {
				char have[64] = "";

				for (int k = 0; k < PROFILE_COUNT; k++)
					snprintf(have + strlen(have), sizeof(have) - strlen(have), "%s%s",
						 k ? ", " : "", profile_names[k]);
				die_usage("--profile: one of %s", have);
			}
			o.profile = (enum profile)__builtin_ctz(m);
		} else if (!strcmp(a, "--preferred")) {
			if (ns_parse(val, &o.preferred, err, sizeof(err))) {
				fprintf(stderr, "tierbench: --preferred \"%s\": %s\n", val, err);
				return 2;
			}
			preferred_given = true;
		} else if (!strcmp(a, "--label")) {
			if (!fmt_token_ok(val) || strchr(val, ':') || strlen(val) >= sizeof(o.label))
				die_usage("--label \"%s\": want a short word without spaces, commas, ':' or '='", val);
			snprintf(o.label, sizeof(o.label), "%s", val);
			label_given = true;
		} else if (!strcmp(a, "--policies")) {
			o.pol_mask = parse_list(a, val, pol_names, POL_COUNT);
		} else if (!strcmp(a, "--pagesizes")) {
			o.page_mask = parse_list(a, val, pagesize_names, PS_COUNT);
		} else if (!strcmp(a, "--scenarios")) {
			o.scen_mask = parse_list(a, val, scenario_names, SC_COUNT);
			o.scen_given = true;
		} else if (!strcmp(a, "--reps")) {
			reps = parse_long(a, val, 1, 1000);
		} else if (!strcmp(a, "--mib")) {
			mib = parse_long(a, val, 2, 1L << 20);
		} else if (!strcmp(a, "--step-mib")) {
			step = parse_long(a, val, 2, 1L << 20);
		} else if (!strcmp(a, "--fill-cap-mib")) {
			o.fill_cap_mib = parse_long(a, val, 0, 1L << 30);
		} else if (!strcmp(a, "--model-hmat")) {
			if (model_hmat_parse(val, o.model, err, sizeof(err))) {
				fprintf(stderr, "tierbench: --model-hmat: %s\n", err);
				return 2;
			}
			o.model_given = true;
		} else if (!strcmp(a, "--model-cache-hmat")) {
			if (model_hmat_parse(val, o.model_cache, err, sizeof(err))) {
				fprintf(stderr, "tierbench: --model-cache-hmat: %s\n", err);
				return 2;
			}
			o.model_cache_given = true;
		} else if (!strcmp(a, "--model-cache-hit")) {
			o.model_cache_hit = parse_fraction(a, val);
			o.model_cache_hit_given = true;
		} else if (!strcmp(a, "--clock")) {
			if (strcmp(val, "wall") && strcmp(val, "icount"))
				die_usage("--clock: \"%s\" is not wall or icount", val);
			out_set_clock(!strcmp(val, "icount"));
		} else if (!strcmp(a, "--cpu")) {
			cpu = parse_long(a, val, 0, NODESET_MAX - 1);
		} else if (!strcmp(a, "--threads")) {
			o.threads = (int)parse_long(a, val, 1, 64);
		} else if (!strcmp(a, "--seed")) {
			o.seed = (uint32_t)parse_long(a, val, 0, 4294967295L);
			o.seed_given = true;
		} else if (!strcmp(a, "--tiering")) {
			o.tiering = tiering_parse(val);
			if (o.tiering < 0)
				die_usage("--tiering: \"%s\" is not off, demotion or balancing", val);
		} else if (!strcmp(a, "--headroom-mib")) {
			o.headroom_mib = parse_long(a, val, 4, 1L << 20);
		} else { /* --timeout: is_value_option() admitted nothing else */
			timeout = parse_long(a, val, 1, 86400);
		}
	}
	if (!bench_name)
		die_usage("%s", "no benchmark named; --list shows them");
	for (size_t i = 0; i < NBENCHES; i++)
		if (!strcmp(benches[i]->name, bench_name))
			current = benches[i];
	if (!current)
		die_usage("unknown benchmark \"%s\"; --list shows them", bench_name);

	o.reps = reps > 0 ? (int)reps : profiles[o.profile].reps;
	o.mib = mib > 0 ? mib : profiles[o.profile].mib;
	o.step_mib = step > 0 ? step : profiles[o.profile].step_mib;
	/* huge pages come in 2 MiB: keep sizes even */
	o.mib += o.mib & 1;
	o.step_mib += o.step_mib & 1;
	mem_nodes(&mem);
	if (preferred_given) {
		if (!ns_subset(&o.preferred, &mem)) {
			char have[128], want[128];

			ns_format_plus(&mem, have, sizeof(have));
			ns_format_plus(&o.preferred, want, sizeof(want));
			fprintf(stderr, "tierbench: --preferred %s: not all are memory nodes (memory nodes: %s)\n",
				want, have);
			return 2;
		}
		if (!label_given)
			snprintf(o.label, sizeof(o.label), "node");
	} else {
		default_preferred(&o, label_given);
	}
	out_set_nodes(o.label, &o.preferred);
	o.cpu = case_cpu(cpu);

	timeout_secs = timeout > 0 ? (int)timeout
				   : current->timeout_secs * profiles[o.profile].timeout_mult;
	signal(SIGALRM, on_fatal);
	signal(SIGTERM, on_fatal);
	signal(SIGINT, on_fatal);
	atexit(knobs_restore);
	protect_self();

	{
		struct machine_facts facts;

		machine_facts(&o, &facts);
		if (needs_unmet(&current->needs, &facts, why, sizeof(why))) {
			tap_skip(why, "%s", current->name);
			tap_plan();
			return 0;
		}
	}
	sysctls_declared(&current->needs);
	if (save_sysctls(&current->needs))
		return 1;
	{
		char ids[128];

		ns_format_plus(&o.preferred, ids, sizeof(ids));
		msg("%s: profile %s, preferred %s:%s, %d reps, %ld MiB, timeout %d s",
		    current->name, profile_names[o.profile], o.label, ids, o.reps,
		    o.mib, timeout_secs);
	}
	alarm((unsigned)timeout_secs);
	{
		/* the kernel series' mpol_* counters around the whole benchmark,
		 * so that every benchmark's rows carry them (policy, page size and
		 * scenario "-"); cases that measure their own deltas add rows */
		struct counters before, after;
		const struct rowkey k = { current->name, "-", "-", "-" };

		counters_read(&before);
		rc = current->run(&o);
		counters_read(&after);
		counter_delta_rows(&k, &before, &after, "mpol_");
		counters_free(&before);
		counters_free(&after);
	}
	alarm(0);
	knobs_restore();
	tap_plan();
	return rc || tap_failures() ? 1 : 0;
}
