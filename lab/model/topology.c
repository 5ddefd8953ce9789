// SPDX-License-Identifier: GPL-2.0
/*
 * Topology files: the YAML tree (yamltree.h, with every value's line and
 * column) -> the machine model, validated field by field.
 *
 * Every problem is one "FILE:LINE:COL: path: message" line and all of them
 * are reported, not only the first; the checks that need valid node ids are
 * skipped once ids are broken, so one mistake does not cascade.  Input is
 * untrusted (it ends up in QEMU command lines): names are restricted to
 * [A-Za-z0-9._-], numbers are parsed strictly, sizes are bounded.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "memtiming.h"
#include "topology.h"
#include "yamltree.h"

const char *const topo_kind_names[TOPO_KIND_NR] = {
#define X(k) #k,
	TOPO_KINDS(X)
#undef X
};
const char *const topo_assoc_names[3] = { "none", "direct", "complex" };
const char *const topo_policy_names[3] = { "none", "write-back", "write-through" };
const char *const topo_zone_names[2] = { "normal", "movable" };

#define MIB (1ULL << 20)
#define SECTION (128 * MIB)	/* x86-64 memory section: node granularity */
#define HUGEPAGE (2 * MIB)
#define MAX_LATENCY_NS 1000000U
#define MAX_BANDWIDTH_MBPS 10000000U

int topo_parse_size(const char *s, uint64_t *out)
{
	uint64_t v = 0, mul = 1;
	size_t n = 0;

	while (s[n] >= '0' && s[n] <= '9') {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(s[n++] - '0');
	}
	if (!n)
		return -1;
	s += n;
	switch (*s) {
	case 'K': mul = 1ULL << 10; s++; break;
	case 'M': mul = 1ULL << 20; s++; break;
	case 'G': mul = 1ULL << 30; s++; break;
	case 'T': mul = 1ULL << 40; s++; break;
	case 0: break;
	default: return -1;
	}
	if (mul > 1 && (!strcmp(s, "iB") || !strcmp(s, "B")))
		s += strlen(s);
	if (*s)
		return -1;
	if (v > UINT64_MAX / mul)
		return -1;
	*out = v * mul;
	return 0;
}

void topo_format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = "KMGT";
	int u = -1;

	while (u < 3 && bytes && !(bytes & 1023)) {
		bytes >>= 10;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)bytes, units[u]);
}

void topo_format_cpus(uint64_t cpus, char *buf, size_t len)
{
	size_t o = 0;

	if (len)
		buf[0] = 0;
	if (!cpus) {
		snprintf(buf, len, "-");
		return;
	}
	for (int i = 0; i < TOPO_MAX_CPUS && o < len; i++) {
		int j = i;

		if (!(cpus >> i & 1))
			continue;
		while (j + 1 < TOPO_MAX_CPUS && (cpus >> (j + 1) & 1))
			j++;
		if (j == i)
			o += (size_t)snprintf(buf + o, len - o, "%s%d", o ? "+" : "", i);
		else
			o += (size_t)snprintf(buf + o, len - o, "%s%d-%d", o ? "+" : "", i, j);
		i = j;
	}
}

int topo_parse_cpus(const char *s, uint64_t *out)
{
	uint64_t set = 0;

	if (!strcmp(s, "-") || !*s) {
		*out = 0;
		return 0;
	}
	while (*s) {
		char *end;
		long a, b;

		if (*s < '0' || *s > '9')
			return -1;
		a = strtol(s, &end, 10);
		b = a;
		s = end;
		if (*s == '-') {
			if (s[1] < '0' || s[1] > '9')
				return -1;
			b = strtol(s + 1, &end, 10);
			s = end;
		}
		if (a > b || b >= TOPO_MAX_CPUS)
			return -1;
		for (long c = a; c <= b; c++)
			set |= 1ULL << c;
		if (*s == '+' || *s == ';')
			s++;
		else if (*s)
			return -1;
	}
	*out = set;
	return 0;
}

static bool get_size(struct yctx *c, const struct ynode *y, const char *path,
		     uint64_t *out)
{
	if (y->type != Y_SCALAR || !y->plain) {
		yerr_at(c, y, path, "must be a size such as 512M or 1G, got %s",
		       ytype_name(y));
		return false;
	}
	if (topo_parse_size(y->str, out)) {
		yerr_at(c, y, path, "must be a size such as 512M or 1G, got %s",
		       SHOWN(y->str));
		return false;
	}
	return true;
}

/* "6600MB/s", "6.6GB/s", "1.2TB/s" (decimal units, as data sheets quote). */
static bool get_bandwidth(struct yctx *c, const struct ynode *y, const char *path,
			  uint32_t *out)
{
	const char *s = y->str;
	uint64_t ip = 0, frac = 0, scale = 1, unit;
	size_t nd = 0, nf = 0;

	if (y->type != Y_SCALAR || !y->plain)
		goto bad;
	while (s[nd] >= '0' && s[nd] <= '9' && nd < 10)
		ip = ip * 10 + (uint64_t)(s[nd++] - '0');
	if (!nd)
		goto bad;
	s += nd;
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9' && nf < 6) {
			frac = frac * 10 + (uint64_t)(*s++ - '0');
			scale *= 10;
			nf++;
		}
		if (!nf)
			goto bad;
	}
	if (!strcmp(s, "MB/s"))
		unit = 1;
	else if (!strcmp(s, "GB/s"))
		unit = 1000;
	else if (!strcmp(s, "TB/s"))
		unit = 1000000;
	else
		goto bad;
	if ((frac * unit) % scale) {
		yerr_at(c, y, path, "must be a whole number of MB/s, got %s",
		       SHOWN(y->str));
		return false;
	}
	ip = ip * unit + frac * unit / scale;
	if (!ip) {
		yerr_at(c, y, path, "must be > 0");
		return false;
	}
	if (ip > MAX_BANDWIDTH_MBPS) {
		yerr_at(c, y, path, "must be <= %uMB/s", MAX_BANDWIDTH_MBPS);
		return false;
	}
	*out = (uint32_t)ip;
	return true;
bad:
	if (y->type == Y_SCALAR && y->plain && y->str[0] == '-')
		yerr_at(c, y, path, "must be > 0");
	else
		yerr_at(c, y, path,
		       "must be a bandwidth such as 6600MB/s or 6.6GB/s, got %s",
		       y->type == Y_SCALAR ? SHOWN(y->str) : ytype_name(y));
	return false;
}

