// SPDX-License-Identifier: GPL-2.0
/*
 * wlrun: one workload of workloads/ under one memory policy.
 *
 *   wlrun WORKLOAD --policy P --nodes LABEL:IDS [--profile quick|default|full]
 *         [--dir DIR] [--timeout SECS]
 *
 * WORKLOAD is DIR/WORKLOAD.fio (fio) or DIR/WORKLOAD.job (stress-ng); DIR
 * defaults to /lab/workloads.  LABEL:IDS is the case (the target set, as
 * tierbench's --label/--preferred); the mask P gets follows tierbench's
 * table (pol_nodes()).  The workload runs as `mpolrun --policy P --nodes
 * MASK -- fio|stress-ng ...` in its own process group with a timeout; around
 * it wlrun snapshots numastat and /proc/vmstat and reads new /dev/kmsg
 * records for OOM kills.  stdout carries only ROW lines (bench/README.md,
 * "wlrun"); an OOM kill is an outcome row, not an error.
 *
 * Exit: 0 the workload ran and its outcome was recorded (completed,
 * oom_killed, failed or timeout); 1 wlrun could not run it at all; 2 usage.
 */
#include "tb.h"
#include "wlparse.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum kind { WL_FIO, WL_STRESS_NG };
/*
 * Seconds of workload run time and the cap on the "fits" size, per profile;
 * its name and timeout (which the host's plan outlives) are guest/vocab.h's.
 */
static const struct {
	int secs;
	long fit_cap_mib;
} profiles[PROFILE_COUNT] = {
	[PROFILE_QUICK] = { 3, 64 },
	[PROFILE_DEFAULT] = { 15, 256 },
	[PROFILE_FULL] = { 60, 1024 },
};
#define X(id, name, step_timeout, wl_timeout) [PROFILE_##id] = wl_timeout,
static const int profile_timeout[PROFILE_COUNT] = { VOCAB_PROFILES(X) };
#undef X

/* What an overflowing workload leaves free on all memory nodes together. */
#define OVER_HEADROOM_MIB 160
/* Never overflow more than this (as tierbench's --fill-cap-mib): a run on a
 * real host stays harmless. */
#define OVER_CAP_MIB 3072

static const char usage_text[] =
"usage: wlrun WORKLOAD --policy P --nodes LABEL:IDS [--profile quick|default|full]\n"
"             [--dir DIR] [--timeout SECS]\n"
"  WORKLOAD   DIR/WORKLOAD.fio (fio) or DIR/WORKLOAD.job (stress-ng)\n"
"  --dir      workload directory (default /lab/workloads)\n"
"  --timeout  kill the workload's process group after SECS (profile: 120/600/3600)\n"
"stdout: ROW lines (bench/README.md); exit 0 when an outcome was recorded\n";

static char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		msg("out of memory");
		exit(1);
	}
	return s;
}

