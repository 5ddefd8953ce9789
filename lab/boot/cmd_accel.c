// SPDX-License-Identifier: GPL-2.0
/*
 * labtool accel --kernel-dir DIR --initramfs F -- RUN-LAB-OPTIONS... [--] TOPOLOGY...
 *
 * Prints the run's accelerator, tcg or kvm, for run-lab.sh.  --accel tcg
 * and kvm are taken as they are (kvm refused without a writable /dev/kvm);
 * auto is tcg under --clock icount or --memory-timing count|delay (TCG
 * only), else the verdict of a probe.  On nested machines /dev/kvm may exist
 * while a KVM guest hangs at "Booting from ROM", so KVM is used only after
 * a probe boot of the first topology (DIR/bzImage, F with a plan of one
 * line, "boot probe") reaches /init within 15 s; the verdict is cached in
 * $TIERLAB_CACHE/kvm-probe (accel.h), per host boot and kernel.
 *
 * Exit: 0; 2 --accel kvm without /dev/kvm, or no QEMU command for the
 * topology (run-lab's words); 64 usage; 130 interrupted during the probe.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "accel.h"
#include "accounting.h"
#include "commands.h"
#include "initrd.h"
#include "qemu.h"
#include "runopts.h"

enum accel_choice accel_decide(const char *accel, const char *clock, const char *memory_timing,
			       bool kvm)
{
	if (!strcmp(accel, "kvm"))
		return kvm ? ACCEL_KVM : ACCEL_NO_KVM;
	if (strcmp(accel, "auto") || !strcmp(clock, "icount") || strcmp(memory_timing, "off"))
		return ACCEL_TCG;
	return ACCEL_PROBE;
}

char *accel_probe_cache(const char *cache_root, const char *boot_id, const char *kernel_dir)
{
	const char *name = kernel_dir;
	size_t len;

	/* basename, trailing slashes ignored */
	len = strlen(name);
	while (len > 1 && name[len - 1] == '/')
		len--;
	for (size_t i = len; i > 0; i--)
		if (name[i - 1] == '/' && i < len) {
			name += i;
			len -= i;
			break;
		}
	return xasprintf("%s/kvm-probe/%.*s-%.*s", cache_root, (int)strcspn(boot_id, "\n"), boot_id,
			 (int)len, name);
}

/* rm -r of the probe's directory (its files only: no subdirectories) */
static void remove_dir(const char *dir, const char *const *names)
{
	for (int i = 0; names[i]; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);

		unlink(p);
		free(p);
	}
	rmdir(dir);
}

/* The probe boot: "kvm" if it reached /init, "tcg" if not, NULL if interrupted. */
static const char *probe(const struct run_opts *o, const char *kdir, const char *base, int *rc)
{
	static const char *const files[] = { "initrd", "console", "channel", "timing", NULL };
	static const char plan[] = "boot probe\n";
	char tmpl[4096], err[1024], *kernel, *initrd, *console, *channel, *timing, *text = NULL;
	const char *tmp = getenv("TMPDIR"), *verdict = "tcg";
	struct qemu_opts q = { 0 };
	struct topo_args a = { 0 };
	size_t len;

	snprintf(tmpl, sizeof(tmpl), "%s/tierlab-kvm.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(tmpl)) {
		fprintf(stderr, "run-lab: cannot create a directory in %s: %s\n", tmp && *tmp ? tmp : "/tmp",
			strerror(errno));
		*rc = 2;
		return NULL;
	}
	kernel = xasprintf("%s/bzImage", kdir);
	initrd = xasprintf("%s/initrd", tmpl);
	console = xasprintf("%s/console", tmpl);
	channel = xasprintf("%s/channel", tmpl);
	timing = xasprintf("%s/timing", tmpl);
	if (initrd_write(initrd, base, plan, sizeof(plan) - 1, NULL, 0, err, sizeof(err))) {
		/* as a probe that does not boot */
		verdict = "tcg";
		goto out;
	}
	q.kernel = kernel;
	q.initrd = initrd;
	q.console = console;
	q.channel = channel;
	q.accel = "kvm";
	q.icount = !strcmp(o->clock, "icount");
	q.no_prealloc = o->no_prealloc;
	if (qemu_boot_argv(o->topo[0], &q, NULL, NULL, NULL, ACCT_COUNT, &a)) {
		fprintf(stderr, "run-lab: %s: no QEMU command line (above)\n", o->topo[0]);
		*rc = 2;
		verdict = NULL;
		goto out;
	}
	{
		char **v = xcalloc(a.n + 14, sizeof(*v));
		int n = 0, saved_out, saved_err, null = open("/dev/null", O_WRONLY), brc;

		v[n++] = "boot";
		v[n++] = "--console";
		v[n++] = console;
		v[n++] = "--channel";
		v[n++] = channel;
		v[n++] = "--idle";
		v[n++] = "8";
		v[n++] = "--wall";
		v[n++] = "15";
		v[n++] = "--timing";
		v[n++] = timing;
		v[n++] = "--";
		for (size_t i = 0; i < a.n; i++)
			v[n++] = a.v[i];
		/* the probe's own words are not the run's: QEMU's and the watchdog's, silenced */
		fflush(stdout);
		fflush(stderr);
		saved_out = dup(1);
		saved_err = dup(2);
		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
			close(null);
		}
		brc = cmd_boot(n, v);
		fflush(stdout);
		fflush(stderr);
		dup2(saved_out, 1);
		dup2(saved_err, 2);
		close(saved_out);
		close(saved_err);
		free(v);
		if (brc == 130) {
			*rc = 130;
			verdict = NULL;
			goto out;
		}
		if (brc == 0 && read_file_all(console, &text, &len) == 0 &&
		    memmem(text, len, "tierlab: /init reached", 22))
			verdict = "kvm";
		free(text);
	}
