// SPDX-License-Identifier: GPL-2.0
/*
 * The memory-timing plugin's pure parts (memtiming.h): nothing here knows
 * QEMU, so the host unit tests run all of it.
 */
#include "memtiming.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const mt_rule_names[3] = { "plain", "doubled", "physical" };

bool mt_marker_decode(const uint8_t *insn, size_t len, struct mt_marker *m)
{
	uint32_t disp;

	/* nopl disp32(%rax): 0f 1f, ModRM 0x80 (mod 10, reg 0, rm rax) */
	if (len != 7 || insn[0] != 0x0f || insn[1] != 0x1f || insn[2] != 0x80)
		return false;
	disp = (uint32_t)insn[3] | (uint32_t)insn[4] << 8 | (uint32_t)insn[5] << 16 |
	       (uint32_t)insn[6] << 24;
	if (disp >> 16 != MT_MARK_MAGIC)
		return false;
	switch ((disp >> 8) & 0xff) {
	case MT_OP_BEGIN:
	case MT_OP_END:
	case MT_OP_PROBE:
		m->op = (enum mt_op)((disp >> 8) & 0xff);
		m->id = disp & 0xff;
		return true;
	default:
		return false;
	}
}

int mt_map_gpa(const struct mt_map *m, uint64_t gpa, uint64_t *offset)
{
	for (int k = 0; k < m->nseg; k++)
		if (gpa >= m->seg[k].gpa && gpa - m->seg[k].gpa < m->seg[k].size) {
			*offset = gpa - m->seg[k].gpa + m->seg[k].start;
			return 0;
		}
	return -1;
}

int mt_map_addr(const struct mt_map *m, uint64_t hwaddr, uint64_t *offset)
{
	if (m->rule == MT_RULE_PHYSICAL) {
		uint64_t off;
		int i;

		if (mt_map_gpa(m, hwaddr, &off) || (i = mt_map_offset(m, off)) < 0)
			return -1;
		*offset = off;
		return i;
	}
	for (int i = 0; i < m->n; i++) {
		const struct mt_node *n = &m->node[i];
		/* doubled: the block's offset (= its start) counted once more */
		uint64_t base = m->rule == MT_RULE_DOUBLED ? 2 * n->start : n->start;

		if (hwaddr >= base && hwaddr - base < n->size) {
			*offset = hwaddr - base + n->start;
			return i;
		}
	}
	return -1;
}

int mt_map_offset(const struct mt_map *m, uint64_t offset)
{
	for (int i = 0; i < m->n; i++)
		if (offset >= m->node[i].start && offset - m->node[i].start < m->node[i].size)
			return i;
	return -1;
}

int mt_cache_check(const char *prefix, uint64_t size, uint32_t ways, uint32_t line,
		   char *err, size_t errlen)
{
	if (line < 8 || line > 4096 || (line & (line - 1))) {
		snprintf(err, errlen, "%sline=%" PRIu32 ": must be a power of two from 8 to 4096", prefix,
			 line);
		return -1;
	}
	if (ways < 1 || ways > 64) {
		snprintf(err, errlen, "%sways=%" PRIu32 ": must be 1 to 64", prefix, ways);
		return -1;
	}
	if (!size || size % ((uint64_t)ways * line)) {
		snprintf(err, errlen, "%ssize=%" PRIu64 ": must be a multiple of ways x line (%" PRIu64 ")",
			 prefix, size, (uint64_t)ways * line);
		return -1;
	}
	if (size / ((uint64_t)ways * line) > (1u << 24)) {
		snprintf(err, errlen, "%ssize=%" PRIu64 ": more than 2^24 sets", prefix, size);
		return -1;
	}
	/* one 8-byte tag per line (per vCPU for the LLC, per node for a memory-side cache): 256 MiB at most */
	if (size / line * sizeof(uint64_t) > (256u << 20)) {
		snprintf(err, errlen, "%ssize=%" PRIu64 ": more than 2^25 lines (256 MiB of tags)",
			 prefix, size);
		return -1;
	}
	return 0;
}

int mt_llc_check(uint64_t size, uint32_t ways, uint32_t line, char *err, size_t errlen)
{
	return mt_cache_check("llc_", size, ways, line, err, errlen);
}

/* Every word of a cache may be shared between vCPU threads (memtiming.h): relaxed atomics. */
#define LD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define ST(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)

int mt_llc_init(struct mt_llc *c, uint64_t size, uint32_t ways, uint32_t line,
		char *err, size_t errlen)
{
	uint64_t sets;
	uint32_t shift = 0;

	memset(c, 0, sizeof(*c));
	if (mt_llc_check(size, ways, line, err, errlen))
		return -1;
	while ((1u << shift) < line)
		shift++;
	sets = size / ((uint64_t)ways * line);
	c->way = malloc(sets * ways * sizeof(*c->way));
	/* zeroed: a slot reserved by one thread and read by another before it is written says set 0 */
	c->touched = calloc(sets, sizeof(*c->touched));
	if (!c->way || !c->touched) {
		snprintf(err, errlen, "cache: out of memory for %" PRIu64 " sets of %" PRIu32 " ways", sets,
			 ways);
		mt_llc_free(c);
		return -1;
	}
	for (uint64_t i = 0; i < sets * ways; i++)
		c->way[i] = MT_LLC_EMPTY;
	c->sets = (uint32_t)sets;
	c->ways = ways;
	c->line_shift = shift;
	return 0;
}