/* "0-1", "0,2", "0+2", 3, [0, 1], none. */
static bool get_cpus(struct yctx *c, const struct ynode *y, const char *path,
		     int ncpus, uint64_t *out)
{
	uint64_t set = 0, v, w;

	if (y->type == Y_SEQ) {
		char p[160];

		for (size_t i = 0; i < y->n; i++) {
			PATH(p, "%s[%zu]", path, i);
			if (!yget_int(c, y->item[i], p, 0, TOPO_MAX_CPUS - 1,
				     "a CPU number", &v))
				return false;
			if ((int)v >= ncpus) {
				yerr_at(c, y->item[i], p,
				       "CPU %llu is out of range (cpus: %d means 0-%d)",
				       (unsigned long long)v, ncpus, ncpus - 1);
				return false;
			}
			set |= 1ULL << v;
		}
		*out = set;
		return true;
	}
	if (y->type != Y_SCALAR) {
		yerr_at(c, y, path, "must be a CPU list such as 0-1 or [0, 1], got %s",
		       ytype_name(y));
		return false;
	}
	if (!strcmp(y->str, "none")) {
		*out = 0;
		return true;
	}
	for (const char *s = y->str; *s;) {
		char num[24];
		size_t n = strspn(s, "0123456789");

		if (!n || n >= sizeof(num))
			goto bad;
		memcpy(num, s, n);
		num[n] = 0;
		s += n;
		if (yparse_u64(num, &v))
			goto bad;
		w = v;
		if (*s == '-') {
			s++;
			n = strspn(s, "0123456789");
			if (!n || n >= sizeof(num))
				goto bad;
			memcpy(num, s, n);
			num[n] = 0;
			s += n;
			if (yparse_u64(num, &w) || w < v)
				goto bad;
		}
		if (*s == ',' || *s == '+') {
			s++;
			if (!*s)
				goto bad;
		} else if (*s) {
			goto bad;
		}
		if (w >= (uint64_t)ncpus) {
			yerr_at(c, y, path, "CPU %llu is out of range (cpus: %d means 0-%d)",
			       (unsigned long long)w, ncpus, ncpus - 1);
			return false;
		}
		for (; v <= w; v++)
			set |= 1ULL << v;
	}
	*out = set;
	return true;
bad:
	yerr_at(c, y, path, "must be a CPU list such as 0-1, 0,2 or [0, 1], got %s",
	       SHOWN(y->str));
	return false;
}

/* ---- the schema ------------------------------------------------------ */

static const char *const top_keys[] = { "name", "description", "cpus", "nodes",
	"distances", "hmat", "lab", NULL };
static const char *const node_keys[] = { "id", "kind", "memory", "cpus",
	"initiator", "read_latency_ns", "write_latency_ns", "read_bandwidth",
	"write_bandwidth", "cache", "zone", NULL };
static const char *const perf_keys[] = { "read_latency_ns", "write_latency_ns",
	"read_bandwidth", "write_bandwidth" };
static const char *const hmat_keys[] = { "initiator", "target", "read_latency_ns",
	"write_latency_ns", "read_bandwidth", "write_bandwidth", NULL };
static const char *const cache_keys[] = { "level", "size", "associativity",
	"policy", "line", "read_latency_ns", "write_latency_ns", "read_bandwidth",
	"write_bandwidth", NULL };
static const char *const dist_keys[] = { "matrix", "pairs", NULL };
static const char *const lab_keys[] = { "hugetlb_pages", "llc", NULL };
static const char *const llc_keys[] = { "size", "ways", "line", NULL };

/* Where each accepted value came from, for the cross-field checks. */
struct marks {
	const struct ynode *node[TOPO_MAX_NODES];	/* nodes[i] by id */
	int index[TOPO_MAX_NODES];			/* list index by id */
	const struct ynode *perf[TOPO_MAX_NODES][TOPO_MAX_NODES][4];
	char perf_path[TOPO_MAX_NODES][TOPO_MAX_NODES][24];	/* "nodes[1]", "hmat[0]" */
	const struct ynode *nodes, *cpus;
};

/* Reads the four figures of one HMAT entry; false if any is bad/missing. */
static bool get_perf(struct yctx *c, const struct ynode *map, const char *path,
		     bool required, struct topo_perf *p, const struct ynode *at[4])
{
	bool ok = true, any = false;
	uint32_t v[4] = { 0 };
	char fp[160];

	for (int f = 0; f < 4; f++) {
		const struct ynode *y = ymap_get(map, perf_keys[f]);
		uint64_t u;

		at[f] = y;
		any |= y != NULL;
		if (!y)
			continue;
		PATH(fp, "%s.%s", path, perf_keys[f]);
		if (f < 2) {
			if (yget_int(c, y, fp, 1, MAX_LATENCY_NS,
				    "a number of nanoseconds", &u))
				v[f] = (uint32_t)u;
			else
				ok = false;
		} else if (!get_bandwidth(c, y, fp, &v[f])) {
			ok = false;
		}
	}
	if (!any && !required)
		return false;
	for (int f = 0; f < 4; f++)
		if (!at[f]) {
			PATH(fp, "%s.%s", path, perf_keys[f]);
			yerr_at(c, map, fp, required && !any ?
			       "missing required field (HMAT figures are given for other nodes)" :
			       "missing required field");
			ok = false;
		}
	if (!ok)
		return false;
	p->set = true;
	p->read_latency_ns = v[0];
	p->write_latency_ns = v[1];
	p->read_bandwidth_mbps = v[2];
	p->write_bandwidth_mbps = v[3];
	return true;
}

/*
 * A cache level's optional figures (all four or none): the model has one
 * cache per node, the nearest, and a cache slower than the memory behind it
 * is a typo, not a machine.
 */
