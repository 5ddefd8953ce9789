// SPDX-License-Identifier: GPL-2.0
/*
 * The YAML schema engine (yamltree.h): a tree of the document with every
 * value's mark, typed access, and errors as "FILE:LINE:COL: path: message",
 * all of them reported, not only the first.  Input is untrusted: depth,
 * node count and error count are bounded.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "yamltree.h"

unsigned long yaml_fail_alloc_at;
unsigned long yaml_nalloc;

/*
 * The parser's own allocations.  yaml_fail_alloc_at = N (tests only) makes
 * the Nth of them fail, so that every out-of-memory path can be walked.
 */
static bool alloc_fails(void)
{
	return yaml_fail_alloc_at && ++yaml_nalloc == yaml_fail_alloc_at;
}

void *ycalloc(size_t n, size_t size)
{
	return alloc_fails() ? NULL : calloc(n, size);
}

static void *yrealloc(void *p, size_t n)
{
	return alloc_fails() ? NULL : realloc(p, n);
}

static void verr(struct yctx *c, int line, int col, const char *path,
		 const char *fmt, va_list ap)
{
	c->nerr++;
	if (c->nerr > MAX_ERRORS)
		return;
	if (c->nerr == MAX_ERRORS) {
		fprintf(c->err, "%s:%d:%d: %s: too many errors, stopping here\n",
			c->file, line, col, path);
		return;
	}
	fprintf(c->err, "%s:%d:%d: %s: ", c->file, line, col, path);
	vfprintf(c->err, fmt, ap);
	fputc('\n', c->err);
}

void yerr_at(struct yctx *c, const struct ynode *at, const char *path,
		   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(c, at ? at->line : 1, at ? at->col : 1, path, fmt, ap);
	va_end(ap);
}

void yerr_lc(struct yctx *c, int line, int col, const char *path,
		   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(c, line, col, path, fmt, ap);
	va_end(ap);
}

/*
 * A user string as it may appear in a message: quoted, bounded, printable.
 * Each character takes 1 byte or 4 (\xNN); 4 more are kept for the "..",
 * the closing quote and the NUL.
 */
const char *yshown(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	if (len < 8) {
		if (len)
			buf[0] = 0;
		return buf;
	}
	buf[o++] = '\'';
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		bool plain = ch >= 0x20 && ch < 0x7f && ch != '\'' && ch != '\\';

		if (o + (plain ? 1 : 4) + 4 > len)
			break;
		if (plain)
			buf[o++] = (char)ch;
		else
			o += (size_t)snprintf(buf + o, len - o, "\\x%02x", ch);
	}
	if (*s) {
		buf[o++] = '.';
		buf[o++] = '.';
	}
	buf[o++] = '\'';
	buf[o] = 0;
	return buf;
}

static struct ynode *ynew(struct yctx *c, enum ytype type, const yaml_mark_t *m)
{
	struct ynode *y;

	if (c->nynodes >= MAX_YNODES)
		return NULL;
	if (c->nall == c->capall) {
		size_t cap = c->capall ? 2 * c->capall : 64;
		struct ynode **p = yrealloc(c->all, cap * sizeof(*p));

		if (!p) {
			c->oom = true;
			return NULL;
		}
		c->all = p;
		c->capall = cap;
	}
	y = ycalloc(1, sizeof(*y));
	if (!y) {
		c->oom = true;
		return NULL;
	}
	y->type = type;
	y->line = (int)m->line + 1;
	y->col = (int)m->column + 1;
	c->all[c->nall++] = y;
	c->nynodes++;
	return y;
}

static int yappend(struct ynode *parent, struct ynode *child)
{
	if (parent->n == parent->cap) {
		size_t cap = parent->cap ? 2 * parent->cap : 8;
		struct ynode **p = yrealloc(parent->item, cap * sizeof(*p));

		if (!p)
			return -1;
		parent->item = p;
		parent->cap = cap;
	}
	parent->item[parent->n++] = child;
	return 0;
}

void yfree_all(struct yctx *c)
{
	for (size_t i = 0; i < c->nall; i++) {
		free(c->all[i]->str);
		free(c->all[i]->item);
		free(c->all[i]);
	}
	free(c->all);
	c->all = NULL;
	c->nall = c->capall = 0;
}

/*
 * Builds the tree of the single document.  Returns the root, or NULL with
 * the problem reported (syntax error, empty file, several documents,
 * aliases, resource limits).
 */
