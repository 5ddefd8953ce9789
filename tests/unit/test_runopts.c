// SPDX-License-Identifier: GPL-2.0
/*
 * run-lab.sh's options in C (lab/rundir/runopts.c, #14 item 1): each check with
 * run-lab's own message, --kernel 6.1's clock, the canonical form that
 * run.args keeps and reads back to the same options, run.args from before
 * --clock, the --resume form, names against tierbench's list and
 * workloads/, and the shell quoting labtool args prints with.
 */
#include "harness.h"
#include "runopts.h"

#include <stdarg.h>
#include <stdlib.h>

static int parse(struct run_opts *o, char *err, size_t n, ...)
{
	char *v[32];
	int argc = 0;
	va_list ap;

	va_start(ap, n);
	for (char *a; (a = va_arg(ap, char *));)
		v[argc++] = a;
	va_end(ap);
	memset(o, 0, sizeof(*o));
	return runopts_parse(argc, v, o, err, n);
}

/* the message of parsing these words, "" if they parse */
#define MSG(...) msg_of(__VA_ARGS__, NULL)
static char last[512];
static const char *msg_of(const char *first, ...)
{
	char *v[32];
	int argc = 0;
	struct run_opts o = { 0 };
	va_list ap;

	v[argc++] = (char *)first;
	va_start(ap, first);
	for (char *a; (a = va_arg(ap, char *));)
		v[argc++] = a;
	va_end(ap);
	last[0] = '\0';
	if (!runopts_parse(argc, v, &o, last, sizeof(last)))
		last[0] = '\0';
	runopts_free(&o);
	return last;
}

TEST(runopts_defaults)
{
	struct run_opts o;
	char err[256];

	CHECK(parse(&o, err, sizeof(err), "t.yaml", NULL) == 0);
	CHECK_STR(o.profile, "default");
	CHECK_STR(o.benches, "default");
	CHECK_STR(o.workloads, "none");
	CHECK_STR(o.clock, "icount");
	CHECK_STR(o.accel, "auto");
	CHECK_STR(o.results, "results");
	CHECK(o.boots == 1 && o.jobs == 1 && o.idle_timeout == 300 && o.boot_timeout == 3600);
	CHECK(o.step_timeout == 0 && !o.quiet && o.ntopo == 1);
	CHECK_STR(o.topo[0], "t.yaml");
	runopts_free(&o);
}

/* meta.json's options of an --exec run name no benchmark and no workload */
TEST(runopts_summary_of_an_exec_run)
{
	struct run_opts o;
	char err[256], *sum;

	CHECK(parse(&o, err, sizeof(err), "--exec", "true", "t.yaml", NULL) == 0);
	sum = runopts_summary(&o);
	CHECK_STR(sum, "profile=default benches=none workloads=none boots=1 clock=icount memory_timing=off exec=yes");
	free(sum);
	runopts_free(&o);
	CHECK(parse(&o, err, sizeof(err), "t.yaml", NULL) == 0);
	sum = runopts_summary(&o);
	CHECK_STR(sum, "profile=default benches=default workloads=none boots=1 clock=icount memory_timing=off exec=");
	free(sum);
	runopts_free(&o);
}

