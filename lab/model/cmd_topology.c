// SPDX-License-Identifier: GPL-2.0
/*
 * labtool's topology commands: validate, qemu-args, nodes, describe,
 * expect and check-guest.  All of them read the file through topo_load(),
 * so nothing downstream ever sees an unvalidated machine.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "qemu.h"
#include "textfile.h"

/*
 * Loads argv's TOPOLOGY (after the options) and leaves the other
 * positionals in pos[].  Options: --max-mem SIZE, --all (flag for expect).
 */
struct opts {
	uint64_t max_mem;
	bool all;
	bool no_prealloc;	/* qemu-args --no-prealloc */
	const char *release;	/* check-guest --kernel-release */
	const char *pos[4];
	int npos;
};

static int parse_opts(int argc, char **argv, int want, const char *usage,
		      struct opts *o)
{
	memset(o, 0, sizeof(*o));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--max-mem") || !strncmp(a, "--max-mem=", 10)) {
			const char *v = a[9] == '=' ? a + 10 : (i + 1 < argc ? argv[++i] : "");

			if (topo_parse_size(v, &o->max_mem) || !o->max_mem) {
				fprintf(stderr, "labtool %s: --max-mem needs a size such as 8G\n",
					argv[0]);
				return EXIT_USAGE;
			}
		} else if (!strcmp(a, "--all") && !strcmp(argv[0], "expect")) {
			o->all = true;
		} else if (!strcmp(a, "--no-prealloc") && !strcmp(argv[0], "qemu-args")) {
			o->no_prealloc = true;
		} else if (!strcmp(a, "--kernel-release") && !strcmp(argv[0], "check-guest") &&
			   i + 1 < argc) {
			o->release = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "labtool %s: unknown option '%s'\nusage: labtool %s %s\n",
				argv[0], a, argv[0], usage);
			return EXIT_USAGE;
		} else if (o->npos < 4) {
			o->pos[o->npos++] = a;
		} else {
			o->npos++;
		}
	}
	if (o->npos != want) {
		fprintf(stderr, "usage: labtool %s %s\n", argv[0], usage);
		return EXIT_USAGE;
	}
	return 0;
}

static int load(int argc, char **argv, int want, const char *usage,
		struct opts *o, struct topo *t)
{
	int rc = parse_opts(argc, argv, want, usage, o);

	if (rc)
		return rc;
	return topo_load_limit(o->pos[0], o->max_mem, t, stderr);
}

static int finish(void)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "labtool: cannot write output: %s\n", strerror(errno));
		return EXIT_IOERR;
	}
	return 0;
}

int cmd_validate(int argc, char **argv)
{
	struct opts o;
	struct topo *t = xmalloc(sizeof(*t));
	int rc;

	rc = load(argc, argv, 1, "[--max-mem SIZE] TOPOLOGY.yaml", &o, t);
	if (!rc) {
		char sz[32];

		topo_format_size(topo_total_mem(t), sz, sizeof(sz));
		printf("%s: ok: %s, %d nodes, %d cpus, %s\n", o.pos[0], t->name,
		       t->nnodes, t->ncpus, sz);
		rc = finish();
	}
	free(t);
	return rc;
}

int cmd_qemu_args(int argc, char **argv)
{
	struct opts o;
	struct topo_args a;
	struct topo *t = xmalloc(sizeof(*t));
	int rc;

	rc = load(argc, argv, 1, "[--max-mem SIZE] [--no-prealloc] TOPOLOGY.yaml", &o, t);
	if (!rc && qemu_machine_args(t, o.no_prealloc, &a)) {
		fprintf(stderr, "labtool qemu-args: out of memory\n");
		rc = EXIT_SOFTWARE;
	} else if (!rc) {
		for (size_t i = 0; i < a.n; i++)
			puts(a.v[i]);
		topo_args_free(&a);
		rc = finish();
	}
	free(t);
	return rc;
}

/*
 * SPEC is a list of words joined by ',' or '+': a kind (dram, pmem, hbm,
 * cxl), all, cpu (nodes with CPUs), cpuless, or a node id.
 */