static char *read_file(const char *path, size_t max)
{
	FILE *f = fopen(path, "r");
	size_t cap = 4096, len = 0, got;
	char *buf;

	if (!f) {
		msg("%s: %s", path, strerror(errno));
		return NULL;
	}
	buf = malloc(cap);
	while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += got;
		if (len + 1 == cap) {
			char *bigger = cap * 2 <= max ? realloc(buf, cap * 2) : NULL;

			if (!bigger) {
				msg("%s: larger than %zu bytes or out of memory", path, max);
				free(buf);
				buf = NULL;
				break;
			}
			buf = bigger;
			cap *= 2;
		}
	}
	if (buf && ferror(f)) {
		msg("%s: read: %s", path, strerror(errno));
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf)
		buf[len] = 0;
	return buf;
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		msg("%s: %s", path, strerror(errno));
		return -1;
	}
	fputs(text, f);
	if (fclose(f)) {
		msg("%s: write: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* mpolrun beside this binary (host tests), else on PATH (the guest's /bin). */
static char *find_mpolrun(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0) {
		exe[n] = 0;
		char *slash = strrchr(exe, '/');

		if (slash) {
			*slash = 0;
			char *p = xasprintf("%s/mpolrun", exe);

			if (access(p, X_OK) == 0)
				return p;
			free(p);
		}
	}
	return xasprintf("mpolrun");
}

/* ---- OOM kills from the kernel log ---- */

struct oom_seen {
	int kills;
	bool mempolicy;		/* a kill said constraint=CONSTRAINT_MEMORY_POLICY */
	char task[32];
};

/* "6,123,456,-;oom-kill:constraint=CONSTRAINT_MEMORY_POLICY,nodemask=1,...,task=stress-ng-vm,pid=42,uid=0" */
static void kmsg_scan(int fd, struct oom_seen *o)
{
	char rec[8192];

	memset(o, 0, sizeof(*o));
	if (fd < 0)
		return;
	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);
		char *c, *t;

		if (n < 0 && errno == EPIPE)
			continue;	/* records overwritten since the last read */
		if (n <= 0)
			break;
		rec[n] = 0;
		c = strstr(rec, "oom-kill:constraint=");
		if (!c)
			continue;
		o->kills++;
		if (!strncmp(c + strlen("oom-kill:constraint="), "CONSTRAINT_MEMORY_POLICY", 24))
			o->mempolicy = true;
		t = strstr(c, ",task=");
		if (t && !o->task[0])
			snprintf(o->task, sizeof(o->task), "%.*s", (int)strcspn(t + 6, ",\n"), t + 6);
	}
}

/* "a, b, c" of @names into @buf. */
static const char *names_join(char *buf, size_t len, const char *const *names, int n)
{
	buf[0] = 0;
	for (int i = 0; i < n; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? ", " : "", names[i]);
	return buf;
}

/* ---- running ---- */

struct run {
	enum outcome outcome;
	int status;		/* exit code, or 128 + signal */
	double secs;
	struct oom_seen oom;
};

static volatile sig_atomic_t stop_sig;
static volatile pid_t child_pgid;

/* labrun kills our group on its step timeout; the workload has its own. */
static void on_stop(int sig)
{
	stop_sig = sig;
	if (child_pgid > 0)
		kill(-child_pgid, SIGKILL);
}

/*
 * With --memory-timing count the workload's whole life, fork to reap, is
 * one phase (phase.c), labelled with @k: what its pages cost it.
 */
static int run_workload(char **argv, int timeout, const struct rowkey *k, struct run *r)
{
	int kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK), status = 0;
	uint64_t t0 = now_ns(), deadline = t0 + (uint64_t)timeout * 1000000000u;
	bool timed_out = false;
	pid_t pid;

	if (kfd < 0)
		msg("/dev/kmsg: %s (OOM kills cannot be confirmed)", strerror(errno));
	else
		lseek(kfd, 0, SEEK_END);
	fflush(NULL);
	phase_workload_begin();
	pid = fork();
	if (pid < 0) {
		msg("fork: %s", strerror(errno));
		phase_workload_end(k);
		return -1;
	}
	if (pid == 0) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		/* wlrun is protected; the workload is an ordinary candidate */
		oom_adj_self(0);
		/* the workload's stdout would be taken for channel lines */
		dup2(STDERR_FILENO, STDOUT_FILENO);
		execvp(argv[0], argv);
		fprintf(stderr, "wlrun: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	child_pgid = pid;
	for (;;) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			msg("waitpid %d: %s", pid, strerror(errno));
			phase_workload_end(k);
			return -1;
		}
		if (!timed_out && (now_ns() > deadline || stop_sig)) {
			msg("workload (pid %d) %s; killing its process group",
			    pid, stop_sig ? "interrupted" : "timed out");
			timed_out = true;
			kill(-pid, SIGKILL);
		}
		nanosleep(&ts, NULL);
	}
	phase_workload_end(k);
	/* stragglers of the group (stress-ng stressors whose parent died) */
	kill(-pid, SIGKILL);
	child_pgid = 0;
	r->secs = (double)(now_ns() - t0) / 1e9;
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) :
		    WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
	/* the kill's report follows the kill; give printk a moment */
	for (int i = 0; i < 10; i++) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };
		struct oom_seen more;

		kmsg_scan(kfd, &more);
		if (!i)
			r->oom = more;
		else
			r->oom.kills += more.kills;
		r->oom.mempolicy |= more.mempolicy;
		if (!r->oom.task[0])
			memcpy(r->oom.task, more.task, sizeof(more.task));
		if (!(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) || r->oom.kills)
			break;
		nanosleep(&ts, NULL);
	}
	if (kfd >= 0)
		close(kfd);
	if (timed_out)
		r->outcome = OUT_TIMEOUT;
	else if (r->oom.kills)
		r->outcome = OUT_OOM_KILLED;
	else if (r->status == 0)
		r->outcome = OUT_COMPLETED;
	else
		r->outcome = OUT_FAILED;
	return 0;
}