TEST(runopts_each_check_says_run_labs_words)
{
	CHECK_STR(MSG("--frobnicate"), "unknown option '--frobnicate' (see --help)");
	CHECK_STR(MSG("--profile", "huge"), "--profile: 'huge' is not one of quick, default, full");
	CHECK_STR(MSG("--profile"), "--profile needs a value (see --help)");
	CHECK_STR(MSG("--add", ""), "--add needs a value (see --help)");
	CHECK_STR(MSG("--fits", "maybe"), "--fits: 'maybe' is not yes, no or unknown");
	CHECK_STR(MSG("--kernel", "7.0"), "--kernel: '7.0' is not patched, patched:N, upstream or 6.1");
	CHECK_STR(MSG("--kernel", "patched:0"), "--kernel: 'patched:0': N must be a patch count from 1");
	CHECK_STR(MSG("--kernel", "patched:2x"), "--kernel: 'patched:2x': N must be a patch count from 1");
	CHECK_STR(MSG("--kernel", "patched:3"), "");
	CHECK_STR(MSG("--accel", "xen"), "--accel: 'xen' is not auto, tcg or kvm");
	CHECK_STR(MSG("--memory-timing", "exact"), "--memory-timing: 'exact' is not off, count or delay");
	CHECK_STR(MSG("--memory-timing", "delay"),
		  "--memory-timing delay needs --clock wall: under --clock icount the guest's clock counts "
		  "instructions and never sees a host-side delay");
	CHECK_STR(MSG("--memory-timing", "delay", "--clock", "wall"), "");
	CHECK_STR(MSG("--memory-timing", "count", "--accel", "kvm", "--clock", "wall"),
		  "--memory-timing count needs TCG; --accel kvm conflicts with it");
	CHECK_STR(MSG("--clock", "tsc"), "--clock: 'tsc' is not icount or wall");
	CHECK_STR(MSG("--accel", "kvm"),
		  "--clock icount needs TCG; --accel kvm conflicts with it (use --clock wall)");
	CHECK_STR(MSG("--accel", "kvm", "--clock", "wall"), "");
	CHECK_STR(MSG("--boots", "x"), "--boots: 'x' is not a positive integer");
	CHECK_STR(MSG("--boots", "0"), "--boots: '0' is not a positive integer");
	CHECK_STR(MSG("--boots", "-1"), "--boots: '-1' is not a positive integer");
	CHECK_STR(MSG("--idle-timeout", "0"), "--idle-timeout: '0' is not a positive number of seconds");
	CHECK_STR(MSG("--boot-timeout", "5x"), "--boot-timeout: '5x' is not a positive number of seconds");
	CHECK_STR(MSG("--step-timeout", "5x"), "--step-timeout: '5x' is not a positive number of seconds");
	CHECK_STR(MSG("-j", "many"), "-j: 'many' is not a positive integer");
	CHECK_STR(MSG("-j0"), "-j: '0' is not a positive integer");
	CHECK_STR(MSG("--exec", "true", "--benches", "latency"),
		  "--exec runs one command instead of the benchmarks; it conflicts with --benches/--workloads");
	CHECK_STR(MSG("--exec", "true", "--workloads", "all"),
		  "--exec runs one command instead of the benchmarks; it conflicts with --benches/--workloads");
	CHECK_STR(MSG("t.yaml", "--resume", "r"),
		  "--resume takes exactly one run directory and no other option (but --only-boot ID, -q)");
	CHECK_STR(MSG("--only-boot", "1"), "--only-boot goes after --resume RUN-DIR (see --help)");
}

TEST(runopts_kernel_61_runs_on_the_wall_clock_unless_asked)
{
	struct run_opts o;
	char err[256];

	CHECK(parse(&o, err, sizeof(err), "--kernel", "6.1", NULL) == 0);
	CHECK_STR(o.clock, "wall");
	CHECK(o.note && !o.warning);
	runopts_free(&o);
	CHECK(parse(&o, err, sizeof(err), "--kernel", "6.1", "--clock", "icount", NULL) == 0);
	CHECK_STR(o.clock, "icount");
	CHECK(o.warning && strstr(o.warning, "expect a timeout") && !o.note);
	runopts_free(&o);
}

