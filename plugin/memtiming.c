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
	/* one 8-byte tag per line and vCPU: at most 256 MiB of host memory each */
	if (size / line * sizeof(uint64_t) > (256u << 20)) {
		snprintf(err, errlen, "%ssize=%" PRIu64 ": more than 2^25 lines (256 MiB of tags per vCPU)",
			 prefix, size);
		return -1;
	}
	return 0;
}

int mt_llc_check(uint64_t size, uint32_t ways, uint32_t line, char *err, size_t errlen)
{
	return mt_cache_check("llc_", size, ways, line, err, errlen);
}

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
	c->touched = malloc(sets * sizeof(*c->touched));
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
	uint32_t w;

	*has_wb = false;
	for (w = 0; w < c->ways; w++) {
		if (set[w] != MT_LLC_EMPTY && set[w] >> 1 == line) {
			uint64_t hit = set[w] | (write ? 1 : 0);

			/* to the front: most recently used first */
			memmove(set + 1, set, w * sizeof(*set));
			set[0] = hit;
			return false;
		}
	}
	if (set[0] == MT_LLC_EMPTY)
		c->touched[c->ntouched++] = si;	/* its first line: at most once a flush */
	victim = set[c->ways - 1];
	if (victim != MT_LLC_EMPTY && (victim & 1)) {
		*wb = (victim >> 1) << c->line_shift;
		*has_wb = true;
	}
	memmove(set + 1, set, (c->ways - 1) * sizeof(*set));
	set[0] = line << 1 | (write ? 1 : 0);
	return true;
}

uint64_t mt_llc_flush(struct mt_llc *c, void (*writeback)(uint64_t offset, void *ctx), void *ctx)
{
	uint64_t dirty = 0;

	for (uint32_t t = 0; t < c->ntouched; t++) {
		uint64_t *set = c->way + (uint64_t)c->touched[t] * c->ways;

		for (uint32_t k = 0; k < c->ways; k++) {
			uint64_t w = set[k];

			if (w == MT_LLC_EMPTY)
				continue;
			if (w & 1) {
				dirty++;
				if (writeback)
					writeback((w >> 1) << c->line_shift, ctx);
			}
			set[k] = MT_LLC_EMPTY;
		}
	}
	c->ntouched = 0;
	return dirty;
}

int mt_hier_init(struct mt_hier *h, const struct mt_config *cfg, char *err, size_t errlen)
{
	char why[200];

	memset(h, 0, sizeof(*h));
	if (mt_llc_init(&h->llc, cfg->llc_size, cfg->llc_ways, cfg->llc_line, err, errlen))
		return -1;
	for (int i = 0; i < cfg->map.n; i++) {
		const struct mt_msc_cfg *m = &cfg->msc[i];

		if (!m->size)
			continue;
		if (mt_llc_init(&h->msc[i], m->size, m->ways, m->line, why, sizeof(why))) {
			snprintf(err, errlen, "node %d's memory-side cache: %s", cfg->map.node[i].id, why);
			mt_hier_free(h);
			return -1;
		}
		h->msc_wt[i] = m->write_through;
	}
	return 0;
}

void mt_hier_free(struct mt_hier *h)
{
	mt_llc_free(&h->llc);
	for (int i = 0; i < MT_MAX_NODES; i++)
		mt_llc_free(&h->msc[i]);
}

/* A line the LLC wrote back, at RAM offset @off: to its node's memory-side cache or memory. */
static void hier_writeback(struct mt_hier *h, const struct mt_map *m, uint64_t off,
			   struct mt_count *cnt)
{
	int j = mt_map_offset(m, off);
	uint64_t wb;
	bool has_wb;

	if (j < 0) {
		if (cnt)
			cnt[MT_NODE_NONE].writebacks++;
		return;
	}
	if (cnt)
		cnt[j].writebacks++;
	if (!h->msc[j].way)
		return;
	if (h->msc_wt[j]) {
		/* through to memory; a no-write-allocate cache is not written */
		if (cnt)
			cnt[j].msc_writebacks++;
		return;
	}
	mt_llc_access(&h->msc[j], off, true, &wb, &has_wb);
	if (has_wb && cnt)
		cnt[j].msc_writebacks++;
}

