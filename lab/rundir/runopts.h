/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run-lab.sh's options, parsed and checked in one place (#14 item 1):
 * `labtool args` hands them to run-lab.sh, `labtool init` writes them to
 * run.args in canonical form, and a resumed run reads them back from there.
 * Messages are run-lab's own ("run-lab: --profile: 'huge' is not quick,
 * default or full"); exit codes too (2 bad usage, 66 missing file).
 */
#ifndef TIERLAB_RUNOPTS_H
#define TIERLAB_RUNOPTS_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

#define RUNOPTS_USAGE 2		/* run-lab's exit for bad usage */
#define RUNOPTS_NOINPUT 66	/* a file named does not exist */

struct run_opts {
	const char *profile, *benches, *workloads, *exec_cmd, *kernel, *accel, *clock, *fits,
		*memory_timing, *results;
	const char *tiering;	/* off, demotion, balancing (the guest's tiers step) */
	long boots, idle_timeout, boot_timeout, step_timeout /* 0: by profile */, jobs;
	bool no_prealloc, clock_given, quiet, print_qemu, plan, help;
	char **adds, **topo;	/* as given; absolute after runopts_files() */
	size_t nadds, ntopo;
	/* --resume RUN-DIR [--only-boot ID] */
	char *resume;
	long only_boot;
	/* what run-lab says about the options: always (warning), unless -q (note) */
	char *warning, *note;
};

/*
 * run-lab's options (argv[0] is the first option, not a program name) into
 * @o, checked against each other; nothing outside is looked at.  0, or
 * RUNOPTS_USAGE with the one-line message in err.
 */
int runopts_parse(int argc, char **argv, struct run_opts *o, char *err, size_t errlen);

/*
 * "--resume RUN-DIR [--only-boot ID] [-q]": 1 if argv is that form (@o's
 * resume, only_boot and quiet set), 0 if it is not, RUNOPTS_USAGE with a
 * message when it is malformed.
 */
int runopts_resume_form(int argc, char **argv, struct run_opts *o, char *err, size_t errlen);

/*
 * The options of run.args's text (NUL-separated words): a vector for
 * runopts_parse, "--clock wall" first for a run from before --clock (timed
 * with the host's clock), -q first if @quiet.  Free with runopts_free_argv.
 */
char **runopts_saved_argv(const char *text, size_t len, bool quiet, int *argc);
void runopts_free_argv(char **v, int argc);

/*
 * The files the options name: --add files readable (made absolute), each
 * topology readable (made absolute; none given: @lab/topologies/dram-pmem.yaml),
 * --only-boot within the run's boots.  0, RUNOPTS_NOINPUT or RUNOPTS_USAGE
 * with the message in err.
 */
int runopts_files(struct run_opts *o, const char *lab, char *err, size_t errlen);

/*
 * --benches against @known (tierbench --list's names, one a line) and
 * --workloads against @lab/workloads.  0 or RUNOPTS_USAGE with the message.
 */
int runopts_names(const struct run_opts *o, const char *known, const char *lab, char *err,
		  size_t errlen);

/* The options in canonical form (run.args, no topologies, no -q), one word each. */
void runopts_canon(const struct run_opts *o, char ***v, size_t *n);

/* meta.json's "options" value: "profile=quick benches=... exec=[yes]". */
char *runopts_summary(const struct run_opts *o);

/*
 * The options of RUN-DIR/run.args into @o (its words kept in *saved until
 * runopts_free_argv).  0, or EXIT_NOINPUT / EXIT_INVALID with the message
 * in err naming the file.
 */
int runopts_load(const char *run, struct run_opts *o, char ***saved, int *nsaved, char *err,
		 size_t errlen);

/*
 * Boot @id's topology file (ids are 1..topologies x boots, each topology's
 * boots in a row), and in *first whether it is that topology's first boot;
 * NULL if the run has no boot @id (a decimal without sign or leading 0).
 */
const char *runopts_boot_topology(const struct run_opts *o, const char *id, bool *first);

/* @s as one shell word, single-quoted ('it'\''s'). */
void sb_shell_word(struct sbuf *b, const char *s);

/* @s as one shell word, as it is when that is safe (A-Za-z0-9_./=:+@%^-), else quoted. */
void sb_shell_arg(struct sbuf *b, const char *s);

/*
 * @s as bash's printf %q writes it (run-lab's --print-qemu): each of
 * " \t\n!\"$&'()*,;<>?[\\]^`{|}" after a backslash, '#' and '~' too where
 * the shell would expand them; with a control character $'...'; '' if empty.
 */
void sb_bash_q(struct sbuf *b, const char *s);

/*
 * `labtool args --names`'s words for kernel/build.sh's refusal of a
 * --kernel patched:N: "--kernel: " and its stderr @said without the
 * "kernel/build.sh: --flavor " prefix and trailing newlines; NULL if its
 * exit @status is 0.  Free the result.
 */
char *kernel_flavor_refusal(const char *said, int status);

/* run-lab's --help text. */
extern const char runopts_help[];

void runopts_free(struct run_opts *o);

#endif