static void parse_cache_perf(struct yctx *c, const struct ynode *m, const char *path, size_t level,
			     const struct topo_perf *mem, struct topo_perf *out)
{
	const struct ynode *at[4];
	struct topo_perf perf = { 0 };
	char fp[160];

	if (!get_perf(c, m, path, false, &perf, at))
		return;
	PATH(fp, "%s.%s", path, perf_keys[0]);
	if (level > 0) {
		yerr_at(c, at[0], fp, "figures are for level 1 only (the cost model has one "
		       "memory-side cache per node, the nearest)");
		return;
	}
	if (!mem->set)
		return;	/* said once for the whole list */
	const uint32_t cv[4] = { perf.read_latency_ns, perf.write_latency_ns,
				 perf.read_bandwidth_mbps, perf.write_bandwidth_mbps };
	const uint32_t mv[4] = { mem->read_latency_ns, mem->write_latency_ns,
				 mem->read_bandwidth_mbps, mem->write_bandwidth_mbps };
	bool ok = true;

	for (int f = 0; f < 4; f++) {
		PATH(fp, "%s.%s", path, perf_keys[f]);
		if (f < 2 && cv[f] > mv[f])
			yerr_at(c, at[f], fp, "%u ns is slower than the memory behind the cache "
			       "(the node's %s, %u ns)", cv[f], perf_keys[f], mv[f]), ok = false;
		else if (f >= 2 && cv[f] < mv[f])
			yerr_at(c, at[f], fp, "%u MB/s is less than the memory behind the cache "
			       "(the node's %s, %u MB/s)", cv[f], perf_keys[f], mv[f]), ok = false;
	}
	if (ok)
		*out = perf;
}

static void parse_cache(struct yctx *c, const struct ynode *list, const char *path,
			struct topo_node *n, const struct topo_perf *mem)
{
	char p[160], fp[160];
	bool has_perf = mem->set;

	if (list->type != Y_SEQ) {
		yerr_at(c, list, path, "must be a list of cache levels, got %s",
		       ytype_name(list));
		return;
	}
	if (list->n > TOPO_MAX_CACHE) {
		yerr_at(c, list, path, "at most %d levels", TOPO_MAX_CACHE);
		return;
	}
	if (!has_perf)
		yerr_at(c, list, path, "a memory-side cache needs the node's HMAT "
		       "figures (read_latency_ns, write_latency_ns, read_bandwidth, "
		       "write_bandwidth)");
	if (!n->mem_bytes)
		yerr_at(c, list, path, "a node without memory has no memory-side cache");
	for (size_t i = 0; i < list->n; i++) {
		const struct ynode *m = list->item[i], *y;
		struct topo_cache *k = &n->cache[i];
		uint64_t u;
		int e;

		PATH(p, "%s[%zu]", path, i);
		if (!ycheck_map(c, m, p, cache_keys))
			continue;
		k->assoc = TOPO_ASSOC_direct;
		k->policy = TOPO_POLICY_write_back;
		k->line = 64;
		if ((y = yrequire(c, m, p, "level"))) {
			PATH(fp, "%s.level", p);
			if (yget_int(c, y, fp, 1, TOPO_MAX_CACHE, "a cache level", &u)) {
				k->level = (int)u;
				if (k->level != (int)i + 1)
					yerr_at(c, y, fp, "levels must be listed in "
					       "order 1, 2, 3: expected %zu, got %d",
					       i + 1, k->level);
			}
		}
		if ((y = yrequire(c, m, p, "size"))) {
			PATH(fp, "%s.size", p);
			if (get_size(c, y, fp, &k->size)) {
				if (!k->size)
					yerr_at(c, y, fp, "must be > 0");
				else if (i > 0 && n->cache[i - 1].size &&
					 k->size <= n->cache[i - 1].size)
					yerr_at(c, y, fp, "must be larger than level %zu's "
					       "size (levels are ordered nearest first)", i);
				else if (n->mem_bytes && k->size >= n->mem_bytes)
					yerr_at(c, y, fp, "must be smaller than the node's memory");
			}
		}
		if ((y = ymap_get(m, "associativity"))) {
			PATH(fp, "%s.associativity", p);
			if (yget_enum(c, y, fp, topo_assoc_names, 3, &e))
				k->assoc = (enum topo_assoc)e;
		}
		if ((y = ymap_get(m, "policy"))) {
			PATH(fp, "%s.policy", p);
			if (yget_enum(c, y, fp, topo_policy_names, 3, &e))
				k->policy = (enum topo_policy)e;
		}
		if ((y = ymap_get(m, "line"))) {
			PATH(fp, "%s.line", p);
			if (yget_int(c, y, fp, 1, 65535, "a line size in bytes", &u))
				k->line = (uint32_t)u;
		}
		parse_cache_perf(c, m, p, i, mem, &k->perf);
	}
	n->ncache = (int)list->n;
}