static int select_nodes(const struct topo *t, const char *spec, uint32_t *out)
{
	uint32_t set = 0;
	const char *s = spec;

	if (!*s)
		goto bad;
	while (*s) {
		size_t n = strcspn(s, ",+");
		char word[16];
		bool found = false;

		if (!n || n >= sizeof(word))
			goto bad;
		memcpy(word, s, n);
		word[n] = 0;
		s += n;
		if (*s && !*++s)
			goto bad;
		for (int k = 0; k < TOPO_KIND_NR; k++)
			if (!strcmp(word, topo_kind_names[k])) {
				found = true;
				for (int i = 0; i < t->nnodes; i++)
					if ((int)t->node[i].kind == k && t->node[i].mem_bytes)
						set |= 1U << i;
			}
		if (found)
			continue;
		if (!strcmp(word, "all") || !strcmp(word, "cpu") || !strcmp(word, "cpuless")) {
			for (int i = 0; i < t->nnodes; i++)
				if (word[0] == 'a' || (word[3] == 0) == (t->node[i].cpus != 0))
					set |= 1U << i;
			continue;
		}
		if (strspn(word, "0123456789") == n) {
			long id = strtol(word, NULL, 10);

			if (id >= t->nnodes) {
				fprintf(stderr, "labtool nodes: node %ld is not in %s "
					"(nodes 0-%d)\n", id, t->name, t->nnodes - 1);
				return EXIT_USAGE;
			}
			set |= 1U << id;
			continue;
		}
		fprintf(stderr, "labtool nodes: unknown node selector '%s' (a kind: "
			"dram, pmem, hbm, cxl; all, cpu, cpuless; or node ids)\n", word);
		return EXIT_USAGE;
	}
	*out = set;
	return 0;
bad:
	fprintf(stderr, "labtool nodes: bad node list '%s'\n", spec);
	return EXIT_USAGE;
}

int cmd_nodes(int argc, char **argv)
{
	struct opts o;
	struct topo *t = xmalloc(sizeof(*t));
	uint32_t set = 0;
	int rc;

	rc = load(argc, argv, 2, "TOPOLOGY.yaml KIND|LIST", &o, t);
	if (!rc)
		rc = select_nodes(t, o.pos[1], &set);
	if (!rc) {
		const char *sep = "";

		for (int i = 0; i < t->nnodes; i++)
			if (set >> i & 1) {
				printf("%s%d", sep, i);
				sep = ",";
			}
		putchar('\n');
		rc = finish();
	}
	free(t);
	return rc;
}

int cmd_describe(int argc, char **argv)
{
	struct opts o;
	struct topo *t = xmalloc(sizeof(*t));
	int rc;

	rc = load(argc, argv, 1, "TOPOLOGY.yaml", &o, t);
	if (!rc) {
		char buf[TOPO_MAX_CPUS * 8];

		printf("name=%s\n", t->name);
		printf("description=%s\n", t->description);
		printf("cpus=%d\n", t->ncpus);
		printf("nnodes=%d\n", t->nnodes);
		printf("total_mem_mib=%llu\n",
		       (unsigned long long)(topo_total_mem(t) >> 20));
		for (int k = 0; k < TOPO_KIND_NR; k++) {
			const char *sep = "";

			printf("nodes_%s=", topo_kind_names[k]);
			for (int i = 0; i < t->nnodes; i++)
				if ((int)t->node[i].kind == k && t->node[i].mem_bytes) {
					printf("%s%d", sep, i);
					sep = "+";
				}
			putchar('\n');
		}
		for (int i = 0; i < t->nnodes; i++) {
			const struct topo_node *n = &t->node[i];

			topo_format_cpus(n->cpus, buf, sizeof(buf));
			printf("node%d.kind=%s\n", i, topo_kind_names[n->kind]);
			printf("node%d.mem_mib=%llu\n", i,
			       (unsigned long long)(n->mem_bytes >> 20));
			printf("node%d.cpus=%s\n", i, buf);
			printf("node%d.initiator=%d\n", i, n->initiator);
			printf("node%d.hugetlb_pages=%u\n", i, n->hugetlb_pages);
			printf("node%d.zone=%s\n", i, n->mem_bytes ? topo_zone_names[n->zone] : "-");
		}
		rc = finish();
	}
	free(t);
	return rc;
}

/* ---- the guest view -------------------------------------------------- */

#define COLUMNS(X) X(node) X(cpus) X(mem_mib) X(read_latency_ns) \
	X(write_latency_ns) X(read_bandwidth_mbps) X(write_bandwidth_mbps) X(tier)
