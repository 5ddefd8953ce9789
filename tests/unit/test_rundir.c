// SPDX-License-Identifier: GPL-2.0
/*
 * The run directory made from its boots' files (lab/rundir/rundir.c, #14 item 1):
 * summary.csv from the per-boot rows in boot order, an earlier summary's
 * rows kept for boots without a file of their own and replaced for the
 * others, a per-boot file that is not one refused naming it; the first
 * boot's guest view; how `labtool boot` ended, in collect's words; a boot's
 * outcome from its status file, as run-lab.sh exits with it.
 */
#include "harness.h"
#include "commands.h"
#include "frame.h"
#include "rundir.h"
#include "runfiles.h"
#include "topology.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *tmp_run(void)
{
	char tmpl[] = "/tmp/tierlab-unit-rundir.XXXXXX";
	char *dir = mkdtemp(tmpl), *boots;

	if (!dir)
		return NULL;
	boots = xasprintf("%s/boots", dir);
	mkdir(boots, 0755);
	free(boots);
	return xstrdup(dir);
}

static void put(const char *run, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", run, name);

	write_file_atomic(path, text, strlen(text));
	free(path);
}

static void rm_run(char *run)
{
	char *cmd = xasprintf("rm -rf '%s'", run);

	if (system(cmd))
		fprintf(stderr, "  cannot remove %s\n", run);
	free(cmd);
	free(run);
}

#define H "topology,bench,policy,nodes,pagesize,scenario,metric,value,unit,run_id,boot_id,boot_status\n"
#define ROW(boot, st) "t,b,bind,1,4k,free,m,1,ns,r," boot "," st "\n"

TEST(summary_from_boot_files_in_boot_order)
{
	char *run = tmp_run(), err[256];
	struct sbuf out = { 0 };

	CHECK(run != NULL);
	put(run, "boots/10.csv", H ROW("10", "ok"));
	put(run, "boots/2.csv", H ROW("2", "panic") ROW("2", "panic"));
	put(run, "boots/1.csv", H);	/* a boot without rows */
	put(run, "boots/2.topo.csv", "node,cpus\n0,0\n");	/* not rows */
	CHECK(summary_build(run, &out, err, sizeof(err)) == 0);
	CHECK_STR(out.s, H ROW("2", "panic") ROW("2", "panic") ROW("10", "ok"));
	sb_free(&out);
	rm_run(run);
}

TEST(summary_keeps_an_earlier_runs_rows_of_boots_without_a_file)
{
	char *run = tmp_run(), err[256];
	struct sbuf out = { 0 };

	/* collected before the per-boot files: boot 1 kept, boot 2 redone */
	put(run, "summary.csv", H ROW("2", "timeout") ROW("1", "ok") ROW("1", "ok"));
	put(run, "boots/2.csv", H ROW("2", "ok"));
	CHECK(summary_build(run, &out, err, sizeof(err)) == 0);
	CHECK_STR(out.s, H ROW("1", "ok") ROW("1", "ok") ROW("2", "ok"));
	sb_free(&out);
	/* no boots at all: the header alone */
	rm_run(run);
	run = tmp_run();
	CHECK(summary_build(run, &out, err, sizeof(err)) == 0);
	CHECK_STR(out.s, H);
	sb_free(&out);
	rm_run(run);
}

TEST(summary_refuses_a_boot_file_without_the_header)
{
	char *run = tmp_run(), err[256] = "";
	struct sbuf out = { 0 };

	put(run, "boots/3.csv", ROW("3", "ok"));
	CHECK(summary_build(run, &out, err, sizeof(err)) == EXIT_INVALID);
	CHECK(strstr(err, "boots/3.csv:1: not summary.csv's header") != NULL);
	sb_free(&out);
	put(run, "boots/3.csv", "");
	CHECK(summary_build(run, &out, err, sizeof(err)) == EXIT_INVALID);
	sb_free(&out);
	rm_run(run);
}

TEST(guest_view_of_the_first_boot)
{
	char *run = tmp_run(), *b;

	CHECK(guest_view_boot(run) == NULL);
	put(run, "boots/12.topo.csv", "x\n");
	put(run, "boots/3.topo.csv", "x\n");
	put(run, "boots/3.csv", H);
	b = guest_view_boot(run);
	CHECK_STR(b, "3");
	free(b);
	rm_run(run);
}

TEST(boot_ids_in_run_order)
{
	CHECK(boot_id_cmp("2", "10") < 0);
	CHECK(boot_id_cmp("10", "9") > 0);
	CHECK(boot_id_cmp("7", "7") == 0);
	CHECK(boot_id_cmp("9", "a") < 0);
	CHECK(boot_id_cmp("r2", "r10") > 0);	/* names: as strings */
}

TEST(boot_exit_status_in_collects_words)
{
	CHECK_STR(boot_exit_word(0), "ok");
	CHECK_STR(boot_exit_word(124), "timeout");
	CHECK_STR(boot_exit_word(125), "idle");
	CHECK_STR(boot_exit_word(1), "error");
	CHECK_STR(boot_exit_word(137), "error");
}