static void parse_distances(struct yctx *c, const struct ynode *d, struct topo *t)
{
	const struct ynode *mx, *pairs;
	int N = t->nnodes;
	char p[160];
	uint64_t v;

	if (!ycheck_map(c, d, "distances", dist_keys))
		return;
	mx = ymap_get(d, "matrix");
	pairs = ymap_get(d, "pairs");
	if (!!mx == !!pairs) {
		yerr_at(c, d, "distances", "give either matrix or pairs");
		return;
	}
	if (mx) {
		bool ok = true;

		if (mx->type != Y_SEQ || (int)mx->n != N) {
			if (mx->type != Y_SEQ)
				yerr_at(c, mx, "distances.matrix", "must be a list of rows, got %s",
				       ytype_name(mx));
			else
				yerr_at(c, mx, "distances.matrix",
				       "must have %d rows (one per node), got %zu", N, mx->n);
			return;
		}
		for (int i = 0; i < N; i++) {
			const struct ynode *row = mx->item[i];

			PATH(p, "distances.matrix[%d]", i);
			if (row->type != Y_SEQ || (int)row->n != N) {
				if (row->type != Y_SEQ)
					yerr_at(c, row, p, "must be a list, got %s", ytype_name(row));
				else
					yerr_at(c, row, p, "must have %d entries, got %zu", N, row->n);
				ok = false;
				continue;
			}
			for (int j = 0; j < N; j++) {
				PATH(p, "distances.matrix[%d][%d]", i, j);
				if (!yget_int(c, row->item[j], p, 10, 254, "a distance", &v)) {
					ok = false;
					continue;
				}
				t->distance[i][j] = (uint8_t)v;
				if (i == j && v != 10) {
					yerr_at(c, row->item[j], p,
					       "local distance must be 10, got %llu",
					       (unsigned long long)v);
					ok = false;
				}
			}
		}
		if (!ok)
			return;
		for (int i = 0; i < N; i++)
			for (int j = i + 1; j < N; j++)
				if (t->distance[i][j] != t->distance[j][i]) {
					PATH(p, "distances.matrix[%d][%d]", j, i);
					yerr_at(c, mx->item[j]->item[i], p,
					       "asymmetric pair %d,%d: %d here but %d at "
					       "distances.matrix[%d][%d]", i, j,
					       t->distance[j][i], t->distance[i][j], i, j);
				}
		return;
	}
	if (pairs->type != Y_SEQ) {
		yerr_at(c, pairs, "distances.pairs",
		       "must be a list of [node, node, distance], got %s", ytype_name(pairs));
		return;
	}
	{
		int given[TOPO_MAX_NODES][TOPO_MAX_NODES];
		bool ok = true;

		memset(given, -1, sizeof(given));
		for (int i = 0; i < N; i++)
			t->distance[i][i] = 10;
		for (size_t k = 0; k < pairs->n; k++) {
			const struct ynode *e = pairs->item[k];
			uint64_t a, b;

			PATH(p, "distances.pairs[%zu]", k);
			if (e->type != Y_SEQ || e->n != 3) {
				yerr_at(c, e, p, "must be [node, node, distance], got %s",
				       e->type == Y_SEQ ? "a list of another length" : ytype_name(e));
				ok = false;
				continue;
			}
			if (!yget_int(c, e->item[0], p, 0, TOPO_MAX_NODES - 1, "a node id", &a) ||
			    !yget_int(c, e->item[1], p, 0, TOPO_MAX_NODES - 1, "a node id", &b)) {
				ok = false;
				continue;
			}
			if ((int)a >= N || (int)b >= N) {
				yerr_at(c, e->item[(int)a >= N ? 0 : 1], p,
				       "node %llu does not exist (nodes are 0-%d)",
				       (unsigned long long)((int)a >= N ? a : b), N - 1);
				ok = false;
				continue;
			}
			{
				char vp[176];

				PATH(vp, "%s[2]", p);
				if (!yget_int(c, e->item[2], vp, 10, 254, "a distance", &v)) {
					ok = false;
					continue;
				}
			}
			if (a == b && v != 10) {
				yerr_at(c, e->item[2], p, "local distance must be 10, got %llu",
				       (unsigned long long)v);
				ok = false;
				continue;
			}
			if (given[a][b] >= 0) {
				const struct ynode *o = pairs->item[given[a][b]]->item[2];

				if (t->distance[a][b] != v)
					yerr_at(c, e, p, "asymmetric pair %llu,%llu: %llu here but "
					       "%d at distances.pairs[%d]",
					       (unsigned long long)a, (unsigned long long)b,
					       (unsigned long long)v, t->distance[a][b],
					       given[a][b]);
				else
					yerr_at(c, e, p, "duplicate pair %llu,%llu (first at line %d)",
					       (unsigned long long)a, (unsigned long long)b,
					       o->line);
				ok = false;
				continue;
			}
			given[a][b] = given[b][a] = (int)k;
			t->distance[a][b] = t->distance[b][a] = (uint8_t)v;
		}
		if (!ok)
			return;
		for (int i = 0; i < N; i++)
			for (int j = i + 1; j < N; j++)
				if (given[i][j] < 0)
					yerr_at(c, pairs, "distances.pairs",
					       "missing pair %d,%d", i, j);
	}
}

/* The distance rule when the file gives none; see topologies/README.md. */
static int kind_penalty(const struct topo *t, int n)
{
	static const int w[TOPO_KIND_NR] = {
		[TOPO_KIND_dram] = 10, [TOPO_KIND_hbm] = 3,
		[TOPO_KIND_pmem] = 7, [TOPO_KIND_cxl] = 10,
	};

	return t->node[n].cpus ? 0 : w[t->node[n].kind];
}

static int home(const struct topo *t, int n)
{
	return t->node[n].initiator;
}

static void derive_distances(struct topo *t)
{
	for (int i = 0; i < t->nnodes; i++)
		for (int j = 0; j < t->nnodes; j++)
			t->distance[i][j] = i == j ? 10 :
				(uint8_t)(10 + (home(t, i) != home(t, j) ? 10 : 0) +
					  kind_penalty(t, i) + kind_penalty(t, j));
}

/*
 * QEMU 7.2 stores each HMAT figure as a 16-bit multiple of one base per
 * data type (a power of ten of ns for latency, a power of two of MiB/s for
 * bandwidth).  Refusing what it cannot represent exactly is what lets the
 * guest check demand exact figures.
 */
static void check_hmat_encoding(struct yctx *c, const struct topo *t,
				const struct marks *mk)
{
	static const char *const what[4] = { "read latencies", "write latencies",
		"read bandwidths", "write bandwidths" };

	for (int f = 0; f < 4; f++) {
		uint64_t base = UINT64_MAX, bits = 0;
		int first, last;

		for (int i = 0; i < t->nnodes; i++)
			for (int j = 0; j < t->nnodes; j++) {
				const struct topo_perf *p = &t->hmat[i][j];
				uint64_t v, b = 1;

				if (!p->set)
					continue;
				v = f == 0 ? p->read_latency_ns : f == 1 ? p->write_latency_ns :
				    f == 2 ? p->read_bandwidth_mbps : p->write_bandwidth_mbps;
				bits |= v;
				while (!(v % (b * 10)))
					b *= 10;
				if (b < base)
					base = b;
			}
		if (!bits)
			continue;
		first = __builtin_ctzll(bits);
		last = 64 - __builtin_clzll(bits);
		for (int i = 0; i < t->nnodes; i++)
			for (int j = 0; j < t->nnodes; j++) {
				const struct topo_perf *p = &t->hmat[i][j];
				uint64_t v, entry;
				char fp[64];

				if (!p->set)
					continue;
				v = f == 0 ? p->read_latency_ns : f == 1 ? p->write_latency_ns :
				    f == 2 ? p->read_bandwidth_mbps : p->write_bandwidth_mbps;
				entry = f < 2 ? v / base : v >> first;
				if (entry < 0xffff && (f < 2 || last - first <= 16))
					continue;
				PATH(fp, "%s.%s", mk->perf_path[i][j], perf_keys[f]);
				yerr_at(c, mk->perf[i][j][f], fp,
				       "%llu cannot share ACPI HMAT's 16-bit entries with the "
				       "other %s (base unit %llu%s); use rounder figures",
				       (unsigned long long)v, what[f],
				       (unsigned long long)(f < 2 ? base : 1ULL << first),
				       f < 2 ? "ns" : "MB/s");
				return;
			}
	}
}

/*
 * lab.llc: {size, ways, line}, all three, checked by the plugin's own rule
 * (mt_llc_check), so a topology that loads is one the plugin accepts.
 */
