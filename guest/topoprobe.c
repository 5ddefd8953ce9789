// SPDX-License-Identifier: GPL-2.0
/*
 * topoprobe: the guest's view of its NUMA machine, one line per node:
 *
 *   TOPO node=1 cpus=- mem_mib=1000 read_latency_ns=305 write_latency_ns=94
 *        read_bandwidth_mbps=39400 write_bandwidth_mbps=13900 tier=31
 *        distances=17+10 cache_size=268435456 zone=movable
 *
 * (one line; wrapped here).  Values never contain spaces or commas: lists
 * use '+', a missing value is '-'.  labtool check-guest compares these with
 * the topology file.  Static, libc only; reads sysfs and /proc/zoneinfo.
 *
 * topoprobe --online-movable: onlines every offline memory block
 * ZONE_MOVABLE (what daxctl online-memory --movable or a udev rule does for
 * dax/kmem memory) and says how many it onlined; the plan's first step on a
 * topology with movable nodes, whose hot-added DIMMs the kernel leaves
 * offline (lab/boot/qemu.c says why).  Exit 1 naming the block that failed.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NODE_DIR "/sys/devices/system/node"
#define TIER_DIR "/sys/devices/virtual/memory_tiering"
#define MEMORY_DIR "/sys/devices/system/memory"
#define ZONEINFO "/proc/zoneinfo"
#define MAX_NODES 64
#define VAL 512

/* First line of a file, without the newline; -1 if unreadable or empty. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* Makes a value safe for a k=v token: separators become '+', none is '-'. */
static void token(char *s)
{
	char *w = s;
	int sep = 0;

	for (char *r = s; *r; r++) {
		if (*r == ',' || *r == ' ' || *r == '\t') {
			sep = w != s;
			continue;
		}
		if (sep)
			*w++ = '+';
		sep = 0;
		*w++ = *r;
	}
	*w = 0;
	if (!*s)
		strcpy(s, "-");
}

static void sysfs_value(const char *path, char *out, size_t len)
{
	if (read_line(path, out, len))
		snprintf(out, len, "-");
	token(out);
}

static void mem_mib(int node, char *out, size_t len)
{
	char path[96], line[256];
	FILE *f;

	snprintf(out, len, "-");
	snprintf(path, sizeof(path), NODE_DIR "/node%d/meminfo", node);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long kb;
		int n;

		/* "Node 0 MemTotal:       1012345 kB" */
		if (sscanf(line, "Node %d MemTotal: %llu kB", &n, &kb) == 2) {
			snprintf(out, len, "%llu", kb / 1024);
			break;
		}
	}
	fclose(f);
}

/* True if node is in a kernel node list such as "0-1,3". */
static int in_list(const char *list, int node)
{
	const char *s = list;

	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s)
			return 0;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			s = end;
		}
		if (node >= a && node <= b)
			return 1;
		if (*s == ',')
			s++;
		else
			break;
	}
	return 0;
}

static void tier_of(int node, char *out, size_t len)
{
	DIR *d = opendir(TIER_DIR);
	struct dirent *e;

	snprintf(out, len, "-");
	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[320], list[VAL];
		int id;

		if (sscanf(e->d_name, "memory_tier%d", &id) != 1)
			continue;
		snprintf(path, sizeof(path), TIER_DIR "/%s/nodelist", e->d_name);
		if (!read_line(path, list, sizeof(list)) && in_list(list, node)) {
			snprintf(out, len, "%d", id);
			break;
		}
	}
	closedir(d);
}

/* Memory-side cache sizes in bytes, by level: "268435456" or "a+b". */
static void cache_sizes(int node, char *out, size_t len)
{
	size_t o = 0;

	out[0] = 0;
	for (int level = 1; level <= 3 && o < len; level++) {
		char path[128], v[64];

		snprintf(path, sizeof(path),
			 NODE_DIR "/node%d/memory_side_cache/index%d/size", node, level);
		if (read_line(path, v, sizeof(v)))
			break;
		token(v);
		o += (size_t)snprintf(out + o, len - o, "%s%s", o ? "+" : "", v);
	}
	if (!out[0])
		snprintf(out, len, "-");
}

/*
 * The node's zones from /proc/zoneinfo: "movable" when its present pages
 * are all in ZONE_MOVABLE, "normal" when none are (DMA, DMA32, Normal),
 * "mixed" when both, "-" without present pages or without zoneinfo.
 */
