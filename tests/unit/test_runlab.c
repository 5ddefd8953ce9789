// SPDX-License-Identifier: GPL-2.0
/*
 * What moved from run-lab.sh into labtool (issue 14, item 1): --print-qemu's
 * quoting (bash's printf %q), the boot's initramfs (find | sort | cpio),
 * the accelerator's choice and the KVM probe's cache, run-lab's lines for
 * a collected boot, the staging room, a child's exit as the shell's $?,
 * the --kernel patched:N refusal and the progress line.
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "accel.h"
#include "initrd.h"
#include "rundir.h"
#include "runopts.h"
#include "util.h"

static int q_is(const char *s, const char *want)
{
	struct sbuf b = { 0 };
	int ok;

	sb_bash_q(&b, s);
	ok = b.s && !strcmp(b.s, want);
	if (!ok)
		fprintf(stderr, "  sb_bash_q(\"%s\"): got %s, want %s\n", s, b.s ? b.s : "(null)", want);
	sb_free(&b);
	return ok;
}

/* Each expected value is what bash 5.2's printf %q printed for the input. */
TEST(runlab_print_qemu_quotes_as_bash_printf_q)
{
	CHECK(q_is("~a", "\\~a"));
	CHECK(q_is("a=~b", "a=\\~b"));
	CHECK(q_is("a:~b", "a:\\~b"));
	CHECK(q_is("a~b", "a~b"));
	CHECK(q_is("#a", "\\#a"));
	CHECK(q_is("a#b", "a#b"));
	CHECK(q_is("a=b%c@d+e", "a=b%c@d+e"));
	CHECK(q_is("", "''"));
	CHECK(q_is("a\tb", "$'a\\tb'"));
	CHECK(q_is("x y", "x\\ y"));
	CHECK(q_is("it's", "it\\'s"));
	CHECK(q_is("a!b\"c$d&e(f)g*h,i;j<k>l?m[n\\o]p^q`r{s|t}u",
		   "a\\!b\\\"c\\$d\\&e\\(f\\)g\\*h\\,i\\;j\\<k\\>l\\?m\\[n\\\\o\\]p\\^q\\`r\\{s\\|t\\}u"));
	CHECK(q_is("\x01", "$'\\001'"));
	CHECK(q_is("pc,hmat=on", "pc\\,hmat=on"));
}

/* One entry of a newc archive read back: its name, mode and data. */
struct ent {
	char name[256];
	unsigned mode;
	char data[256];
	size_t len;
};

static unsigned hex8(const char *p)
{
	char b[9];

	memcpy(b, p, 8);
	b[8] = '\0';
	return (unsigned)strtoul(b, NULL, 16);
}

/* The archive's entries, up to the trailer; -1 if malformed. */
static int read_newc(const char *a, size_t len, struct ent *e, int max)
{
	size_t at = 0;
	int n = 0;

	while (at + 110 <= len && n < max) {
		unsigned mode, size, namesize;

		if (memcmp(a + at, "070701", 6))
			return -1;
		mode = hex8(a + at + 14);
		size = hex8(a + at + 54);
		namesize = hex8(a + at + 94);
		if (at + 110 + namesize > len || namesize > sizeof(e->name))
			return -1;
		memcpy(e[n].name, a + at + 110, namesize);
		at = (at + 110 + namesize + 3) & ~(size_t)3;
		if (!strcmp(e[n].name, "TRAILER!!!"))
			return len % 512 == 0 ? n : -1;
		if (size >= sizeof(e->data) || at + size > len)
			return -1;
		e[n].mode = mode;
		memcpy(e[n].data, a + at, size);
		e[n].data[size] = '\0';
		e[n].len = size;
		at = (at + size + 3) & ~(size_t)3;
		n++;
	}
	return -1;
}

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

TEST(runlab_initrd_lays_out_plan_and_adds_as_cp)
{
	char tmpl[] = "/tmp/tierlab-unit-initrd.XXXXXX", *dir = mkdtemp(tmpl), err[256] = "";
	char *tool = NULL, *tree = NULL, *sub = NULL, *add[4], *buf = NULL;
	struct ent e[32];
	size_t len = 0;
	FILE *f;
	int n;

	CHECK(dir != NULL);
	if (!dir)
		return;
	tool = xasprintf("%s/tool", dir);
	tree = xasprintf("%s/suite", dir);
	sub = xasprintf("%s/suite/sub", dir);
	put_file(tool, "#!/bin/sh\n");
	chmod(tool, 0755);
	mkdir(tree, 0755);
	mkdir(sub, 0755);
	free(tool);
	tool = xasprintf("%s/suite/sub/hello", dir);
	put_file(tool, "hi\n");
	free(tool);
	tool = xasprintf("%s/tool", dir);
	add[0] = xasprintf("%s:/bin/tool", tool);		/* the default DEST */
	add[1] = xasprintf("%s:/opt/suite", tree);		/* a tree, under new parents */
	add[2] = xasprintf("%s:/opt", tool);			/* into a directory that exists */
	add[3] = xasprintf("%s/suite:x", dir);			/* no ":/": refused */

	f = open_memstream(&buf, &len);
	CHECK(initrd_append(f, "boot 1\n", 7, add, 3, err, sizeof(err)) == 0);
	fclose(f);
	n = read_newc(buf, len, e, 32);
	CHECK(n == 10);
	if (n == 10) {
		/* sorted as "./opt/suite" ... by find | sort; stored without "./" as cpio does */
		static const char *const names[] = { ".", "bin", "bin/tool", "lab", "lab/plan",
						     "opt", "opt/suite", "opt/suite/sub",
						     "opt/suite/sub/hello", "opt/tool" };

		for (int i = 0; i < n; i++)
			CHECK_STR(e[i].name, names[i]);
		CHECK(S_ISDIR(e[0].mode) && S_ISDIR(e[5].mode) && S_ISDIR(e[7].mode));
		CHECK(S_ISREG(e[4].mode) && !strcmp(e[4].data, "boot 1\n"));
		CHECK(S_ISREG(e[2].mode) && (e[2].mode & 0100) && !strcmp(e[2].data, "#!/bin/sh\n"));
		CHECK(!strcmp(e[8].data, "hi\n") && e[8].len == 3);
	}
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	CHECK(initrd_append(f, "", 0, add + 3, 1, err, sizeof(err)) == -1);
	CHECK(strstr(err, "is not SRC:/DEST") != NULL);
	fclose(f);
	free(buf);

	/* the base image first, then the archive; a missing base writes nothing */
	{
		char *base = xasprintf("%s/base.cpio", dir), *out = xasprintf("%s/initrd", dir), *text;

		put_file(base, "BASE");
		CHECK(initrd_write(out, base, "p\n", 2, NULL, 0, err, sizeof(err)) == 0);
		CHECK(read_file_all(out, &text, &len) == 0 && len > 4 && !memcmp(text, "BASE", 4) &&
		      read_newc(text + 4, len - 4, e, 32) == 4);
		free(text);
		unlink(out);
		unlink(base);
		CHECK(initrd_write(out, base, "p\n", 2, NULL, 0, err, sizeof(err)) == -1);
		CHECK(access(out, F_OK) != 0 && strstr(err, "base.cpio") != NULL);
		free(base);
		free(out);
	}
	for (int i = 0; i < 4; i++)
		free(add[i]);
	free(tool);
	free(tree);
	free(sub);
	{
		char *rm = xasprintf("rm -rf '%s'", dir);

		CHECK(system(rm) == 0);
		free(rm);
	}
}