static void parse_llc(struct yctx *c, const struct ynode *y, struct topo *t)
{
	const struct ynode *v[3];
	uint64_t size, ways, line;
	char why[128];

	if (!y || !ycheck_map(c, y, "lab.llc", llc_keys))
		return;
	for (int i = 0; i < 3; i++)
		if (!(v[i] = yrequire(c, y, "lab.llc", llc_keys[i])))
			return;
	if (!get_size(c, v[0], "lab.llc.size", &size) ||
	    !yget_int(c, v[1], "lab.llc.ways", 1, 64, "a number of ways", &ways) ||
	    !yget_int(c, v[2], "lab.llc.line", 8, 4096, "a line size in bytes", &line))
		return;
	if (mt_llc_check(size, (uint32_t)ways, (uint32_t)line, why, sizeof(why))) {
		/* "llc_size=...: must be ..." -> the message after the key */
		const char *m = strstr(why, ": ");
		const struct ynode *at = !strncmp(why, "llc_line", 8) ? v[2] :
					 !strncmp(why, "llc_ways", 8) ? v[1] : v[0];

		yerr_at(c, at, at == v[2] ? "lab.llc.line" : at == v[1] ? "lab.llc.ways" : "lab.llc.size",
			"%s", m ? m + 2 : why);
		return;
	}
	t->llc_size = size;
	t->llc_ways = (uint32_t)ways;
	t->llc_line = (uint32_t)line;
}

static uint64_t env_max_mem(void)
{
	const char *s = getenv("TIERLAB_MAX_GUEST_MEM");
	uint64_t v;

	if (s && !topo_parse_size(s, &v) && v)
		return v;
	return TOPO_DEFAULT_MAX_GUEST_MEM;
}

/*
 * Zones: a node's own `zone`, else its kind's on real machines -- PMEM and
 * CXL memory behind no CPU come through dax/kmem and are onlined movable;
 * DRAM, HBM in flat mode and any node with CPUs are boot memory.  Movable
 * memory is hot-added (a pc-dimm), so it needs a CPU-less node, and the
 * kernel needs some boot memory to start from.
 */
static void check_zones(struct yctx *c, struct topo *t, const struct marks *mk)
{
	bool any_boot = false, any_movable = false;
	char fp[160];

	for (int i = 0; i < t->nnodes; i++) {
		struct topo_node *n = &t->node[i];
		const struct ynode *y = ymap_get(mk->node[i], "zone");

		PATH(fp, "nodes[%d].zone", mk->index[i]);
		if (!y)
			n->zone = !n->cpus && n->mem_bytes &&
				  (n->kind == TOPO_KIND_pmem || n->kind == TOPO_KIND_cxl) ?
				  TOPO_ZONE_movable : TOPO_ZONE_normal;
		else if (!n->mem_bytes)
			yerr_at(c, y, fp, "a node without memory has no zone"), n->zone = TOPO_ZONE_normal;
		else if (n->zone == TOPO_ZONE_movable && n->cpus)
			yerr_at(c, y, fp, "movable needs a CPU-less node (a node with CPUs is boot "
			       "memory; movable memory is hot-added, as dax/kmem adds it)"),
			n->zone = TOPO_ZONE_normal;
		if (!n->mem_bytes)
			continue;
		any_boot |= n->zone == TOPO_ZONE_normal;
		any_movable |= n->zone == TOPO_ZONE_movable;
	}
	if (any_movable && !any_boot)
		yerr_at(c, mk->nodes, "nodes", "every node with memory is movable: the kernel "
		       "needs boot memory (zone: normal) on at least one");
}

static void parse_topology(struct yctx *c, const struct ynode *root, uint64_t max_mem,
			   struct topo *t)
{
	struct marks *mk = ycalloc(1, sizeof(*mk));
	const struct ynode *y, *list;
	bool ids_ok = true, cpus_ok, all_cpus_ok = true;
	int N;
	uint64_t u, seen_cpus = 0;
	char p[160], fp[160];

	if (!mk) {
		c->oom = true;
		yerr_at(c, root, "topology", "out of memory");
		return;
	}
	if (root->type != Y_MAP) {
		yerr_at(c, root, "topology",
		       "must be a mapping (name:, cpus:, nodes:, ...), got %s",
		       yis_null(root) ? "nothing" : ytype_name(root));
		goto out;
	}
	ycheck_map(c, root, "", top_keys);

	if ((y = yrequire(c, root, "", "name")) && y->type != Y_SCALAR)
		yerr_at(c, y, "name", "must be a word, got %s", ytype_name(y));
	else if (y && (strlen(y->str) > TOPO_NAME_MAX || !ysafe_name(y->str)))
		yerr_at(c, y, "name", "must be 1-%d characters of A-Z a-z 0-9 . _ - "
		       "(not starting with . or -), got %s", TOPO_NAME_MAX, SHOWN(y->str));
	else if (y)
		snprintf(t->name, sizeof(t->name), "%s", y->str);

	if ((y = ymap_get(root, "description"))) {
		if (y->type != Y_SCALAR)
			yerr_at(c, y, "description", "must be text, got %s", ytype_name(y));
		else if (strlen(y->str) > TOPO_DESC_MAX || !ysafe_text(y->str))
			yerr_at(c, y, "description", "must be at most %d characters of "
			       "letters, digits, spaces and ._,:()/+%%=@- , got %s",
			       TOPO_DESC_MAX, SHOWN(y->str));
		else
			snprintf(t->description, sizeof(t->description), "%s", y->str);
	}

	mk->cpus = y = yrequire(c, root, "", "cpus");
	cpus_ok = y && yget_int(c, y, "cpus", 1, TOPO_MAX_CPUS, "a CPU count", &u);
	t->ncpus = cpus_ok ? (int)u : TOPO_MAX_CPUS;

	mk->nodes = list = yrequire(c, root, "", "nodes");
	if (!list)
		goto out;
	if (list->type != Y_SEQ || !list->n) {
		yerr_at(c, list, "nodes", list->type == Y_SEQ ? "must list at least one node" :
		       "must be a list of nodes, got %s", ytype_name(list));
		goto out;
	}
	if (list->n > TOPO_MAX_NODES) {
		yerr_at(c, list, "nodes", "at most %d nodes, got %zu", TOPO_MAX_NODES, list->n);
		goto out;
	}
	N = t->nnodes = (int)list->n;