TEST(runopts_canonical_form_reads_back_the_same)
{
	struct run_opts o, back;
	struct sbuf text = { 0 };
	char err[256], **canon, **v;
	size_t n;
	int argc;

	CHECK(parse(&o, err, sizeof(err), "-q", "--profile", "quick", "-j2", "--step-timeout", "40",
		    "--no-prealloc", "--exec", "echo 'hi'", "--add", "/bin/true", "--", "a.yaml",
		    "-b.yaml", NULL) == 0);
	CHECK(o.ntopo == 2 && o.jobs == 2 && o.step_timeout == 40 && o.no_prealloc && o.quiet);
	CHECK_STR(o.topo[1], "-b.yaml");
	runopts_canon(&o, &canon, &n);
	for (size_t i = 0; i < n; i++) {
		sb_putn(&text, canon[i], strlen(canon[i]) + 1);
		free(canon[i]);
	}
	free(canon);
	CHECK(memmem(text.s, text.len, "--profile\0quick\0--benches\0default\0", 34) != NULL);
	CHECK(memmem(text.s, text.len, "--step-timeout\0" "40\0--no-prealloc\0--exec\0echo 'hi'\0", 45) != NULL);
	sb_putn(&text, "--\0a.yaml\0-b.yaml", 18);
	v = runopts_saved_argv(text.s, text.len, false, &argc);
	CHECK(runopts_parse(argc, v, &back, err, sizeof(err)) == 0);
	CHECK_STR(back.profile, "quick");
	CHECK_STR(back.exec_cmd, "echo 'hi'");
	CHECK(back.jobs == 2 && back.step_timeout == 40 && back.no_prealloc && !back.quiet);
	CHECK(back.ntopo == 2 && back.nadds == 1);
	CHECK_STR(back.topo[1], "-b.yaml");
	{
		char *a = runopts_summary(&o), *b = runopts_summary(&back);

		CHECK_STR(a, b);
		CHECK_STR(a, "profile=quick benches=none workloads=none boots=1 clock=icount "
			     "memory_timing=off exec=yes prealloc=off");
		free(a);
		free(b);
	}
	runopts_free_argv(v, argc);
	runopts_free(&back);
	runopts_free(&o);
	sb_free(&text);
}

TEST(runopts_run_args_from_before_clock_ran_on_the_wall_clock)
{
	static const char old[] = "--profile\0quick\0--\0/t.yaml";
	char **v, **w;
	int n, m;

	v = runopts_saved_argv(old, sizeof(old), true, &n);
	CHECK(n == 7);
	CHECK_STR(v[0], "-q");
	CHECK_STR(v[1], "--clock");
	CHECK_STR(v[2], "wall");
	CHECK_STR(v[3], "--profile");
	CHECK_STR(v[6], "/t.yaml");
	w = runopts_saved_argv("--clock\0icount", 15, false, &m);
	CHECK(m == 2);
	CHECK_STR(w[1], "icount");
	runopts_free_argv(v, n);
	runopts_free_argv(w, m);
}

TEST(runopts_resume_form)
{
	struct run_opts o = { 0 };
	char err[256];
	char *ok[] = { "--resume", "results/r/", "--only-boot", "12", "-q" };
	char *not[] = { "--profile", "quick" };

	CHECK(runopts_resume_form(5, ok, &o, err, sizeof(err)) == 1);
	CHECK_STR(o.resume, "results/r");
	CHECK(o.only_boot == 12 && o.quiet);
	runopts_free(&o);
	CHECK(runopts_resume_form(2, not, &o, err, sizeof(err)) == 0);
	for (int k = 0; k < 6; k++) {
		static const char *const bad[] = { "0", "x", "-1", "01", "", "1234567890" };
		char *v[] = { "--resume", "r", "--only-boot", (char *)bad[k] };

		memset(&o, 0, sizeof(o));
		CHECK(runopts_resume_form(4, v, &o, err, sizeof(err)) == RUNOPTS_USAGE);
		CHECK(!strncmp(err, "--only-boot", 11));
		runopts_free(&o);
	}
	{
		char *v[] = { "--resume", "r", "--boots", "2" };

		CHECK(runopts_resume_form(4, v, &o, err, sizeof(err)) == RUNOPTS_USAGE);
		CHECK_STR(err, "--resume takes exactly one run directory and no other option (but --only-boot ID, -q)");
		runopts_free(&o);
	}
}

TEST(runopts_names_against_tierbench_and_workloads)
{
	struct run_opts o;
	char err[512];

	CHECK(parse(&o, err, sizeof(err), "--benches", "latency,frob", NULL) == 0);
	CHECK(runopts_names(&o, "checks\nlatency\n", "/nonexistent", err, sizeof(err)) == RUNOPTS_USAGE);
	CHECK_STR(err, "--benches: unknown benchmark 'frob' (known: checks,latency)");
	runopts_free(&o);
	CHECK(parse(&o, err, sizeof(err), "--benches", "latency,checks", NULL) == 0);
	CHECK(runopts_names(&o, "checks\nlatency\n", "/nonexistent", err, sizeof(err)) == 0);
	runopts_free(&o);
	/* a prefix of a name is not the name */
	CHECK(parse(&o, err, sizeof(err), "--benches", "lat", NULL) == 0);
	CHECK(runopts_names(&o, "latency\n", "/nonexistent", err, sizeof(err)) == RUNOPTS_USAGE);
	runopts_free(&o);
	CHECK(parse(&o, err, sizeof(err), "--workloads", "nope", NULL) == 0);
	CHECK(runopts_names(&o, "", "/nonexistent", err, sizeof(err)) == RUNOPTS_USAGE);
	CHECK_STR(err, "--workloads: unknown workload 'nope' (known: )");
	runopts_free(&o);
}