struct ynode *yload(struct yctx *c, const char *data, size_t len)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	struct ynode *stack[MAX_DEPTH], *root = NULL;
	int depth = 0, ndocs = 0;
	bool done = false, failed = false;

	if (!yaml_parser_initialize(&parser)) {
		c->oom = true;
		yerr_lc(c, 1, 1, "topology", "out of memory");
		return NULL;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)data, len);
	while (!done && !failed) {
		struct ynode *y = NULL;

		if (!yaml_parser_parse(&parser, &ev)) {
			const yaml_mark_t *m = &parser.problem_mark;

			if (parser.context)
				yerr_lc(c, (int)m->line + 1, (int)m->column + 1,
				       "syntax", "%s %s (line %d)", parser.problem,
				       parser.context,
				       (int)parser.context_mark.line + 1);
			else
				yerr_lc(c, (int)m->line + 1, (int)m->column + 1,
				       "syntax", "%s",
				       parser.problem ? parser.problem : "invalid YAML");
			failed = true;
			break;
		}
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++ndocs > 1) {
				yerr_lc(c, (int)ev.start_mark.line + 1,
				       (int)ev.start_mark.column + 1, "topology",
				       "only one YAML document is allowed");
				failed = true;
			}
			break;
		case YAML_ALIAS_EVENT:
			yerr_lc(c, (int)ev.start_mark.line + 1,
			       (int)ev.start_mark.column + 1, "topology",
			       "YAML aliases (*name) are not allowed");
			failed = true;
			break;
		case YAML_SCALAR_EVENT:
			y = ynew(c, Y_SCALAR, &ev.start_mark);
			if (y) {
				y->str = alloc_fails() ? NULL :
					 strndup((const char *)ev.data.scalar.value,
						 ev.data.scalar.length);
				y->plain = ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
				if (!y->str)
					y = NULL, c->oom = true;
				/* embedded NULs would hide the rest of the value */
				else if (strlen(y->str) != ev.data.scalar.length)
					y->plain = false, y->str[0] = '\x01';
			}
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			y = ynew(c, ev.type == YAML_SEQUENCE_START_EVENT ? Y_SEQ : Y_MAP,
				 &ev.start_mark);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		default:
			break;
		}
		if (!failed && (ev.type == YAML_SCALAR_EVENT ||
				ev.type == YAML_SEQUENCE_START_EVENT ||
				ev.type == YAML_MAPPING_START_EVENT)) {
			if (!y && c->oom) {
				yerr_lc(c, (int)ev.start_mark.line + 1,
				       (int)ev.start_mark.column + 1, "topology", "out of memory");
				failed = true;
			} else if (!y) {
				yerr_lc(c, (int)ev.start_mark.line + 1,
				       (int)ev.start_mark.column + 1, "topology",
				       "too large (more than %d values)", MAX_YNODES);
				failed = true;
			} else if (depth > 0 && yappend(stack[depth - 1], y)) {
				c->oom = true;
				yerr_lc(c, y->line, y->col, "topology", "out of memory");
				failed = true;
			} else {
				if (depth == 0)
					root = y;
				if (y->type != Y_SCALAR) {
					if (depth >= MAX_DEPTH) {
						yerr_lc(c, y->line, y->col, "topology",
						       "nested more than %d levels deep",
						       MAX_DEPTH);
						failed = true;
					} else {
						stack[depth++] = y;
					}
				}
			}
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
	if (failed)
		return NULL;
	if (!root) {
		yerr_lc(c, 1, 1, "topology", "file is empty");
		return NULL;
	}
	return root;
}

/* ---- typed access to values ------------------------------------------ */

const char *ytype_name(const struct ynode *y)
{
	if (y->type == Y_SEQ)
		return "a list";
	if (y->type == Y_MAP)
		return "a mapping";
	return y->plain ? "a scalar" : "a quoted string";
}

bool yis_null(const struct ynode *y)
{
	return y->type == Y_SCALAR && y->plain &&
	       (!y->str[0] || !strcmp(y->str, "~") || !strcmp(y->str, "null"));
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[32];

	if (la >= 32 || lb >= 32)
		return 99;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* The closest of names to s, if it is close enough to be a typo. */
static const char *did_you_mean(const char *s, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t bestd = 3;

	for (size_t i = 0; i < n; i++) {
		size_t d;

		if (!names[i])
			continue;
		d = edit_distance(s, names[i]);
		if (d < bestd || (d == bestd && !best && d <= strlen(names[i]) / 3)) {
			if (d < 3 && d <= (strlen(names[i]) + 1) / 2) {
				best = names[i];
				bestd = d;
			}
		}
	}
	return best;
}

static size_t nnames(const char *const *names)
{
	size_t n = 0;

	while (names[n])
		n++;
	return n;
}

bool ysafe_name(const char *s)
{
	if (!*s || *s == '.' || *s == '-')
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '.' || *s == '_' || *s == '-'))
			return false;
	return true;
}

/* Free text that still cannot be mistaken for shell or markup. */
bool ysafe_text(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr(" ._,:()/+%=@-", *s)))
			return false;
	return true;
}

/*
 * Checks a mapping's keys: plain scalars, known, each once.  Returns false
 * (and reports) if y is not a mapping at all.
 */
