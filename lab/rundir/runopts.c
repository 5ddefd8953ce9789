// SPDX-License-Identifier: GPL-2.0
/*
 * run-lab.sh's options, parsed and checked (lab/rundir/runopts.h).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runopts.h"
#include "words.h"
#include "runfiles.h"

__attribute__((format(printf, 3, 4))) static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return RUNOPTS_USAGE;
}

/* A positive whole number as run-lab took them (digits only, > 0); else -1. */
static long count(const char *s)
{
	char *end;
	long v;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	return errno || v < 1 || v > INT_MAX ? -1 : v;
}

static bool one_of(const char *s, const char *const *words)
{
	for (; *words; words++)
		if (!strcmp(s, *words))
			return true;
	return false;
}

static const char resume_alone[] =
	"--resume takes exactly one run directory and no other option (but --only-boot ID, -q)";

int runopts_resume_form(int argc, char **argv, struct run_opts *o, char *err, size_t errlen)
{
	size_t len;

	if (argc < 1 || strcmp(argv[0], "--resume"))
		return 0;
	if (argc < 2)
		return fail(err, errlen, "%s", resume_alone);
	len = strlen(argv[1]);
	o->resume = xasprintf("%.*s", (int)(len > 1 && argv[1][len - 1] == '/' ? len - 1 : len), argv[1]);
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--only-boot")) {
			const char *id = i + 1 < argc ? argv[i + 1] : "";
			size_t n = strlen(id);

			if (!*id)
				return fail(err, errlen, "--only-boot needs a value (see --help)");
			/* a boot id as run-lab numbers them: 1..N, no sign, no leading 0 */
			if (id[0] < '1' || id[0] > '9' || n > 9 || strspn(id, "0123456789") != n)
				return fail(err, errlen, "--only-boot: '%s' is not a boot id (a positive integer)", id);
			o->only_boot = strtol(id, NULL, 10);
			i++;
		} else if (!strcmp(argv[i], "-q")) {
			o->quiet = true;
		} else {
			return fail(err, errlen, "%s", resume_alone);
		}
	}
	return 1;
}

char **runopts_saved_argv(const char *text, size_t len, bool quiet, int *argc)
{
	char **v = xcalloc(len + 4, sizeof(*v));
	int n = 0;
	bool clock = false;

	if (quiet)
		v[n++] = xstrdup("-q");
	for (size_t at = 0; at < len;) {
		size_t l = strnlen(text + at, len - at);

		clock |= l == 7 && !memcmp(text + at, "--clock", 7);
		v[n++] = xasprintf("%.*s", (int)l, text + at);
		at += l + 1;
	}
	/* Runs from before --clock existed were timed with the host's clock. */
	if (!clock) {
		memmove(v + quiet + 2, v + quiet, (size_t)(n - quiet) * sizeof(*v));
		v[quiet] = xstrdup("--clock");
		v[quiet + 1] = xstrdup("wall");
		n += 2;
	}
	*argc = n;
	return v;
}

void runopts_free_argv(char **v, int argc)
{
	for (int i = 0; i < argc; i++)
		free(v[i]);
	free(v);
}

static void push(char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
}