#define EXTRA_COLUMNS(X) X(distances) X(cache_size) X(zone)
enum col {
#define X(c) COL_##c,
	COLUMNS(X) EXTRA_COLUMNS(X)
#undef X
	COL_NR
};
static const char *const col_names[COL_NR] = {
#define X(c) #c,
	COLUMNS(X) EXTRA_COLUMNS(X)
#undef X
};
#define NREQUIRED COL_distances

struct view {
	char v[COL_NR][256];
};

static void u32_or_dash(char *buf, size_t len, bool have, uint32_t v)
{
	if (have)
		snprintf(buf, len, "%u", v);
	else
		snprintf(buf, len, "-");
}

/* What the file promises for node i, in the guest CSV's spelling. */
static void expected_view(const struct topo *t, int i, struct view *w)
{
	const struct topo_perf *p = topo_node_perf(t, i);
	const struct topo_node *n = &t->node[i];
	int tier = topo_expected_tier(t, i);
	size_t o = 0;

	snprintf(w->v[COL_node], sizeof(w->v[0]), "%d", i);
	topo_format_cpus(n->cpus, w->v[COL_cpus], sizeof(w->v[0]));
	snprintf(w->v[COL_mem_mib], sizeof(w->v[0]), "%llu",
		 (unsigned long long)(n->mem_bytes >> 20));
	u32_or_dash(w->v[COL_read_latency_ns], sizeof(w->v[0]), p, p ? p->read_latency_ns : 0);
	u32_or_dash(w->v[COL_write_latency_ns], sizeof(w->v[0]), p, p ? p->write_latency_ns : 0);
	u32_or_dash(w->v[COL_read_bandwidth_mbps], sizeof(w->v[0]), p,
		    p ? p->read_bandwidth_mbps : 0);
	u32_or_dash(w->v[COL_write_bandwidth_mbps], sizeof(w->v[0]), p,
		    p ? p->write_bandwidth_mbps : 0);
	u32_or_dash(w->v[COL_tier], sizeof(w->v[0]), tier >= 0, (uint32_t)tier);
	w->v[COL_distances][0] = 0;
	for (int j = 0; j < t->nnodes && o < sizeof(w->v[0]); j++)
		o += (size_t)snprintf(w->v[COL_distances] + o, sizeof(w->v[0]) - o,
				      "%s%d", j ? "+" : "", t->distance[i][j]);
	snprintf(w->v[COL_zone], sizeof(w->v[0]), "%s",
		 n->mem_bytes ? topo_zone_names[n->zone] : "-");
	o = 0;
	snprintf(w->v[COL_cache_size], sizeof(w->v[0]), "-");
	for (int k = 0; k < n->ncache && o < sizeof(w->v[0]); k++)
		o += (size_t)snprintf(w->v[COL_cache_size] + o, sizeof(w->v[0]) - o,
				      "%s%llu", k ? "+" : "",
				      (unsigned long long)n->cache[k].size);
}

int cmd_expect(int argc, char **argv)
{
	struct opts o;
	struct topo *t = xmalloc(sizeof(*t));
	struct view w;
	int rc, ncol;

	rc = load(argc, argv, 1, "[--all] TOPOLOGY.yaml", &o, t);
	if (!rc) {
		ncol = o.all ? COL_NR : NREQUIRED;
		for (int c = 0; c < ncol; c++)
			printf("%s%s", c ? "," : "", col_names[c]);
		putchar('\n');
		for (int i = 0; i < t->nnodes; i++) {
			expected_view(t, i, &w);
			for (int c = 0; c < ncol; c++)
				printf("%s%s", c ? "," : "", w.v[c]);
			putchar('\n');
		}
		rc = finish();
	}
	free(t);
	return rc;
}

static bool parse_num(const char *s, long long *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return !*end && !errno;
}

struct guest {
	int ncols, col[COL_NR];		/* CSV column of each field, or -1 */
	bool have[TOPO_MAX_NODES];
	struct view row[TOPO_MAX_NODES];
};

static int split(char *line, char **f, int max)
{
	int n = 0;

	line[strcspn(line, "\r\n")] = 0;
	for (char *s = line;; s++) {
		if (n < max)
			f[n] = s;
		n++;
		s = strchr(s, ',');
		if (!s)
			break;
		*s = 0;
	}
	return n;
}