/* ---- figures ---- */

static void fio_rows(const struct rowkey *k, const char *path)
{
	static const char *const dirs[] = { "read", "write" };
	char err[160];
	char *text = read_file(path, 64u << 20);
	struct json *j;
	const struct json *jobs;

	if (!text)
		return;
	j = json_parse(text, err, sizeof(err));
	free(text);
	if (!j) {
		msg("%s: %s", path, err);
		out_row(k, "parse_error", 1, "flag");
		return;
	}
	jobs = json_get(j, "jobs");
	if (!jobs || jobs->type != JSON_ARRAY || !jobs->n) {
		msg("%s: no \"jobs\" array", path);
		out_row(k, "parse_error", 1, "flag");
		json_free(j);
		return;
	}
	for (int i = 0; i < jobs->n; i++) {
		const struct json *job = &jobs->items[i];
		const struct json *name = json_get(job, "jobname");
		/* one job (group_reporting): plain names; else prefixed by job */
		char pre[64] = "";

		if (jobs->n > 1 && name && name->type == JSON_STRING && fmt_token_ok(name->string))
			snprintf(pre, sizeof(pre), "%.40s_", name->string);
		if (json_number(job, "error") != 0) {
			char m[96];

			snprintf(m, sizeof(m), "%sfio_error", pre);
			out_row(k, m, json_number(job, "error"), "errno");
		}
		for (size_t d = 0; d < 2; d++) {
			const struct json *dj = json_get(job, dirs[d]);
			static const struct {
				const char *path, *metric, *unit;
				double scale;
			} f[] = {
				{ "bw", "bw", "KiB/s", 1 },
				{ "iops", "iops", "iops", 1 },
				{ "clat_ns/mean", "clat_mean", "ns", 1 },
				{ "clat_ns/percentile/50.000000", "clat_p50", "ns", 1 },
				{ "clat_ns/percentile/99.000000", "clat_p99", "ns", 1 },
				{ "io_bytes", "io", "MiB", 1.0 / (1 << 20) },
			};

			if (!(json_number(dj, "io_bytes") > 0))
				continue;
			for (size_t x = 0; x < sizeof(f) / sizeof(f[0]); x++) {
				char m[128];

				snprintf(m, sizeof(m), "%s%s_%s", pre, dirs[d], f[x].metric);
				out_row(k, m, json_number(dj, f[x].path) * f[x].scale, f[x].unit);
			}
		}
	}
	json_free(j);
}

static void sng_rows(const struct rowkey *k, const char *yaml_path, const char *log_path)
{
	static const struct {
		const char *field, *metric, *unit;
	} f[] = {
		{ "bogo-ops", "bogo_ops", "ops" },
		{ "bogo-ops-per-second-real-time", "bogo_ops_per_s", "ops/s" },
		{ "bogo-ops-per-second-usr-sys-time", "bogo_ops_per_cpu_s", "ops/s" },
		{ "max-rss", "max_rss", "KiB" },
	};
	struct sng_metrics m[16];
	char *text = read_file(yaml_path, 16u << 20);
	int n, fails = 0;

	n = text ? sng_yaml_metrics(text, m, 16) : -1;
	free(text);
	if (n < 0) {
		msg("%s: no metrics section", yaml_path);
		out_row(k, "parse_error", 1, "flag");
	}
	for (int i = 0; i < n; i++)
		for (size_t x = 0; x < sizeof(f) / sizeof(f[0]); x++) {
			char name[128];

			if (!fmt_token_ok(m[i].stressor))
				continue;
			snprintf(name, sizeof(name), "%s_%s", m[i].stressor, f[x].metric);
			out_row(k, name, sng_field(&m[i], f[x].field), f[x].unit);
		}
	/* stress-ng reports a verification error as a "fail:" log line */
	text = read_file(log_path, 64u << 20);
	if (text) {
		for (char *p = text; (p = strstr(p, " fail: ")); p++)
			fails++;
		free(text);
	}
	out_row(k, "verify_failures", text ? fails : NAN, "count");
}