void mt_llc_free(struct mt_llc *c)
{
	free(c->way);
	free(c->touched);
	memset(c, 0, sizeof(*c));
}

bool mt_llc_access(struct mt_llc *c, uint64_t addr, bool write, uint64_t *wb, bool *has_wb)
{
	uint64_t line = addr >> c->line_shift;
	uint32_t si = (uint32_t)(line % c->sets);
	uint64_t *set = c->way + (uint64_t)si * c->ways;
	uint64_t victim;
	uint32_t w, n;

	*has_wb = false;
	for (w = 0; w < c->ways; w++) {
		uint64_t x = LD(&set[w]);

		if (x != MT_LLC_EMPTY && x >> 1 == line) {
			/* to the front: most recently used first */
			for (uint32_t k = w; k > 0; k--)
				ST(&set[k], LD(&set[k - 1]));
			ST(&set[0], x | (write ? 1 : 0));
			return false;
		}
	}
	if (LD(&set[0]) == MT_LLC_EMPTY) {
		/* its first line: at most once a flush (a race may add it twice: bounded) */
		n = __atomic_fetch_add(&c->ntouched, 1, __ATOMIC_RELAXED);
		if (n < c->sets)
			ST(&c->touched[n], si);
	}
	victim = LD(&set[c->ways - 1]);
	if (victim != MT_LLC_EMPTY && (victim & 1)) {
		*wb = (victim >> 1) << c->line_shift;
		*has_wb = true;
	}
	for (uint32_t k = c->ways - 1; k > 0; k--)
		ST(&set[k], LD(&set[k - 1]));
	ST(&set[0], line << 1 | (write ? 1 : 0));
	return true;
}

/* Empties set @si, naming each dirty line; returns how many were dirty. */
static uint64_t flush_set(struct mt_llc *c, uint32_t si,
			  void (*writeback)(uint64_t offset, void *ctx), void *ctx)
{
	uint64_t *set = c->way + (uint64_t)si * c->ways, dirty = 0;

	for (uint32_t k = 0; k < c->ways; k++) {
		uint64_t w = LD(&set[k]);

		if (w == MT_LLC_EMPTY)
			continue;
		ST(&set[k], MT_LLC_EMPTY);
		if (w & 1) {
			dirty++;
			if (writeback)
				writeback((w >> 1) << c->line_shift, ctx);
		}
	}
	return dirty;
}

/* mt_llc_flush; @all: every set, not only those its list names */
static uint64_t llc_flush(struct mt_llc *c, bool all, void (*writeback)(uint64_t offset, void *ctx),
			  void *ctx)
{
	uint32_t n = __atomic_exchange_n(&c->ntouched, 0, __ATOMIC_RELAXED);
	uint64_t dirty = 0;

	if (all || n > c->sets) {
		/* a race lost track of a set: visit them all */
		for (uint32_t si = 0; si < c->sets; si++)
			dirty += flush_set(c, si, writeback, ctx);
		return dirty;
	}
	for (uint32_t t = 0; t < n; t++) {
		uint32_t si = LD(&c->touched[t]);

		if (si < c->sets)
			dirty += flush_set(c, si, writeback, ctx);
	}
	return dirty;
}

uint64_t mt_llc_flush(struct mt_llc *c, void (*writeback)(uint64_t offset, void *ctx), void *ctx)
{
	return llc_flush(c, false, writeback, ctx);
}

void mt_count_add(struct mt_count *t, const struct mt_count *c)
{
	t->reads += c->reads;
	t->writes += c->writes;
	t->misses += c->misses;
	t->writebacks += c->writebacks;
	for (int k = 0; k < MT_MSC_LEVELS; k++) {
		t->msc_hits[k] += c->msc_hits[k];
		t->msc_writebacks[k] += c->msc_writebacks[k];
	}
}

int mt_memside_init(struct mt_memside *s, const struct mt_config *cfg, char *err, size_t errlen)
{
	char why[200];

	memset(s, 0, sizeof(*s));
	for (int i = 0; cfg->msc_sim && i < cfg->map.n && i < MT_MAX_NODES; i++)
		for (int k = 0; k < MT_MSC_LEVELS && cfg->msc[i][k].size; k++) {
			const struct mt_msc_cfg *m = &cfg->msc[i][k];
			struct mt_msc_node *n = &s->node[i];

			if (mt_llc_init(&n->level[k], m->size, m->ways, m->line, why, sizeof(why))) {
				snprintf(err, errlen, "node %d's memory-side cache, level %d: %s",
					 cfg->map.node[i].id, k + 1, why);
				mt_memside_free(s);
				return -1;
			}
			n->wt[k] = m->write_through;
			n->nlevels = k + 1;
		}
	return 0;
}

void mt_memside_free(struct mt_memside *s)
{
	for (int i = 0; i < MT_MAX_NODES; i++)
		for (int k = 0; k < MT_MSC_LEVELS; k++)
			mt_llc_free(&s->node[i].level[k]);
	memset(s, 0, sizeof(*s));
}