TEST(boot_outcome_from_its_status_file)
{
	char err[128];
	const char *ok = "status=ok\nrows=3\ntap_ok=1\ntap_not_ok=0\ntap_skip=0\nsteps_ok=1\n"
			 "steps_failed=0\nexec_rc=-1\nreason=\n";

	CHECK(boot_outcome(ok, false, NULL, err, sizeof(err)) == 0);
	CHECK(boot_outcome(ok, true, NULL, err, sizeof(err)) == 0);
	CHECK(boot_outcome("status=panic\nexec_rc=0\n", true, NULL, err, sizeof(err)) == 3);
	CHECK(boot_outcome("status=timeout\n", false, NULL, err, sizeof(err)) == 3);
	CHECK(boot_outcome("status=ok\ntap_not_ok=2\n", false, NULL, err, sizeof(err)) == 1);
	CHECK(boot_outcome("status=ok\nsteps_failed=1\n", false, NULL, err, sizeof(err)) == 1);
	/*
	 * --exec: 4 for any status but 0 (never the status itself: "exit 2"
	 * is not bad usage, "exit 3" not a failed boot), the status given
	 * back; 0 over a failed step when the command said 0
	 */
	CHECK(boot_outcome("status=ok\nsteps_failed=1\nexec_rc=124\n", true, NULL, err, sizeof(err)) == 4);
	for (int st = 1; st < 256; st++) {
		char text[64];
		int got = -2;

		snprintf(text, sizeof(text), "status=ok\nexec_rc=%d\n", st);
		CHECK(boot_outcome(text, true, &got, err, sizeof(err)) == OUTCOME_EXEC_FAILED);
		CHECK(got == st);
	}
	{
		int got = -2;

		CHECK(boot_outcome("status=panic\nexec_rc=2\n", true, &got, err, sizeof(err)) == 3);
		CHECK(got == 2);
		CHECK(boot_outcome(ok, true, &got, err, sizeof(err)) == 0);
		CHECK(got == -1);
	}
	CHECK(boot_outcome("status=ok\nsteps_failed=0\nexec_rc=0\n", true, NULL, err, sizeof(err)) == 0);
	CHECK(boot_outcome("status=ok\nsteps_failed=1\nexec_rc=-1\n", true, NULL, err, sizeof(err)) == 1);
	/* a malformed status is an error, never a success */
	CHECK(boot_outcome("status=ok\nexec_rc=x\n", true, NULL, err, sizeof(err)) == -1);
	CHECK(boot_outcome("status=ok\nexec_rc=300\n", true, NULL, err, sizeof(err)) == -1);
	/* the key at a line's start only */
	CHECK(boot_outcome("reason=x status=ok\nstatus=fail\n", false, NULL, err, sizeof(err)) == 3);
	CHECK(boot_outcome("rows=1\n", false, NULL, err, sizeof(err)) == -1);
	CHECK_STR(err, "no status= line");
}

TEST(outcome_worst_ranks_a_failed_boot_over_a_failed_command)
{
	/* 0 < 1 (a check) < 4 (the --exec command) < 3 (a boot) < anything else */
	CHECK(outcome_worst(0, 1) == 1);
	CHECK(outcome_worst(1, 4) == 4);
	CHECK(outcome_worst(4, 1) == 4);
	CHECK(outcome_worst(3, 4) == 3);
	CHECK(outcome_worst(4, 3) == 3);
	CHECK(outcome_worst(3, 65) == 65);
	CHECK(outcome_worst(130, 3) == 130);
	CHECK(outcome_worst(2, 4) == 2);
	CHECK(outcome_worst(0, 0) == 0);
}

static char *xstrndup_line(const char *s)
{
	return xasprintf("%.*s", (int)strcspn(s, "\n"), s);
}

