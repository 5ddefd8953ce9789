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
#include "order.h"
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
	char err[128], *seed1;

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
	/* node 1 is movable: its DIMM stays offline until the plan onlines it */
	CHECK(!strncmp(after(&a, "-append", 0), qemu_kernel_cmdline, strlen(qemu_kernel_cmdline)));
	CHECK_STR(after(&a, "-append", 0) + strlen(qemu_kernel_cmdline),
		  " " QEMU_MEMHP_CMDLINE " " QEMU_ICOUNT_CMDLINE);
	CHECK_STR(QEMU_ICOUNT_CMDLINE, "tsc=reliable");
	/* under icount the host decides nothing: random numbers seeded by the boot id, a fixed RTC */
	seed1 = xasprintf("%u", (unsigned)order_seed_of("1"));
	CHECK_STR(after(&a, "-seed", 0), seed1);
	CHECK_STR(after(&a, "-rtc", 0), "base=" QEMU_ICOUNT_RTC_BASE ",clock=vm");
	CHECK(strstr(qemu_kernel_cmdline, "console=ttyS0,115200 ") && strstr(qemu_kernel_cmdline, "panic=-1"));
	CHECK(strstr(qemu_kernel_cmdline, " numa_balancing=disable"));
	/* ttyS0 the console, ttyS1 the results channel, in that order */
	CHECK_STR(after(&a, "-serial", 0), "file:c.log");
	CHECK_STR(a.v[a.n - 1], "file:ch.log");
	CHECK(count(&a, "-plugin") == 0);
	topo_args_free(&a);
	/* another boot id, another seed; the same one, the same */
	o.boot_id = "2";
	CHECK(qemu_argv(t, &o, &a, err, sizeof(err)) == 0);
	CHECK(strcmp(after(&a, "-seed", 0), seed1) != 0);
	topo_args_free(&a);
	o.boot_id = "1";
	CHECK(qemu_argv(t, &o, &a, err, sizeof(err)) == 0);
	CHECK_STR(after(&a, "-seed", 0), seed1);
	topo_args_free(&a);
	/* wall clock: the host's RTC and random numbers, the kernel's own TSC checks */
	o.icount = false;
	CHECK(qemu_argv(t, &o, &a, err, sizeof(err)) == 0);
	CHECK(count(&a, "-seed") == 0 && count(&a, "-rtc") == 0 && count(&a, "-icount") == 0);
	CHECK(!strstr(after(&a, "-append", 0), QEMU_ICOUNT_CMDLINE));
	topo_args_free(&a);
	free(seed1);
	free(t);
}

static struct topo *from_yaml(const char *yaml)
{
	struct topo *t = xcalloc(1, sizeof(*t));

	if (topo_load_buffer("t.yaml", yaml, strlen(yaml), 16ULL << 30, t, stderr)) {
		free(t);
		return NULL;
	}
	return t;
}

/* The machine part as "-flag value" lines. */
static char *machine_lines(const struct topo *t, bool no_prealloc)
{
	struct topo_args a;
	struct sbuf sb = { 0 };

	if (qemu_machine_args(t, no_prealloc, &a))
		return NULL;
	for (size_t i = 0; i + 1 < a.n; i += 2)
		if (strcmp(a.v[i], "-numa") || strncmp(a.v[i + 1], "hmat-lb", 7))
			sb_printf(&sb, "%s %s\n", a.v[i], a.v[i + 1]);
	topo_args_free(&a);
	return sb.s;
}

/*
 * Movable nodes: boot memory in -m, every DIMM at the device-memory base
 * plus its RAM offset (boot backends first, then the DIMMs', in node
 * order), an SRAT anchor for each movable node but the last node, maxmem
 * with room for all; a node made normal by hand stays boot memory.
 */