int mt_hier_init(struct mt_hier *h, const struct mt_config *cfg, struct mt_memside *ms,
		 char *err, size_t errlen)
{
	memset(h, 0, sizeof(*h));
	h->ms = ms;
	return mt_llc_init(&h->llc, cfg->llc_size, cfg->llc_ways, cfg->llc_line, err, errlen);
}

void mt_hier_free(struct mt_hier *h)
{
	mt_llc_free(&h->llc);
	h->ms = NULL;
}

/*
 * A write of line @off into level @k (0-based) of node cache @n and on:
 * a write-back level takes it (its dirty victim goes on to the next), a
 * write-through one passes it on; past the last level it is the memory's.
 */
static void msc_write(struct mt_msc_node *n, int k, uint64_t off, struct mt_count *c)
{
	uint64_t wb;
	bool has_wb;

	for (; k < n->nlevels; k++) {
		if (!n->wt[k]) {
			mt_llc_access(&n->level[k], off, true, &wb, &has_wb);
			if (!has_wb)
				return;
			off = wb;
		}
		if (c)
			c->msc_writebacks[k]++;
	}
}

/*
 * A line the LLC wrote back, at RAM offset @off: into its node's
 * memory-side caches (@into), or through each of their levels to memory.
 */
static void hier_writeback(struct mt_hier *h, const struct mt_map *m, uint64_t off,
			   struct mt_count *cnt, bool into)
{
	int j = mt_map_offset(m, off);
	struct mt_msc_node *n;

	if (j < 0) {
		if (cnt)
			cnt[MT_NODE_NONE].writebacks++;
		return;
	}
	if (cnt)
		cnt[j].writebacks++;
	n = &h->ms->node[j];
	if (into) {
		msc_write(n, 0, off, cnt ? &cnt[j] : NULL);
		return;
	}
	for (int k = 0; k < n->nlevels && cnt; k++)
		cnt[j].msc_writebacks[k]++;
}

enum mt_level mt_hier_access(struct mt_hier *h, const struct mt_map *m, int i, uint64_t off,
			     bool store, struct mt_count *cnt)
{
	enum mt_level at = MT_AT_LLC;
	uint64_t wb, mwb;
	bool has_wb, has_mwb;

	if (mt_llc_access(&h->llc, off, store, &wb, &has_wb)) {
		struct mt_msc_node *n = &h->ms->node[i];

		cnt[i].misses++;
		at = MT_AT_MEMORY;
		/* the line is read from the node: its memory-side caches first (a store's too) */
		for (int k = 0; k < n->nlevels; k++) {
			bool hit = !mt_llc_access(&n->level[k], off, false, &mwb, &has_mwb);

			if (has_mwb) {
				cnt[i].msc_writebacks[k]++;
				msc_write(n, k + 1, mwb, &cnt[i]);
			}
			if (hit) {
				cnt[i].msc_hits[k]++;
				at = (enum mt_level)(MT_AT_MSC + k);
				break;
			}
		}
	}
	if (has_wb)
		hier_writeback(h, m, wb, cnt, true);
	return at;
}

struct hier_flush {
	struct mt_hier *h;
	const struct mt_map *m;
	struct mt_count *cnt;
	bool into;
};

static void flush_llc_line(uint64_t off, void *ctx)
{
	struct hier_flush *f = ctx;

	hier_writeback(f->h, f->m, off, f->cnt, f->into);
}

struct msc_flush {
	struct mt_msc_node *n;
	int next;		/* the level a dirty line goes to */
	struct mt_count *c;
};

static void flush_msc_line(uint64_t off, void *ctx)
{
	struct msc_flush *f = ctx;

	msc_write(f->n, f->next, off, f->c);
}

/*
 * Empties every node's memory-side caches, level 1 first, into @cnt (NULL:
 * not counted); @all: every set (at exit: a set whose entry in the list a
 * race lost is emptied too).
 */
static void memside_flush(struct mt_memside *s, const struct mt_map *m, struct mt_count *cnt, bool all)
{
	for (int i = 0; i < m->n && i < MT_MAX_NODES; i++) {
		struct mt_msc_node *n = &s->node[i];

		for (int k = 0; k < n->nlevels; k++) {
			struct msc_flush f = { n, k + 1, cnt ? &cnt[i] : NULL };
			uint64_t dirty = llc_flush(&n->level[k], all, flush_msc_line, &f);

			if (cnt)
				cnt[i].msc_writebacks[k] += dirty;
		}
	}
}

void mt_hier_flush(struct mt_hier *h, const struct mt_map *m, struct mt_count *cnt)
{
	struct hier_flush f = { h, m, cnt, true };

	mt_llc_flush(&h->llc, flush_llc_line, &f);
	memside_flush(h->ms, m, cnt, false);
}

void mt_memside_claim(struct mt_memside *s, const struct mt_map *m,
		      struct mt_count (*count)[MT_MAX_NODES + 1], unsigned int to)
{
	unsigned int q = __atomic_load_n(&s->phase, __ATOMIC_ACQUIRE);