int runopts_parse(int argc, char **argv, struct run_opts *o, char *err, size_t errlen)
{
	static const char *const fits[] = { "yes", "no", "unknown", NULL };
	static const char *const accels[] = { "auto", "tcg", "kvm", NULL };
	static const char *const timings[] = { "off", "count", "delay", NULL };
	static const char *const clocks[] = { "icount", "wall", NULL };
	static const char *const tierings[] = { "off", "demotion", "balancing", NULL };
	const char *boots = "1", *idle = "300", *wall = "3600", *step = NULL, *jobs = "1";

	o->profile = "default";
	o->benches = "default";
	o->workloads = "none";
	o->exec_cmd = "";
	o->kernel = "patched";
	o->accel = "auto";
	o->clock = "icount";
	o->fits = "unknown";
	o->memory_timing = "off";
	o->tiering = "off";
	o->results = "results";
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		const char **opt = !strcmp(a, "--profile") ? &o->profile :
				   !strcmp(a, "--benches") ? &o->benches :
				   !strcmp(a, "--workloads") ? &o->workloads :
				   !strcmp(a, "--exec") ? &o->exec_cmd :
				   !strcmp(a, "--kernel") ? &o->kernel :
				   !strcmp(a, "--accel") ? &o->accel :
				   !strcmp(a, "--clock") ? &o->clock :
				   !strcmp(a, "--boots") ? &boots :
				   !strcmp(a, "--fits") ? &o->fits :
				   !strcmp(a, "--memory-timing") ? &o->memory_timing :
				   !strcmp(a, "--tiering") ? &o->tiering :
				   !strcmp(a, "--idle-timeout") ? &idle :
				   !strcmp(a, "--boot-timeout") ? &wall :
				   !strcmp(a, "--results") ? &o->results :
				   !strcmp(a, "--step-timeout") ? &step :
				   !strcmp(a, "-j") ? &jobs : NULL;

		if (opt || !strcmp(a, "--add")) {
			if (i + 1 >= argc || !*argv[i + 1])
				return fail(err, errlen, "%s needs a value (see --help)", a);
			if (opt)
				*opt = argv[++i];
			else
				push(&o->adds, &o->nadds, argv[++i]);
			o->clock_given |= opt == &o->clock;
		} else if (!strncmp(a, "-j", 2) && a[2] >= '0' && a[2] <= '9') {
			jobs = a + 2;
		} else if (!strcmp(a, "--no-prealloc")) {
			o->no_prealloc = true;
		} else if (!strcmp(a, "--resume")) {
			return fail(err, errlen, "%s", resume_alone);
		} else if (!strcmp(a, "--only-boot")) {
			return fail(err, errlen, "--only-boot goes after --resume RUN-DIR (see --help)");
		} else if (!strcmp(a, "--print-qemu")) {
			o->print_qemu = true;
		} else if (!strcmp(a, "--plan")) {
			o->plan = true;
		} else if (!strcmp(a, "-q")) {
			o->quiet = true;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			o->help = true;
			return 0;
		} else if (!strcmp(a, "--")) {
			while (++i < argc)
				push(&o->topo, &o->ntopo, argv[i]);
		} else if (a[0] == '-') {
			return fail(err, errlen, "unknown option '%s' (see --help)", a);
		} else {
			push(&o->topo, &o->ntopo, a);
		}
	}

	if (vocab_profile(o->profile) < 0) {
		char words[64];

		return fail(err, errlen, "--profile: '%s' is not one of %s", o->profile,
			    vocab_join(vocab_profile_names, words, sizeof(words)));
	}
	if (!one_of(o->fits, fits))
		return fail(err, errlen, "--fits: '%s' is not yes, no or unknown", o->fits);
	if (!strncmp(o->kernel, "patched:", 8)) {
		/* N is checked against kernel/series once the tree is installed */
		if (count(o->kernel + 8) < 0)
			return fail(err, errlen, "--kernel: '%s': N must be a patch count from 1", o->kernel);
	} else if (strcmp(o->kernel, "patched") && strcmp(o->kernel, "upstream") &&
		   strcmp(o->kernel, "6.1")) {
		return fail(err, errlen, "--kernel: '%s' is not patched, patched:N, upstream or 6.1", o->kernel);
	}
	if (!one_of(o->accel, accels))
		return fail(err, errlen, "--accel: '%s' is not auto, tcg or kvm", o->accel);
	if (!one_of(o->memory_timing, timings))
		return fail(err, errlen, "--memory-timing: '%s' is not off, count or delay", o->memory_timing);
	/* The plugin instruments TCG's translation: there is none under KVM. */
	if (strcmp(o->memory_timing, "off") && !strcmp(o->accel, "kvm"))
		return fail(err, errlen, "--memory-timing %s needs TCG; --accel kvm conflicts with it",
			    o->memory_timing);
	if (!one_of(o->clock, clocks))
		return fail(err, errlen, "--clock: '%s' is not icount or wall", o->clock);
	if (!one_of(o->tiering, tierings))
		return fail(err, errlen, "--tiering: '%s' is not off, demotion or balancing", o->tiering);
	/* the same refusal as labtool qemu-argv's (lab/boot/qemu.h), before anything is built */
	if (!strcmp(o->memory_timing, "delay") && !strcmp(o->clock, "icount"))
		return fail(err, errlen, "--memory-timing delay needs --clock wall: under --clock icount "
			    "the guest's clock counts instructions and never sees a host-side delay");
	/*
	 * Debian's 6.1 goes silent under icount after "x86: Booting SMP
	 * configuration" (README, "Clocks"): unless the clock was asked for, it
	 * runs on the wall clock, and says so.
	 */
	if (!strcmp(o->kernel, "6.1") && !strcmp(o->clock, "icount")) {
		if (o->clock_given) {
			o->warning = xstrdup("warning: --kernel 6.1 does not boot under --clock icount here "
					     "(README, Clocks); expect a timeout");
		} else {
			o->clock = "wall";
			o->note = xstrdup("--kernel 6.1: the wall clock (6.1 does not boot under icount "
					  "here; README, Clocks)");
		}
	}
	/* QEMU counts instructions only when it translates them itself. */
	if (!strcmp(o->clock, "icount") && !strcmp(o->accel, "kvm"))
		return fail(err, errlen, "--clock icount needs TCG; --accel kvm conflicts with it (use --clock wall)");
	if ((o->boots = count(boots)) < 0)
		return fail(err, errlen, "--boots: '%s' is not a positive integer", boots);
	if ((o->idle_timeout = count(idle)) < 0)
		return fail(err, errlen, "--idle-timeout: '%s' is not a positive number of seconds", idle);
	if ((o->boot_timeout = count(wall)) < 0)
		return fail(err, errlen, "--boot-timeout: '%s' is not a positive number of seconds", wall);
	if (step && (o->step_timeout = count(step)) < 0)
		return fail(err, errlen, "--step-timeout: '%s' is not a positive number of seconds", step);
	if ((o->jobs = count(jobs)) < 0)
		return fail(err, errlen, "-j: '%s' is not a positive integer", jobs);
	if (*o->exec_cmd && strcmp(o->tiering, "off"))
		return fail(err, errlen, "--tiering is set by the benchmarks' plan; --exec runs one command "
			    "instead (set it there: tierbench tiers --tiering MODE)");
	if (*o->exec_cmd && (strcmp(o->benches, "default") || strcmp(o->workloads, "none")))
		return fail(err, errlen, "--exec runs one command instead of the benchmarks; it conflicts "
			    "with --benches/--workloads");
	return 0;
}

