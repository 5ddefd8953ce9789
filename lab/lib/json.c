// SPDX-License-Identifier: GPL-2.0
/*
 * JSON flattened into key=value pairs, enough for meta.json; names the
 * file, line and what was wrong on bad input.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "util.h"

/* ---- JSON ---- */

struct json_reader {
	const char *p, *start, *end, *name;
	char *err;
	size_t errlen;
	struct kvlist *out;
	int depth;
};

static int json_error(struct json_reader *j, const char *what)
{
	unsigned line = 1, col = 1;

	for (const char *q = j->start; q < j->p && q < j->end; q++) {
		if (*q == '\n') {
			line++;
			col = 1;
		} else
			col++;
	}
	snprintf(j->err, j->errlen, "%s:%u:%u: %s", j->name, line, col, what);
	return -1;
}

static void json_ws(struct json_reader *j)
{
	while (j->p < j->end && strchr(" \t\r\n", *j->p) && *j->p)
		j->p++;
}

static void put_utf8(struct sbuf *b, unsigned long c)
{
	if (c < 0x80)
		sb_putc(b, (char)c);
	else if (c < 0x800) {
		sb_putc(b, (char)(0xc0 | c >> 6));
		sb_putc(b, (char)(0x80 | (c & 0x3f)));
	} else if (c < 0x10000) {
		sb_putc(b, (char)(0xe0 | c >> 12));
		sb_putc(b, (char)(0x80 | (c >> 6 & 0x3f)));
		sb_putc(b, (char)(0x80 | (c & 0x3f)));
	} else {
		sb_putc(b, (char)(0xf0 | c >> 18));
		sb_putc(b, (char)(0x80 | (c >> 12 & 0x3f)));
		sb_putc(b, (char)(0x80 | (c >> 6 & 0x3f)));
		sb_putc(b, (char)(0x80 | (c & 0x3f)));
	}
}

static int json_hex4(struct json_reader *j, unsigned long *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++, j->p++) {
		char c = j->p < j->end ? *j->p : 0;

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= (unsigned long)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v |= (unsigned long)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*v |= (unsigned long)(c - 'A' + 10);
		else
			return json_error(j, "bad \\u escape");
	}
	return 0;
}

static int json_string(struct json_reader *j, char **out)
{
	struct sbuf b = { 0 };

	j->p++; /* opening quote */
	sb_puts(&b, "");
	for (;;) {
		if (j->p >= j->end) {
			json_error(j, "unterminated string");
			goto fail;
		}
		char c = *j->p;

		if (c == '"') {
			j->p++;
			break;
		}
		if ((unsigned char)c < 0x20) {
			json_error(j, "control character in string");
			goto fail;
		}
		if (c != '\\') {
			sb_putc(&b, c);
			j->p++;
			continue;
		}
		j->p++;
		c = j->p < j->end ? *j->p : 0;
		j->p++;
		switch (c) {
		case '"': sb_putc(&b, '"'); break;
		case '\\': sb_putc(&b, '\\'); break;
		case '/': sb_putc(&b, '/'); break;
		case 'b': sb_putc(&b, '\b'); break;
		case 'f': sb_putc(&b, '\f'); break;
		case 'n': sb_putc(&b, '\n'); break;
		case 'r': sb_putc(&b, '\r'); break;
		case 't': sb_putc(&b, '\t'); break;
		case 'u': {
			unsigned long u, lo;

			if (json_hex4(j, &u) < 0)
				goto fail;
			if (u >= 0xd800 && u < 0xdc00) {
				if (j->end - j->p < 6 || j->p[0] != '\\' || j->p[1] != 'u') {
					json_error(j, "lone surrogate in \\u escape");
					goto fail;
				}
				j->p += 2;
				if (json_hex4(j, &lo) < 0)
					goto fail;
				if (lo < 0xdc00 || lo >= 0xe000) {
					json_error(j, "bad surrogate pair");
					goto fail;
				}
				u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
			} else if (u >= 0xdc00 && u < 0xe000) {
				json_error(j, "lone surrogate in \\u escape");
				goto fail;
			}
			if (u == 0) {
				json_error(j, "NUL in string");
				goto fail;
			}
			put_utf8(&b, u);
			break;
		}
		default:
			j->p--;
			json_error(j, "bad escape in string");
			goto fail;
		}
	}
	*out = b.s;
	return 0;
fail:
	sb_free(&b);
	return -1;
}