	/* phases only grow: a vCPU late with an older @to leaves a newer phase alone */
	do
		if (q == to || (to && q > to))
			return;
	while (!__atomic_compare_exchange_n(&s->phase, &q, to, false, __ATOMIC_ACQ_REL,
					    __ATOMIC_ACQUIRE));
	memside_flush(s, m, q ? count[q - 1] : NULL, to == 0);
}

void mt_hier_settle(struct mt_hier *h, const struct mt_map *m,
		    struct mt_count (*count)[MT_MAX_NODES + 1], unsigned int from, unsigned int to)
{
	struct hier_flush f = { h, m, from ? count[from - 1] : NULL,
				from && __atomic_load_n(&h->ms->phase, __ATOMIC_ACQUIRE) == from };

	mt_llc_flush(&h->llc, flush_llc_line, &f);
	if (to)
		mt_memside_claim(h->ms, m, count, to);
}

uint64_t mt_delay_of(const struct mt_config *cfg, const uint64_t *delay_ns,
		     const uint64_t *msc_delay_ns, int i, enum mt_level at)
{
	if (at == MT_AT_LLC || i < 0 || i >= cfg->map.n)
		return 0;
	/* relaxed loads: the calibration rewrites the waits from another vCPU's thread */
	if (at == MT_AT_MSC && cfg->msc_lat_ns[i])
		return LD(&msc_delay_ns[i]);
	return LD(&delay_ns[i]);
}

/* A whole unsigned number (decimal or 0x hex); -1 if it is not one. */
static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

static int parse_node(const char *v, struct mt_node *n)
{
	char buf[96], *c1, *c2;
	uint64_t id;

	if (strlen(v) >= sizeof(buf))
		return -1;
	strcpy(buf, v);
	c1 = strchr(buf, ':');
	c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	if (!c2)
		return -1;
	*c1 = *c2 = '\0';
	if (parse_u64(buf, &id) || id >= 1024 || parse_u64(c1 + 1, &n->start) ||
	    parse_u64(c2 + 1, &n->size) || !n->size || n->start + n->size < n->start)
		return -1;
	n->id = (int)id;
	return 0;
}

/* "GPA:START:SIZE", size > 0, neither range past 2^64. */
static int parse_seg(const char *v, struct mt_seg *g)
{
	char buf[96], *c1, *c2;

	if (strlen(v) >= sizeof(buf))
		return -1;
	strcpy(buf, v);
	c1 = strchr(buf, ':');
	c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	if (!c2)
		return -1;
	*c1 = *c2 = '\0';
	if (parse_u64(buf, &g->gpa) || parse_u64(c1 + 1, &g->start) || parse_u64(c2 + 1, &g->size) ||
	    !g->size || g->gpa + g->size < g->gpa || g->start + g->size < g->start)
		return -1;
	return 0;
}

/*
 * Rule physical: each node's RAM offsets all in the gpa= ranges, which
 * hold no RAM offset twice.  0, or -1 with why in @err.
 */
static int segs_check(const struct mt_map *m, char *err, size_t errlen)
{
	for (int a = 0; a < m->nseg; a++)
		for (int b = a + 1; b < m->nseg; b++) {
			const struct mt_seg *x = &m->seg[a], *y = &m->seg[b];

			if (x->start < y->start + y->size && y->start < x->start + x->size) {
				snprintf(err, errlen, "gpa=0x%" PRIx64 ":0x%" PRIx64 ":0x%" PRIx64
					 " and gpa=0x%" PRIx64 ":0x%" PRIx64 ":0x%" PRIx64
					 ": the same RAM offsets at two addresses", x->gpa, x->start, x->size,
					 y->gpa, y->start, y->size);
				return -1;
			}
		}
	for (int i = 0; i < m->n; i++) {
		const struct mt_node *n = &m->node[i];
		uint64_t covered = 0;

		for (int k = 0; k < m->nseg; k++) {
			const struct mt_seg *g = &m->seg[k];
			uint64_t lo = g->start > n->start ? g->start : n->start;
			uint64_t hi = g->start + g->size < n->start + n->size ? g->start + g->size :
									       n->start + n->size;

			covered += hi > lo ? hi - lo : 0;
		}
		if (covered != n->size) {
			snprintf(err, errlen, "node %d: 0x%" PRIx64 " of its 0x%" PRIx64
				 " bytes (RAM offsets from 0x%" PRIx64 ") at no gpa= address", n->id,
				 n->size - covered, n->size, n->start);
			return -1;
		}
	}
	return 0;
}

/* "ID:NS": a node id and a latency of 1 ns to 100 us. */
static int parse_lat(const char *v, int *id, uint32_t *ns)
{
	char buf[48], *c;
	uint64_t a, b;

	if (strlen(v) >= sizeof(buf))
		return -1;
	strcpy(buf, v);
	c = strchr(buf, ':');
	if (!c)
		return -1;
	*c = '\0';
	if (parse_u64(buf, &a) || a >= 1024 || parse_u64(c + 1, &b) || !b || b > 100000)
		return -1;
	*id = (int)a;
	*ns = (uint32_t)b;
	return 0;
}