/* the plan of --exec: one token per word, decoded by the guest's own code */
TEST(plan_exec_token_decodes_to_the_command)
{
	static const char cmd[] = "echo 'a b' 100% $(x); printf \"\\t\" | tr -d ,:+=/-";
	struct sbuf b = { 0 };
	char *tok;

	char *want = xasprintf("exec 2>&1; %s", cmd);
	struct topo *t = xcalloc(1, sizeof(*t));

	plan_exec("7", false, 40, cmd, NULL, &b);
	CHECK(!strncmp(b.s, "boot 7\nstep exec 40 sh -c ", 26));
	CHECK(b.s[b.len - 1] == '\n' && !strchr(b.s + 26, ' '));
	tok = xstrndup_line(b.s + 26);
	CHECK(strstr(tok, "%20") && strstr(tok, "%25") && strstr(tok, ",:+=/-"));
	CHECK(frame_unescape(tok) == 0);
	/* the command, its stderr joined to its stdout (only stdout comes back) */
	CHECK_STR(tok, want);
	free(tok);
	sb_free(&b);
	/* the topology's hugetlb pools are reserved before the command, as for benchmarks */
	t->nnodes = 2;
	t->node[1].hugetlb_pages = 32;
	plan_exec("7", false, 40, "true", t, &b);
	CHECK(!strncmp(b.s, "boot 7\nstep hugetlb-node1 60 sh -c echo%2032%20>/sys/devices/system/node/node1/"
		       "hugepages/hugepages-2048kB/nr_hugepages\nstep exec 40 sh -c ", 118));
	sb_free(&b);
	/* a movable node's memory is onlined first: its pool comes from it */
	t->node[1].mem_bytes = 1ULL << 30;
	t->node[1].zone = TOPO_ZONE_movable;
	plan_exec("7", false, 40, "true", t, &b);
	CHECK(!strncmp(b.s, "boot 7\nstep memory-online 60 topoprobe --online-movable\n"
		       "step hugetlb-node1 60 ", 75));
	sb_free(&b);
	/* under icount every step starts at a whole guest second: "align 1" before the first */
	plan_exec("7", true, 40, "true", t, &b);
	CHECK(!strncmp(b.s, "boot 7\nalign 1\nstep memory-online 60 ", 37));
	sb_free(&b);
	free(t);
	free(want);
}

/*
 * README's "Results format" section, found from this file's path (as the
 * compiler was given it: relative to the repository, where the tests run).
 */
static char *readme_results_table(void)
{
	const char *slash = strrchr(__FILE__, '/');
	char *path = xasprintf("%.*s/../../README.md", slash ? (int)(slash - __FILE__) : 1,
			       slash ? __FILE__ : "."), *text = NULL, *start, *end;
	size_t len;

	if (read_file_all(path, &text, &len) < 0) {
		free(path);
		return NULL;
	}
	free(path);
	start = strstr(text, "### Results format");
	end = start ? strstr(start, "\n\n`meta.json` keys") : NULL;
	if (!start || !end) {
		free(text);
		return NULL;
	}
	memmove(text, start, (size_t)(end - start));
	text[end - start] = '\0';
	return text;
}

/* The row of the table whose first cell names @cell: its third cell (the writer), or NULL. */
static char *writer_cell(const char *table, const char *cell)
{
	for (const char *l = table; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *b1, *b2, *b3, *b4, *eol = strchr(l, '\n');

		if (*l != '|' || !(b1 = l) || !(b2 = strchr(b1 + 1, '|')) || (eol && b2 > eol))
			continue;
		/* the first cell: between the first two bars */
		if (!memmem(b1, (size_t)(b2 - b1), cell, strlen(cell)))
			continue;
		if (!(b3 = strchr(b2 + 1, '|')) || !(b4 = strchr(b3 + 1, '|')) || (eol && b4 > eol))
			return NULL;
		return xasprintf("%.*s", (int)(b4 - b3 - 1), b3 + 1);
	}
	return NULL;
}

TEST(rundir_readme_names_every_file_and_writer)
{
	char *table = readme_results_table();

	CHECK(table != NULL);
	if (!table)
		return;
	for (int f = 0; f < NR_RUN_FILES; f++) {
		/* "boots/%s.csv" -> "`boots/<boot>.csv`" in a row's first cell */
		char *want = run_file_path("", (enum run_file)f, "<boot>");
		char *cell = xasprintf("`%s`", want + 1), *writer = writer_cell(table, cell);

		if (!writer || !strstr(writer, run_files[f].writer))
			fprintf(stderr, "  README, Results format: no row for %s written by %s\n", cell,
				run_files[f].writer);
		CHECK(writer && strstr(writer, run_files[f].writer));
		free(writer);
		free(cell);
		free(want);
	}
	/* and summary.csv's header as the columns say */
	CHECK(strstr(table, summary_header()) != NULL);
	/* the other way: every file the table's first column names is in the list */
	for (const char *l = table; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *end = *l == '|' ? strchr(l + 1, '|') : NULL, *q = l;

		while (end && (q = memchr(q, '`', (size_t)(end - q))) && q < end) {
			const char *c = memchr(q + 1, '`', (size_t)(end - q - 1));
			char *name;
			bool known = false;

			if (!c)
				break;
			name = xasprintf("%.*s", (int)(c - q - 1), q + 1);
			for (int f = 0; f < NR_RUN_FILES && !known; f++) {
				char *p = run_file_path("", (enum run_file)f, "<boot>");

				known = !strcmp(p + 1, name);
				free(p);
			}
			/* plots/ is a folder of the report's, file names vary */
			if (!known && strcmp(name, "plots/") && strcmp(name, "file"))
				fprintf(stderr, "  README, Results format: %s is not in runfiles.h\n", name);
			CHECK(known || !strcmp(name, "plots/") || !strcmp(name, "file"));
			free(name);
			q = c + 1;
		}
	}
	free(table);
}
