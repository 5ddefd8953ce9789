// SPDX-License-Identifier: GPL-2.0
#include "fmt.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BITS_PER_UL (8 * sizeof(unsigned long))

void ns_clear(struct nodeset *ns)
{
	memset(ns, 0, sizeof(*ns));
}

void ns_set(struct nodeset *ns, int node)
{
	if (node >= 0 && node < NODESET_MAX)
		ns->bits[node / BITS_PER_UL] |= 1UL << (node % BITS_PER_UL);
}

bool ns_has(const struct nodeset *ns, int node)
{
	if (node < 0 || node >= NODESET_MAX)
		return false;
	return ns->bits[node / BITS_PER_UL] >> (node % BITS_PER_UL) & 1;
}

int ns_count(const struct nodeset *ns)
{
	int n = 0;

	for (size_t i = 0; i < NODESET_LONGS; i++)
		n += __builtin_popcountl(ns->bits[i]);
	return n;
}

int ns_next(const struct nodeset *ns, int after)
{
	for (int n = after + 1; n < NODESET_MAX; n++)
		if (ns_has(ns, n))
			return n;
	return -1;
}

int ns_first(const struct nodeset *ns)
{
	return ns_next(ns, -1);
}

int ns_last(const struct nodeset *ns)
{
	int last = -1;

	ns_for_each(n, ns)
		last = n;
	return last;
}

bool ns_equal(const struct nodeset *a, const struct nodeset *b)
{
	return memcmp(a->bits, b->bits, sizeof(a->bits)) == 0;
}

bool ns_subset(const struct nodeset *a, const struct nodeset *of)
{
	for (size_t i = 0; i < NODESET_LONGS; i++)
		if (a->bits[i] & ~of->bits[i])
			return false;
	return true;
}

static int parse_id(const char **p, char *err, size_t errlen)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)**p)) {
		snprintf(err, errlen, "expected a node id at \"%s\"", *p);
		return -1;
	}
	errno = 0;
	v = strtol(*p, &end, 10);
	if (errno || v >= NODESET_MAX) {
		snprintf(err, errlen, "node id \"%.*s\" out of range 0..%d",
			 (int)(end - *p), *p, NODESET_MAX - 1);
		return -1;
	}
	*p = end;
	return (int)v;
}

int ns_parse(const char *s, struct nodeset *ns, char *err, size_t errlen)
{
	const char *p = s;

	ns_clear(ns);
	if (!*s) {
		snprintf(err, errlen, "empty node list");
		return -1;
	}
	for (;;) {
		int lo = parse_id(&p, err, errlen), hi;

		if (lo < 0)
			return -1;
		hi = lo;
		if (*p == '-') {
			p++;
			hi = parse_id(&p, err, errlen);
			if (hi < 0)
				return -1;
			if (hi < lo) {
				snprintf(err, errlen, "range %d-%d runs backwards", lo, hi);
				return -1;
			}
		}
		for (int n = lo; n <= hi; n++)
			ns_set(ns, n);
		if (!*p)
			return 0;
		if (*p != '+' && *p != ',') {
			snprintf(err, errlen, "unexpected '%c' in node list \"%s\"", *p, s);
			return -1;
		}
		p++;
	}
}

/*
 * Append "<sep><lo>" or "<sep><lo>-<hi>" (hi < 0: single id); keeps counting
 * past the end of the buffer like snprintf so callers learn the length.
 */
static int append_ids(char *buf, size_t len, int pos, char sep, int lo, int hi)
{
	size_t room = (size_t)pos < len ? len - (size_t)pos : 0;
	char *at = room ? buf + pos : NULL;
	int n;

	if (pos && hi >= 0)
		n = snprintf(at, room, "%c%d-%d", sep, lo, hi);
	else if (pos)
		n = snprintf(at, room, "%c%d", sep, lo);
	else if (hi >= 0)
		n = snprintf(at, room, "%d-%d", lo, hi);
	else
		n = snprintf(at, room, "%d", lo);
	return n < 0 ? pos : pos + n;
}

int ns_format_plus(const struct nodeset *ns, char *buf, size_t len)
{
	int pos = 0;

	if (len)
		buf[0] = 0;
	if (ns_first(ns) < 0)
		return snprintf(buf, len, "-");
	ns_for_each(n, ns)
		pos = append_ids(buf, len, pos, '+', n, -1);
	return pos;
}

int ns_format_pbl(const struct nodeset *ns, char *buf, size_t len)
{
	int pos = 0;

	if (len)
		buf[0] = 0;
	for (int n = ns_first(ns); n >= 0;) {
		int end = n;

		while (ns_has(ns, end + 1))
			end++;
		pos = append_ids(buf, len, pos, ',', n, end == n ? -1 : end);
		n = ns_next(ns, end);
	}
	return pos;
}

int model_hmat_parse(const char *s, long figs[MODEL_NODES][MODEL_FIGS], char *err,
		     size_t errlen)
{
	const char *p = s;

	for (int n = 0; n < MODEL_NODES; n++)
		for (int f = 0; f < MODEL_FIGS; f++)
			figs[n][f] = -1;
	if (!*p) {
		snprintf(err, errlen, "empty; want N=RL/WL/RB/WB,...");
		return -1;
	}
	while (*p) {
		const char *entry = p;
		long v[MODEL_FIGS];
		char *end;
		long node;

		if (*p < '0' || *p > '9')
			goto bad;
		node = strtol(p, &end, 10);
		if (*end != '=' || node >= MODEL_NODES)
			goto bad;
		p = end + 1;
		for (int f = 0; f < MODEL_FIGS; f++) {
			if (*p < '0' || *p > '9')
				goto bad;
			errno = 0;
			v[f] = strtol(p, &end, 10);
			if (errno || *end != (f + 1 < MODEL_FIGS ? '/' : *end) ||
			    (f + 1 == MODEL_FIGS && *end && *end != ','))
				goto bad;
			p = end + (f + 1 < MODEL_FIGS);
		}
		if (figs[node][0] >= 0) {
			snprintf(err, errlen, "node %ld given twice", node);
			return -1;
		}
		memcpy(figs[node], v, sizeof(v));
		if (*p == ',' && !*++p)
			goto bad;
		continue;
bad:
		snprintf(err, errlen, "bad entry at \"%.24s\"; want N=RL/WL/RB/WB with N < %d",
			 entry, MODEL_NODES);
		return -1;
	}
	return 0;
}

const char *cpu_problem(int cpu, const struct nodeset *present, const struct nodeset *online,
			char *buf, size_t len)
{
	char list[128];

	if (cpu < 0 || cpu >= NODESET_MAX || !ns_has(present, cpu)) {
		ns_format_pbl(present, list, sizeof(list));
		snprintf(buf, len, "no such CPU (present: %s)", ns_count(present) ? list : "none");
		return buf;
	}
	if (!ns_has(online, cpu)) {
		ns_format_pbl(online, list, sizeof(list));
		snprintf(buf, len, "CPU %d is offline (online: %s)", cpu,
			 ns_count(online) ? list : "none");
		return buf;
	}
	return NULL;
}

int fmt_value(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		return snprintf(buf, len, "nan");
	if (v == floor(v) && fabs(v) < 1e15)
		return snprintf(buf, len, "%.0f", v);
	return snprintf(buf, len, "%.6g", v);
}

bool fmt_token_ok(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if (*s == ' ' || *s == ',' || *s == '=' || *s == '\n' || *s == '\t')
			return false;
	return true;
}