/*
 * Where the workload's pages went: per node, Δ numa_hit + Δ numa_miss --
 * the allocations the node satisfied (numa_foreign counts on the node that
 * was asked for, so it is left out).  System wide, so the workload's
 * binary, page tables and anything else running are included; a THP is one
 * event.
 */
static void placement_rows(const struct rowkey *k, const struct counters *a,
			   const struct counters *b, const struct nodeset *preferred)
{
	struct nodeset mem;
	double total = 0, inside = 0;

	mem_nodes(&mem);
	ns_for_each(n, &mem) {
		char hit[48], miss[48], metric[48];
		long long d;

		snprintf(hit, sizeof(hit), "node%d.numa_hit", n);
		snprintf(miss, sizeof(miss), "node%d.numa_miss", n);
		if (counters_get(a, hit) < 0 || counters_get(b, hit) < 0)
			continue;
		d = counters_get(b, hit) - counters_get(a, hit) +
		    counters_get(b, miss) - counters_get(a, miss);
		snprintf(metric, sizeof(metric), "pages_node%d", n);
		out_row(k, metric, (double)d, "pages");
		total += (double)d;
		if (ns_has(preferred, n))
			inside += (double)d;
	}
	out_row(k, "pages_total", total, "pages");
	/* allocation events (numa_hit + numa_miss deltas), not resident pages */
	out_row(k, "alloc_on_set_frac", total > 0 ? inside / total : NAN, "frac");
	counter_delta_rows(k, a, b, "mpol_");
}

/* ---- main ---- */

static char *scratch;

static const char *lookup_env(const char *name)
{
	return getenv(name);
}

