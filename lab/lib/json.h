/* SPDX-License-Identifier: GPL-2.0 */
/* JSON flattened into key=value pairs, enough for meta.json; errors name file and line. */
#ifndef TIERLAB_JSON_H
#define TIERLAB_JSON_H

#include <stddef.h>

/* ---- JSON, flattened: {"a":{"b":1},"c":[2,3]} -> a.b=1 c.0=2 c.1=3 ---- */
struct kv {
	char *key, *value;
};

struct kvlist {
	struct kv *v;
	size_t n;
};

int json_flatten(const char *text, size_t len, const char *name, struct kvlist *out,
		 char *err, size_t errlen);
const char *kv_get(const struct kvlist *l, const char *key);
void kv_free(struct kvlist *l);

#endif