TEST(runopts_files_checked_and_made_absolute)
{
	struct run_opts o;
	char err[512];

	CHECK(parse(&o, err, sizeof(err), "--add", "/nonexistent", NULL) == 0);
	CHECK(runopts_files(&o, "/lab", err, sizeof(err)) == RUNOPTS_NOINPUT);
	CHECK_STR(err, "--add: /nonexistent: not a readable file or directory");
	runopts_free(&o);
	/* --add SRC[:DEST]: a file or a directory, to /bin/<name> or DEST */
	CHECK(parse(&o, err, sizeof(err), "--add", "/etc/hostname", "--add", "/etc/..//etc:/opt/e",
		    "--add", "/etc/hostname:/usr/local/bin/h", "/etc/hostname", NULL) == 0);
	CHECK(runopts_files(&o, "/lab", err, sizeof(err)) == 0);
	CHECK_STR(o.adds[0], "/etc/hostname:/bin/hostname");
	CHECK_STR(o.adds[1], "/etc:/opt/e");
	CHECK_STR(o.adds[2], "/etc/hostname:/usr/local/bin/h");
	runopts_free(&o);
	{
		static const char *const bad[][2] = {
			{ "/etc/hostname:/", "--add: /: the guest path must be an absolute path below /" },
			{ "/etc/hostname:/bin/a b", "--add: /bin/a b: the guest path may hold only letters, digits and ._/-" },
			{ "/etc/hostname:/opt/../init", "--add: /opt/../init: the guest path must not hold '..'" },
			{ "/etc/hostname:/lab/plan", "--add: /lab/plan: the guest path is the lab's own (/init, /lab)" },
			{ "/etc/hostname:/init", "--add: /init: the guest path is the lab's own (/init, /lab)" },
		};

		for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
			CHECK(parse(&o, err, sizeof(err), "--add", bad[k][0], "/etc/hostname", NULL) == 0);
			CHECK(runopts_files(&o, "/lab", err, sizeof(err)) == RUNOPTS_USAGE);
			CHECK_STR(err, bad[k][1]);
			runopts_free(&o);
		}
	}
	CHECK(parse(&o, err, sizeof(err), "/tmp", NULL) == 0);	/* a directory */
	CHECK(runopts_files(&o, "/lab", err, sizeof(err)) == RUNOPTS_NOINPUT);
	CHECK_STR(err, "/tmp: no such readable topology file");
	runopts_free(&o);
	CHECK(parse(&o, err, sizeof(err), NULL) == 0);
	CHECK(runopts_files(&o, "/nonexistent-lab", err, sizeof(err)) == RUNOPTS_NOINPUT);
	CHECK_STR(err, "/nonexistent-lab/topologies/dram-pmem.yaml: no such readable topology file");
	runopts_free(&o);
	/* --only-boot within topologies x boots; then one boot at a time */
	CHECK(parse(&o, err, sizeof(err), "--boots", "2", "-j", "2", "/etc/hostname", NULL) == 0);
	o.only_boot = 3;
	o.resume = xstrdup("R");
	CHECK(runopts_files(&o, "/lab", err, sizeof(err)) == RUNOPTS_USAGE);
	CHECK_STR(err, "--only-boot: 3: R has boots 1 to 2");
	o.only_boot = 2;
	CHECK(runopts_files(&o, "/lab", err, sizeof(err)) == 0);
	CHECK(o.jobs == 1);
	runopts_free(&o);
}

TEST(runopts_shell_words)
{
	struct sbuf b = { 0 };

	sb_shell_word(&b, "it's $(x) `y` \"z\"");
	CHECK_STR(b.s, "'it'\\''s $(x) `y` \"z\"'");
	sb_free(&b);
	sb_shell_word(&b, "");
	CHECK_STR(b.s, "''");
	sb_free(&b);
}