/* A list of ID:NS arguments (lat=, msc_lat=): each node at most once. */
struct lat_list {
	int id[MT_MAX_NODES], arg[MT_MAX_NODES], n;
	uint32_t ns[MT_MAX_NODES];
};

/*
 * Adds argument @i (@a, its value @v, key @key) to @l: 0, or -1 with the
 * reason in @err (@what names the latency: "latency", "cache latency").
 */
static int lat_list_add(struct lat_list *l, int i, const char *a, const char *v, const char *key,
			const char *what, char *err, size_t errlen)
{
	int id;
	uint32_t ns;

	if (l->n == MT_MAX_NODES || parse_lat(v, &id, &ns)) {
		snprintf(err, errlen, "argument %d '%s': want %s=ID:NS (1 to 100000 ns, at most %d)",
			 i + 1, a, key, MT_MAX_NODES);
		return -1;
	}
	for (int k = 0; k < l->n; k++)
		if (l->id[k] == id) {
			snprintf(err, errlen, "argument %d '%s': node %d's %s given twice", i + 1, a, id, what);
			return -1;
		}
	l->id[l->n] = id;
	l->ns[l->n] = ns;
	l->arg[l->n++] = i + 1;
	return 0;
}

/*
 * "ID:SIZE:WAYS:LINE:wb|wt" of key @key (msc, msc2, msc3), the cache's
 * geometry checked; 0, or -1 with why in @why.
 */
static int parse_msc(const char *key, const char *v, int *id, struct mt_msc_cfg *c, char *why,
		     size_t whylen)
{
	char buf[128], *f[5], *p, prefix[8];
	uint64_t a, ways, line;
	int n = 0;

	snprintf(why, whylen, "want %s=ID:SIZE:WAYS:LINE:wb|wt", key);
	if (strlen(v) >= sizeof(buf))
		return -1;
	strcpy(buf, v);
	for (p = buf; n < 5; n++) {
		f[n] = p;
		p = strchr(p, ':');
		if (!p)
			break;
		*p++ = '\0';
	}
	if (n != 4 || parse_u64(f[0], &a) || a >= 1024 || parse_u64(f[1], &c->size) ||
	    parse_u64(f[2], &ways) || ways > 64 || parse_u64(f[3], &line) || line > 4096 ||
	    (strcmp(f[4], "wb") && strcmp(f[4], "wt")))
		return -1;
	*id = (int)a;
	c->ways = (uint32_t)ways;
	c->line = (uint32_t)line;
	c->write_through = !strcmp(f[4], "wt");
	snprintf(prefix, sizeof(prefix), "%s_", key);
	return mt_cache_check(prefix, c->size, c->ways, c->line, why, whylen);
}

