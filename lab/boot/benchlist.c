// SPDX-License-Identifier: GPL-2.0
/* Reading tierbench --list=machine (benchlist.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchlist.h"
#include "util.h"
#include "words.h"

/* A whole number 0..@max, else -1. */
static long number(const char *s, long max)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	return errno || *end || v > max ? -1 : v;
}

static int flag(const char *v, bool *out)
{
	if (strcmp(v, "0") && strcmp(v, "1"))
		return -1;
	*out = v[0] == '1';
	return 0;
}

/* One "bench k=v ..." line's words (from after "bench"); NULL or why not. */
static const char *parse_bench(char *words, struct bench_decl *d)
{
	enum { NAME, TIMEOUT, EVERY, OPTIONS, MEM, OUTSIDE, HUGETLB, CPULESS, HMAT, OOM, SYSCTLS, NKEYS };
	static const char *const keys[NKEYS] = {
		"name", "timeout", "every_node", "options", "mem_nodes", "outside_set", "hugetlb",
		"cpuless_node", "hmat", "oom_kill", "sysctls",
	};
	bool seen[NKEYS] = { false };
	char *save = NULL;

	for (char *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *v = strchr(w, '=');
		long n;
		int k;
		bool bad = false;

		if (!v)
			return "a word without '='";
		*v++ = '\0';
		for (k = 0; k < NKEYS && strcmp(w, keys[k]); k++)
			;
		if (k == NKEYS)
			continue;	/* a key of a newer tierbench: not needed here */
		if (seen[k])
			return "a key given twice";
		seen[k] = true;
		switch (k) {
		case NAME:
			bad = !*v;
			d->name = xstrdup(v);
			break;
		case TIMEOUT:
			n = number(v, 86400);
			bad = n < 1;
			d->timeout_secs = (int)n;
			break;
		case MEM:
			n = number(v, 1024);
			bad = n < 0;
			d->needs.min_mem_nodes = (int)n;
			break;
		case OPTIONS:
			d->options = xasprintf(",%s,", strcmp(v, "-") ? v : "");
			break;
		case EVERY: bad = flag(v, &d->every_node); break;
		case OUTSIDE: bad = flag(v, &d->needs.outside_set); break;
		case HUGETLB: bad = flag(v, &d->needs.hugetlb); break;
		case CPULESS: bad = flag(v, &d->needs.cpuless_node); break;
		case HMAT: bad = flag(v, &d->needs.hmat); break;
		case OOM: bad = flag(v, &d->needs.oom_kill); break;
		default: break;	/* sysctls: the guest saves them, the plan needs nothing */
		}
		if (bad)
			return "a value out of range";
	}
	for (int k = 0; k < NKEYS; k++)
		if (!seen[k])
			return "a key missing (name, timeout, every_node, options and the needs)";
	return NULL;
}

/* A "word kind=K name=N" line: does labtool know N as a K? */
static const char *check_word(char *words, char *why, size_t len)
{
	static const struct {
		const char *kind;
		int (*find)(const char *);
	} kinds[] = {
		{ "policy", vocab_policy }, { "pagesize", vocab_pagesize },
		{ "scenario", vocab_scenario }, { "profile", vocab_profile },
		{ "outcome", vocab_outcome }, { "bench", vocab_row_bench },
	};
	char kind[32], name[64];

	if (sscanf(words, "kind=%31s name=%63s", kind, name) != 2)
		return "not 'word kind=K name=N'";
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kind, kinds[i].kind)) {
			if (kinds[i].find(name) >= 0)
				return NULL;
			snprintf(why, len, "tierbench prints %s '%s', which labtool does not know "
				 "(guest/vocab.h: are both built from one tree?)", kind, name);
			return why;
		}
	snprintf(why, len, "a kind of word labtool does not know: '%s'", kind);
	return why;
}

int benchlist_parse(char *text, const char *path, struct bench_list *l, char *err, size_t errlen)
{
	char why[200];
	unsigned line = 0;

	*l = (struct bench_list){ 0 };
	for (char *s = text; s; ) {
		char *nl = strchr(s, '\n');
		const char *bad = NULL;

		if (nl)
			*nl = '\0';
		line++;
		if (line == 1) {
			if (strcmp(s, "tierbench-list 1"))
				bad = "not 'tierbench-list 1' (rebuild: make all)";
		} else if (!strncmp(s, "bench ", 6)) {
			l->b = xrealloc(l->b, (l->n + 1) * sizeof(*l->b));
			l->b[l->n] = (struct bench_decl){ 0 };
			bad = parse_bench(s + 6, &l->b[l->n]);
			l->n++;
			if (!bad && benchlist_find(l, l->b[l->n - 1].name) != &l->b[l->n - 1])
				bad = "a benchmark listed twice";
			/* main.c prints rows under the benchmark's own name */
			if (!bad && vocab_row_bench(l->b[l->n - 1].name) < 0) {
				snprintf(why, sizeof(why), "benchmark '%s' is not a bench word of guest/vocab.h "
					 "(VOCAB_ROW_BENCHES): labtool would read its rows as a workload's",
					 l->b[l->n - 1].name);
				bad = why;
			}
		} else if (!strncmp(s, "word ", 5)) {
			bad = check_word(s + 5, why, sizeof(why));
		} else if (*s || nl) {
			bad = "neither a bench nor a word line";
		}
		if (bad) {
			snprintf(err, errlen, "%s:%u: %s", path, line, bad);
			benchlist_free(l);
			return -1;
		}
		s = nl ? nl + 1 : NULL;
		if (s && !*s)
			break;
	}
	if (!l->n) {
		snprintf(err, errlen, "%s: no benchmarks", path);
		return -1;
	}
	return 0;
}

char *benchlist_default_path(void)
{
	const char *env = getenv("TIERLAB_BENCH_LIST");
	char exe[PATH_MAX];
	ssize_t n;

	if (env && *env)
		return xstrdup(env);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash;

		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			return xasprintf("%s/../guest/benches.list", exe);
		}
	}
	return xstrdup("build/guest/benches.list");
}

int benchlist_load(const char *path, struct bench_list *l, FILE *errf)
{
	char *own = path ? NULL : benchlist_default_path(), *text, err[512];
	size_t len;
	int rc;

	if (!path)
		path = own;
	if (read_file_all(path, &text, &len) < 0) {
		fprintf(errf, "labtool: %s: %s (tierbench --list=machine, written by make all)\n",
			path, strerror(errno));
		free(own);
		return -1;
	}
	rc = benchlist_parse(text, path, l, err, sizeof(err));
	if (rc)
		fprintf(errf, "labtool: %s\n", err);
	free(text);
	free(own);
	return rc;
}

const struct bench_decl *benchlist_find(const struct bench_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->b[i].name && !strcmp(l->b[i].name, name))
			return &l->b[i];
	return NULL;
}

bool bench_takes(const struct bench_decl *b, const char *opt)
{
	char *key = xasprintf(",%s,", opt);
	bool yes = b->options && strstr(b->options, key);

	free(key);
	return yes;
}

void benchlist_free(struct bench_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->b[i].name);
		free(l->b[i].options);
	}
	free(l->b);
	*l = (struct bench_list){ 0 };
}
