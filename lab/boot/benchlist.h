/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benchmarks as tierbench declares them: `tierbench --list=machine`,
 * written at build time to build/guest/benches.list (bench/bench.mk), read
 * by the plan (cmd_plan.c) for each benchmark's needs, options and scope
 * instead of a copy of its own.  Reading it also checks that labtool knows
 * every word the list says tierbench prints (guest/vocab.h).
 */
#ifndef TIERLAB_BENCHLIST_H
#define TIERLAB_BENCHLIST_H

#include <stdbool.h>
#include <stddef.h>

#include "needs.h"

struct bench_decl {
	char *name;
	int timeout_secs;
	bool every_node;	/* one step per boot, over every memory node */
	char *options;		/* ",--a,--b,": the options it reads */
	struct needs needs;	/* .sysctls left empty: the guest's to save */
};

struct bench_list {
	struct bench_decl *b;
	size_t n;
};

/*
 * @text (NUL-terminated) as the lines of --list=machine; 0, or -1 with
 * "PATH:LINE: why" in @err.
 */
int benchlist_parse(char *text, const char *path, struct bench_list *l, char *err, size_t errlen);
/* The file at @path (NULL: benchlist_default_path()); 0, or -1 with a message on @errf. */
int benchlist_load(const char *path, struct bench_list *l, FILE *errf);
/* $TIERLAB_BENCH_LIST, else ../guest/benches.list beside labtool's own directory. */
char *benchlist_default_path(void);
const struct bench_decl *benchlist_find(const struct bench_list *l, const char *name);
/* Does @b read option @opt ("--seed")? */
bool bench_takes(const struct bench_decl *b, const char *opt);
void benchlist_free(struct bench_list *l);

#endif