	/* ids first: every later check addresses nodes by id */
	for (int i = 0; i < N; i++) {
		const struct ynode *m = list->item[i];

		PATH(p, "nodes[%d]", i);
		if (m->type != Y_MAP || !(y = yrequire(c, m, p, "id"))) {
			if (m->type != Y_MAP)
				yerr_at(c, m, p, "must be a mapping, got %s", ytype_name(m));
			ids_ok = false;
			continue;
		}
		PATH(fp, "%s.id", p);
		if (!yget_int(c, y, fp, 0, 1000000, "a node id", &u)) {
			ids_ok = false;
		} else if ((int)u >= N) {
			yerr_at(c, y, fp, "ids must be 0-%d (one per node, in any order), got %llu",
			       N - 1, (unsigned long long)u);
			ids_ok = false;
		} else if (mk->node[u]) {
			yerr_at(c, y, fp, "duplicate id %llu (also nodes[%d])",
			       (unsigned long long)u, mk->index[u]);
			ids_ok = false;
		} else {
			mk->node[u] = m;
			mk->index[u] = i;
		}
	}

	/* per-node fields, by id when ids are sound, else by position */
	for (int i = 0; i < N; i++) {
		int id = i;
		const struct ynode *m;
		struct topo_node *n;
		bool mem_ok, cpus_set_ok;
		int e;

		if (ids_ok) {
			m = mk->node[i];
			PATH(p, "nodes[%d]", mk->index[i]);
		} else {
			m = list->item[i];
			PATH(p, "nodes[%d]", i);
		}
		n = &t->node[id];
		n->initiator = -1;
		if (!ycheck_map(c, m, p, node_keys))
			continue;
		mem_ok = cpus_set_ok = true;
		if ((y = ymap_get(m, "memory"))) {
			PATH(fp, "%s.memory", p);
			mem_ok = get_size(c, y, fp, &n->mem_bytes);
			if (mem_ok && n->mem_bytes % SECTION) {
				mem_ok = false;
				yerr_at(c, y, fp, "must be a multiple of 128M (the x86-64 "
				       "memory section)");
				n->mem_bytes = 0;
			}
		}
		if ((y = ymap_get(m, "cpus"))) {
			PATH(fp, "%s.cpus", p);
			cpus_set_ok = get_cpus(c, y, fp, t->ncpus, &n->cpus);
			all_cpus_ok &= cpus_set_ok;
			if (cpus_set_ok) {
				uint64_t both = n->cpus & seen_cpus;

				if (both) {
					int cpu = __builtin_ctzll(both), other = -1;

					for (int o = 0; o < i && ids_ok; o++)
						if (t->node[o].cpus >> cpu & 1)
							other = o;
					if (other >= 0)
						yerr_at(c, y, fp, "CPU %d is also on node %d",
						       cpu, other);
					else
						yerr_at(c, y, fp, "CPU %d is also on another node",
						       cpu);
				}
				seen_cpus |= n->cpus;
			}
		}
		if ((y = ymap_get(m, "kind"))) {
			PATH(fp, "%s.kind", p);
			if (yget_enum(c, y, fp, topo_kind_names, TOPO_KIND_NR, &e))
				n->kind = (enum topo_kind)e;
		} else if (ymap_get(m, "memory")) {
			yrequire(c, m, p, "kind");
		}
		if ((y = ymap_get(m, "zone"))) {
			PATH(fp, "%s.zone", p);
			if (yget_enum(c, y, fp, topo_zone_names, 2, &e))
				n->zone = (enum topo_zone)e;
		}
		if (!ymap_get(m, "memory") && !ymap_get(m, "cpus"))
			yerr_at(c, m, p, "has neither memory nor cpus");
		else if (mem_ok && cpus_set_ok && !n->mem_bytes && !n->cpus)
			yerr_at(c, m, p, "has neither memory nor cpus");
	}
	if (!ids_ok)
		goto out;

	if (cpus_ok && all_cpus_ok) {
		uint64_t all = t->ncpus == 64 ? UINT64_MAX : (1ULL << t->ncpus) - 1;
		uint64_t missing = all & ~seen_cpus;

		if (missing)
			yerr_at(c, mk->cpus, "cpus", "CPU %d is on no node (every CPU "
			       "must be listed in exactly one node's cpus)",
			       __builtin_ctzll(missing));
	}
	check_zones(c, t, mk);

	/* QEMU 7.2 indexes HMAT entries by initiator position: keep them first */
	for (int i = 1; i < N; i++)
		if (t->node[i].cpus && !t->node[i - 1].cpus) {
			PATH(p, "nodes[%d].cpus", mk->index[i]);
			yerr_at(c, ymap_get(mk->node[i], "cpus"), p,
			       "nodes with CPUs must have lower ids than CPU-less "
			       "nodes (node %d has none)", i - 1);
			break;
		}

	/* initiators: a CPU node is its own; a CPU-less one names or gets one */
	for (int i = 0; i < N; i++) {
		struct topo_node *n = &t->node[i];

		y = ymap_get(mk->node[i], "initiator");
		PATH(fp, "nodes[%d].initiator", mk->index[i]);
		if (y && yget_int(c, y, fp, 0, TOPO_MAX_NODES - 1, "a node id", &u)) {
			if ((int)u >= N)
				yerr_at(c, y, fp, "node %llu does not exist (nodes are 0-%d)",
				       (unsigned long long)u, N - 1);
			else if (!t->node[u].cpus)
				yerr_at(c, y, fp, "node %llu has no CPUs, so it cannot be "
				       "an initiator", (unsigned long long)u);
			else if (n->cpus && (int)u != i)
				yerr_at(c, y, fp, "a node with CPUs is its own initiator "
				       "(got %llu)", (unsigned long long)u);
			else
				n->initiator = (int)u;
		}
		if (n->cpus)
			n->initiator = i;
	}

	if ((y = ymap_get(root, "distances"))) {
		parse_distances(c, y, t);
	} else {
		/* nearest-by-rule needs initiators; the rule needs them too */
		for (int i = 0; i < N; i++)
			if (t->node[i].initiator < 0)
				for (int j = 0; j < N && t->node[i].initiator < 0; j++)
					if (t->node[j].cpus)
						t->node[i].initiator = j;
		derive_distances(t);
	}
	for (int i = 0; i < N; i++) {
		int best = -1;

		if (t->node[i].initiator >= 0)
			continue;
		for (int j = 0; j < N; j++)
			if (t->node[j].cpus &&
			    (best < 0 || t->distance[i][j] < t->distance[i][best]))
				best = j;
		t->node[i].initiator = best >= 0 ? best : 0;
	}

