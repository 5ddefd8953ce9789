// SPDX-License-Identifier: GPL-2.0
/*
 * What the guest says about itself: memory and CPU nodes, per-node meminfo,
 * HMAT access figures, numastat/vmstat counters; and the knobs a benchmark
 * changes (sysctls, hugepage pools), saved on first write and restored at
 * exit -- also from the SIGALRM/SIGTERM path, so only async-signal-safe
 * calls are used in knobs_restore().
 */
#include "tb.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NODE_DIR "/sys/devices/system/node"

static void read_nodelist(const char *path, struct nodeset *out)
{
	char buf[512], err[96];
	FILE *f = fopen(path, "r");

	ns_clear(out);
	if (!f) {
		msg("%s: %s; assuming node 0 only", path, strerror(errno));
		ns_set(out, 0);
		return;
	}
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	if (!buf[0])
		return;		/* e.g. no CPU node at all */
	if (ns_parse(buf, out, err, sizeof(err))) {
		msg("%s: %s; assuming node 0 only", path, err);
		ns_set(out, 0);
	}
}

int read_cpulist(const char *path, struct nodeset *out, char *err, size_t errlen)
{
	char *line = NULL, why[96];
	size_t cap = 0;
	FILE *f = fopen(path, "r");
	int rc = -1;

	ns_clear(out);
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (getline(&line, &cap, f) < 0) {
		snprintf(err, errlen, "%s: empty", path);
	} else {
		line[strcspn(line, "\n")] = 0;
		if (!line[0])
			rc = 0;		/* an empty list */
		else if (ns_parse(line, out, why, sizeof(why)))
			snprintf(err, errlen, "%s: \"%.40s\": %s", path, line, why);
		else
			rc = 0;
	}
	free(line);
	fclose(f);
	return rc;
}

void mem_nodes(struct nodeset *out)
{
	static struct nodeset cache;
	static bool have;

	if (!have) {
		read_nodelist(NODE_DIR "/has_memory", &cache);
		have = true;
	}
	*out = cache;
}

void cpu_nodes(struct nodeset *out)
{
	read_nodelist(NODE_DIR "/has_cpu", out);
}

int node_of_cpu(int cpu)
{
	char path[128];

	for (int n = 0; n < NODESET_MAX; n++) {
		snprintf(path, sizeof(path), NODE_DIR "/node%d/cpu%d", n, cpu);
		if (access(path, F_OK) == 0)
			return n;
	}
	return 0;
}

/* The SLIT distance from @from to @to (nodeN/distance), or -1 if unknown. */
int node_distance(int from, int to)
{
	char path[128];
	int d = -1, v;
	FILE *f;

	snprintf(path, sizeof(path), NODE_DIR "/node%d/distance", from);
	f = fopen(path, "r");
	if (!f)
		return -1;
	for (int i = 0; i <= to && fscanf(f, "%d", &v) == 1; i++)
		if (i == to)
			d = v;
	fclose(f);
	return d;
}

/* The lowest-numbered CPU of @node (nodeN/cpulist), or -1 if it has none. */
int node_first_cpu(int node)
{
	char path[128], buf[512], err[96];
	struct nodeset cpus;	/* a CPU list parses like a node list */
	FILE *f;

	snprintf(path, sizeof(path), NODE_DIR "/node%d/cpulist", node);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	if (!buf[0] || ns_parse(buf, &cpus, err, sizeof(err)))
		return -1;
	return ns_first(&cpus);
}

/*
 * The sum over @node's populated zones of one watermark ("min", "low" or
 * "high", boost included, as /proc/zoneinfo prints them), in KiB; -1 if
 * unknown.  With THP the kernel raises min_free_kbytes to up to 5 % of
 * memory, so on a small node the watermarks are tens of MiB: a "full" node
 * is one below them.
 */
long node_wmark_kib(int node, const char *which)
{
	char line[256], key[32];
	long sum = -1, pages = 0, v;
	int in_node = 0, n;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f) {
		msg("/proc/zoneinfo: %s", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d, zone %31s", &n, key) == 2) {
			in_node = n == node;
			pages = 0;
			continue;
		}
		if (!in_node || sscanf(line, " %31s %ld", key, &v) != 2)
			continue;
		if (!strcmp(key, which))
			pages = v;
		/* "managed" follows the watermarks: count populated zones only */
		if (!strcmp(key, "managed") && v > 0 && pages > 0)
			sum = (sum < 0 ? 0 : sum) + pages * (getpagesize() / 1024);
	}
	fclose(f);
	return sum;
}

int node_zones(int node)
{
	char line[256], zone[32];
	int in_node = 0, n, zones = 0;
	long v;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f) {
		msg("/proc/zoneinfo: %s", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d, zone %31s", &n, zone) == 2) {
			in_node = n == node;
			continue;
		}
		if (in_node && sscanf(line, " managed %ld", &v) == 1 && v > 0)
			zones++;
	}
	fclose(f);
	return zones;
}