int mt_parse_args(int argc, char **argv, struct mt_config *cfg, char *err, size_t errlen)
{
	/* msc=, msc2=, msc3= by node id and level, resolved against the nodes at the end (any order) */
	int msc_id[MT_MAX_NODES * MT_MSC_LEVELS], nmsc = 0, msc_arg[MT_MAX_NODES * MT_MSC_LEVELS];
	int msc_level[MT_MAX_NODES * MT_MSC_LEVELS];
	struct mt_msc_cfg msc[MT_MAX_NODES * MT_MSC_LEVELS];
	static const char *const msc_key[MT_MSC_LEVELS] = { "msc", "msc2", "msc3" };
	bool have_rule = false;
	int gpa_arg = 0;	/* the last gpa= argument's number */
	/* lat= by node id, checked against the nodes at the end (any order) */
	struct lat_list lat = { .n = 0 };
	/* msc_lat= likewise */
	struct lat_list mlat = { .n = 0 };

	memset(cfg, 0, sizeof(*cfg));
	cfg->llc_size = MT_LLC_DEFAULT_SIZE;
	cfg->llc_ways = MT_LLC_DEFAULT_WAYS;
	cfg->llc_line = MT_LLC_DEFAULT_LINE;
	cfg->msc_sim = true;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');
		const char *v = eq ? eq + 1 : NULL;
		size_t kl = eq ? (size_t)(eq - a) : 0;
		uint64_t u;

#define KEY(k) (kl == sizeof(k) - 1 && !strncmp(a, k, kl))
		if (!eq) {
			snprintf(err, errlen, "argument %d '%s': not key=value", i + 1, a);
			return -1;
		} else if (KEY("out")) {
			if (!*v) {
				snprintf(err, errlen, "argument %d '%s': empty file name", i + 1, a);
				return -1;
			}
			cfg->out = v;
		} else if (KEY("rule")) {
			int r = 0;

			while (r < 3 && strcmp(v, mt_rule_names[r]))
				r++;
			if (r == 3) {
				snprintf(err, errlen, "argument %d '%s': rule is doubled, physical or plain",
					 i + 1, a);
				return -1;
			}
			cfg->map.rule = (enum mt_rule)r;
			have_rule = true;
		} else if (KEY("gpa")) {
			struct mt_seg *g = &cfg->map.seg[cfg->map.nseg];

			if (cfg->map.nseg == MT_MAX_SEGS) {
				snprintf(err, errlen, "argument %d '%s': more than %d gpa= ranges", i + 1, a,
					 MT_MAX_SEGS);
				return -1;
			}
			if (parse_seg(v, g)) {
				snprintf(err, errlen, "argument %d '%s': want gpa=GPA:START:SIZE (size > 0)",
					 i + 1, a);
				return -1;
			}
			if (cfg->map.nseg && g->gpa < g[-1].gpa + g[-1].size) {
				snprintf(err, errlen, "argument %d '%s': overlaps or precedes gpa=0x%" PRIx64,
					 i + 1, a, g[-1].gpa);
				return -1;
			}
			gpa_arg = i + 1;
			cfg->map.nseg++;
		} else if (KEY("node")) {
			struct mt_node *n = &cfg->map.node[cfg->map.n];
			const struct mt_node *prev = cfg->map.n ? n - 1 : NULL;

			if (cfg->map.n == MT_MAX_NODES) {
				snprintf(err, errlen, "argument %d '%s': more than %d nodes", i + 1, a,
					 MT_MAX_NODES);
				return -1;
			}
			if (parse_node(v, n)) {
				snprintf(err, errlen, "argument %d '%s': want node=ID:START:SIZE (size > 0)",
					 i + 1, a);
				return -1;
			}
			if (prev && n->start < prev->start + prev->size) {
				snprintf(err, errlen, "argument %d '%s': overlaps or precedes node %d",
					 i + 1, a, prev->id);
				return -1;
			}
			cfg->map.n++;
		} else if (KEY("llc_size") || KEY("llc_ways") || KEY("llc_line")) {
			if (parse_u64(v, &u) || !u || u > UINT32_MAX * (KEY("llc_size") ? 64ULL : 1)) {
				snprintf(err, errlen, "argument %d '%s': not a positive number", i + 1, a);
				return -1;
			}
			if (KEY("llc_size"))
				cfg->llc_size = u;
			else if (KEY("llc_ways"))
				cfg->llc_ways = (uint32_t)u;
			else
				cfg->llc_line = (uint32_t)u;
		} else if (KEY("delay")) {
			char *end;
			double d;

			errno = 0;
			d = strtod(v, &end);
			if (!*v || *end || errno || !(d >= 1 && d <= 1000)) {
				snprintf(err, errlen, "argument %d '%s': the dilation is a number from 1 to 1000",
					 i + 1, a);
				return -1;
			}
			cfg->dilation = d;
		} else if (KEY("lat")) {
			if (lat_list_add(&lat, i, a, v, "lat", "latency", err, errlen))
				return -1;
		} else if (KEY("msc_sim")) {
			if (strcmp(v, "0") && strcmp(v, "1")) {
				snprintf(err, errlen, "argument %d '%s': msc_sim is 0 or 1", i + 1, a);
				return -1;
			}
			cfg->msc_sim = !strcmp(v, "1");
		} else if (KEY("msc_lat")) {
			if (lat_list_add(&mlat, i, a, v, "msc_lat", "cache latency", err, errlen))
				return -1;
		} else if (KEY("msc") || KEY("msc2") || KEY("msc3")) {
			int level = KEY("msc") ? 1 : KEY("msc2") ? 2 : 3;
			char why[160];
			int id;

			if (nmsc == MT_MAX_NODES * MT_MSC_LEVELS) {
				snprintf(err, errlen, "argument %d '%s': more than %d memory-side caches", i + 1, a,
					 MT_MAX_NODES * MT_MSC_LEVELS);
				return -1;
			}
			if (parse_msc(msc_key[level - 1], v, &id, &msc[nmsc], why, sizeof(why))) {
				snprintf(err, errlen, "argument %d '%s': %s", i + 1, a, why);
				return -1;
			}
			for (int k = 0; k < nmsc; k++)
				if (msc_id[k] == id && msc_level[k] == level) {
					snprintf(err, errlen, "argument %d '%s': node %d's memory-side cache%s given twice",
						 i + 1, a, id, level == 1 ? "" : level == 2 ? " level 2" : " level 3");
					return -1;
				}
			msc_id[nmsc] = id;
			msc_level[nmsc] = level;
			msc_arg[nmsc++] = i + 1;
		} else {
			snprintf(err, errlen, "argument %d '%s': unknown key (out, rule, node, gpa, llc_size, llc_ways, llc_line, delay, lat, msc, msc2, msc3, msc_lat, msc_sim)",
				 i + 1, a);
			return -1;
		}
#undef KEY
	}
	if (!cfg->out || !have_rule || !cfg->map.n ||
	    (cfg->map.rule == MT_RULE_PHYSICAL && !cfg->map.nseg)) {
		snprintf(err, errlen, "missing %s", !cfg->out ? "out=FILE" :
			 !have_rule ? "rule=doubled|physical|plain" :
			 !cfg->map.n ? "node=ID:START:SIZE" : "gpa=GPA:START:SIZE (rule=physical)");
		return -1;
	}
	if (cfg->map.nseg && cfg->map.rule != MT_RULE_PHYSICAL) {
		snprintf(err, errlen, "argument %d 'gpa=...': a guest-physical range with rule=%s (physical only)",
			 gpa_arg, mt_rule_names[cfg->map.rule]);
		return -1;
	}
	if (cfg->map.nseg && segs_check(&cfg->map, err, errlen))
		return -1;
	if (lat.n && !cfg->dilation) {
		snprintf(err, errlen, "argument %d 'lat=...': a latency without delay=DILATION", lat.arg[0]);
		return -1;
	}
	if (mlat.n && !cfg->dilation) {
		snprintf(err, errlen, "argument %d 'msc_lat=...': a latency without delay=DILATION", mlat.arg[0]);
		return -1;
	}
	for (int k = 0; k < lat.n; k++) {
		int j = -1;

		for (int i = 0; i < cfg->map.n; i++)
			if (cfg->map.node[i].id == lat.id[k])
				j = i;
		if (j < 0) {
			snprintf(err, errlen, "argument %d 'lat=%d:%" PRIu32 "': no node=%d", lat.arg[k],
				 lat.id[k], lat.ns[k], lat.id[k]);
			return -1;
		}
		cfg->lat_ns[j] = lat.ns[k];
	}
	for (int k = 0; k < nmsc; k++) {
		int j = -1;

		for (int i = 0; i < cfg->map.n; i++)
			if (cfg->map.node[i].id == msc_id[k])
				j = i;
		if (j < 0) {
			snprintf(err, errlen, "argument %d '%s=%d:...': no node=%d", msc_arg[k],
				 msc_key[msc_level[k] - 1], msc_id[k], msc_id[k]);
			return -1;
		}
		if (msc[k].size >= cfg->map.node[j].size) {
			snprintf(err, errlen, "argument %d '%s=%d:%" PRIu64 ":...': not smaller than node %d's memory",
				 msc_arg[k], msc_key[msc_level[k] - 1], msc_id[k], msc[k].size, msc_id[k]);
			return -1;
		}
		cfg->msc[j][msc_level[k] - 1] = msc[k];
	}
	/* a node's levels are 1..n: a deeper one needs the one in front of it */
	for (int k = 0; k < nmsc; k++) {
		int j = 0;

		while (cfg->map.node[j].id != msc_id[k])
			j++;
		if (msc_level[k] > 1 && !cfg->msc[j][msc_level[k] - 2].size) {
			snprintf(err, errlen, "argument %d '%s=%d:...': node %d has no level-%d cache (%s=%d:...)",
				 msc_arg[k], msc_key[msc_level[k] - 1], msc_id[k], msc_id[k], msc_level[k] - 1,
				 msc_key[msc_level[k] - 2], msc_id[k]);
			return -1;
		}
	}
	for (int k = 0; k < mlat.n; k++) {
		int j = -1;

		for (int i = 0; i < cfg->map.n; i++)
			if (cfg->map.node[i].id == mlat.id[k])
				j = i;
		if (j < 0 || !cfg->msc[j][0].size) {
			snprintf(err, errlen, "argument %d 'msc_lat=%d:%" PRIu32 "': no %s=%d", mlat.arg[k],
				 mlat.id[k], mlat.ns[k], j < 0 ? "node" : "msc", mlat.id[k]);
			return -1;
		}
		cfg->msc_lat_ns[j] = mlat.ns[k];
	}
	for (int i = 0; cfg->dilation && i < cfg->map.n; i++)
		if (!cfg->lat_ns[i]) {
			snprintf(err, errlen, "missing lat=%d:NS (delay= needs every node's latency)",
				 cfg->map.node[i].id);
			return -1;
		}
	return 0;
}