/* [ -f PATH ] && [ -r PATH ] */
static bool readable_file(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && access(path, R_OK) == 0;
}

static int absolute(char **path)
{
	char *abs = realpath(*path, NULL);

	if (!abs)
		return -1;
	free(*path);
	*path = abs;
	return 0;
}

/* [ -d PATH ] && [ -r PATH ] && [ -x PATH ] */
static bool readable_dir(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode) && access(path, R_OK | X_OK) == 0;
}

/*
 * A guest path for --add's DEST: absolute, [A-Za-z0-9._/-] only, no ".."
 * component, not the root, nor /init or /lab (the lab's own).
 */
static const char *bad_guest_path(const char *d)
{
	if (d[0] != '/' || !d[1])
		return "must be an absolute path below /";
	if (strspn(d, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-") != strlen(d))
		return "may hold only letters, digits and ._/-";
	for (const char *p = d; (p = strstr(p, "..")); p += 2)
		if (p[-1] == '/' && (!p[2] || p[2] == '/'))
			return "must not hold '..'";
	if (!strcmp(d, "/init") || !strcmp(d, "/lab") || !strncmp(d, "/lab/", 5))
		return "is the lab's own (/init, /lab)";
	return NULL;
}

/*
 * --add SRC[:DEST]: SRC a readable file or directory, made absolute; DEST
 * where it goes in the guest (default /bin/<name of SRC>).  The whole word
 * is SRC when it exists; else it splits at its last ":/".  Stored as
 * "ABS-SRC:DEST", which run-lab.sh splits the same way.
 */
static int add_check(char **add, char *err, size_t errlen)
{
	char *src, *dest, *cut = NULL, *abs;
	const char *why;
	struct stat sb;

	if (stat(*add, &sb) != 0)
		for (char *p = *add; (p = strstr(p, ":/")); p++)
			cut = p;
	src = cut ? xasprintf("%.*s", (int)(cut - *add), *add) : xstrdup(*add);
	if (!readable_file(src) && !readable_dir(src)) {
		snprintf(err, errlen, "--add: %s: not a readable file or directory", src);
		free(src);
		return RUNOPTS_NOINPUT;
	}
	abs = realpath(src, NULL);
	if (!abs) {
		snprintf(err, errlen, "--add: %s: %s", src, strerror(errno));
		free(src);
		return RUNOPTS_NOINPUT;
	}
	dest = cut ? xstrdup(cut + 1) : xasprintf("/bin/%s", strrchr(abs, '/') + 1);
	if ((why = bad_guest_path(dest))) {
		snprintf(err, errlen, "--add: %s: the guest path %s", dest, why);
		free(src);
		free(abs);
		free(dest);
		return RUNOPTS_USAGE;
	}
	free(*add);
	*add = xasprintf("%s:%s", abs, dest);
	free(src);
	free(abs);
	free(dest);
	return 0;
}

int runopts_files(struct run_opts *o, const char *lab, char *err, size_t errlen)
{
	for (size_t i = 0; i < o->nadds; i++) {
		int rc = add_check(&o->adds[i], err, errlen);

		if (rc)
			return rc;
	}
	if (!o->ntopo) {
		char *t = xasprintf("%s/topologies/dram-pmem.yaml", lab);

		push(&o->topo, &o->ntopo, t);
		free(t);
	}
	for (size_t i = 0; i < o->ntopo; i++)
		if (!readable_file(o->topo[i]) || absolute(&o->topo[i])) {
			snprintf(err, errlen, "%s: no such readable topology file", o->topo[i]);
			return RUNOPTS_NOINPUT;
		}
	/* Boot ids are 1..topologies x boots. */
	if (o->only_boot) {
		long n = (long)o->ntopo * o->boots;

		if (o->only_boot > n)
			return fail(err, errlen, "--only-boot: %ld: %s has boots 1 to %ld", o->only_boot,
				    o->resume ? o->resume : "the run", n);
		o->jobs = 1;
	}
	return 0;
}

int runopts_load(const char *run, struct run_opts *o, char ***saved, int *nsaved, char *err,
		 size_t errlen)
{
	char *path = run_file_path(run, RUN_FILE_RUN_ARGS, NULL), *text, msg[512];
	size_t len;
	int rc = 0;

	*saved = NULL;
	*nsaved = 0;
	if (read_file_all(path, &text, &len) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(path);
		return errno == ENOMEM ? 70 : 66;
	}
	*saved = runopts_saved_argv(text, len, false, nsaved);
	free(text);
	if (runopts_parse(*nsaved, *saved, o, msg, sizeof(msg))) {
		snprintf(err, errlen, "%s: %s", path, msg);
		rc = 65;
	} else if (!o->ntopo) {
		snprintf(err, errlen, "%s: no topology", path);
		rc = 65;
	}
	free(path);
	return rc;
}

const char *runopts_boot_topology(const struct run_opts *o, const char *id, bool *first)
{
	size_t n = strlen(id);
	long v;

	if (!n || n > 9 || id[0] < '1' || id[0] > '9' || strspn(id, "0123456789") != n)
		return NULL;
	v = strtol(id, NULL, 10);
	if (o->boots < 1 || v > (long)o->ntopo * o->boots)
		return NULL;
	if (first)
		*first = (v - 1) % o->boots == 0;
	return o->topo[(v - 1) / o->boots];
}

/* NAME of DIR/NAME.fio and DIR/NAME.job, sorted, comma-separated */
static char *workload_names(const char *dir)
{
	struct dirent **names = NULL;
	struct sbuf b = { 0 };
	int n = scandir(dir, &names, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		size_t len = strlen(names[i]->d_name);

		if (len > 4 && (!strcmp(names[i]->d_name + len - 4, ".fio") ||
				!strcmp(names[i]->d_name + len - 4, ".job")))
			sb_printf(&b, "%s%.*s", b.len ? "," : "", (int)(len - 4), names[i]->d_name);
		free(names[i]);
	}
	free(names);
	return b.s ? b.s : xstrdup("");
}

/* Each word of a comma-separated list, ok(word) or the message. */
static int each_word(const char *list, bool (*ok)(const char *w, const void *arg), const void *arg,
		     char *bad, size_t size)
{
	char *copy = xstrdup(list), *save = NULL;
	int rc = 0;

	for (char *w = strtok_r(copy, ",", &save); w && !rc; w = strtok_r(NULL, ",", &save))
		if (!ok(w, arg)) {
			snprintf(bad, size, "%s", w);
			rc = 1;
		}
	free(copy);
	return rc;
}

static bool known_bench(const char *w, const void *arg)
{
	size_t l = strlen(w);

	for (const char *p = arg; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, w, l) && (p[l] == '\n' || !p[l]))
			return true;
	return false;
}

static bool known_workload(const char *w, const void *lab)
{
	char *a = xasprintf("%s/workloads/%s.fio", (const char *)lab, w);
	char *b = xasprintf("%s/workloads/%s.job", (const char *)lab, w);
	bool ok = readable_file(a) || readable_file(b);

	free(a);
	free(b);
	return ok;
}

int runopts_names(const struct run_opts *o, const char *known, const char *lab, char *err,
		  size_t errlen)
{
	char bad[256];

	if (strcmp(o->benches, "default") && strcmp(o->benches, "none") &&
	    each_word(o->benches, known_bench, known, bad, sizeof(bad))) {
		struct sbuf k = { 0 };

		for (const char *p = known; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
			sb_printf(&k, "%s%.*s", k.len ? "," : "", (int)strcspn(p, "\n"), p);
		fail(err, errlen, "--benches: unknown benchmark '%s' (known: %s)", bad, k.s ? k.s : "");
		sb_free(&k);
		return RUNOPTS_USAGE;
	}
	if (strcmp(o->workloads, "all") && strcmp(o->workloads, "none") &&
	    each_word(o->workloads, known_workload, lab, bad, sizeof(bad))) {
		char *dir = xasprintf("%s/workloads", lab), *names = workload_names(dir);

		fail(err, errlen, "--workloads: unknown workload '%s' (known: %s)", bad, names);
		free(names);
		free(dir);
		return RUNOPTS_USAGE;
	}
	return 0;
}

void runopts_canon(const struct run_opts *o, char ***v, size_t *n)
{
	char num[32];

	*v = NULL;
	*n = 0;
#define OPT(name, value) (push(v, n, name), push(v, n, value))
#define NUM(name, value) (snprintf(num, sizeof(num), "%ld", value), OPT(name, num))
	OPT("--profile", o->profile);
	OPT("--benches", o->benches);
	OPT("--workloads", o->workloads);
	OPT("--kernel", o->kernel);
	OPT("--accel", o->accel);
	OPT("--clock", o->clock);
	NUM("--boots", o->boots);
	NUM("--idle-timeout", o->idle_timeout);
	NUM("--boot-timeout", o->boot_timeout);
	NUM("-j", o->jobs);
	OPT("--results", o->results);
	OPT("--fits", o->fits);
	OPT("--memory-timing", o->memory_timing);
	/* only when set: run.args of a run without it stay as they were */
	if (strcmp(o->tiering, "off"))
		OPT("--tiering", o->tiering);
	if (o->step_timeout)
		NUM("--step-timeout", o->step_timeout);
	if (o->no_prealloc)
		push(v, n, "--no-prealloc");
	if (*o->exec_cmd)
		OPT("--exec", o->exec_cmd);
	for (size_t i = 0; i < o->nadds; i++)
		OPT("--add", o->adds[i]);
#undef NUM
#undef OPT
}

char *runopts_summary(const struct run_opts *o)
{
	/* an --exec run runs no benchmark and no workload, whatever the defaults say */
	return xasprintf("profile=%s benches=%s workloads=%s boots=%ld clock=%s memory_timing=%s exec=%s%s%s%s",
			 o->profile, *o->exec_cmd ? "none" : o->benches,
			 *o->exec_cmd ? "none" : o->workloads, o->boots, o->clock, o->memory_timing,
			 *o->exec_cmd ? "yes" : "", o->no_prealloc ? " prealloc=off" : "",
			 strcmp(o->tiering, "off") ? " tiering=" : "",
			 strcmp(o->tiering, "off") ? o->tiering : "");
}

void sb_shell_word(struct sbuf *b, const char *s)
{
	sb_putc(b, '\'');
	for (; *s; s++)
		if (*s == '\'')
			sb_puts(b, "'\\''");
		else
			sb_putc(b, *s);
	sb_putc(b, '\'');
}

void sb_shell_arg(struct sbuf *b, const char *s)
{
	if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./=:+@%^-") ==
			  strlen(s))
		sb_puts(b, s);
	else
		sb_shell_word(b, s);
}

void sb_bash_q(struct sbuf *b, const char *s)
{
	static const char special[] = " \t\n!\"$&'()*,;<>?[\\]^`{|}";
	const unsigned char *p;

	if (!*s) {
		sb_puts(b, "''");
		return;
	}
	for (p = (const unsigned char *)s; *p && *p >= 0x20 && *p != 0x7f; p++)
		;
	if (*p) {
		/* a control character: $'...', as bash's ansic_quote */
		sb_puts(b, "$'");
		for (p = (const unsigned char *)s; *p; p++) {
			char c = *p == '\a' ? 'a' : *p == '\b' ? 'b' : *p == '\f' ? 'f' : *p == '\n' ? 'n' :
				 *p == '\r' ? 'r' : *p == '\t' ? 't' : *p == '\v' ? 'v' : *p == 033 ? 'E' :
				 *p == '\\' || *p == '\'' ? (char)*p : 0;

			if (c)
				sb_printf(b, "\\%c", c);
			else if (*p < 0x20 || *p == 0x7f)
				sb_printf(b, "\\%03o", *p);
			else
				sb_putc(b, (char)*p);
		}
		sb_putc(b, '\'');
		return;
	}
	for (p = (const unsigned char *)s; *p; p++) {
		if (strchr(special, *p) || (*p == '#' && p == (const unsigned char *)s) ||
		    (*p == '~' && (p == (const unsigned char *)s || p[-1] == ':' || p[-1] == '=')))
			sb_putc(b, '\\');
		sb_putc(b, (char)*p);
	}
}

void runopts_free(struct run_opts *o)
{
	for (size_t i = 0; i < o->nadds; i++)
		free(o->adds[i]);
	for (size_t i = 0; i < o->ntopo; i++)
		free(o->topo[i]);
	free(o->adds);
	free(o->topo);
	free(o->resume);
	free(o->warning);
	free(o->note);
	memset(o, 0, sizeof(*o));
}

const char runopts_help[] =
	"tierlab: boot the lab's kernel on an emulated tiered-memory machine, run the\n"
	"benchmarks in the guest, and leave the figures and a report in results/.\n"
	"\n"
	"usage: ./run-lab.sh [options] [TOPOLOGY.yaml...]\n"
	"       ./run-lab.sh compare RUN-DIR RUN-DIR...\n"
	"\n"
	"With no topology, runs topologies/dram-pmem.yaml.\n"
	"\n"
	"options:\n"
	"  --profile quick|default|full   benchmark size (default: default)\n"
	"  --benches LIST        comma-separated benchmarks (tierbench --list); 'none' for none\n"
	"  --workloads LIST      comma-separated workloads of workloads/; 'none' (default) for none\n"
	"  --exec CMD            run CMD in the guest (via sh -c) instead of the benchmarks;\n"
	"                        its output (stdout and stderr) comes back; a status\n"
	"                        other than 0 is said and makes run-lab exit 4\n"
	"  --add SRC[:DEST]      copy the file or directory SRC into the guest, at DEST\n"
	"                        (default /bin/<name>; repeatable)\n"
	"  --kernel K            patched (default), patched:N (the first N patches of\n"
	"                        kernel/series), upstream (no series) or 6.1\n"
	"  --accel auto|tcg|kvm  accelerator (auto: KVM only if a short probe boot works;\n"
	"                        always TCG with --clock icount)\n"
	"  --clock icount|wall   what the guest's clock counts (default icount): guest\n"
	"                        instructions (QEMU -icount shift=0, timings in insn,\n"
	"                        the same in every boot) or host time (ns, noisy under TCG)\n"
	"  --memory-timing off|count|delay\n"
	"                        count: a QEMU plugin counts, per node, the guest's\n"
	"                        reads, writes and simulated-LLC misses inside the\n"
	"                        phases the guest marks (each case of latency and\n"
	"                        fallback, each workload, the chase), as rows per\n"
	"                        case (TCG only; default off; README \"Memory timing\");\n"
	"                        delay (experimental, needs --clock wall): counts, and\n"
	"                        makes each miss wait its node's dilated latency on the\n"
	"                        host; for the chase only (README \"Delay injection\")\n"
	"  --tiering off|demotion|balancing\n"
	"                        the guest's memory tiering (default off): demotion\n"
	"                        sets /sys/kernel/mm/numa/demotion_enabled, balancing\n"
	"                        also kernel.numa_balancing=2 (tiering mode); the\n"
	"                        guest checks it and the benchmarks add tiering\n"
	"                        (README \"Tiering\"); no change to the QEMU command\n"
	"  --no-prealloc         leave guest memory to be allocated as the guest touches\n"
	"                        it (default: preallocated; make bench-lab shows why)\n"
	"  --boots N             boots per topology (repetitions; default 1)\n"
	"  --fits yes|no|unknown whether the workload fits the nodes it is given: the\n"
	"                        branch of the report's decision rule (default unknown:\n"
	"                        the answer for a workload that may not, with the\n"
	"                        other beside it; README \"Which policy? The decision rule\")\n"
	"  --idle-timeout S      kill a boot silent for S seconds (default 300)\n"
	"  --boot-timeout S      kill a boot running longer than S seconds (default 3600)\n"
	"  --results DIR         where run directories go (default: results)\n"
	"  --step-timeout S      kill a guest step running longer than S seconds\n"
	"                        (default: by profile; for --exec, the boot timeout)\n"
	"  -j N                  run up to N boots at once (default 1)\n"
	"  --resume RUN-DIR [--only-boot ID] [-q]\n"
	"                        finish an interrupted run: redo only the boots that\n"
	"                        did not complete, with the run's original options,\n"
	"                        then write the report; with --only-boot, only boot ID\n"
	"                        (1..boots of the run) and no report\n"
	"  --print-qemu          print the QEMU command line for each topology and exit\n"
	"  --plan                create the run directory (one per topology) and print\n"
	"                        one command per boot that runs that boot into it (for\n"
	"                        GNU parallel, ssh or a batch scheduler), then, on\n"
	"                        stderr, the commands that write the report(s) once\n"
	"                        every boot has finished; exit\n"
	"  -q                    no progress lines\n"
	"  -h, --help            this text\n"
	"\n"
	"exit: 0 all well; 1 a check or step failed; 2 bad usage; 3 a boot failed\n"
	"(panic, hang, truncated results); 4 the --exec command's status was not 0;\n"
	"65 invalid topology; 66 missing file.  Over several boots the worst: 3 over 4\n"
	"over 1, any other code over those.\n";
