// SPDX-License-Identifier: GPL-2.0
/*
 * meta.json in memory, as text and from its flattened keys: the one model
 * behind its writer (`labtool meta`, cmd_meta.c) and its readers (the
 * report and compare, through report_run.c).  The keys are lab/rundir/meta.h's.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meta.h"
#include "report.h"

const struct meta_key_info meta_keys[META_NR] = {
#define X(key, type, set_by, label) { #key, META_##type, META_SET_##set_by, label },
#define META_SET_ARG false
#define META_SET_SELF true
	META_KEYS(X)
#undef META_SET_SELF
#undef META_SET_ARG
#undef X
};

int meta_key_lookup(const char *name)
{
	for (int k = 0; k < META_NR; k++)
		if (!strcmp(meta_keys[k].name, name))
			return k;
	return -1;
}

/* A JSON number as the writer writes them: an integer, no sign but '-'. */
static bool whole_number(const char *s)
{
	char *end;

	if (!*s || (*s != '-' && (*s < '0' || *s > '9')))
		return false;
	errno = 0;
	(void)strtoll(s, &end, 10);
	return !*end && !errno && end != s + (*s == '-');
}

static void json_str(struct sbuf *b, const char *s)
{
	sb_putc(b, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			sb_printf(b, "\\%c", *p);
		else if (*p == '\n')
			sb_puts(b, "\\n");
		else if (*p == '\t')
			sb_puts(b, "\\t");
		else if (*p < 0x20)
			sb_printf(b, "\\u%04x", *p);
		else
			sb_putc(b, (char)*p);
	}
	sb_putc(b, '"');
}

char *meta_json(const struct meta *m)
{
	struct sbuf b = { 0 };
	const char *sep = "";

	sb_puts(&b, "{");
	for (int k = 0; k < META_NR; k++) {
		if (meta_keys[k].type == META_TOPOLOGIES) {
			if (!m->ntopo)
				continue;
			sb_printf(&b, "%s\n  \"%s\": [", sep, meta_keys[k].name);
			for (size_t i = 0; i < m->ntopo; i++) {
				sb_printf(&b, "%s\n    {\n      \"hash\": ", i ? "," : "");
				json_str(&b, m->topo[i].hash ? m->topo[i].hash : "");
				sb_puts(&b, ",\n      \"file\": ");
				json_str(&b, m->topo[i].file ? m->topo[i].file : "");
				sb_puts(&b, "\n    }");
			}
			sb_puts(&b, "\n  ]");
			sep = ",";
			continue;
		}
		if (!m->v[k])
			continue;
		sb_printf(&b, "%s\n  \"%s\": ", sep, meta_keys[k].name);
		if (meta_keys[k].type == META_NUM)
			sb_puts(&b, m->v[k]);
		else
			json_str(&b, m->v[k]);
		sep = ",";
	}
	sb_puts(&b, "\n}\n");
	return b.s;
}

/* Stores key k's value, checked against its type. */
static int meta_store(struct meta *m, int k, const char *value, char *err, size_t errlen)
{
	if (meta_keys[k].type == META_NUM && !whole_number(value)) {
		snprintf(err, errlen, "%s: '%s' is not a whole number", meta_keys[k].name, value);
		return -1;
	}
	free(m->v[k]);
	m->v[k] = xstrdup(value);
	return 0;
}

int meta_set(struct meta *m, const char *assignment, bool self_ok, char *err, size_t errlen)
{
	const char *eq = strchr(assignment, '=');
	char *name;
	int k;

	if (!eq || eq == assignment) {
		snprintf(err, errlen, "'%s': not KEY=VALUE", assignment);
		return -1;
	}
	name = xasprintf("%.*s", (int)(eq - assignment), assignment);
	k = meta_key_lookup(name);
	if (k < 0)
		snprintf(err, errlen, "'%s': not a meta.json key (lab/rundir/meta.h)", name);
	else if (meta_keys[k].type == META_TOPOLOGIES)
		snprintf(err, errlen, "%s: give each file as --topology FILE", name);
	else if (meta_keys[k].self && !self_ok)
		snprintf(err, errlen, "%s: set by labtool meta itself, not given to it", name);
	free(name);
	if (k < 0 || meta_keys[k].type == META_TOPOLOGIES || (meta_keys[k].self && !self_ok))
		return -1;
	return meta_store(m, k, eq + 1, err, errlen);
}

int meta_format_check(const struct kvlist *kv, const char *name, char *err, size_t errlen)
{
	const char *v = kv_get(kv, "meta_format");
	char *end;
	long f;

	if (!v)
		return 0;
	errno = 0;
	f = strtol(v, &end, 10);
	if (end != v && !*end && !errno && f > META_FORMAT) {
		snprintf(err, errlen, "%s: meta_format %ld is newer than this labtool reads (1 to %d): "
			 "a run of a newer lab?", name, f, META_FORMAT);
		return -1;
	}
	if (end == v || *end || errno || f < 1) {
		snprintf(err, errlen, "%s: meta_format: '%s' is not 1 to %d", name, v, META_FORMAT);
		return -1;
	}
	return (int)f;
}

