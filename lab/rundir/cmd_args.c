// SPDX-License-Identifier: GPL-2.0
/*
 * labtool args --lab DIR [--names] -- RUN-LAB-ARGUMENTS...
 *
 * run-lab.sh's options, parsed and checked (lab/rundir/runopts.c), printed as
 * shell assignments for run-lab.sh to eval: one variable per option,
 * adds=(...) and topologies=(...) made absolute, opts=(...) the options in
 * canonical form (run.args's, without the topologies).  --resume RUN-DIR
 * [--only-boot ID] [-q] takes the options of RUN-DIR/run.args.  Before
 * anything is printed, every file the options name is checked, --benches
 * and each topology as `labtool validate` checks it.  --names checks, and
 * prints, nothing else than --benches against DIR/build/guest/tierbench
 * --list, --workloads against DIR/workloads/ (once the lab is built) and a
 * --kernel patched:N against the series (DIR/kernel/build.sh --key).
 * -h prints shell code that prints the help and exits 0.
 *
 * Errors are run-lab's own, one line "run-lab: ..." (a topology's own
 * lines for an invalid one).  Exit: 0; 2 bad usage; 65 invalid topology;
 * 66 missing file; 70 out of memory.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "runopts.h"
#include "topology.h"
#include "runfiles.h"

/* tierbench --list's names (the first word of each line after the header) */
static char *bench_names(const char *lab)
{
	char *cmd = xasprintf("'%s/build/guest/tierbench' --list", lab), line[512];
	struct sbuf b = { 0 };
	FILE *p = popen(cmd, "r");
	int n = 0;

	free(cmd);
	if (!p)
		return xstrdup("");
	while (fgets(line, sizeof(line), p))
		if (n++ > 0 && line[strspn(line, " \t\n")])
			sb_printf(&b, "%.*s\n", (int)strcspn(line, " \t\n"), line);
	pclose(p);
	return b.s ? b.s : xstrdup("");
}

/*
 * kernel/build.sh's refusal of a --kernel patched:N (its stderr, the prefix
 * "kernel/build.sh: --flavor " and trailing newlines dropped), or NULL.
 */
char *kernel_flavor_refusal(const char *said, int status)
{
	static const char prefix[] = "kernel/build.sh: --flavor ";
	size_t len;

	if (!status)
		return NULL;
	if (!strncmp(said, prefix, sizeof(prefix) - 1))
		said += sizeof(prefix) - 1;
	len = strlen(said);
	while (len && said[len - 1] == '\n')
		len--;
	return xasprintf("--kernel: %.*s", (int)len, said);
}

static int check_flavor(const char *lab, const char *kernel)
{
	struct sbuf cmd = { 0 }, said = { 0 };
	char buf[512], *why;
	size_t n;
	FILE *p;
	int status;

	if (strncmp(kernel, "patched:", 8))
		return 0;
	sb_printf(&cmd, "%s/kernel/build.sh", lab);
	{
		char *path = cmd.s;

		cmd = (struct sbuf){ 0 };
		sb_shell_word(&cmd, path);
		free(path);
	}
	sb_puts(&cmd, " --flavor ");
	sb_shell_word(&cmd, kernel);
	sb_puts(&cmd, " --key 2>&1 >/dev/null");
	fflush(NULL);
	p = popen(cmd.s, "r");
	sb_free(&cmd);
	if (!p) {
		fprintf(stderr, "run-lab: --kernel: cannot run kernel/build.sh: %s\n", strerror(errno));
		return RUNOPTS_USAGE;
	}
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		sb_putn(&said, buf, n);
	status = pclose(p);
	why = kernel_flavor_refusal(said.s ? said.s : "", status);
	sb_free(&said);
	if (!why)
		return 0;
	fprintf(stderr, "run-lab: %s\n", why);
	free(why);
	return RUNOPTS_USAGE;
}

static void assign(struct sbuf *b, const char *name, const char *value)
{
	sb_printf(b, "%s=", name);
	sb_shell_word(b, value);
	sb_putc(b, '\n');
}

static void assign_num(struct sbuf *b, const char *name, long value)
{
	sb_printf(b, "%s=%ld\n", name, value);
}

static void assign_array(struct sbuf *b, const char *name, char **v, size_t n)
{
	sb_printf(b, "%s=(", name);
	for (size_t i = 0; i < n; i++) {
		if (i)
			sb_putc(b, ' ');
		sb_shell_word(b, v[i]);
	}
	sb_puts(b, ")\n");
}

