/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure readers for wlrun (no syscalls, so the host unit tests link them):
 * a small JSON reader for fio --output-format=json, the metrics section of
 * stress-ng --yaml, and ${NAME} expansion for stress-ng job files (fio
 * expands ${NAME} itself; stress-ng 0.15 does not).
 */
#ifndef TIERBENCH_WLPARSE_H
#define TIERBENCH_WLPARSE_H

#include <stdbool.h>
#include <stddef.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	double number;		/* JSON_NUMBER, JSON_BOOL (0/1) */
	char *string;		/* JSON_STRING */
	int n;			/* JSON_ARRAY, JSON_OBJECT: members */
	char **keys;		/* JSON_OBJECT */
	struct json *items;	/* JSON_ARRAY, JSON_OBJECT */
};

/*
 * Parse the first JSON value of @text, skipping anything before its first
 * '{' (fio may print notes before the JSON document).  Returns NULL with a
 * reason (offset and what was expected) in @err.  Nesting deeper than 64
 * levels is refused.
 */
struct json *json_parse(const char *text, char *err, size_t errlen);
void json_free(struct json *j);
/* Member @key of an object, or NULL (also when @j is NULL or no object). */
const struct json *json_get(const struct json *j, const char *key);
/* A path of object keys separated by '/': "read/clat_ns/percentile". */
const struct json *json_path(const struct json *j, const char *path);
/* The number at @path, or NaN when absent or not a number. */
double json_number(const struct json *j, const char *path);

/* stress-ng --yaml "metrics:" entries: one per stressor. */
#define SNG_MAX_FIELDS 16
struct sng_metrics {
	char stressor[48];
	int nfields;
	char names[SNG_MAX_FIELDS][48];
	double values[SNG_MAX_FIELDS];
};
/* Fills up to @max entries; returns how many, or -1 when there is no
 * "metrics:" section. */
int sng_yaml_metrics(const char *yaml, struct sng_metrics *out, int max);
/* The value of @name in @m, NaN when absent. */
double sng_field(const struct sng_metrics *m, const char *name);

/*
 * Expand ${NAME} in @in (NAME: letters, digits, '_') with lookup(NAME);
 * comment lines (first non-blank character '#') are copied unchanged.
 * Returns a malloc'd string, or NULL with the reason in @err (unset
 * variable, unterminated ${, out of memory).
 */
char *expand_vars(const char *in, const char *(*lookup)(const char *name),
		  char *err, size_t errlen);

#endif