/* "topologies.<i>.<field>" into m->topo[i]; -1 if the key is not of that shape. */
static int take_topology(struct meta *m, const char *key, const char *value)
{
	const char *p = key + strlen("topologies.");
	char *end;
	unsigned long i;

	if (*p < '0' || *p > '9')
		return -1;
	i = strtoul(p, &end, 10);
	if (*end != '.' || i >= 1024 || (strcmp(end + 1, "file") && strcmp(end + 1, "hash")))
		return -1;
	if (i >= m->ntopo) {
		m->topo = xrealloc(m->topo, (i + 1) * sizeof(*m->topo));
		memset(m->topo + m->ntopo, 0, (i + 1 - m->ntopo) * sizeof(*m->topo));
		m->ntopo = i + 1;
	}
	char **slot = !strcmp(end + 1, "file") ? &m->topo[i].file : &m->topo[i].hash;

	free(*slot);
	*slot = xstrdup(value);
	return 0;
}

int meta_from_kv(const struct kvlist *kv, const char *name, bool strict, struct meta *m,
		 char *err, size_t errlen)
{
	char why[256];

	if (meta_format_check(kv, name, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < kv->n; i++) {
		const char *key = kv->v[i].key, *value = kv->v[i].value;
		int k;

		if (!strncmp(key, "topologies.", 11)) {
			if (take_topology(m, key, value) == 0 || !strict)
				continue;
			snprintf(err, errlen, "%s: %s: not topologies.N.file or topologies.N.hash",
				 name, key);
			return -1;
		}
		k = meta_key_lookup(key);
		if (k < 0 || meta_keys[k].type == META_TOPOLOGIES) {
			if (!strict)
				continue;
			snprintf(err, errlen, "%s: '%s': not a meta.json key of format %d (lab/rundir/meta.h)",
				 name, key, META_FORMAT);
			return -1;
		}
		if (!*value)	/* null */
			continue;
		if (meta_store(m, k, value, why, sizeof(why)) < 0) {
			snprintf(err, errlen, "%s: %s", name, why);
			return -1;
		}
	}
	return 0;
}

void meta_free(struct meta *m)
{
	for (int k = 0; k < META_NR; k++)
		free(m->v[k]);
	for (size_t i = 0; i < m->ntopo; i++) {
		free(m->topo[i].file);
		free(m->topo[i].hash);
	}
	free(m->topo);
	*m = (struct meta){ 0 };
}

/* ---- SHA-256 (FIPS 180-4), for the topology files' hashes ---- */

static const uint32_t sha_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

static uint32_t ror(uint32_t x, int n)
{
	return x >> n | x << (32 - n);
}

static void sha_block(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], s[8];

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++)
		w[i] = w[i - 16] + (ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ w[i - 15] >> 3) +
		       w[i - 7] + (ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ w[i - 2] >> 10);
	memcpy(s, h, sizeof(s));
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = s[7] + (ror(s[4], 6) ^ ror(s[4], 11) ^ ror(s[4], 25)) +
			      ((s[4] & s[5]) ^ (~s[4] & s[6])) + sha_k[i] + w[i];
		uint32_t t2 = (ror(s[0], 2) ^ ror(s[0], 13) ^ ror(s[0], 22)) +
			      ((s[0] & s[1]) ^ (s[0] & s[2]) ^ (s[1] & s[2]));

		memmove(s + 1, s, 7 * sizeof(*s));
		s[4] += t1;
		s[0] = t1 + t2;
	}
	for (int i = 0; i < 8; i++)
		h[i] += s[i];
}

void meta_sha256(const void *data, size_t len, unsigned char out[32])
{
	uint32_t h[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	const unsigned char *p = data;
	unsigned char tail[128] = { 0 };
	size_t full = len / 64 * 64, rest = len - full, nt;
	uint64_t bits = (uint64_t)len * 8;

	for (size_t off = 0; off < full; off += 64)
		sha_block(h, p + off);
	if (rest)
		memcpy(tail, p + full, rest);
	tail[rest] = 0x80;
	nt = rest < 56 ? 64 : 128;
	for (int i = 0; i < 8; i++)
		tail[nt - 1 - i] = (unsigned char)(bits >> (8 * i));
	sha_block(h, tail);
	if (nt == 128)
		sha_block(h, tail + 64);
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 4; j++)
			out[4 * i + j] = (unsigned char)(h[i] >> (24 - 8 * j));
}
