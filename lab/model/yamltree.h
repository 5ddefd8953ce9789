/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The YAML schema engine under the topology files: libyaml events -> a
 * small tree that keeps every value's line and column, typed access to
 * values, and "FILE:LINE:COL: path: message" errors.  It knows nothing of
 * machines: lab/model/topology.c holds the schema and the machine model.
 */
#ifndef TIERLAB_YAMLTREE_H
#define TIERLAB_YAMLTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MAX_YNODES 20000	/* a topology has a few hundred values */
#define MAX_DEPTH 32
#define MAX_ERRORS 50

enum ytype { Y_SCALAR, Y_SEQ, Y_MAP };

struct ynode {
	enum ytype type;
	int line, col;		/* 1-based */
	char *str;		/* scalar value, NUL-terminated */
	bool plain;		/* unquoted scalar: numbers and null live here */
	struct ynode **item;	/* seq: items; map: key, value, key, value... */
	size_t n, cap;
};

struct yctx {
	const char *file;
	FILE *err;
	int nerr;
	size_t nynodes;
	struct ynode **all;	/* every node, to free them */
	size_t nall, capall;
	bool oom;		/* an allocation failed: not the file's fault */
};

/* tests only: make the Nth allocation of a load fail (0: never) */
extern unsigned long yaml_fail_alloc_at;
/* allocations so far; set to 0 at the start of each load */
extern unsigned long yaml_nalloc;

/* calloc, failing on purpose when yaml_fail_alloc_at says so */
void *ycalloc(size_t n, size_t size);

/* One error at a node (line 1 col 1 when NULL) or at a line and column. */
__attribute__((format(printf, 4, 5)))
void yerr_at(struct yctx *c, const struct ynode *at, const char *path, const char *fmt, ...);
__attribute__((format(printf, 5, 6)))
void yerr_lc(struct yctx *c, int line, int col, const char *path, const char *fmt, ...);

/*
 * The tree of the single document: its root, or NULL with the problem
 * reported.  yfree_all() frees every node of c.
 */
struct ynode *yload(struct yctx *c, const char *data, size_t len);
void yfree_all(struct yctx *c);

/*
 * A user string as it may appear in a message: quoted, bounded, printable;
 * SHOWN(s) with a buffer of its own.
 */
const char *yshown(const char *s, char *buf, size_t len);
#define SHOWN(s) yshown((s), (char[48]){ 0 }, 48)

/* "a list", "a mapping", "a scalar" or "a quoted string" */
const char *ytype_name(const struct ynode *y);
/* an empty, "~" or "null" plain scalar */
bool yis_null(const struct ynode *y);
/* a name safe in a QEMU command line: [A-Za-z0-9._-], not starting with . or - */
bool ysafe_name(const char *s);
/* free text that cannot be mistaken for shell or markup */
bool ysafe_text(const char *s);

/* A mapping's keys: plain scalars, known (keys, NULL-ended), each once. */
bool ycheck_map(struct yctx *c, const struct ynode *y, const char *path,
		const char *const *keys);
/* The value of key, NULL when absent or null. */
const struct ynode *ymap_get(const struct ynode *y, const char *key);
/* The value of key, or NULL after reporting that it is missing. */
const struct ynode *yrequire(struct yctx *c, const struct ynode *map,
			     const char *path, const char *key);

/* A path for messages, cut (never overflowing) when too long. */
__attribute__((format(printf, 3, 4)))
void ypathf(char *buf, size_t len, const char *fmt, ...);
#define PATH(buf, ...) ypathf((buf), sizeof(buf), __VA_ARGS__)

/* Strict unsigned decimal: digits only, no sign, no spaces, no overflow. */
int yparse_u64(const char *s, uint64_t *out);
/* An integer in [min, max]; what names it in the error. */
bool yget_int(struct yctx *c, const struct ynode *y, const char *path,
	      uint64_t min, uint64_t max, const char *what, uint64_t *out);
/* One of names[0..n); a near miss gets a "did you mean". */
bool yget_enum(struct yctx *c, const struct ynode *y, const char *path,
	       const char *const *names, size_t n, int *out);

#endif