uint64_t mt_delay_ns(double dilation, uint32_t lat_ns, double calib_ns)
{
	double d = dilation * lat_ns - (calib_ns > 0 ? calib_ns : 0);

	return d > 0 ? (uint64_t)llround(d) : 0;
}

bool mt_delay_feasible(double dilation, const uint32_t *lat_ns, int n, double calib_ns)
{
	if (n < 1)
		return false;
	for (int i = 0; i < n; i++)
		if (dilation * lat_ns[i] <= calib_ns)
			return false;
	return true;
}

static uint64_t add_capped(uint64_t a, uint64_t b, uint64_t cap)
{
	return a >= cap || b >= cap - a ? cap : a + b;
}

bool mt_pace_owe(struct mt_pace *p, uint64_t ns)
{
	p->pending += ns;
	return p->pending >= MT_PACE_EPOCH_NS;
}

uint64_t mt_pace_settle(struct mt_pace *p, uint64_t wall, uint64_t cpu)
{
	uint64_t use, pay;

	if (p->marked && wall > p->mark_wall) {
		uint64_t ran = cpu > p->mark_cpu ? cpu - p->mark_cpu : 0, run = wall - p->mark_wall;

		if (run > ran)
			p->credit = add_capped(p->credit, run - ran, MT_PACE_CREDIT_NS);
	}
	use = p->pending < p->credit ? p->pending : p->credit;
	p->credit -= use;
	pay = p->pending - use;
	p->pending = 0;
	return pay;
}

void mt_pace_mark(struct mt_pace *p, uint64_t wall_end, uint64_t cpu_end, uint64_t deadline)
{
	if (wall_end > deadline)
		p->credit = add_capped(p->credit, wall_end - deadline, MT_PACE_CREDIT_NS);
	p->mark_wall = wall_end;
	p->mark_cpu = cpu_end;
	p->marked = true;
}