	/* HMAT: each node's own figures, then the extra initiator->target pairs */
	{
		bool any = ymap_get(root, "hmat") != NULL;

		for (int i = 0; i < N && !any; i++)
			for (int f = 0; f < 4; f++)
				any |= ymap_get(mk->node[i], perf_keys[f]) != NULL;
		t->has_hmat = any;
		for (int i = 0; i < N; i++) {
			struct topo_node *n = &t->node[i];
			struct topo_perf perf = { 0 };
			const struct ynode *at[4];

			PATH(p, "nodes[%d]", mk->index[i]);
			if (!n->mem_bytes) {
				for (int f = 0; f < 4; f++)
					if ((y = ymap_get(mk->node[i], perf_keys[f]))) {
						PATH(fp, "%s.%s", p, perf_keys[f]);
						yerr_at(c, y, fp, "a node without memory has "
						       "no HMAT figures");
					}
				continue;
			}
			if (get_perf(c, mk->node[i], p, any, &perf, at)) {
				t->hmat[n->initiator][i] = perf;
				memcpy(mk->perf[n->initiator][i], at, sizeof(at));
				PATH(mk->perf_path[n->initiator][i], "%s", p);
			}
		}
		if ((list = ymap_get(root, "hmat")) && list->type != Y_SEQ) {
			yerr_at(c, list, "hmat", "must be a list of initiator/target "
			       "entries, got %s", ytype_name(list));
		} else if (list) {
			for (size_t k = 0; k < list->n; k++) {
				const struct ynode *m = list->item[k];
				const struct ynode *at[4];
				struct topo_perf perf = { 0 };
				uint64_t ini = 0, tgt = 0;
				bool ok = true;

				PATH(p, "hmat[%zu]", k);
				if (!ycheck_map(c, m, p, hmat_keys))
					continue;
				if ((y = yrequire(c, m, p, "initiator"))) {
					PATH(fp, "%s.initiator", p);
					if (!yget_int(c, y, fp, 0, TOPO_MAX_NODES - 1, "a node id", &ini))
						ok = false;
					else if ((int)ini >= N)
						yerr_at(c, y, fp, "node %llu does not exist (nodes "
						       "are 0-%d)", (unsigned long long)ini, N - 1),
						ok = false;
					else if (!t->node[ini].cpus)
						yerr_at(c, y, fp, "node %llu has no CPUs, so it "
						       "cannot be an initiator",
						       (unsigned long long)ini), ok = false;
				} else {
					ok = false;
				}
				if ((y = yrequire(c, m, p, "target"))) {
					PATH(fp, "%s.target", p);
					if (!yget_int(c, y, fp, 0, TOPO_MAX_NODES - 1, "a node id", &tgt))
						ok = false;
					else if ((int)tgt >= N)
						yerr_at(c, y, fp, "node %llu does not exist (nodes "
						       "are 0-%d)", (unsigned long long)tgt, N - 1),
						ok = false;
					else if (!t->node[tgt].mem_bytes)
						yerr_at(c, y, fp, "node %llu has no memory",
						       (unsigned long long)tgt), ok = false;
				} else {
					ok = false;
				}
				if (!get_perf(c, m, p, true, &perf, at) || !ok)
					continue;
				if (t->hmat[ini][tgt].set) {
					yerr_at(c, m, p, "initiator %llu -> target %llu is "
					       "already given by %s", (unsigned long long)ini,
					       (unsigned long long)tgt, mk->perf_path[ini][tgt]);
					continue;
				}
				t->hmat[ini][tgt] = perf;
				memcpy(mk->perf[ini][tgt], at, sizeof(at));
				PATH(mk->perf_path[ini][tgt], "%s", p);
			}
		}
		check_hmat_encoding(c, t, mk);
	}

	for (int i = 0; i < N; i++) {
		struct topo_node *n = &t->node[i];

		if ((y = ymap_get(mk->node[i], "cache"))) {
			PATH(p, "nodes[%d].cache", mk->index[i]);
			parse_cache(c, y, p, n, &t->hmat[n->initiator][i]);
		}
	}

	if ((y = ymap_get(root, "lab")) && !ycheck_map(c, y, "lab", lab_keys))
		y = NULL;
	if (y)
		parse_llc(c, ymap_get(y, "llc"), t);
	if (y && (list = ymap_get(y, "hugetlb_pages"))) {
		if (list->type != Y_MAP) {
			yerr_at(c, list, "lab.hugetlb_pages", "must map node ids to page "
			       "counts (0: 64), got %s", ytype_name(list));
		} else {
			for (size_t k = 0; k + 1 < list->n; k += 2) {
				const struct ynode *key = list->item[k], *val = list->item[k + 1];
				uint64_t id;

				PATH(p, "lab.hugetlb_pages");
				if (!yget_int(c, key, p, 0, TOPO_MAX_NODES - 1, "a node id", &id))
					continue;
				PATH(p, "lab.hugetlb_pages.%llu", (unsigned long long)id);
				if ((int)id >= N) {
					yerr_at(c, key, p, "node %llu does not exist (nodes are 0-%d)",
					       (unsigned long long)id, N - 1);
					continue;
				}
				if (!yget_int(c, val, p, 0, 1000000, "a number of 2M pages", &u))
					continue;
				if (u * HUGEPAGE > t->node[id].mem_bytes / 2)
					yerr_at(c, val, p, "%llu pages of 2M are more than half of "
					       "node %llu's memory", (unsigned long long)u,
					       (unsigned long long)id);
				else
					t->node[id].hugetlb_pages = (unsigned int)u;
			}
		}
	}

	if (max_mem == 0)
		max_mem = env_max_mem();
	if (topo_total_mem(t) > max_mem) {
		char a[32], b[32];

		topo_format_size(topo_total_mem(t), a, sizeof(a));
		topo_format_size(max_mem, b, sizeof(b));
		yerr_at(c, mk->nodes, "nodes", "total guest memory %s exceeds the host "
		       "limit %s (TIERLAB_MAX_GUEST_MEM)", a, b);
	}
out:
	free(mk);
}