static void zone_of(int node, char *out, size_t len)
{
	FILE *f = fopen(ZONEINFO, "r");
	unsigned long long movable = 0, other = 0;
	char line[256];
	int cur = -1, is_movable = 0;

	snprintf(out, len, "-");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char zone[32];
		unsigned long long v;
		int n;

		/* "Node 1, zone  Movable" ... "        present  262144" */
		if (sscanf(line, "Node %d, zone %31s", &n, zone) == 2) {
			cur = n;
			is_movable = !strcmp(zone, "Movable");
		} else if (cur == node && sscanf(line, " present %llu", &v) == 1) {
			if (is_movable)
				movable += v;
			else
				other += v;
		}
	}
	fclose(f);
	if (movable || other)
		snprintf(out, len, "%s", !other ? "movable" : !movable ? "normal" : "mixed");
}

/* topoprobe --online-movable: see the top of the file. */
static int online_movable(void)
{
	DIR *d = opendir(MEMORY_DIR);
	struct dirent *e;
	int n = 0, bad = 0;

	if (!d) {
		fprintf(stderr, "topoprobe: %s: %s\n", MEMORY_DIR, strerror(errno));
		return 1;
	}
	while ((e = readdir(d))) {
		char path[320], state[32];
		FILE *f;

		if (strncmp(e->d_name, "memory", 6) || e->d_name[6] < '0' || e->d_name[6] > '9')
			continue;
		snprintf(path, sizeof(path), MEMORY_DIR "/%s/state", e->d_name);
		if (read_line(path, state, sizeof(state))) {
			fprintf(stderr, "topoprobe: %s: cannot read: %s\n", path, strerror(errno));
			bad++;
			continue;
		}
		if (strcmp(state, "offline"))
			continue;
		f = fopen(path, "w");
		if (f) {
			/* the write reaches the kernel, and fails, at fclose */
			int wrote = fputs("online_movable", f) >= 0, err = errno;

			if (fclose(f))
				wrote = 0, err = errno;
			errno = err;
			if (wrote) {
				n++;
				continue;
			}
		}
		fprintf(stderr, "topoprobe: %s: online_movable: %s\n", path, strerror(errno));
		bad++;
	}
	closedir(d);
	printf("topoprobe: onlined %d memory blocks movable%s\n", n, bad ? ", some failed" : "");
	if (fflush(stdout) || ferror(stdout))
		return 1;
	return bad ? 1 : 0;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int main(int argc, char **argv)
{
	DIR *d;
	struct dirent *e;
	int nodes[MAX_NODES], n = 0;

	if (argc == 2 && !strcmp(argv[1], "--online-movable"))
		return online_movable();
	if (argc > 1) {
		fprintf(stderr, "usage: topoprobe [--online-movable]\n");
		return 2;
	}
	d = opendir(NODE_DIR);
	if (!d) {
		perror(NODE_DIR);
		return 1;
	}
	while ((e = readdir(d)) && n < MAX_NODES) {
		char *end;
		long id;

		if (strncmp(e->d_name, "node", 4) || !e->d_name[4])
			continue;
		id = strtol(e->d_name + 4, &end, 10);
		if (!*end && id >= 0)
			nodes[n++] = (int)id;
	}
	closedir(d);
	qsort(nodes, (size_t)n, sizeof(nodes[0]), cmp_int);
	for (int i = 0; i < n; i++) {
		static const char *const perf[4] = { "read_latency", "write_latency",
			"read_bandwidth", "write_bandwidth" };
		static const char *const key[4] = { "read_latency_ns", "write_latency_ns",
			"read_bandwidth_mbps", "write_bandwidth_mbps" };
		char path[160], cpus[VAL], mem[32], v[4][64], tier[16], dist[VAL], cache[VAL], zone[16];
		int id = nodes[i];

		snprintf(path, sizeof(path), NODE_DIR "/node%d/cpulist", id);
		sysfs_value(path, cpus, sizeof(cpus));
		mem_mib(id, mem, sizeof(mem));
		for (int k = 0; k < 4; k++) {
			snprintf(path, sizeof(path),
				 NODE_DIR "/node%d/access0/initiators/%s", id, perf[k]);
			sysfs_value(path, v[k], sizeof(v[k]));
		}
		tier_of(id, tier, sizeof(tier));
		snprintf(path, sizeof(path), NODE_DIR "/node%d/distance", id);
		sysfs_value(path, dist, sizeof(dist));
		cache_sizes(id, cache, sizeof(cache));
		zone_of(id, zone, sizeof(zone));
		printf("TOPO node=%d cpus=%s mem_mib=%s", id, cpus, mem);
		for (int k = 0; k < 4; k++)
			printf(" %s=%s", key[k], v[k]);
		printf(" tier=%s distances=%s cache_size=%s zone=%s\n", tier, dist, cache, zone);
	}
	if (fflush(stdout) || ferror(stdout)) {
		perror("topoprobe: stdout");
		return 1;
	}
	return 0;
}