out:
	remove_dir(tmpl, files);
	topo_args_free(&a);
	free(kernel);
	free(initrd);
	free(console);
	free(channel);
	free(timing);
	return verdict;
}

int cmd_accel(int argc, char **argv)
{
	struct run_opts o = { 0 };
	const char *kdir = NULL, *base = NULL, *root = getenv("TIERLAB_CACHE"), *verdict;
	char err[1024], *cache = NULL, *text = NULL, *id = NULL;
	size_t len;
	int i = 1, rc = 0;

	for (; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--kernel-dir") && i + 1 < argc)
			kdir = argv[++i];
		else if (!strcmp(argv[i], "--initramfs") && i + 1 < argc)
			base = argv[++i];
		else
			break;
	}
	if (i == argc || strcmp(argv[i], "--") || !kdir || !base) {
		fprintf(stderr, "usage: labtool accel --kernel-dir DIR --initramfs F -- RUN-LAB-OPTIONS... "
				"[--] TOPOLOGY...\n");
		return EXIT_USAGE;
	}
	rc = runopts_parse(argc - i - 1, argv + i + 1, &o, err, sizeof(err));
	if (!rc && !o.ntopo)
		snprintf(err, sizeof(err), "no topology"), rc = EXIT_USAGE;
	if (rc) {
		fprintf(stderr, "labtool accel: %s\n", err);
		runopts_free(&o);
		return rc;
	}
	switch (accel_decide(o.accel, o.clock, o.memory_timing, access("/dev/kvm", W_OK) == 0)) {
	case ACCEL_TCG:
		printf("tcg\n");
		goto out;
	case ACCEL_KVM:
		printf("kvm\n");
		goto out;
	case ACCEL_NO_KVM:
		fprintf(stderr, "run-lab: --accel kvm: /dev/kvm is not usable\n");
		rc = 2;
		goto out;
	case ACCEL_PROBE:
		break;
	}
	say("probing KVM");
	if (read_file_all("/proc/sys/kernel/random/boot_id", &id, &len) < 0)
		id = xstrdup("");
	cache = accel_probe_cache(root && *root ? root : "/var/cache/tierlab", id, kdir);
	if (read_file_all(cache, &text, &len) == 0) {
		fwrite(text, 1, len, stdout);
		goto out;
	}
	if (access("/dev/kvm", W_OK)) {
		printf("tcg\n");
		goto out;
	}
	verdict = probe(&o, kdir, base, &rc);
	if (verdict) {
		char *dir = xasprintf("%.*s", (int)(strrchr(cache, '/') - cache), cache);
		char *line = xasprintf("%s\n", verdict);

		mkdir(dir, 0755);
		/* a cache that cannot be written costs a probe next time, nothing more */
		write_file_atomic(cache, line, strlen(line));
		printf("%s", line);
		free(dir);
		free(line);
	}
out:
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "labtool accel: cannot write\n");
		rc = EXIT_IOERR;
	}
	free(cache);
	free(text);
	free(id);
	runopts_free(&o);
	return rc;
}