static int read_guest(const char *path, int nnodes, struct guest *g)
{
	struct textfile tf;
	char *line, *fld[32];
	unsigned long lineno = 0;
	int rc = 0;

	if (textfile_open(&tf, path) < 0) {
		fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
		return EXIT_NOINPUT;
	}
	for (int c = 0; c < COL_NR; c++)
		g->col[c] = -1;
	while ((line = textfile_next(&tf))) {
		int n;

		lineno = tf.lineno;
		if (!line[strspn(line, " \t\r\n")])
			continue;
		n = split(line, fld, 32);
		if (n > 32) {
			fprintf(stderr, "%s:%lu: more than 32 columns\n", path, lineno);
			rc = EXIT_INVALID;
			break;
		}
		if (!g->ncols) {
			g->ncols = n;
			for (int i = 0; i < n; i++)
				for (int c = 0; c < COL_NR; c++)
					if (!strcmp(fld[i], col_names[c]))
						g->col[c] = i;
			for (int c = 0; c < NREQUIRED; c++)
				if (g->col[c] < 0) {
					fprintf(stderr, "%s:%lu: header has no '%s' column\n",
						path, lineno, col_names[c]);
					rc = EXIT_INVALID;
				}
			if (rc)
				break;
			continue;
		}
		{
			long long id;
			const char *idf = fld[g->col[COL_node]];

			if (n != g->ncols) {
				fprintf(stderr, "%s:%lu: %d fields, header has %d\n",
					path, lineno, n, g->ncols);
				rc = EXIT_INVALID;
				break;
			}
			if (!parse_num(idf, &id) || id >= TOPO_MAX_NODES) {
				fprintf(stderr, "%s:%lu: node: not a node id: '%.20s'\n",
					path, lineno, idf);
				rc = EXIT_INVALID;
				break;
			}
			if (g->have[id]) {
				fprintf(stderr, "%s:%lu: node %lld appears twice\n",
					path, lineno, id);
				rc = EXIT_INVALID;
				break;
			}
			g->have[id] = true;
			for (int c = 0; c < COL_NR && !rc; c++) {
				const char *v = g->col[c] >= 0 ? fld[g->col[c]] : "";

				if (strlen(v) >= sizeof(g->row[id].v[c])) {
					fprintf(stderr, "%s:%lu: %s: longer than %zu characters\n", path,
						lineno, col_names[c], sizeof(g->row[id].v[c]) - 1);
					rc = EXIT_INVALID;
				} else {
					strcpy(g->row[id].v[c], v);
				}
			}
			if (rc)
				break;
		}
	}
	/* not the file's fault: a line too long for the memory left is exit 70 */
	if (!rc && tf.error) {
		fprintf(stderr, "%s:%lu: cannot read: %s\n", path, tf.lineno + 1, strerror(tf.error));
		rc = tf.error == ENOMEM ? EXIT_SOFTWARE : EXIT_NOINPUT;
	}
	if (!rc && !g->ncols) {
		fprintf(stderr, "%s: empty (no header)\n", path);
		rc = EXIT_INVALID;
	}
	textfile_close(&tf);
	(void)nnodes;
	return rc;
}

/*
 * One line per difference.  Tolerances: HMAT figures exact (validation
 * only accepts what QEMU encodes exactly); MemTotal at most the node's size
 * and at least size - size/32 - 64 MiB (memmap, kernel, firmware), less on
 * a boot node the struct pages of the hot-added movable memory (1/64 of
 * it, on a boot node the kernel chooses); tiers by order only (the ids
 * depend on the kernel's chunking, the order does not); zones exact.
 */
/*
 * Does the kernel place boot-time CPU-less nodes into memory tiers by their
 * HMAT figures?  The abstract distance from HMAT came with 6.7, but only for
 * nodes onlined later (dax/kmem); boot-time nodes got it with
 * memory_tier_late_init() in 6.10.  Older kernels keep such nodes in the
 * default tier.  Unknown release: yes.
 */
static bool kernel_has_hmat_tiers(const char *release)
{
	unsigned major, minor;

	if (!release || sscanf(release, "%u.%u", &major, &minor) != 2)
		return true;
	return major > 6 || (major == 6 && minor >= 10);
}