static void remove_scratch(void)
{
	if (scratch) {
		char *argv[] = { "rm", "-rf", scratch, NULL };
		pid_t pid = fork();

		if (pid == 0) {
			execvp("rm", argv);
			_exit(127);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
}

static void setenv_long(const char *name, long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", v);
	setenv(name, buf, 1);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "profile", required_argument, NULL, 'P' },
		{ "dir", required_argument, NULL, 'd' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *policy = NULL, *nodes = NULL, *profile = "default";
	const char *dir = "/lab/workloads", *name, *colon;
	char label[64], err[128], ids[256], mask_ids[256], *file, *end;
	char skip_why[400] = "";
	int opt, pol = -1, prof = -1, timeout = 0;
	char have[160];
	struct nodeset preferred, mask, mem;
	struct counters before, after;
	struct rowkey key;
	struct run r = { 0 };
	enum kind kind;
	char *cmd[24];
	int nc = 0;

	msg_prog = "wlrun";
	setvbuf(stdout, NULL, _IOLBF, 0);
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p': policy = optarg; break;
		case 'n': nodes = optarg; break;
		case 'P': profile = optarg; break;
		case 'd': dir = optarg; break;
		case 't':
			errno = 0;
			timeout = (int)strtol(optarg, &end, 10);
			if (errno || *end || timeout <= 0)
				die_usage("--timeout: '%s' is not a positive number of seconds", optarg);
			break;
		case 'h': fputs(usage_text, stdout); return 0;
		case ':': die_usage("%s needs a value", argv[optind - 1]);
		default: die_usage("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		die_usage("give exactly one WORKLOAD");
	name = argv[optind];
	if (!policy || !nodes)
		die_usage("--policy and --nodes are required");
	for (int p = 0; p < POL_COUNT; p++)
		if (!strcmp(policy, pol_names[p]))
			pol = p;
	if (pol < 0)
		die_usage("--policy: '%s' is not one of %s", policy,
			  names_join(have, sizeof(have), pol_names, POL_COUNT));
	for (int i = 0; i < PROFILE_COUNT; i++)
		if (!strcmp(profile, profile_names[i]))
			prof = i;
	if (prof < 0)
		die_usage("--profile: '%s' is not one of %s", profile,
			  names_join(have, sizeof(have), profile_names, PROFILE_COUNT));
	colon = strchr(nodes, ':');
	if (!colon || colon == nodes || colon - nodes >= (long)sizeof(label))
		die_usage("--nodes: '%s' is not LABEL:IDS (e.g. pmem:1+3)", nodes);
	snprintf(label, sizeof(label), "%.*s", (int)(colon - nodes), nodes);
	if (!fmt_token_ok(label) || strchr(label, '@'))
		die_usage("--nodes: label '%s' has a space, comma, '=' or '@'", label);
	if (ns_parse(colon + 1, &preferred, err, sizeof(err)))
		die_usage("--nodes %s: %s", nodes, err);
	mem_nodes(&mem);
	if (!ns_subset(&preferred, &mem)) {
		ns_format_plus(&mem, ids, sizeof(ids));
		die_usage("--nodes %s: not all memory nodes (memory nodes: %s)", nodes, ids);
	}
	if (!fmt_token_ok(name) || strchr(name, '/') || strchr(name, '@'))
		die_usage("'%s' is not a workload name", name);
	file = xasprintf("%s/%s.fio", dir, name);
	kind = WL_FIO;
	if (access(file, R_OK)) {
		free(file);
		file = xasprintf("%s/%s.job", dir, name);
		kind = WL_STRESS_NG;
		if (access(file, R_OK))
			die_usage("no workload '%s': neither %s/%s.fio nor %s.job is readable",
				  name, dir, name, name);
	}
	if (!timeout)
		timeout = profile_timeout[prof];

	key = (struct rowkey){ name, pol_names[pol], "-", profile_names[prof] };
	out_set_nodes(label, &preferred);
	ns_format_plus(&preferred, ids, sizeof(ids));
	pol_nodes((enum pol)pol, &preferred, &mask);
	ns_format_plus(&mask, mask_ids, sizeof(mask_ids));

	/* The sizes the workload files use (bench/README.md, "wlrun"). */
	{
		long target_free = nodes_free_mib(&preferred);
		long all_free = nodes_free_mib(&mem);
		long fit = target_free / 2, over = target_free + target_free / 4;
		char var[96];

		if (fit > profiles[prof].fit_cap_mib)
			fit = profiles[prof].fit_cap_mib;
		if (over < target_free + 64)
			over = target_free + 64;
		if (over > all_free - OVER_HEADROOM_MIB)
			over = all_free - OVER_HEADROOM_MIB;
		if (fit < 4) {
			msg("%s: target nodes %s have %ld MiB free: too little to size the workload",
			    name, ids, target_free);
			return 1;
		}
		setenv_long("WL_FIT_MIB", fit);
		out_row(&key, "size_fit", (double)fit, "MiB");
		if (over > target_free && over <= OVER_CAP_MIB) {
			setenv_long("WL_OVER_MIB", over);
			out_row(&key, "size_over", (double)over, "MiB");
		} else {
			unsetenv("WL_OVER_MIB");
			if (over <= target_free)
				snprintf(skip_why, sizeof(skip_why),
					 "needs memory outside the target nodes %s (%ld MiB free there, %ld on all nodes)",
					 ids, target_free, all_free);
			else
				snprintf(skip_why, sizeof(skip_why),
					 "overflowing %s takes %ld MiB, above the cap of %d MiB",
					 ids, over, OVER_CAP_MIB);
		}
		setenv_long("WL_SECS", profiles[prof].secs);
		setenv_long("WL_LIMIT_SECS", timeout > 10 ? timeout - 5 : timeout);
		setenv("WL_SCENARIO", profile_names[prof], 1);
		snprintf(var, sizeof(var), "TIERLAB_NODES_%s", label);
		for (char *p = var; *p; p++)
			if (*p == '-')
				*p = '_';
		setenv(var, ids, 1);
		out_row(&key, "target_free", (double)target_free, "MiB");
	}

	if (skip_why[0]) {
		char *text = read_file(file, 1u << 20);

		if (!text)
			return 1;
		if (strstr(text, "${WL_OVER_MIB}")) {
			msg("SKIP %s under %s: %s", name, pol_names[pol], skip_why);
			out_row(&key, "outcome_skipped", 1, "flag");
			free(text);
			return 0;
		}
		free(text);
	}

	scratch = xasprintf("/tmp/wlrun-%s-XXXXXX", name);
	if (!mkdtemp(scratch)) {
		msg("mkdtemp %s: %s", scratch, strerror(errno));
		return 1;
	}
	atexit(remove_scratch);
	setenv("WL_DIR", scratch, 1);
	signal(SIGTERM, on_stop);
	signal(SIGINT, on_stop);
	oom_adj_self(-1000);

	cmd[nc++] = find_mpolrun();
	cmd[nc++] = "--policy";
	cmd[nc++] = (char *)pol_names[pol];
	if (pol != POL_DEFAULT) {
		cmd[nc++] = "--nodes";
		cmd[nc++] = mask_ids;
	}
	cmd[nc++] = "--";
	char *out_json = xasprintf("%s/fio.json", scratch);
	char *yaml = xasprintf("%s/stress-ng.yaml", scratch);
	char *log = xasprintf("%s/stress-ng.log", scratch);

	if (kind == WL_FIO) {
		cmd[nc++] = "fio";
		cmd[nc++] = "--output-format=json";
		cmd[nc++] = xasprintf("--output=%s", out_json);
		cmd[nc++] = file;
	} else {
		/* stress-ng 0.15 does not expand ${NAME}: expand into a copy */
		char *job = read_file(file, 1u << 20), *expanded;
		char *copy = xasprintf("%s/%s.job", scratch, name);

		if (!job)
			return 1;
		expanded = expand_vars(job, lookup_env, err, sizeof(err));
		if (!expanded) {
			msg("%s: %s", file, err);
			return 1;
		}
		if (write_file(copy, expanded))
			return 1;
		free(job);
		free(expanded);
		cmd[nc++] = "stress-ng";
		cmd[nc++] = "--job";
		cmd[nc++] = copy;
		cmd[nc++] = "--yaml";
		cmd[nc++] = yaml;
		cmd[nc++] = "--log-file";
		cmd[nc++] = log;
		cmd[nc++] = "--metrics";
	}
	cmd[nc] = NULL;

	msg("%s under %s (mask %s, case %s:%s), profile %s, timeout %d s",
	    name, pol_names[pol], pol == POL_DEFAULT ? "-" : mask_ids, label, ids,
	    profile_names[prof], timeout);
	counters_read(&before);
	if (run_workload(cmd, timeout, &key, &r))
		return 1;
	counters_read(&after);

	{
		char m[48];

		snprintf(m, sizeof(m), "outcome_%s", outcome_names[r.outcome]);
		out_row(&key, m, 1, "flag");
	}
	out_row(&key, "exit_status", r.status, "code");
	out_row(&key, "wall_secs", r.secs, "s");
	out_row(&key, "oom_kills", r.oom.kills, "count");
	if (r.oom.kills)
		out_row(&key, "oom_constraint_memory_policy", r.oom.mempolicy, "flag");
	if (r.outcome == OUT_OOM_KILLED)
		msg("%s under %s: OOM kill of %s (%s)", name, pol_names[pol],
		    r.oom.task[0] ? r.oom.task : "?",
		    r.oom.mempolicy ? "CONSTRAINT_MEMORY_POLICY" : "other constraint");
	placement_rows(&key, &before, &after, &preferred);
	if (r.outcome != OUT_TIMEOUT) {
		if (kind == WL_FIO) {
			if (access(out_json, R_OK) == 0)
				fio_rows(&key, out_json);
			else
				msg("fio left no %s (exit status %d)", out_json, r.status);
		} else if (access(yaml, R_OK) == 0) {
			sng_rows(&key, yaml, log);
		} else {
			msg("stress-ng left no %s (exit status %d)", yaml, r.status);
		}
	}
	counters_free(&before);
	counters_free(&after);
	fflush(stdout);
	return 0;
}