enum mt_pace_act mt_pace_boundary(const struct mt_pace *p, unsigned int owed_in, unsigned int a)
{
	if (!p->pending || owed_in == a)
		return MT_PACE_KEEP;
	return a ? MT_PACE_DROP : MT_PACE_PAY;
}

double mt_calib_ns_per_miss(uint64_t host_ns, uint64_t misses)
{
	return misses ? (double)host_ns / (double)misses : -1;
}

static void count_line(FILE *f, size_t seq, const char *node, const struct mt_count *c)
{
	fprintf(f, "count phase=%zu node=%s reads=%" PRIu64 " writes=%" PRIu64
		" misses=%" PRIu64 " writebacks=%" PRIu64 " msc_hits=%" PRIu64
		" msc_writebacks=%" PRIu64 " msc2_hits=%" PRIu64 " msc2_writebacks=%" PRIu64
		" msc3_hits=%" PRIu64 " msc3_writebacks=%" PRIu64 "\n",
		seq, node, c->reads, c->writes, c->misses, c->writebacks, c->msc_hits[0],
		c->msc_writebacks[0], c->msc_hits[1], c->msc_writebacks[1], c->msc_hits[2],
		c->msc_writebacks[2]);
}

int mt_report_write(FILE *f, const struct mt_config *cfg, const struct mt_calib *calib,
		    const struct mt_phase *ph, size_t nphases, const struct mt_probe *pr,
		    size_t nprobes, uint64_t dropped)
{
	static const struct mt_calib none;
	fprintf(f, "tierlab-memtiming %d\n", MT_REPORT_VERSION);
	fprintf(f, "config rule=%s llc_size=%" PRIu64 " llc_ways=%" PRIu32 " llc_line=%" PRIu32
		" nodes=%d msc_sim=%d\n", mt_rule_names[cfg->map.rule], cfg->llc_size, cfg->llc_ways,
		cfg->llc_line, cfg->map.n, cfg->msc_sim ? 1 : 0);
	for (int i = 0; i < cfg->map.n; i++)
		fprintf(f, "node id=%d start=0x%" PRIx64 " size=0x%" PRIx64 "\n",
			cfg->map.node[i].id, cfg->map.node[i].start, cfg->map.node[i].size);
	for (int i = 0; i < cfg->map.n; i++)
		for (int k = 0; k < MT_MSC_LEVELS && cfg->msc[i][k].size; k++)
			fprintf(f, "msc id=%d level=%d size=%" PRIu64 " ways=%" PRIu32 " line=%" PRIu32
				" policy=%s\n", cfg->map.node[i].id, k + 1, cfg->msc[i][k].size,
				cfg->msc[i][k].ways, cfg->msc[i][k].line,
				cfg->msc[i][k].write_through ? "wt" : "wb");
	if (cfg->dilation) {
		if (!calib)
			calib = &none;
		fprintf(f, "delay dilation=%.6g calibrated=%d calib_phase=%u calib_host_ns=%" PRIu64
			" calib_misses=%" PRIu64 " calib_ns_per_miss=%.3f dropped_ns=%" PRIu64 "\n",
			cfg->dilation, calib->done ? 1 : 0, calib->phase, calib->host_ns, calib->misses,
			calib->done ? calib->ns_per_miss : 0.0, calib->dropped_ns);
		for (int i = 0; i < cfg->map.n; i++)
			fprintf(f, "lat id=%d ns=%" PRIu32 " delay_ns=%" PRIu64 "\n", cfg->map.node[i].id,
				cfg->lat_ns[i], mt_delay_ns(cfg->dilation, cfg->lat_ns[i],
							     calib->done ? calib->ns_per_miss : 0));
		for (int i = 0; i < cfg->map.n; i++)
			if (cfg->msc_lat_ns[i])
				fprintf(f, "msc_lat id=%d ns=%" PRIu32 " delay_ns=%" PRIu64 "\n",
					cfg->map.node[i].id, cfg->msc_lat_ns[i],
					mt_delay_ns(cfg->dilation, cfg->msc_lat_ns[i],
						    calib->done ? calib->ns_per_miss : 0));
	}
	for (size_t p = 0; p < nphases; p++) {
		char id[16];

		fprintf(f, "phase seq=%zu id=%u closed=%d io=%" PRIu64 "\n", p + 1, ph[p].id,
			ph[p].closed ? 1 : 0, ph[p].io);
		for (int i = 0; i < cfg->map.n; i++) {
			snprintf(id, sizeof(id), "%d", cfg->map.node[i].id);
			count_line(f, p + 1, id, &ph[p].count[i]);
		}
		count_line(f, p + 1, "none", &ph[p].count[MT_NODE_NONE]);
	}
	for (size_t k = 0; k < nprobes; k++)
		fprintf(f, "probe seq=%zu vaddr=0x%" PRIx64 " raw=0x%" PRIx64 " offset=0x%" PRIx64
			" node=%d\n", k + 1, pr[k].vaddr, pr[k].raw, pr[k].offset, pr[k].node);
	fprintf(f, "end phases=%zu probes=%zu dropped=%" PRIu64 "\n", nphases, nprobes, dropped);
	return ferror(f) ? -1 : 0;
}