TEST(runopts_boot_ids_to_topologies)
{
	struct run_opts o;
	char err[256];
	bool first;

	CHECK(parse(&o, err, sizeof(err), "--boots", "2", "a.yaml", "b.yaml", NULL) == 0);
	CHECK_STR(runopts_boot_topology(&o, "1", &first), "a.yaml");
	CHECK(first);
	CHECK_STR(runopts_boot_topology(&o, "2", &first), "a.yaml");
	CHECK(!first);
	CHECK_STR(runopts_boot_topology(&o, "3", &first), "b.yaml");
	CHECK(first);
	CHECK_STR(runopts_boot_topology(&o, "4", &first), "b.yaml");
	CHECK(!first);
	CHECK(runopts_boot_topology(&o, "5", &first) == NULL);
	CHECK(runopts_boot_topology(&o, "0", &first) == NULL);
	CHECK(runopts_boot_topology(&o, "01", &first) == NULL);
	CHECK(runopts_boot_topology(&o, "x", &first) == NULL);
	CHECK(runopts_boot_topology(&o, "", &first) == NULL);
	runopts_free(&o);
}

/* --tiering (#20 item 4): its words, its refusals, run.args and meta.json's options */
TEST(runopts_tiering)
{
	struct run_opts o, back;
	struct sbuf text = { 0 };
	char err[256], **canon, **v, *sum;
	size_t n;
	int argc;

	CHECK(parse(&o, err, sizeof(err), "t.yaml", NULL) == 0);
	CHECK_STR(o.tiering, "off");
	runopts_free(&o);
	CHECK_STR(MSG("--tiering", "demotion"), "");
	CHECK_STR(MSG("--tiering", "balancing"), "");
	CHECK_STR(MSG("--tiering", "off"), "");
	CHECK_STR(MSG("--tiering", "on"), "--tiering: 'on' is not off, demotion or balancing");
	CHECK_STR(MSG("--tiering", "Demotion"), "--tiering: 'Demotion' is not off, demotion or balancing");
	CHECK_STR(MSG("--tiering"), "--tiering needs a value (see --help)");
	CHECK_STR(MSG("--tiering", ""), "--tiering needs a value (see --help)");
	CHECK(strchr(MSG("--tiering", "demotion", "--exec", "true"), '\n') == NULL);
	CHECK(strstr(MSG("--tiering", "demotion", "--exec", "true"), "--exec") != NULL);
	CHECK_STR(MSG("--tiering", "off", "--exec", "true"), "");
	{
		struct run_opts e;

		CHECK(parse(&e, err, sizeof(err), "--tiering", "nope", "t.yaml", NULL) == RUNOPTS_USAGE);
		runopts_free(&e);
	}

	/* run.args keeps it and reads it back; a run without it keeps its old words */
	CHECK(parse(&o, err, sizeof(err), "--tiering", "balancing", "t.yaml", NULL) == 0);
	CHECK_STR(o.tiering, "balancing");
	runopts_canon(&o, &canon, &n);
	for (size_t i = 0; i < n; i++) {
		sb_putn(&text, canon[i], strlen(canon[i]) + 1);
		free(canon[i]);
	}
	free(canon);
	CHECK(memmem(text.s, text.len, "--tiering\0balancing\0", 20) != NULL);
	v = runopts_saved_argv(text.s, text.len, false, &argc);
	CHECK(runopts_parse(argc, v, &back, err, sizeof(err)) == 0);
	CHECK_STR(back.tiering, "balancing");
	sum = runopts_summary(&back);
	CHECK_STR(sum, "profile=default benches=default workloads=none boots=1 clock=icount "
		       "memory_timing=off exec= tiering=balancing");
	free(sum);
	runopts_free_argv(v, argc);
	runopts_free(&back);
	runopts_free(&o);
	sb_free(&text);
	CHECK(parse(&o, err, sizeof(err), "t.yaml", NULL) == 0);
	runopts_canon(&o, &canon, &n);
	for (size_t i = 0; i < n; i++) {
		CHECK(strcmp(canon[i], "--tiering") != 0);
		free(canon[i]);
	}
	free(canon);
	runopts_free(&o);
}
