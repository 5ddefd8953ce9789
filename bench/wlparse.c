// SPDX-License-Identifier: GPL-2.0
#include "wlparse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- JSON ---- */

#define JSON_MAX_DEPTH 64

struct jp {
	const char *s, *p;
	char *err;
	size_t errlen;
	bool failed;
};

static void jp_fail(struct jp *jp, const char *what)
{
	if (!jp->failed)
		snprintf(jp->err, jp->errlen, "JSON offset %td: %s", jp->p - jp->s, what);
	jp->failed = true;
}

static void jp_ws(struct jp *jp)
{
	while (*jp->p == ' ' || *jp->p == '\t' || *jp->p == '\n' || *jp->p == '\r')
		jp->p++;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A string at jp->p (on the opening quote); \u escapes outside ASCII become '?'. */
static char *jp_string(struct jp *jp)
{
	const char *q = jp->p + 1;
	size_t cap = 16, len = 0;
	char *out = malloc(cap);

	if (!out) {
		jp_fail(jp, "out of memory");
		return NULL;
	}
	for (;;) {
		char c = *q++;

		if (!c || (unsigned char)c < 0x20) {
			jp->p = q - 1;
			jp_fail(jp, c ? "control character in string" : "unterminated string");
			free(out);
			return NULL;
		}
		if (c == '"')
			break;
		if (c == '\\') {
			char e = *q++;

			switch (e) {
			case '"': case '\\': case '/': c = e; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			case 'u': {
				int v = 0;

				for (int i = 0; i < 4; i++) {
					int h = hexval(q[i]);

					if (h < 0) {
						jp->p = q;
						jp_fail(jp, "bad \\u escape");
						free(out);
						return NULL;
					}
					v = v * 16 + h;
				}
				q += 4;
				c = v > 0 && v < 0x80 ? (char)v : '?';
				break;
			}
			default:
				jp->p = q - 1;
				jp_fail(jp, "bad escape in string");
				free(out);
				return NULL;
			}
		}
		if (len + 2 > cap) {
			char *bigger = realloc(out, cap * 2);

			if (!bigger) {
				jp_fail(jp, "out of memory");
				free(out);
				return NULL;
			}
			out = bigger;
			cap *= 2;
		}
		out[len++] = c;
	}
	out[len] = 0;
	jp->p = q;
	return out;
}

static bool jp_value(struct jp *jp, struct json *v, int depth);

static bool jp_grow(struct jp *jp, struct json *v, int *cap)
{
	if (v->n < *cap)
		return true;
	int ncap = *cap ? *cap * 2 : 8;
	struct json *items = realloc(v->items, (size_t)ncap * sizeof(*items));

	if (!items) {
		jp_fail(jp, "out of memory");
		return false;
	}
	v->items = items;
	if (v->type == JSON_OBJECT) {
		char **keys = realloc(v->keys, (size_t)ncap * sizeof(*keys));

		if (!keys) {
			jp_fail(jp, "out of memory");
			return false;
		}
		v->keys = keys;
	}
	*cap = ncap;
	return true;
}

static bool jp_container(struct jp *jp, struct json *v, int depth)
{
	bool obj = *jp->p == '{';
	char close = obj ? '}' : ']';
	int cap = 0;

	v->type = obj ? JSON_OBJECT : JSON_ARRAY;
	jp->p++;
	jp_ws(jp);
	if (*jp->p == close) {
		jp->p++;
		return true;
	}
	for (;;) {
		char *key = NULL;

		jp_ws(jp);
		if (obj) {
			if (*jp->p != '"') {
				jp_fail(jp, "expected a string key");
				return false;
			}
			key = jp_string(jp);
			if (!key)
				return false;
			jp_ws(jp);
			if (*jp->p != ':') {
				free(key);
				jp_fail(jp, "expected ':'");
				return false;
			}
			jp->p++;
		}
		if (!jp_grow(jp, v, &cap)) {
			free(key);
			return false;
		}
		memset(&v->items[v->n], 0, sizeof(v->items[0]));
		if (obj)
			v->keys[v->n] = key;
		v->n++;
		if (!jp_value(jp, &v->items[v->n - 1], depth + 1))
			return false;
		jp_ws(jp);
		if (*jp->p == ',') {
			jp->p++;
			continue;
		}
		if (*jp->p == close) {
			jp->p++;
			return true;
		}
		jp_fail(jp, obj ? "expected ',' or '}'" : "expected ',' or ']'");
		return false;
	}
}

static bool jp_literal(struct jp *jp, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(jp->p, word, n)) {
		jp_fail(jp, "expected a value");
		return false;
	}
	jp->p += n;
	return true;
}

static bool jp_value(struct jp *jp, struct json *v, int depth)
{
	if (depth > JSON_MAX_DEPTH) {
		jp_fail(jp, "nested too deeply");
		return false;
	}
	jp_ws(jp);
	switch (*jp->p) {
	case '{':
	case '[':
		return jp_container(jp, v, depth);
	case '"':
		v->type = JSON_STRING;
		v->string = jp_string(jp);
		return v->string != NULL;
	case 't':
		v->type = JSON_BOOL;
		v->number = 1;
		return jp_literal(jp, "true");
	case 'f':
		v->type = JSON_BOOL;
		return jp_literal(jp, "false");
	case 'n':
		v->type = JSON_NULL;
		return jp_literal(jp, "null");
	default: {
		char *end;
		size_t span = strspn(jp->p, "+-0123456789.eE");

		if (!span || (*jp->p != '-' && !isdigit((unsigned char)*jp->p))) {
			jp_fail(jp, "expected a value");
			return false;
		}
		errno = 0;
		v->type = JSON_NUMBER;
		v->number = strtod(jp->p, &end);
		if (end != jp->p + span) {
			jp_fail(jp, "malformed number");
			return false;
		}
		jp->p = end;
		return true;
	}
	}
}