static void kv_add(struct kvlist *l, const char *key, char *value)
{
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n].key = xstrdup(key);
	l->v[l->n].value = value;
	l->n++;
}

static int json_value(struct json_reader *j, const char *key);

static char *json_key(const char *prefix, const char *k)
{
	return *prefix ? xasprintf("%s.%s", prefix, k) : xstrdup(k);
}

static int json_object(struct json_reader *j, const char *prefix)
{
	j->p++;
	json_ws(j);
	if (j->p < j->end && *j->p == '}') {
		j->p++;
		return 0;
	}
	for (;;) {
		char *k, *full;
		int rc;

		json_ws(j);
		if (j->p >= j->end || *j->p != '"')
			return json_error(j, "expected a string key");
		if (json_string(j, &k) < 0)
			return -1;
		json_ws(j);
		if (j->p >= j->end || *j->p != ':') {
			free(k);
			return json_error(j, "expected ':'");
		}
		j->p++;
		full = json_key(prefix, k);
		free(k);
		rc = json_value(j, full);
		free(full);
		if (rc < 0)
			return -1;
		json_ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == '}') {
			j->p++;
			return 0;
		}
		return json_error(j, "expected ',' or '}'");
	}
}

static int json_array(struct json_reader *j, const char *prefix)
{
	j->p++;
	json_ws(j);
	if (j->p < j->end && *j->p == ']') {
		j->p++;
		return 0;
	}
	for (unsigned i = 0;; i++) {
		char idx[16];
		char *full;
		int rc;

		snprintf(idx, sizeof(idx), "%u", i);
		full = json_key(prefix, idx);
		rc = json_value(j, full);
		free(full);
		if (rc < 0)
			return -1;
		json_ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == ']') {
			j->p++;
			return 0;
		}
		return json_error(j, "expected ',' or ']'");
	}
}

static int json_value(struct json_reader *j, const char *key)
{
	int rc;

	json_ws(j);
	if (j->p >= j->end)
		return json_error(j, "expected a value");
	if (++j->depth > 32)
		return json_error(j, "nested too deeply");
	switch (*j->p) {
	case '{':
		rc = json_object(j, key);
		break;
	case '[':
		rc = json_array(j, key);
		break;
	case '"': {
		char *s;

		rc = json_string(j, &s);
		if (rc == 0)
			kv_add(j->out, key, s);
		break;
	}
	default: {
		const char *s = j->p;
		static const char *const words[] = { "true", "false", "null" };

		rc = -1;
		for (int i = 0; i < 3; i++) {
			size_t n = strlen(words[i]);

			if ((size_t)(j->end - s) >= n && !strncmp(s, words[i], n)) {
				j->p += n;
				kv_add(j->out, key, xstrdup(i == 2 ? "" : words[i]));
				rc = 0;
				break;
			}
		}
		if (rc == 0)
			break;
		/* a number: JSON grammar, checked by hand */
		const char *q = s;

		if (q < j->end && *q == '-')
			q++;
		if (q >= j->end || !(*q >= '0' && *q <= '9'))
			return json_error(j, "expected a value");
		while (q < j->end && ((*q >= '0' && *q <= '9') || strchr(".eE+-", *q)) && *q)
			q++;
		char *num = xmalloc((size_t)(q - s) + 1);
		memcpy(num, s, (size_t)(q - s));
		num[q - s] = '\0';
		char *endp;

		strtod(num, &endp);
		if (*endp) {
			free(num);
			return json_error(j, "malformed number");
		}
		j->p = q;
		kv_add(j->out, key, num);
		rc = 0;
	}
	}
	j->depth--;
	return rc;
}

int json_flatten(const char *text, size_t len, const char *name, struct kvlist *out, char *err,
		 size_t errlen)
{
	struct kvlist l = { 0 };
	struct json_reader j = { text, text, text + len, name, err, errlen, &l, 0 };

	json_ws(&j);
	if (j.p >= j.end || *j.p != '{') {
		json_error(&j, "expected a JSON object");
		return -1;
	}
	if (json_value(&j, "") < 0)
		goto fail;
	json_ws(&j);
	if (j.p < j.end) {
		json_error(&j, "text after the JSON object");
		goto fail;
	}
	*out = l;
	return 0;
fail:
	kv_free(&l);
	return -1;
}

const char *kv_get(const struct kvlist *l, const char *key)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].key, key))
			return l->v[i].value;
	return NULL;
}

void kv_free(struct kvlist *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].key);
		free(l->v[i].value);
	}
	free(l->v);
	*l = (struct kvlist){ 0 };
}