int topo_load_buffer(const char *name, const char *data, size_t len,
		     uint64_t max_mem, struct topo *t, FILE *err)
{
	struct yctx c = { .file = name, .err = err };
	const struct ynode *root;

	yaml_nalloc = 0;
	memset(t, 0, sizeof(*t));
	if (len > TOPO_MAX_FILE) {
		yerr_lc(&c, 1, 1, "topology", "larger than %d bytes", TOPO_MAX_FILE);
		return EXIT_INVALID;
	}
	root = yload(&c, data, len);
	if (root)
		parse_topology(&c, root, max_mem, t);
	yfree_all(&c);
	if (c.nerr) {
		memset(t, 0, sizeof(*t));
		return c.oom ? EXIT_SOFTWARE : EXIT_INVALID;
	}
	return 0;
}

int topo_load_limit(const char *path, uint64_t max_mem, struct topo *t, FILE *err)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;
	int rc, saved;

	memset(t, 0, sizeof(*t));
	if (!f) {
		fprintf(err, "%s: topology: cannot open: %s\n", path, strerror(errno));
		return EXIT_NOINPUT;
	}
	buf = malloc(TOPO_MAX_FILE + 1);
	if (!buf) {
		fclose(f);
		fprintf(err, "%s: topology: out of memory\n", path);
		return EXIT_SOFTWARE;
	}
	n = fread(buf, 1, TOPO_MAX_FILE + 1, f);
	saved = errno;
	if (ferror(f)) {
		fprintf(err, "%s: topology: cannot read: %s\n", path, strerror(saved));
		fclose(f);
		free(buf);
		return EXIT_NOINPUT;
	}
	fclose(f);
	rc = topo_load_buffer(path, buf, n, max_mem, t, err);
	free(buf);
	return rc;
}

int topo_load(const char *path, struct topo *t, FILE *err)
{
	return topo_load_limit(path, 0, t, err);
}

/* ---- derived views --------------------------------------------------- */

uint64_t topo_total_mem(const struct topo *t)
{
	uint64_t sum = 0;

	for (int i = 0; i < t->nnodes; i++)
		sum += t->node[i].mem_bytes;
	return sum;
}

bool topo_has_movable(const struct topo *t)
{
	for (int i = 0; i < t->nnodes; i++)
		if (t->node[i].mem_bytes && t->node[i].zone == TOPO_ZONE_movable)
			return true;
	return false;
}

uint64_t topo_boot_mem(const struct topo *t)
{
	uint64_t sum = 0;

	for (int i = 0; i < t->nnodes; i++)
		if (t->node[i].zone == TOPO_ZONE_normal)
			sum += t->node[i].mem_bytes;
	return sum;
}

uint64_t topo_low_mem(const struct topo *t)
{
	uint64_t boot = topo_boot_mem(t);

	return boot >= 0xe0000000ULL ? 0xc0000000ULL : boot;
}

uint64_t topo_ram_offset(const struct topo *t, int node)
{
	enum topo_zone z = t->node[node].zone;
	uint64_t at = z == TOPO_ZONE_movable ? topo_boot_mem(t) : 0;

	for (int i = 0; i < node; i++)
		if (t->node[i].zone == z)
			at += t->node[i].mem_bytes;
	return at;
}

uint64_t topo_dimm_base(const struct topo *t)
{
	const uint64_t gib = 1ULL << 30;
	uint64_t above = topo_boot_mem(t) - topo_low_mem(t);

	return (4 * gib + above + gib - 1) / gib * gib;
}

uint64_t topo_dimm_addr(const struct topo *t, int node)
{
	return topo_dimm_base(t) + topo_ram_offset(t, node);
}

int topo_anchor_index(const struct topo *t, int node)
{
	int k = 0;

	for (int i = 0; i < t->nnodes - 1; i++) {
		if (!t->node[i].mem_bytes || t->node[i].zone != TOPO_ZONE_movable)
			continue;
		if (i == node)
			return k;
		k++;
	}
	return -1;
}

int topo_nanchors(const struct topo *t)
{
	int k = 0;

	for (int i = 0; i < t->nnodes; i++)
		k += topo_anchor_index(t, i) >= 0;
	return k;
}

uint64_t topo_anchor_addr(const struct topo *t, int index)
{
	return topo_dimm_base(t) + topo_total_mem(t) + (uint64_t)index * TOPO_ANCHOR_SIZE;
}

uint64_t topo_max_mem(const struct topo *t)
{
	return topo_boot_mem(t) + topo_total_mem(t) + (uint64_t)topo_nanchors(t) * TOPO_ANCHOR_SIZE;
}

const struct topo_perf *topo_node_perf(const struct topo *t, int node)
{
	const struct topo_perf *p;

	if (node < 0 || node >= t->nnodes || !t->node[node].mem_bytes)
		return NULL;
	p = &t->hmat[t->node[node].initiator][node];
	return p->set ? p : NULL;
}

/*
 * mm/memory-tiers.c (6.12): the first node with CPUs and memory is the
 * reference; if another such node differs from it by more than 10% in any
 * figure the HMAT algorithm is disabled and every node stays in the DRAM
 * tier.  Otherwise adistance = 576 * lat/lat_ref * bw_ref/bw (integer
 * arithmetic, left to right) and the tier id is adistance >> 7.
 */
int topo_expected_tier(const struct topo *t, int node)
{
	const long dram = 4 * 128 + 64;
	const struct topo_perf *ref = NULL, *p;
	long adist;

	if (node < 0 || node >= t->nnodes || !t->node[node].mem_bytes)
		return -1;
	for (int i = 0; i < t->nnodes; i++) {
		const struct topo_perf *q = topo_node_perf(t, i);

		if (!t->node[i].cpus || !t->node[i].mem_bytes)
			continue;
		if (!q)
			return (int)(dram >> 7);
		if (!ref) {
			ref = q;
			continue;
		}
#define OFF(f) (labs((long)q->f - (long)ref->f) * 10 > (long)ref->f)
		if (OFF(read_latency_ns) || OFF(write_latency_ns) ||
		    OFF(read_bandwidth_mbps) || OFF(write_bandwidth_mbps))
			return (int)(dram >> 7);
#undef OFF
	}
	p = topo_node_perf(t, node);
	if (!ref || !p)
		return (int)(dram >> 7);
	adist = dram * (long)(p->read_latency_ns + p->write_latency_ns) /
		(long)(ref->read_latency_ns + ref->write_latency_ns) *
		(long)(ref->read_bandwidth_mbps + ref->write_bandwidth_mbps) /
		(long)(p->read_bandwidth_mbps + p->write_bandwidth_mbps);
	return (int)(adist >> 7);
}