enum mt_level mt_hier_access(struct mt_hier *h, const struct mt_map *m, int i, uint64_t off,
			     bool store, struct mt_count *cnt)
{
	enum mt_level at = MT_AT_LLC;
	uint64_t wb, mwb;
	bool has_wb, has_mwb;

	if (mt_llc_access(&h->llc, off, store, &wb, &has_wb)) {
		cnt[i].misses++;
		at = MT_AT_MEMORY;
		/* the line is read from the node: its memory-side cache first (a store's too) */
		if (h->msc[i].way) {
			if (!mt_llc_access(&h->msc[i], off, false, &mwb, &has_mwb)) {
				cnt[i].msc_hits++;
				at = MT_AT_MSC;
			}
			if (has_mwb)
				cnt[i].msc_writebacks++;
		}
	}
	if (has_wb)
		hier_writeback(h, m, wb, cnt);
	return at;
}

struct hier_flush {
	struct mt_hier *h;
	const struct mt_map *m;
	struct mt_count *cnt;
};

static void flush_llc_line(uint64_t off, void *ctx)
{
	struct hier_flush *f = ctx;

	hier_writeback(f->h, f->m, off, f->cnt);
}

void mt_hier_flush(struct mt_hier *h, const struct mt_map *m, struct mt_count *cnt)
{
	struct hier_flush f = { h, m, cnt };

	mt_llc_flush(&h->llc, flush_llc_line, &f);
	for (int i = 0; i < m->n && i < MT_MAX_NODES; i++) {
		uint64_t dirty;

		if (!h->msc[i].way)
			continue;
		dirty = mt_llc_flush(&h->msc[i], NULL, NULL);
		if (cnt)
			cnt[i].msc_writebacks += dirty;
	}
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

/* "ID:SIZE:WAYS:LINE:wb|wt", the cache's geometry checked; 0, or -1 with why in @why. */
static int parse_msc(const char *v, int *id, struct mt_msc_cfg *c, char *why, size_t whylen)
{
	char buf[128], *f[5], *p;
	uint64_t a, ways, line;
	int n = 0;

	snprintf(why, whylen, "want msc=ID:SIZE:WAYS:LINE:wb|wt");
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
	return mt_cache_check("msc_", c->size, c->ways, c->line, why, whylen);
}

int mt_parse_args(int argc, char **argv, struct mt_config *cfg, char *err, size_t errlen)
{
	/* msc= by node id, resolved against the nodes at the end (any order) */
	int msc_id[MT_MAX_NODES], nmsc = 0, msc_arg[MT_MAX_NODES];
	struct mt_msc_cfg msc[MT_MAX_NODES];
	bool have_rule = false;
	int gpa_arg = 0;	/* the last gpa= argument's number */
	/* lat= by node id, checked against the nodes at the end (any order) */
	int lat_id[MT_MAX_NODES], nlat = 0, lat_arg[MT_MAX_NODES];
	uint32_t lat_ns[MT_MAX_NODES];

	memset(cfg, 0, sizeof(*cfg));
	cfg->llc_size = MT_LLC_DEFAULT_SIZE;
	cfg->llc_ways = MT_LLC_DEFAULT_WAYS;
	cfg->llc_line = MT_LLC_DEFAULT_LINE;
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
			int id;
			uint32_t ns;

			if (nlat == MT_MAX_NODES || parse_lat(v, &id, &ns)) {
				snprintf(err, errlen, "argument %d '%s': want lat=ID:NS (1 to 100000 ns, at most %d)",
					 i + 1, a, MT_MAX_NODES);
				return -1;
			}
			for (int k = 0; k < nlat; k++)
				if (lat_id[k] == id) {
					snprintf(err, errlen, "argument %d '%s': node %d's latency given twice",
						 i + 1, a, id);
					return -1;
				}
			lat_id[nlat] = id;
			lat_ns[nlat] = ns;
			lat_arg[nlat++] = i + 1;
		} else if (KEY("msc")) {
			char why[160];
			int id;

			if (nmsc == MT_MAX_NODES) {
				snprintf(err, errlen, "argument %d '%s': more than %d memory-side caches", i + 1, a,
					 MT_MAX_NODES);
				return -1;
			}
			if (parse_msc(v, &id, &msc[nmsc], why, sizeof(why))) {
				snprintf(err, errlen, "argument %d '%s': %s", i + 1, a, why);
				return -1;
			}
			for (int k = 0; k < nmsc; k++)
				if (msc_id[k] == id) {
					snprintf(err, errlen, "argument %d '%s': node %d's memory-side cache given twice",
						 i + 1, a, id);
					return -1;
				}
			msc_id[nmsc] = id;
			msc_arg[nmsc++] = i + 1;
		} else {
			snprintf(err, errlen, "argument %d '%s': unknown key (out, rule, node, gpa, llc_size, llc_ways, llc_line, delay, lat, msc)",
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
	if (nlat && !cfg->dilation) {
		snprintf(err, errlen, "argument %d 'lat=...': a latency without delay=DILATION", lat_arg[0]);
		return -1;
	}
	for (int k = 0; k < nlat; k++) {
		int j = -1;

		for (int i = 0; i < cfg->map.n; i++)
			if (cfg->map.node[i].id == lat_id[k])
				j = i;
		if (j < 0) {
			snprintf(err, errlen, "argument %d 'lat=%d:%" PRIu32 "': no node=%d", lat_arg[k],
				 lat_id[k], lat_ns[k], lat_id[k]);
			return -1;
		}
		cfg->lat_ns[j] = lat_ns[k];
	}
	for (int k = 0; k < nmsc; k++) {
		int j = -1;

		for (int i = 0; i < cfg->map.n; i++)
			if (cfg->map.node[i].id == msc_id[k])
				j = i;
		if (j < 0) {
			snprintf(err, errlen, "argument %d 'msc=%d:...': no node=%d", msc_arg[k], msc_id[k],
				 msc_id[k]);
			return -1;
		}
		if (msc[k].size >= cfg->map.node[j].size) {
			snprintf(err, errlen, "argument %d 'msc=%d:%" PRIu64 ":...': not smaller than node %d's memory",
				 msc_arg[k], msc_id[k], msc[k].size, msc_id[k]);
			return -1;
		}
		if (cfg->dilation) {
			snprintf(err, errlen, "argument %d 'msc=%d:...': delay= does not model memory-side caches (count only)",
				 msc_arg[k], msc_id[k]);
			return -1;
		}
		cfg->msc[j] = msc[k];
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
		" msc_writebacks=%" PRIu64 "\n",
		seq, node, c->reads, c->writes, c->misses, c->writebacks, c->msc_hits,
		c->msc_writebacks);
}

int mt_report_write(FILE *f, const struct mt_config *cfg, const struct mt_calib *calib,
		    const struct mt_phase *ph, size_t nphases, const struct mt_probe *pr,
		    size_t nprobes, uint64_t dropped)
{
	static const struct mt_calib none;
	fprintf(f, "tierlab-memtiming %d\n", MT_REPORT_VERSION);
	fprintf(f, "config rule=%s llc_size=%" PRIu64 " llc_ways=%" PRIu32 " llc_line=%" PRIu32
		" nodes=%d\n", mt_rule_names[cfg->map.rule], cfg->llc_size, cfg->llc_ways,
		cfg->llc_line, cfg->map.n);
	for (int i = 0; i < cfg->map.n; i++)
		fprintf(f, "node id=%d start=0x%" PRIx64 " size=0x%" PRIx64 "\n",
			cfg->map.node[i].id, cfg->map.node[i].start, cfg->map.node[i].size);
	for (int i = 0; i < cfg->map.n; i++)
		if (cfg->msc[i].size)
			fprintf(f, "msc id=%d size=%" PRIu64 " ways=%" PRIu32 " line=%" PRIu32 " policy=%s\n",
				cfg->map.node[i].id, cfg->msc[i].size, cfg->msc[i].ways, cfg->msc[i].line,
				cfg->msc[i].write_through ? "wt" : "wb");
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