long node_pcp_kib(int node)
{
	char line[256];
	long sum = 0, v;
	int in_node = 0, n;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f) {
		msg("/proc/zoneinfo: %s", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char zone[32];

		if (sscanf(line, "Node %d, zone %31s", &n, zone) == 2) {
			in_node = n == node;
			continue;
		}
		/* "              count: 12" under "pagesets", one per CPU */
		if (in_node && sscanf(line, " count: %ld", &v) == 1)
			sum += v * (getpagesize() / 1024);
	}
	fclose(f);
	return sum;
}

/* One "name value" counter of a vmstat-style file, -1 if absent; @say: a missing file is said. */
static long long stat_file_get(const char *path, const char *name, bool say)
{
	char line[128], key[64];
	long long v, got = -1;
	FILE *f = fopen(path, "r");

	if (!f) {
		if (say)
			msg("%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %lld", key, &v) == 2 && !strcmp(key, name)) {
			got = v;
			break;
		}
	fclose(f);
	return got;
}

long long vmstat_get(const char *name)
{
	return stat_file_get("/proc/vmstat", name, true);
}

long long node_vmstat_get(int node, const char *name)
{
	char path[96];

	snprintf(path, sizeof(path), NODE_DIR "/node%d/vmstat", node);
	return stat_file_get(path, name, false);
}

long long vmstat_delta(const char *name, long long before)
{
	long long now = vmstat_get(name);

	return now < 0 || before < 0 ? -1 : now - before;
}

long node_meminfo_kib(int node, const char *field)
{
	char path[128], line[256], key[64];
	long val = -1;
	FILE *f;

	snprintf(path, sizeof(path), NODE_DIR "/node%d/meminfo", node);
	f = fopen(path, "r");
	if (!f) {
		msg("%s: %s", path, strerror(errno));
		return -1;
	}
	snprintf(key, sizeof(key), "%s:", field);
	while (fgets(line, sizeof(line), f)) {
		int n;
		char name[64];
		long v;

		/* "Node 1 MemFree:          1234 kB" */
		if (sscanf(line, "Node %d %63s %ld", &n, name, &v) == 3 &&
		    strcmp(name, key) == 0) {
			val = v;
			break;
		}
	}
	fclose(f);
	return val;
}

static long nodes_sum_mib(const struct nodeset *ns, const char *field)
{
	long sum = 0;

	ns_for_each(n, ns) {
		long k = node_meminfo_kib(n, field);

		if (k > 0)
			sum += k;
	}
	return sum / 1024;
}

long nodes_free_mib(const struct nodeset *ns)
{
	return nodes_sum_mib(ns, "MemFree");
}

long nodes_total_mib(const struct nodeset *ns)
{
	return nodes_sum_mib(ns, "MemTotal");
}

static int read_long_file(const char *path, long *val)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fscanf(f, "%ld", val) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

long hmat_value(int node, const char *name)
{
	char path[160];
	long v;

	snprintf(path, sizeof(path), NODE_DIR "/node%d/access0/initiators/%s",
		 node, name);
	return read_long_file(path, &v) ? -1 : v;
}

long node_memside_cache_bytes(int node)
{
	char path[160];
	long v;

	snprintf(path, sizeof(path), NODE_DIR "/node%d/memory_side_cache/index1/size", node);
	return read_long_file(path, &v) || v <= 0 ? -1 : v;
}

bool hmat_present(void)
{
	struct nodeset ns;

	mem_nodes(&ns);
	ns_for_each(n, &ns)
		if (hmat_value(n, "read_latency") > 0)
			return true;
	return false;
}

bool hugetlb_present(void)
{
	return access("/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages",
		      W_OK) == 0;
}

const char *thp_mode(char *buf, size_t len)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char line[128], *l, *r;

	if (!f)
		return NULL;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	/* "always [madvise] never" */
	l = strchr(line, '[');
	r = l ? strchr(l, ']') : NULL;
	if (!r)
		return NULL;
	snprintf(buf, len, "%.*s", (int)(r - l - 1), l + 1);
	return buf;
}

/* ---- counters ---- */

int write_str(const char *path, const char *s, size_t len)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	ssize_t w;

	if (fd < 0)
		return -1;
	w = write(fd, s, len);
	close(fd);
	return w == (ssize_t)len ? 0 : -1;
}