TEST(qemu_machine_movable_dimms)
{
	/* CXL node 1 movable, HBM node 2 boot memory after it: node 1 needs an anchor */
	static const char yaml[] =
		"name: t\ncpus: 2\nnodes:\n"
		"  - {id: 0, kind: dram, memory: 4G, cpus: 0-1}\n"
		"  - {id: 1, kind: cxl, memory: 512M}\n"
		"  - {id: 2, kind: hbm, memory: 256M}\n"
		"  - {id: 3, kind: pmem, memory: 1G, zone: normal}\n";
	struct topo *t = from_yaml(yaml);
	char *got;

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(t->node[1].zone == TOPO_ZONE_movable && t->node[2].zone == TOPO_ZONE_normal &&
	      t->node[3].zone == TOPO_ZONE_normal);
	got = machine_lines(t, true);
	/*
	 * 5.25 GiB of boot memory: 3 GiB below 4 GiB, 2.25 above, so device
	 * memory from 7 GiB; node 1 RAM offset 5.25 GiB, its DIMM at 12.25 GiB
	 */
	CHECK_STR(got,
		  "-machine pc,hmat=on,nvdimm=on\n"
		  "-smp 2\n"
		  "-m 5376M,slots=2,maxmem=11392M\n"
		  "-object memory-backend-ram,id=mem0,size=4G,prealloc=off\n"
		  "-object memory-backend-ram,id=mem2,size=256M,prealloc=off\n"
		  "-object memory-backend-ram,id=mem3,size=1G,prealloc=off\n"
		  "-object memory-backend-ram,id=mem1,size=512M,prealloc=off\n"
		  "-object memory-backend-ram,id=anchor1,size=128M,prealloc=off\n"
		  "-numa node,nodeid=0,cpus=0-1,memdev=mem0\n"
		  "-numa node,nodeid=1,initiator=0\n"
		  "-numa node,nodeid=2,memdev=mem2,initiator=0\n"
		  "-numa node,nodeid=3,memdev=mem3,initiator=0\n"
		  "-device pc-dimm,id=dimm1,memdev=mem1,node=1,addr=0x310000000\n"
		  "-device nvdimm,id=anchor1,memdev=anchor1,node=1,addr=0x330000000\n"
		  "-numa dist,src=0,dst=1,val=20\n"
		  "-numa dist,src=0,dst=2,val=13\n"
		  "-numa dist,src=0,dst=3,val=17\n"
		  "-numa dist,src=1,dst=2,val=23\n"
		  "-numa dist,src=1,dst=3,val=27\n"
		  "-numa dist,src=2,dst=3,val=20\n");
	CHECK(topo_ram_offset(t, 1) == 0x150000000ULL && topo_dimm_base(t) == 0x1c0000000ULL &&
	      topo_dimm_addr(t, 1) == 0x310000000ULL);
	free(got);
	free(t);
	/* no movable node: the machine as before, no slots, no DIMM */
	t = from_yaml("name: t\ncpus: 1\nnodes:\n  - {id: 0, kind: dram, memory: 1G, cpus: 0}\n"
		      "  - {id: 1, kind: pmem, memory: 1G, zone: normal}\n");
	CHECK(t != NULL);
	if (!t)
		return;
	got = machine_lines(t, false);
	CHECK(got && strstr(got, "-m 2G\n") && !strstr(got, "-device") && !strstr(got, "nvdimm") &&
	      strstr(got, "-numa node,nodeid=1,memdev=mem1,initiator=0\n"));
	free(got);
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
	/* with the plugin every CPU but CPU 0 is isolated, after the movable nodes' option */
	CHECK_STR(after(&a, "-append", 0) + strlen(qemu_kernel_cmdline),
		  " " QEMU_MEMHP_CMDLINE " irqaffinity=0 isolcpus=domain,managed_irq,1-1");
	topo_args_free(&a);
	/* ... 1-3 on four CPUs, none on one */
	t->ncpus = 4;
	CHECK(qemu_argv(t, &o, &a, err, sizeof(err)) == 0);
	CHECK(strstr(after(&a, "-append", 0), " isolcpus=domain,managed_irq,1-3") &&
	      !strstr(after(&a, "-append", 0), "1-3 "));
	topo_args_free(&a);
	t->ncpus = 1;
	CHECK(qemu_argv(t, &o, &a, err, sizeof(err)) == 0);
	CHECK(!strstr(after(&a, "-append", 0), "isolcpus") && !strstr(after(&a, "-append", 0), "irqaffinity"));
	topo_args_free(&a);
	/* without the plugin, none */
	t->ncpus = 2;
	o.plugin = NULL;
	CHECK(qemu_argv(t, &o, &a, err, sizeof(err)) == 0);
	CHECK(!strstr(after(&a, "-append", 0), "isolcpus") && !strstr(after(&a, "-append", 0), "irqaffinity"));
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
