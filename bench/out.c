// SPDX-License-Identifier: GPL-2.0
/*
 * The only code that writes stdout: ROW, TAP and HIST lines of the results
 * channel (README.md).  Everything human goes to stderr through msg().
 * stdout is line buffered (main.c) so that lines of forked children and of
 * the parent never interleave inside a line.
 */
#include "tb.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char nodes_field[160] = "node:-";
/* mpolrun and wlrun link this file too and name themselves in messages. */
const char *msg_prog = "tierbench";
static int tap_count, tap_failed;
static bool clock_icount;

void out_set_clock(bool icount)
{
	clock_icount = icount;
}

const char *out_time_unit(void)
{
	return clock_icount ? "insn" : "ns";
}

void out_set_nodes(const char *label, const struct nodeset *ns)
{
	char ids[128];

	if (ns_format_plus(ns, ids, sizeof(ids)) >= (int)sizeof(ids))
		snprintf(ids, sizeof(ids), "%d-%d", ns_first(ns), ns_last(ns));
	snprintf(nodes_field, sizeof(nodes_field), "%s:%s", label, ids);
}

/* "PROG: message" + tail on stderr. */
static void vmsg(const char *tail, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", msg_prog);
	vfprintf(stderr, fmt, ap);
	fputs(tail, stderr);
}

void msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("\n", fmt, ap);
	va_end(ap);
}

void die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
	fprintf(stderr, " (%s --help)\n", msg_prog);
	exit(2);
}

static const char *tok(const char *s)
{
	return fmt_token_ok(s) ? s : "-";
}

void out_row_x(const struct rowkey *k, const char *metric, double value,
	       const char *unit, long x_mib)
{
	char v[48];

	fmt_value(value, v, sizeof(v));
	/* the keys of guest/vocab.h in its order; the values below follow it */
#define X(id, name) " " name "=%s"
	printf("ROW" VOCAB_ROW_KEYS(X),
#undef X
	       tok(k->bench), tok(k->policy), nodes_field, tok(k->pagesize),
	       tok(k->scenario), tok(metric), v, tok(unit));
	if (x_mib >= 0)
		printf(" x_mib=%ld", x_mib);
	putchar('\n');
}

void out_row(const struct rowkey *k, const char *metric, double value,
	     const char *unit)
{
	out_row_x(k, metric, value, unit, -1);
}

/* TAP text must stay on one line and not start a directive by accident. */
static void tap_line(const char *status, const char *fmt, va_list ap,
		     const char *skip)
{
	char text[512];

	vsnprintf(text, sizeof(text), fmt, ap);
	for (char *p = text; *p; p++)
		if (*p == '\n' || *p == '#')
			*p = ' ';
	printf("TAP %s %d - %s", status, ++tap_count, text);
	if (skip)
		printf(" # SKIP %s", skip);
	putchar('\n');
}

bool tap(bool ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_line(ok ? "ok" : "not ok", fmt, ap, NULL);
	va_end(ap);
	if (!ok)
		tap_failed++;
	return ok;
}

void tap_skip(const char *reason, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_line("ok", fmt, ap, reason);
	va_end(ap);
}

void tap_plan(void)
{
	printf("TAP 1..%d\n", tap_count);
}

int tap_count_so_far(void)
{
	return tap_count;
}

int tap_failures(void)
{
	return tap_failed;
}

void out_hist(const struct rowkey *k, int rep, const struct hist *h)
{
	int need = hist_format_buckets(h, NULL, 0);
	char *buf;

	if (need < 0 || !(buf = malloc((size_t)need + 1))) {
		msg("HIST %s/%s: cannot format %d bytes", k->bench, k->policy, need);
		return;
	}
	hist_format_buckets(h, buf, (size_t)need + 1);
	printf("HIST bench=%s policy=%s nodes=%s pagesize=%s scenario=%s rep=%d unit=%s buckets=%s\n",
	       tok(k->bench), tok(k->policy), nodes_field, tok(k->pagesize),
	       tok(k->scenario), rep, out_time_unit(), need ? buf : "-");
	free(buf);
}

void out_hist_summary(const struct rowkey *k, const struct hist *h)
{
	out_row(k, "mean", hist_mean(h), out_time_unit());
	out_row(k, "p50", (double)hist_quantile(h, 0.50), out_time_unit());
	out_row(k, "p90", (double)hist_quantile(h, 0.90), out_time_unit());
	/* a tail percentile only where the samples carry it: 1 in 100 (1000) needs 100 (1000) */
	if (h->count >= 100)
		out_row(k, "p99", (double)hist_quantile(h, 0.99), out_time_unit());
	if (h->count >= 1000)
		out_row(k, "p99_9", (double)hist_quantile(h, 0.999), out_time_unit());
	out_row(k, "max", (double)h->max, out_time_unit());
}

void out_phase(const struct rowkey *k, unsigned int id, const struct phase_label *l)
{
	printf("PHASE id=%u bench=%s policy=%s nodes=%s pagesize=%s scenario=%s", id, tok(k->bench),
	       tok(k->policy), nodes_field, tok(k->pagesize), tok(k->scenario));
	if (l->x_mib >= 0)
		printf(" x_mib=%ld", l->x_mib);
	if (l->loads >= 0)
		printf(" loads=%ld", l->loads);
	if (l->pages >= 0)
		printf(" pages=%ld", l->pages);
	if (l->bound >= 0)
		printf(" bound=%d", l->bound);
	if (l->walk_ns > 0)
		printf(" walk_ns=%ld", l->walk_ns);
	if (l->reaped)
		printf(" ended=reaped");
	putchar('\n');
}

void out_memprobe(const struct rowkey *k, uint64_t vaddr, uint64_t gpa, int node)
{
	printf("MEMPROBE bench=%s nodes=%s vaddr=0x%llx gpa=0x%llx node=%d\n", tok(k->bench),
	       nodes_field, (unsigned long long)vaddr, (unsigned long long)gpa, node);
}

void out_flush(void)
{
	fflush(stdout);
	fflush(stderr);
}