static void json_release(struct json *j)
{
	free(j->string);
	for (int i = 0; i < j->n; i++) {
		if (j->keys)
			free(j->keys[i]);
		json_release(&j->items[i]);
	}
	free(j->keys);
	free(j->items);
}

void json_free(struct json *j)
{
	if (j) {
		json_release(j);
		free(j);
	}
}

struct json *json_parse(const char *text, char *err, size_t errlen)
{
	const char *start = strchr(text, '{');
	struct jp jp = { .s = text, .p = start, .err = err, .errlen = errlen };
	struct json *j;

	if (!start) {
		snprintf(err, errlen, "no JSON object in the text");
		return NULL;
	}
	j = calloc(1, sizeof(*j));
	if (!j) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (!jp_value(&jp, j, 0)) {
		json_free(j);
		return NULL;
	}
	return j;
}

const struct json *json_get(const struct json *j, const char *key)
{
	if (!j || j->type != JSON_OBJECT)
		return NULL;
	for (int i = 0; i < j->n; i++)
		if (!strcmp(j->keys[i], key))
			return &j->items[i];
	return NULL;
}

const struct json *json_path(const struct json *j, const char *path)
{
	char key[128];

	while (j && *path) {
		size_t n = strcspn(path, "/");

		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = 0;
		j = json_get(j, key);
		path += n + (path[n] == '/');
	}
	return j;
}

double json_number(const struct json *j, const char *path)
{
	const struct json *v = json_path(j, path);

	return v && v->type == JSON_NUMBER ? v->number : NAN;
}

/* ---- stress-ng YAML ---- */

/*
 * The shape stress-ng 0.15 writes:
 *   metrics:
 *       - stressor: vm
 *         bogo-ops: 74716
 *         bogo-ops-per-second-real-time: 37201.766566
 * Keys at a smaller indent than the entry end it.
 */
int sng_yaml_metrics(const char *yaml, struct sng_metrics *out, int max)
{
	const char *line = yaml;
	bool in = false, seen = false;
	int n = 0, entry_indent = -1;

	for (; *line; line += strcspn(line, "\n"), line += *line == '\n') {
		size_t len = strcspn(line, "\n");
		int indent = (int)strspn(line, " ");
		const char *p = line + indent;
		char key[48], val[64];

		if (indent == (int)len)
			continue;
		if (indent == 0) {
			in = !strncmp(line, "metrics:", 8);
			seen |= in;
			entry_indent = -1;
			continue;
		}
		if (!in)
			continue;
		if (sscanf(p, "- stressor: %47s", val) == 1) {
			if (n == max)
				break;
			memset(&out[n], 0, sizeof(out[n]));
			snprintf(out[n].stressor, sizeof(out[n].stressor), "%.47s", val);
			entry_indent = indent + 2;
			n++;
			continue;
		}
		if (!n || indent != entry_indent)
			continue;
		if (sscanf(p, "%47[^:]: %63s", key, val) == 2) {
			struct sng_metrics *m = &out[n - 1];
			char *end;
			double v = strtod(val, &end);

			if (end != val && !*end && m->nfields < SNG_MAX_FIELDS) {
				snprintf(m->names[m->nfields], sizeof(m->names[0]), "%s", key);
				m->values[m->nfields++] = v;
			}
		}
	}
	return seen ? n : -1;
}

double sng_field(const struct sng_metrics *m, const char *name)
{
	for (int i = 0; i < m->nfields; i++)
		if (!strcmp(m->names[i], name))
			return m->values[i];
	return NAN;
}

/* ---- ${NAME} ---- */

char *expand_vars(const char *in, const char *(*lookup)(const char *name),
		  char *err, size_t errlen)
{
	size_t cap = strlen(in) + 64, len = 0;
	char *out = malloc(cap);

	if (!out) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	bool line_start = true, comment = false;

	for (const char *p = in; *p;) {
		const char *add = p;
		size_t addlen = 1;

		if (line_start)
			comment = p[strspn(p, " \t")] == '#';
		line_start = *p == '\n';
		if (!comment && p[0] == '$' && p[1] == '{') {
			char name[64];
			size_t n = strspn(p + 2, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");

			if (p[2 + n] != '}' || n == 0 || n >= sizeof(name)) {
				snprintf(err, errlen, "bad or unterminated ${...} at \"%.20s\"", p);
				free(out);
				return NULL;
			}
			memcpy(name, p + 2, n);
			name[n] = 0;
			add = lookup(name);
			if (!add) {
				snprintf(err, errlen, "${%s} is not set", name);
				free(out);
				return NULL;
			}
			addlen = strlen(add);
			p += n + 3;
		} else {
			p++;
		}
		if (len + addlen + 1 > cap) {
			size_t ncap = (len + addlen + 1) * 2;
			char *bigger = realloc(out, ncap);

			if (!bigger) {
				snprintf(err, errlen, "out of memory");
				free(out);
				return NULL;
			}
			out = bigger;
			cap = ncap;
		}
		memcpy(out + len, add, addlen);
		len += addlen;
	}
	out[len] = 0;
	return out;
}
