/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure helpers shared by tierbench and the host unit tests: node sets
 * (parse "1+3", "1,3", "0-2"; print "1+3" for the channel and "1,3" /
 * "0-2" as the kernel's %pbl does for numa_maps) and results-channel value
 * formatting.  No syscalls here, so it compiles on the host too.
 */
#ifndef TIERBENCH_FMT_H
#define TIERBENCH_FMT_H

#include <stdbool.h>
#include <stddef.h>

#define NODESET_MAX 1024
#define NODESET_LONGS (NODESET_MAX / (8 * sizeof(unsigned long)))

struct nodeset {
	unsigned long bits[NODESET_LONGS];
};

void ns_clear(struct nodeset *ns);
void ns_set(struct nodeset *ns, int node);
bool ns_has(const struct nodeset *ns, int node);
int ns_count(const struct nodeset *ns);
int ns_first(const struct nodeset *ns);		/* -1 if empty */
int ns_next(const struct nodeset *ns, int after);	/* -1 at the end */
int ns_last(const struct nodeset *ns);		/* -1 if empty */
bool ns_equal(const struct nodeset *a, const struct nodeset *b);
bool ns_subset(const struct nodeset *a, const struct nodeset *of);
#define ns_for_each(n, ns) for (int n = ns_first(ns); n >= 0; n = ns_next(ns, n))

/*
 * Parse a node list: ids separated by '+' or ',', ranges "a-b".  Returns 0,
 * or -1 with a reason in @err (which must hold at least 80 bytes).
 */
int ns_parse(const char *s, struct nodeset *ns, char *err, size_t errlen);
/* "1+3" (channel form, '+' separated, "-" when empty).  Returns the length
 * it needed, like snprintf; truncates safely. */
int ns_format_plus(const struct nodeset *ns, char *buf, size_t len);
/* The kernel's %pbl form: "0-2,5". */
int ns_format_pbl(const struct nodeset *ns, char *buf, size_t len);

/*
 * Why CPU @cpu cannot run a case, given the kernel's present and online
 * CPU lists (/sys/devices/system/cpu/{present,online}, parsed as sets):
 * "no such CPU (present: 0-1)" or "CPU 1 is offline (online: 0)" in @buf,
 * or NULL when it can.
 */
const char *cpu_problem(int cpu, const struct nodeset *present, const struct nodeset *online,
			char *buf, size_t len);

/*
 * HMAT figures as seen from one initiator, per target node, for the cost
 * model: "N=RL/WL/RB/WB,..." -- read and write latency in ns, read and
 * write bandwidth in MB/s, non-negative integers.  Nodes not named stay -1.
 * Returns 0, or -1 with a reason in @err (at least 80 bytes).
 */
#define MODEL_FIGS 4
#define MODEL_NODES 64
int model_hmat_parse(const char *s, long figs[MODEL_NODES][MODEL_FIGS], char *err,
		     size_t errlen);

/*
 * A results-channel value: a number without spaces or commas; integers print
 * as integers, others with up to 6 significant decimals; NaN/inf as "nan".
 */
int fmt_value(double v, char *buf, size_t len);
/* A k=v token is acceptable when non-empty and without space, comma, '='. */
bool fmt_token_ok(const char *s);

#endif
