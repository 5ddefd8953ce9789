// SPDX-License-Identifier: GPL-2.0
/*
 * The whole QEMU command line of a boot (lab/boot/qemu.c, #14 item 2): the
 * machine from the topology, preallocated or not, the accelerator and the
 * clock, the kernel, its command line, the serial files and the plugin;
 * conflicting options refused in one line.  Runs from the repository root.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "qemu.h"
#include "util.h"

/* The word after @flag's first occurrence at or after @from, or NULL. */
static const char *after(const struct topo_args *a, const char *flag, size_t from)
{
	for (size_t i = from; i + 1 < a->n; i++)
		if (!strcmp(a->v[i], flag))
			return a->v[i + 1];
	return NULL;
}

static size_t count(const struct topo_args *a, const char *needle)
{
	size_t n = 0;

	for (size_t i = 0; i < a->n; i++)
		n += strstr(a->v[i], needle) != NULL;
	return n;
}

static struct topo *dram_pmem(void)
{
	struct topo *t = xcalloc(1, sizeof(*t));
	FILE *null = fopen("/dev/null", "w");

	if (topo_load("topologies/dram-pmem.yaml", t, null ? null : stderr)) {
		free(t);
		t = NULL;
	}
	if (null)
		fclose(null);
	return t;
}

TEST(qemu_argv_tcg_icount)
{
	struct qemu_opts o = { .kernel = "bzImage", .initrd = "initrd", .console = "c.log",
			       .channel = "ch.log", .accel = "tcg", .icount = true,
			       .bios = "/q.rom" };
	struct topo *t = dram_pmem();
	struct topo_args a;
	char err[128];

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(qemu_argv(t, &o, &a, err, sizeof(err)) == 0);
	CHECK_STR(a.v[0], "qemu-system-x86_64");
	CHECK_STR(after(&a, "-machine", 0), "pc,hmat=on");
	CHECK(count(&a, "prealloc=on") == 2 && count(&a, "prealloc=off") == 0);
	CHECK_STR(after(&a, "-accel", 0), "tcg");
	CHECK_STR(after(&a, "-cpu", 0), "max");
	CHECK_STR(after(&a, "-icount", 0), "shift=0,align=off,sleep=off");
	CHECK_STR(after(&a, "-bios", 0), "/q.rom");
	CHECK_STR(after(&a, "-kernel", 0), "bzImage");
	CHECK_STR(after(&a, "-initrd", 0), "initrd");
	CHECK_STR(after(&a, "-append", 0), qemu_kernel_cmdline);
	CHECK(strstr(qemu_kernel_cmdline, "console=ttyS0,115200 ") && strstr(qemu_kernel_cmdline, "panic=-1"));
	/* ttyS0 the console, ttyS1 the results channel, in that order */
	CHECK_STR(after(&a, "-serial", 0), "file:c.log");
	CHECK_STR(a.v[a.n - 1], "file:ch.log");
	CHECK(count(&a, "-plugin") == 0);
	topo_args_free(&a);
	free(t);
}

TEST(qemu_argv_no_prealloc_kvm_plugin)
{
	struct qemu_opts o = { .kernel = "k", .initrd = "i", .console = "c", .channel = "ch",
			       .accel = "kvm", .no_prealloc = true };
	struct topo *t = dram_pmem();
	struct topo_args a;
	char err[128];

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(qemu_argv(t, &o, &a, err, sizeof(err)) == 0);
	CHECK(count(&a, "prealloc=off") == 2 && count(&a, "prealloc=on") == 0);
	CHECK_STR(after(&a, "-cpu", 0), "host");
	CHECK(count(&a, "-icount") == 0 && count(&a, "-bios") == 0);
	topo_args_free(&a);
	/* the plugin, last, under TCG */
	o.accel = "tcg";
	o.plugin = "file=tiermem.so,out=m.txt";
	CHECK(qemu_argv(t, &o, &a, err, sizeof(err)) == 0);
	CHECK_STR(a.v[a.n - 2], "-plugin");
	CHECK_STR(a.v[a.n - 1], "file=tiermem.so,out=m.txt");
	topo_args_free(&a);
	free(t);
}

TEST(qemu_argv_refuses_conflicts)
{
	struct qemu_opts o = { .kernel = "k", .initrd = "i", .console = "c", .channel = "ch",
			       .accel = "kvm", .icount = true };
	struct topo *t = dram_pmem();
	struct topo_args a;
	char err[256];

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(qemu_argv(t, &o, &a, err, sizeof(err)) == -1);
	CHECK_STR(err, "--clock icount needs TCG; the accelerator is kvm");
	CHECK(a.n == 0);
	o.icount = false;
	o.plugin = "file=x";
	CHECK(qemu_argv(t, &o, &a, err, sizeof(err)) == -1);
	CHECK_STR(err, "--memory-timing count needs TCG; the accelerator is kvm");
	o.delay = true;
	CHECK(qemu_argv(t, &o, &a, err, sizeof(err)) == -1);
	CHECK_STR(err, "--memory-timing delay needs TCG; the accelerator is kvm");
	/* delay injection is host time: a guest clock counting instructions never sees it */
	o.accel = "tcg";
	o.icount = true;
	CHECK(qemu_argv(t, &o, &a, err, sizeof(err)) == -1);
	CHECK_STR(err, QEMU_DELAY_ICOUNT_ERR);
	CHECK(strstr(err, "--memory-timing delay needs --clock wall") == err && !strchr(err, '\n'));
	CHECK(a.n == 0);
	o.icount = false;
	CHECK(qemu_argv(t, &o, &a, err, sizeof(err)) == 0);
	CHECK(a.n > 2 && !strcmp(a.v[a.n - 2], "-plugin"));
	topo_args_free(&a);
	o.plugin = NULL;
	CHECK(qemu_argv(t, &o, &a, err, sizeof(err)) == -1);
	CHECK_STR(err, "delay injection without the plugin");
	o.delay = false;
	o.accel = "kvm";
	o.accel = "xen";
	CHECK(qemu_argv(t, &o, &a, err, sizeof(err)) == -1);
	CHECK_STR(err, "accel: 'xen' is not tcg or kvm");
	o.accel = "tcg";
	o.channel = NULL;
	CHECK(qemu_argv(t, &o, &a, err, sizeof(err)) == -1);
	free(t);
}