int cmd_args(int argc, char **argv)
{
	struct run_opts o = { 0 };
	struct sbuf out = { 0 };
	const char *lab = NULL;
	bool names = false;
	char err[1024], **saved = NULL, **v = argv, **canon = NULL;
	int n = argc, nsaved = 0, rc, i = 1;
	size_t ncanon = 0;

	for (; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--lab") && i + 1 < argc) {
			lab = argv[++i];
		} else if (!strcmp(argv[i], "--names")) {
			names = true;
		} else {
			fprintf(stderr, "usage: labtool args --lab DIR -- RUN-LAB-ARGUMENTS...\n");
			return EXIT_USAGE;
		}
	}
	if (!lab || i == argc) {
		fprintf(stderr, "usage: labtool args --lab DIR -- RUN-LAB-ARGUMENTS...\n");
		return EXIT_USAGE;
	}
	v = argv + i + 1;
	n = argc - i - 1;
	rc = runopts_resume_form(n, v, &o, err, sizeof(err));
	if (rc == 1) {
		char *path = run_file_path(o.resume, RUN_FILE_RUN_ARGS, NULL), *text;
		size_t len;
		bool quiet = o.quiet;

		if (read_file_all(path, &text, &len) < 0) {
			fprintf(stderr, "run-lab: %s: not a run directory (no run.args)\n", o.resume);
			free(path);
			runopts_free(&o);
			return RUNOPTS_NOINPUT;
		}
		free(path);
		saved = runopts_saved_argv(text, len, quiet, &nsaved);
		free(text);
		v = saved;
		n = nsaved;
		rc = 0;
	}
	if (!rc)
		rc = runopts_parse(n, v, &o, err, sizeof(err));
	if (!rc && o.help) {
		sb_puts(&out, "printf %s ");
		sb_shell_word(&out, runopts_help);
		sb_puts(&out, "\nexit 0\n");
		goto print;
	}
	if (!rc)
		rc = runopts_files(&o, lab, err, sizeof(err));
	if (!rc && names) {
		char *known = bench_names(lab);

		rc = runopts_names(&o, known, lab, err, sizeof(err));
		free(known);
	}
	if (rc)
		fprintf(stderr, "run-lab: %s\n", err);
	else if (names)
		rc = check_flavor(lab, o.kernel);
	if (rc || names)
		goto out;
	/* Every topology is checked before anything is built, booted or written. */
	for (size_t k = 0; k < o.ntopo && !rc; k++) {
		struct topo *t = xcalloc(1, sizeof(*t));

		rc = topo_load(o.topo[k], t, stderr);
		free(t);
	}
	if (rc)
		goto out;
	if (o.warning)
		fprintf(stderr, "run-lab: %s\n", o.warning);
	if (o.note && !o.quiet)
		fprintf(stderr, "run-lab: %s\n", o.note);

	assign_num(&out, "quiet", o.quiet);
	assign(&out, "profile", o.profile);
	assign(&out, "benches", o.benches);
	assign(&out, "workloads", o.workloads);
	assign(&out, "exec_cmd", o.exec_cmd);
	assign(&out, "kernel", o.kernel);
	assign(&out, "accel", o.accel);
	assign(&out, "clock", o.clock);
	assign(&out, "fits", o.fits);
	assign(&out, "memory_timing", o.memory_timing);
	assign(&out, "tiering", o.tiering);
	assign(&out, "results", o.results);
	assign_num(&out, "boots", o.boots);
	assign_num(&out, "idle_timeout", o.idle_timeout);
	assign_num(&out, "boot_timeout", o.boot_timeout);
	if (o.step_timeout)
		assign_num(&out, "step_timeout", o.step_timeout);
	else
		assign(&out, "step_timeout", "");
	assign_num(&out, "jobs", o.jobs);
	assign_num(&out, "no_prealloc", o.no_prealloc);
	assign_num(&out, "print_qemu", o.print_qemu);
	assign_num(&out, "print_plan", o.plan);
	assign(&out, "resume", o.resume ? o.resume : "");
	if (o.only_boot)
		assign_num(&out, "only_boot", o.only_boot);
	else
		assign(&out, "only_boot", "");
	assign_array(&out, "adds", o.adds, o.nadds);
	assign_array(&out, "topologies", o.topo, o.ntopo);
	runopts_canon(&o, &canon, &ncanon);
	assign_array(&out, "opts", canon, ncanon);
	for (size_t k = 0; k < ncanon; k++)
		free(canon[k]);
	free(canon);
print:
	fwrite(out.s, 1, out.len, stdout);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "labtool args: cannot write\n");
		rc = EXIT_IOERR;
	}
out:
	sb_free(&out);
	runopts_free_argv(saved, nsaved);
	runopts_free(&o);
	return rc;
}