static void counters_add(struct counters *c, const char *name, long long v)
{
	if (c->nnames == c->cap) {
		int cap = c->cap ? 2 * c->cap : 64;
		void *nn = realloc(c->names, (size_t)cap * sizeof(*c->names));
		void *nv;

		if (!nn) {
			msg("counters: out of memory at %d names", c->nnames);
			return;
		}
		c->names = nn;
		nv = realloc(c->vals, (size_t)cap * sizeof(*c->vals));
		if (!nv) {
			msg("counters: out of memory at %d names", c->nnames);
			return;
		}
		c->vals = nv;
		c->cap = cap;
	}
	snprintf(c->names[c->nnames], sizeof(c->names[0]), "%s", name);
	c->vals[c->nnames++] = v;
}

/*
 * vmstat: every numa_* and mpol_* counter (the kernel series adds mpol_*;
 * read whatever exists).  numastat per memory node as "node<N>.<name>".
 * The series' mpol_* are node stats, which CPUs update in per-CPU deltas
 * folded in only past a threshold: writing vm.stat_refresh folds them first,
 * so that a difference of two reads is exact.
 */
void counters_read(struct counters *c)
{
	char line[256], name[96], path[128];
	struct nodeset ns;
	long long v;
	FILE *f;

	memset(c, 0, sizeof(*c));
	if (write_str("/proc/sys/vm/stat_refresh", "1\n", 2) && errno != ENOENT) {
		static bool said;

		if (!said)
			msg("/proc/sys/vm/stat_refresh: %s; mpol_* may lag by per-CPU deltas",
			    strerror(errno));
		said = true;
	}
	f = fopen("/proc/vmstat", "r");
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "%40s %lld", name, &v) == 2 &&
			    (!strncmp(name, "numa_", 5) || !strncmp(name, "mpol_", 5)))
				counters_add(c, name, v);
		fclose(f);
	} else {
		msg("/proc/vmstat: %s", strerror(errno));
	}
	mem_nodes(&ns);
	ns_for_each(n, &ns) {
		snprintf(path, sizeof(path), NODE_DIR "/node%d/numastat", n);
		f = fopen(path, "r");
		if (!f) {
			msg("%s: %s", path, strerror(errno));
			continue;
		}
		while (fgets(line, sizeof(line), f)) {
			char key[32], full[48];

			if (sscanf(line, "%31s %lld", key, &v) != 2)
				continue;
			snprintf(full, sizeof(full), "node%d.%s", n, key);
			counters_add(c, full, v);
		}
		fclose(f);
		/* the series' per-node counters (where a page came from) */
		snprintf(path, sizeof(path), NODE_DIR "/node%d/vmstat", n);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			char key[40], full[56];

			if (sscanf(line, "%39s %lld", key, &v) != 2 || strncmp(key, "mpol_", 5))
				continue;
			snprintf(full, sizeof(full), "node%d.%s", n, key);
			counters_add(c, full, v);
		}
		fclose(f);
	}
}

/*
 * One row vmstat_<name>_delta per vmstat counter of @b whose name starts
 * with @prefix (all of them when NULL); per-node numastat entries are left
 * to the caller.  A counter missing before is NaN.
 */
void counter_delta_rows(const struct rowkey *k, const struct counters *a,
			const struct counters *b, const char *prefix)
{
	char metric[96];

	for (int i = 0; i < b->nnames; i++) {
		long long before = counters_get(a, b->names[i]);

		if (strchr(b->names[i], '.') ||
		    (prefix && strncmp(b->names[i], prefix, strlen(prefix))))
			continue;
		snprintf(metric, sizeof(metric), "vmstat_%s_delta", b->names[i]);
		out_row(k, metric, before < 0 ? NAN : (double)(b->vals[i] - before), "count");
	}
}

void counters_free(struct counters *c)
{
	free(c->names);
	free(c->vals);
	memset(c, 0, sizeof(*c));
}

long long counters_get(const struct counters *c, const char *name)
{
	for (int i = 0; i < c->nnames; i++)
		if (!strcmp(c->names[i], name))
			return c->vals[i];
	return -1;
}

/* ---- knobs ---- */

#define MAX_KNOBS 64
static struct knob {
	char path[128];
	char old[32];
	int oldlen;
} knobs[MAX_KNOBS];
static volatile int nknobs;