bool ycheck_map(struct yctx *c, const struct ynode *y, const char *path,
		      const char *const *keys)
{
	char kp[160];

	if (y->type != Y_MAP) {
		yerr_at(c, y, path, "must be a mapping, got %s", ytype_name(y));
		return false;
	}
	for (size_t i = 0; i + 1 < y->n; i += 2) {
		const struct ynode *k = y->item[i];
		bool known = false;

		if (k->type != Y_SCALAR) {
			yerr_at(c, k, path, "keys must be plain words, got %s",
			       ytype_name(k));
			continue;
		}
		for (size_t j = 0; keys[j]; j++)
			known |= !strcmp(k->str, keys[j]);
		snprintf(kp, sizeof(kp), "%s%s%s", path, *path ? "." : "", k->str);
		if (!known) {
			const char *sug = did_you_mean(k->str, keys, nnames(keys));

			if (strlen(k->str) > 40 || !ysafe_name(k->str))
				snprintf(kp, sizeof(kp), "%s", *path ? path : "topology");
			if (sug)
				yerr_at(c, k, kp, "unknown key %s (did you mean '%s'?)",
				       SHOWN(k->str), sug);
			else
				yerr_at(c, k, kp, "unknown key %s", SHOWN(k->str));
			continue;
		}
		for (size_t j = 0; j < i; j += 2) {
			const struct ynode *o = y->item[j];

			if (o->type == Y_SCALAR && !strcmp(o->str, k->str)) {
				yerr_at(c, k, kp, "duplicate key (first at line %d)",
				       o->line);
				break;
			}
		}
	}
	return true;
}

/* Where key stands in the mapping y, or -1. */
static long ymap_index(const struct ynode *y, const char *key)
{
	if (!y || y->type != Y_MAP)
		return -1;
	for (size_t i = 0; i + 1 < y->n; i += 2)
		if (y->item[i]->type == Y_SCALAR && !strcmp(y->item[i]->str, key))
			return (long)i;
	return -1;
}

/* The key node, for marks of "present but empty" values. */
static const struct ynode *ymap_key(const struct ynode *y, const char *key)
{
	long i = ymap_index(y, key);

	return i < 0 ? NULL : y->item[i];
}

/* The value of key, NULL when absent or null. */
const struct ynode *ymap_get(const struct ynode *y, const char *key)
{
	long i = ymap_index(y, key);

	return i < 0 || yis_null(y->item[i + 1]) ? NULL : y->item[i + 1];
}

/*
 * Joins a path.  The schema bounds the depth and the key names, so 160
 * bytes fit; a longer path would be cut, never overflow.
 */
void ypathf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vsnprintf(buf, len, fmt, ap) < 0 && len)
		buf[0] = 0;
	va_end(ap);
}

const struct ynode *yrequire(struct yctx *c, const struct ynode *map,
				   const char *path, const char *key)
{
	const struct ynode *v = ymap_get(map, key);
	char p[160];

	if (!v) {
		const struct ynode *k = ymap_key(map, key);

		PATH(p, "%s%s%s", path, *path ? "." : "", key);
		yerr_at(c, k ? k : map, p, k ? "must not be empty" :
		       "missing required field");
	}
	return v;
}

/* Strict unsigned decimal: digits only, no sign, no spaces, no overflow. */
int yparse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

bool yget_int(struct yctx *c, const struct ynode *y, const char *path,
		    uint64_t min, uint64_t max, const char *what, uint64_t *out)
{
	uint64_t v;

	if (y->type != Y_SCALAR || !y->plain) {
		yerr_at(c, y, path, "must be %s, got %s", what, ytype_name(y));
		return false;
	}
	if (y->str[0] == '-' && !yparse_u64(y->str + 1, &v)) {
		if (min == 1)
			yerr_at(c, y, path, "must be > 0");
		else
			yerr_at(c, y, path, "must be >= %llu", (unsigned long long)min);
		return false;
	}
	if (yparse_u64(y->str, &v)) {
		yerr_at(c, y, path, "must be %s, got %s", what, SHOWN(y->str));
		return false;
	}
	if (v < min) {
		if (min == 1)
			yerr_at(c, y, path, "must be > 0");
		else
			yerr_at(c, y, path, "must be >= %llu", (unsigned long long)min);
		return false;
	}
	if (v > max) {
		yerr_at(c, y, path, "must be <= %llu", (unsigned long long)max);
		return false;
	}
	*out = v;
	return true;
}

bool yget_enum(struct yctx *c, const struct ynode *y, const char *path,
		     const char *const *names, size_t n, int *out)
{
	const char *sug;

	if (y->type != Y_SCALAR) {
		yerr_at(c, y, path, "must be one of the names below, got %s",
		       ytype_name(y));
		return false;
	}
	for (size_t i = 0; i < n; i++)
		if (!strcmp(y->str, names[i])) {
			*out = (int)i;
			return true;
		}
	sug = did_you_mean(y->str, names, n);
	{
		char list[96] = "";
		size_t o = 0;

		for (size_t i = 0; i < n && o < sizeof(list); i++)
			o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s",
					      i ? ", " : "", names[i]);
		if (sug)
			yerr_at(c, y, path, "unknown value %s (did you mean '%s'?)",
			       SHOWN(y->str), sug);
		else
			yerr_at(c, y, path, "unknown value %s (one of: %s)",
			       SHOWN(y->str), list);
	}
	return false;
}