TEST(runlab_accel_choice)
{
	CHECK(accel_decide("tcg", "wall", "off", true) == ACCEL_TCG);
	CHECK(accel_decide("kvm", "wall", "off", true) == ACCEL_KVM);
	CHECK(accel_decide("kvm", "wall", "off", false) == ACCEL_NO_KVM);
	/* auto: TCG where only TCG can do it, else a probe */
	CHECK(accel_decide("auto", "icount", "off", true) == ACCEL_TCG);
	CHECK(accel_decide("auto", "wall", "count", true) == ACCEL_TCG);
	CHECK(accel_decide("auto", "wall", "delay", true) == ACCEL_TCG);
	CHECK(accel_decide("auto", "wall", "off", true) == ACCEL_PROBE);
	CHECK(accel_decide("auto", "wall", "off", false) == ACCEL_PROBE);

	char *p = accel_probe_cache("/c", "1234-abcd\n", "/var/k/patched-0f/");

	CHECK_STR(p, "/c/kvm-probe/1234-abcd-patched-0f");
	free(p);
	p = accel_probe_cache("/c", "", "k");
	CHECK_STR(p, "/c/kvm-probe/-k");
	free(p);
}

TEST(runlab_collect_and_outcome_lines)
{
	struct sbuf b = { 0 };

	collect_say("boot 2/4", "2", 0, "boot 2: ok: 10 rows\n", &b);
	CHECK_STR(b.s, "boot 2/4: ok: 10 rows\n");
	sb_free(&b);
	/* a failed boot is run-lab's own line, said even under -q */
	collect_say("boot 12/12", "12", 3, "boot 12: panic: 0 rows; Kernel panic\n", &b);
	CHECK_STR(b.s, "run-lab: boot 12/12: panic: 0 rows; Kernel panic\n");
	sb_free(&b);
	/* collect printed nothing (it could not start): the label alone */
	collect_say("boot 1/1", "1", 64, NULL, &b);
	CHECK_STR(b.s, "run-lab: boot 1/1: \n");
	sb_free(&b);
	/* only its own boot's prefix goes */
	collect_say("boot 1/2", "1", 0, "boot 10: x", &b);
	CHECK_STR(b.s, "boot 1/2: boot 10: x\n");
	sb_free(&b);

	sb_indent(&b, "a\n\nb", 40);
	CHECK_STR(b.s, "    a\n    \n    b\n");
	sb_free(&b);
	sb_indent(&b, "1\n2\n3\n", 2);
	CHECK_STR(b.s, "    1\n    2\n");
	sb_free(&b);
}

TEST(runlab_bookkeeping)
{
	struct sbuf b = { 0 };
	char *s;

	/* the staging room: one base image and 8 MiB per boot in flight */
	CHECK(staging_need_mib(120LL * 1048576 + 5, 1) == 128);
	CHECK(staging_need_mib(0, 2) == 16);
	/* a child's end as the shell's $? says it */
	CHECK(shell_exit_status(3 << 8) == 3);
	CHECK(shell_exit_status(130 << 8) == 130);
	CHECK(shell_exit_status(SIGTERM) == 128 + SIGTERM);
	/* --kernel patched:N: kernel/build.sh's words, without its prefix */
	CHECK(kernel_flavor_refusal("whatever", 0) == NULL);
	s = kernel_flavor_refusal("kernel/build.sh: --flavor patched:99: kernel/series has 6 patches\n\n", 256);
	CHECK_STR(s, "--kernel: patched:99: kernel/series has 6 patches");
	free(s);
	s = kernel_flavor_refusal("other\n", 512);
	CHECK_STR(s, "--kernel: other");
	free(s);
	/* the progress line, as run-lab.sh's say */
	say_line(&b, 1000, 993, "probing KVM");
	CHECK_STR(b.s, "[   7s] probing KVM\n");
	sb_free(&b);
	say_line(&b, 20000, 0, "x");
	CHECK_STR(b.s, "[20000s] x\n");
	sb_free(&b);
}