int knob_read_long(const char *path, long *val)
{
	if (read_long_file(path, val)) {
		msg("%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int knob_save(const char *path)
{
	int i, fd;
	ssize_t got;

	for (i = 0; i < nknobs; i++)
		if (!strcmp(knobs[i].path, path))
			return 0;
	if (nknobs == MAX_KNOBS) {
		msg("%s: too many knobs changed (%d)", path, MAX_KNOBS);
		return -1;
	}
	fd = open(path, O_RDONLY);
	got = fd < 0 ? -1 : read(fd, knobs[i].old, sizeof(knobs[i].old));
	if (fd >= 0)
		close(fd);
	if (got <= 0 || got == (ssize_t)sizeof(knobs[i].old)) {
		msg("%s: cannot read the value to restore: %s", path,
		    got < 0 ? strerror(errno) : got ? "too long" : "empty");
		return -1;
	}
	snprintf(knobs[i].path, sizeof(knobs[i].path), "%s", path);
	knobs[i].oldlen = (int)got;
	nknobs = i + 1;
	return 0;
}

int knob_save_write_str(const char *path, const char *val)
{
	if (knob_save(path))
		return -1;
	if (write_str(path, val, strlen(val))) {
		msg("%s: cannot write '%s': %s", path, val, strerror(errno));
		return -1;
	}
	return 0;
}

int knob_save_write(const char *path, long val)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld\n", val);
	return knob_save_write_str(path, buf);
}

static const struct needs *declared;

void sysctls_declared(const struct needs *n)
{
	declared = n;
}

int sysctl_save_write(const char *name, long val)
{
	char path[128];

	if (!declared || !needs_declares(declared, name)) {
		msg("sysctl %s: not declared in the benchmark's needs (bench/needs.h), not changed",
		    name);
		return -1;
	}
	if (sysctl_path(name, path, sizeof(path))) {
		msg("sysctl %s: not a sysctl name", name);
		return -1;
	}
	return knob_save_write(path, val);
}

/* Last changed first, so nested changes unwind in order. */
void knobs_restore(void)
{
	while (nknobs > 0) {
		struct knob *k = &knobs[--nknobs];

		if (write_str(k->path, k->old, (size_t)k->oldlen)) {
			static const char m[] = "tierbench: could not restore a knob\n";

			if (write(2, m, sizeof(m) - 1) < 0)
				break;
		}
	}
}

int hugetlb_reserve(int node, long pages, long *got)
{
	char path[160];

	snprintf(path, sizeof(path),
		 NODE_DIR "/node%d/hugepages/hugepages-2048kB/nr_hugepages", node);
	if (knob_save_write(path, pages))
		return -1;
	return knob_read_long(path, got);
}

void oom_adj_self(int adj)
{
	char buf[16];
	int fd = open("/proc/self/oom_score_adj", O_WRONLY);
	int len = snprintf(buf, sizeof(buf), "%d\n", adj);

	if (fd < 0 || write(fd, buf, (size_t)len) != len)
		msg("/proc/self/oom_score_adj <- %d: %s", adj, strerror(errno));
	if (fd >= 0)
		close(fd);
}

int pcp_drain(const struct nodeset *ns, long max_kib)
{
	for (int i = 0; i < 64; i++) {
		bool small = true;

		ns_for_each(n, ns) {
			long kib = node_pcp_kib(n);

			if (kib < 0)
				return -1;
			if (kib > max_kib)
				small = false;
		}
		if (small)
			return 0;
		/*
		 * Each write runs refresh_cpu_vm_stats() on every CPU: it decays
		 * the lists' high mark by an eighth and frees what is above it,
		 * and drains a CPU's list of a remote node after three calls.
		 */
		if (write_str("/proc/sys/vm/stat_refresh", "1\n", 2))
			return -1;
	}
	return -1;
}

int pcp_drain_small(const struct nodeset *ns, long max_kib)
{
	char path[128], now[32];
	long cur;
	int rc;

	if (sysctl_path(PCP_HIGH_SYSCTL, path, sizeof(path)) || knob_read_long(path, &cur))
		return -1;
	/* saved first, so an exit or a timeout in between restores it */
	if (sysctl_save_write(PCP_HIGH_SYSCTL, 1L << 20))
		return -1;
	rc = pcp_drain(ns, max_kib) ? 1 : 0;
	snprintf(now, sizeof(now), "%ld\n", cur);
	if (write_str(path, now, strlen(now))) {
		msg("%s: cannot write '%ld' back: %s", path, cur, strerror(errno));
		return -1;
	}
	return rc;
}

long vmstat_meminfo_kib(const char *field)
{
	char line[128], key[64];
	long v, got = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f) {
		msg("/proc/meminfo: %s", strerror(errno));
		return -1;
	}
	snprintf(key, sizeof(key), "%s:", field);
	while (fgets(line, sizeof(line), f)) {
		char name[64];

		if (sscanf(line, "%63s %ld", name, &v) == 2 && !strcmp(name, key)) {
			got = v;
			break;
		}
	}
	fclose(f);
	return got;
}

int node_unreclaimable(int node)
{
	char line[256], key[32];
	int in_node = 0, n, got = -1;
	long v;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f) {
		msg("/proc/zoneinfo: %s", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d, zone %31s", &n, key) == 2) {
			in_node = n == node;
			continue;
		}
		/* the per-node stats, printed under the node's first populated zone */
		if (in_node && sscanf(line, " %31s %ld", key, &v) == 2 &&
		    !strcmp(key, "node_unreclaimable:")) {
			got = v != 0;
			break;
		}
	}
	fclose(f);
	return got;
}