static int compare(const struct topo *t, const struct guest *g, bool tiers)
{
	struct view want[TOPO_MAX_NODES];
	long long gt[TOPO_MAX_NODES];
	int bad = 0;

	for (int i = 0; i < t->nnodes; i++)
		expected_view(t, i, &want[i]);
	for (int i = t->nnodes; i < TOPO_MAX_NODES; i++)
		if (g->have[i]) {
			printf("node %d: node: guest has it, file has nodes 0-%d\n", i,
			       t->nnodes - 1);
			bad++;
		}
	for (int i = 0; i < t->nnodes; i++) {
		const struct view *w = &want[i], *v = &g->row[i];
		uint64_t gc, fc = t->node[i].cpus;
		long long x;

		gt[i] = -1;
		if (!g->have[i]) {
			printf("node %d: node: missing from the guest's view\n", i);
			bad++;
			continue;
		}
		if (topo_parse_cpus(v->v[COL_cpus], &gc) || gc != fc) {
			printf("node %d: cpus: guest has %s, file says %s\n", i,
			       v->v[COL_cpus], w->v[COL_cpus]);
			bad++;
		}
		{
			uint64_t fm = t->node[i].mem_bytes >> 20, slack = fm ? fm / 32 + 64 : 0, lo;

			if (fm && t->node[i].zone == TOPO_ZONE_normal)
				slack += ((topo_total_mem(t) - topo_boot_mem(t)) >> 20) / 64;
			lo = slack > fm ? 0 : fm - slack;
			if (!strcmp(v->v[COL_mem_mib], "-") && !fm)
				;
			else if (!parse_num(v->v[COL_mem_mib], &x) || (uint64_t)x > fm ||
				 (uint64_t)x < lo) {
				printf("node %d: mem_mib: guest has %s, file says %llu "
				       "(accepted %llu-%llu)\n", i, v->v[COL_mem_mib],
				       (unsigned long long)fm, (unsigned long long)lo,
				       (unsigned long long)fm);
				bad++;
			}
		}
		for (int c = COL_read_latency_ns; c <= COL_write_bandwidth_mbps; c++)
			if (strcmp(v->v[c], w->v[c])) {
				printf("node %d: %s: guest has %s, file says %s\n", i,
				       col_names[c], v->v[c], w->v[c]);
				bad++;
			}
		for (int c = COL_distances; c < COL_NR; c++)
			if (g->col[c] >= 0 && strcmp(v->v[c], w->v[c])) {
				printf("node %d: %s: guest has %s, file says %s\n", i,
				       col_names[c], v->v[c], w->v[c]);
				bad++;
			}
		if (!tiers)
			;
		else if (parse_num(v->v[COL_tier], &x))
			gt[i] = x;
		else if (strcmp(v->v[COL_tier], "-") || strcmp(w->v[COL_tier], "-")) {
			if (strcmp(v->v[COL_tier], w->v[COL_tier])) {
				printf("node %d: tier: guest has %s, file expects %s\n", i,
				       v->v[COL_tier], w->v[COL_tier]);
				bad++;
			}
		}
	}
	/* tiers: same order as the file's, pair by pair */
	for (int i = 0; i < t->nnodes; i++)
		for (int j = 0; j < i; j++) {
			int ei = topo_expected_tier(t, i), ej = topo_expected_tier(t, j);

			if (ei < 0 || ej < 0 || gt[i] < 0 || gt[j] < 0)
				continue;
			if ((ei < ej) != (gt[i] < gt[j]) || (ei == ej) != (gt[i] == gt[j])) {
				printf("node %d: tier: guest has %lld against node %d's %lld, "
				       "file expects %d against %d (%s)\n", i, gt[i], j, gt[j],
				       ei, ej, ei == ej ? "the same tier" :
				       ei < ej ? "a faster tier" : "a slower tier");
				bad++;
			}
		}
	return bad;
}

int cmd_check_guest(int argc, char **argv)
{
	struct opts o;
	struct topo *t = xmalloc(sizeof(*t));
	struct guest *g = xcalloc(1, sizeof(*g));
	int rc;

	rc = load(argc, argv, 2, "TOPOLOGY.yaml GUEST.csv [--kernel-release R]", &o, t);
	if (!rc)
		rc = read_guest(o.pos[1], t->nnodes, g);
	if (!rc) {
		bool tiers = kernel_has_hmat_tiers(o.release);
		int bad = compare(t, g, tiers);

		if (!tiers)
			printf("memory tiers not compared: kernel %s predates HMAT-based tiers for boot-time nodes (6.10)\n",
			       o.release);

		rc = finish();
		if (!rc && bad) {
			fprintf(stderr, "labtool check-guest: %d difference%s between %s "
				"and the guest's view %s\n", bad, bad == 1 ? "" : "s",
				o.pos[0], o.pos[1]);
			rc = 1;
		}
	}
	free(t);
	free(g);
	return rc;
}
