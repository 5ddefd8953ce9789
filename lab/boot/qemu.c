// SPDX-License-Identifier: GPL-2.0
/* The QEMU command line of a boot: see lab/boot/qemu.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disks.h"
#include "order.h"
#include "qemu.h"

/*
 * numa_balancing=disable: CONFIG_NUMA_BALANCING (kernel/lab.config, for
 * --tiering balancing) defaults to on, and 6.12 enables it at boot on any
 * machine with more than one node (check_numabalancing_enable()): its
 * scanner would unmap and migrate the benchmarks' pages behind their
 * backs.  Off at boot; only the plan's tiers step turns it on.
 */
const char qemu_kernel_cmdline[] =
	"console=ttyS0,115200 rdinit=/init panic=-1 oops=panic softlockup_panic=1 "
	"hung_task_panic=1 nmi_watchdog=0 printk.time=1 no_timer_check numa_balancing=disable";

__attribute__((format(printf, 2, 3)))
static int arg(struct topo_args *a, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 32;
		char **v = realloc(a->v, cap * sizeof(*v));

		if (!v)
			return -1;
		a->v = v;
		a->cap = cap;
	}
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	a->v[a->n++] = s;
	return 0;
}

void topo_args_free(struct topo_args *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	memset(a, 0, sizeof(*a));
}

/* QEMU takes cpus=A-B once per range: "cpus=0-1,cpus=4". */
static void qemu_cpus(uint64_t cpus, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (int i = 0; i < TOPO_MAX_CPUS && o < len; i++) {
		int j = i;

		if (!(cpus >> i & 1))
			continue;
		while (j + 1 < TOPO_MAX_CPUS && (cpus >> (j + 1) & 1))
			j++;
		if (j == i)
			o += (size_t)snprintf(buf + o, len - o, ",cpus=%d", i);
		else
			o += (size_t)snprintf(buf + o, len - o, ",cpus=%d-%d", i, j);
		i = j;
	}
}

/* -m's slots=: a DIMM per movable node and its anchor, if any. */
static int qemu_slots(const struct topo *t)
{
	int n = topo_nanchors(t);

	for (int i = 0; i < t->nnodes; i++)
		n += t->node[i].mem_bytes && t->node[i].zone == TOPO_ZONE_movable;
	return n;
}

int qemu_machine_args(const struct topo *t, bool no_prealloc, struct topo_args *a)
{
	static const char *const lb_type[4] = { "read-latency", "write-latency",
		"read-bandwidth", "write-bandwidth" };
	char sz[32], cpus[TOPO_MAX_CPUS * 12];
	int rc = 0;

	memset(a, 0, sizeof(*a));
	topo_format_size(topo_boot_mem(t), sz, sizeof(sz));
	rc |= arg(a, "-machine") | arg(a, "pc,hmat=on%s", topo_nanchors(t) ? ",nvdimm=on" : "");
	rc |= arg(a, "-smp") | arg(a, "%d", t->ncpus);
	if (topo_has_movable(t)) {
		char max[32];

		topo_format_size(topo_max_mem(t), max, sizeof(max));
		rc |= arg(a, "-m") | arg(a, "%s,slots=%d,maxmem=%s", sz, qemu_slots(t), max);
	} else {
		rc |= arg(a, "-m") | arg(a, "%s", sz);
	}
	/* RAM blocks in the order topo_ram_offset() counts: boot, movable, anchors */
	for (int z = TOPO_ZONE_normal; z <= TOPO_ZONE_movable; z++)
		for (int i = 0; i < t->nnodes; i++) {
			if (!t->node[i].mem_bytes || t->node[i].zone != (enum topo_zone)z)
				continue;
			topo_format_size(t->node[i].mem_bytes, sz, sizeof(sz));
			rc |= arg(a, "-object") |
			      arg(a, "memory-backend-ram,id=mem%d,size=%s,prealloc=%s", i, sz,
				  no_prealloc ? "off" : "on");
		}
	topo_format_size(TOPO_ANCHOR_SIZE, sz, sizeof(sz));
	for (int i = 0; i < t->nnodes; i++)
		if (topo_anchor_index(t, i) >= 0)
			/* never touched: the guest has no NVDIMM driver */
			rc |= arg(a, "-object") |
			      arg(a, "memory-backend-ram,id=anchor%d,size=%s,prealloc=off", i, sz);
	for (int i = 0; i < t->nnodes; i++) {
		const struct topo_node *n = &t->node[i];
		char mem[24] = "", ini[24] = "";

		qemu_cpus(n->cpus, cpus, sizeof(cpus));
		if (n->mem_bytes && n->zone == TOPO_ZONE_normal)
			snprintf(mem, sizeof(mem), ",memdev=mem%d", i);
		if (!n->cpus)
			snprintf(ini, sizeof(ini), ",initiator=%d", n->initiator);
		rc |= arg(a, "-numa") | arg(a, "node,nodeid=%d%s%s%s", i, cpus, mem, ini);
	}
	/*
	 * A movable node: a coldplugged DIMM the guest adds through ACPI memory
	 * hotplug (its _PXM names the node) and onlines movable; an anchor
	 * where the node needs an SRAT entry (topo_anchor_index()).
	 */
	for (int i = 0; i < t->nnodes; i++) {
		int k = topo_anchor_index(t, i);

		if (!t->node[i].mem_bytes || t->node[i].zone != TOPO_ZONE_movable)
			continue;
		rc |= arg(a, "-device") |
		      arg(a, "pc-dimm,id=dimm%d,memdev=mem%d,node=%d,addr=0x%llx", i, i, i,
			  (unsigned long long)topo_dimm_addr(t, i));
		if (k >= 0)
			rc |= arg(a, "-device") |
			      arg(a, "nvdimm,id=anchor%d,memdev=anchor%d,node=%d,addr=0x%llx", i, i, i,
				  (unsigned long long)topo_anchor_addr(t, k));
	}
	for (int i = 0; i < t->nnodes; i++)
		for (int j = i + 1; j < t->nnodes; j++)
			rc |= arg(a, "-numa") |
			      arg(a, "dist,src=%d,dst=%d,val=%d", i, j, t->distance[i][j]);
	for (int i = 0; i < t->nnodes; i++)
		for (int j = 0; j < t->nnodes; j++) {
			const struct topo_perf *p = &t->hmat[i][j];
			uint32_t v[4];

			if (!p->set)
				continue;
			v[0] = p->read_latency_ns;
			v[1] = p->write_latency_ns;
			v[2] = p->read_bandwidth_mbps;
			v[3] = p->write_bandwidth_mbps;
			for (int f = 0; f < 4; f++)
				/* QEMU's M is MiB/s and lands in HMAT as "MB/s" */
				rc |= arg(a, "-numa") |
				      arg(a, "hmat-lb,initiator=%d,target=%d,hierarchy=memory,"
					  "data-type=%s,%s=%u%s", i, j, lb_type[f],
					  f < 2 ? "latency" : "bandwidth", v[f], f < 2 ? "" : "M");
		}
	for (int i = 0; i < t->nnodes; i++)
		for (int k = 0; k < t->node[i].ncache; k++) {
			const struct topo_cache *c = &t->node[i].cache[k];

			topo_format_size(c->size, sz, sizeof(sz));
			rc |= arg(a, "-numa") |
			      arg(a, "hmat-cache,node-id=%d,size=%s,level=%d,"
				  "associativity=%s,policy=%s,line=%u", i, sz, c->level,
				  topo_assoc_names[c->assoc], topo_policy_names[c->policy],
				  c->line);
		}
	if (rc) {
		topo_args_free(a);
		return -1;
	}
	return 0;
}

int topo_qemu_args(const struct topo *t, struct topo_args *a)
{
	return qemu_machine_args(t, false, a);
}

int qemu_argv(const struct topo *t, const struct qemu_opts *o, struct topo_args *a,
	      char *err, size_t errlen)
{
	bool kvm = o->accel && !strcmp(o->accel, "kvm");
	struct topo_args m;
	char isolate[80] = "";	/* the kernel options of memory timing, below */
	int rc = 0;

	memset(a, 0, sizeof(*a));
	if (!o->accel || (strcmp(o->accel, "tcg") && !kvm)) {
		snprintf(err, errlen, "accel: '%s' is not tcg or kvm", o->accel ? o->accel : "");
		return -1;
	}
	/* QEMU counts instructions, and a plugin sees them, only when it translates them */
	if (kvm && (o->icount || o->plugin)) {
		snprintf(err, errlen, "%s needs TCG; the accelerator is kvm",
			 o->icount ? "--clock icount" : o->delay ? "--memory-timing delay" : "--memory-timing count");
		return -1;
	}
	if (o->delay && (o->icount || !o->plugin)) {
		snprintf(err, errlen, "%s", o->icount ? QEMU_DELAY_ICOUNT_ERR : "delay injection without the plugin");
		return -1;
	}
	if (!o->kernel || !o->initrd || !o->console || !o->channel) {
		snprintf(err, errlen, "the kernel, initrd, console and channel files are all needed");
		return -1;
	}
	if (qemu_machine_args(t, o->no_prealloc, &m))
		return -2;
	rc |= arg(a, "qemu-system-x86_64");
	for (size_t i = 0; i < m.n; i++)
		rc |= arg(a, "%s", m.v[i]);
	topo_args_free(&m);
	rc |= arg(a, "-accel") | arg(a, "%s", o->accel);
	rc |= arg(a, "-cpu") | arg(a, "%s", kvm ? "host" : "max");
	/*
	 * --clock icount: the guest's clock advances one nanosecond per guest
	 * instruction (shift=0), not paced to the host (align=off) and not
	 * waiting out the guest's idle time (sleep=off): every boot sees the
	 * same clock.
	 */
	if (o->icount)
		rc |= arg(a, "-icount") | arg(a, "shift=0,align=off,sleep=off");
	/*
	 * Under icount the inputs the host would decide are decided once, so
	 * that a boot id gets the same ones wherever and whenever it runs
	 * (README, "Memory timing", determinism): the guest's random numbers
	 * (RDRAND, hence its address-space layouts and hash seeds) from a seed
	 * of the boot id, as the benchmarks' case order is (bench/order.c),
	 * and its real-time clock from QEMU_ICOUNT_RTC_BASE on, counting guest
	 * time.  The disks' I/O stays host-timed.
	 */
	if (o->icount) {
		unsigned int seed = (unsigned int)order_seed_of(o->boot_id ? o->boot_id : "1");

		rc |= arg(a, "-seed") | arg(a, "%u", seed) | arg(a, "-rtc") |
		      arg(a, "base=%s,clock=vm", QEMU_ICOUNT_RTC_BASE);
	}
	if (o->bios)
		rc |= arg(a, "-bios") | arg(a, "%s", o->bios);
	rc |= arg(a, "-nodefaults") | arg(a, "-no-user-config") | arg(a, "-display") |
	      arg(a, "none") | arg(a, "-nic") | arg(a, "none") | arg(a, "-no-reboot");
	/*
	 * With the memory-timing plugin, the CPUs but CPU 0 isolated:
	 * a phase is machine-wide and the cases run pinned on CPU 0,
	 * while the kernel's own work on the other CPUs (load balancing
	 * the tick hands to an idle CPU, timers, the results channel's
	 * interrupts and its forwarding) ran inside every phase, where
	 * QEMU's round-robin of the vCPUs under icount put it at other
	 * points of the case's run boot to boot: dram-pmem's per-case
	 * counts moved by up to 0.147 % between two boots, 0.017 % with
	 * this on an idle host (0.106 % once under CI's load, before the
	 * icount inputs above were fixed and the steps aligned: README,
	 * "Memory timing", determinism).  Tasks pinned there still run
	 * there; unpinned ones stay on CPU 0.
	 */
	if (o->plugin && t->ncpus > 1)
		snprintf(isolate, sizeof(isolate), " " QEMU_MT_ISOLATE_CMDLINE "1-%d", t->ncpus - 1);
	rc |= arg(a, "-kernel") | arg(a, "%s", o->kernel) | arg(a, "-initrd") |
	      arg(a, "%s", o->initrd) | arg(a, "-append") |
	      /*
	       * Hot-added memory stays offline until the plan's first step
	       * onlines it movable (topoprobe --online-movable): onlined by
	       * the kernel at boot, before HMAT is parsed, it would get the
	       * default memory tier, not its own.
	       */
	      arg(a, "%s%s%s%s", qemu_kernel_cmdline,
		  topo_has_movable(t) ? " " QEMU_MEMHP_CMDLINE : "",
		  o->icount ? " " QEMU_ICOUNT_CMDLINE : "", isolate);
	rc |= arg(a, "-serial") | arg(a, "file:%s", o->console) | arg(a, "-serial") |
	      arg(a, "file:%s", o->channel);
	/*
	 * The reclaim disks: raw files, writes not flushed to the host's disk
	 * (cache=unsafe: a lost boot's swap is worth nothing), found by the
	 * guest's /init by serial.
	 */
	if (!o->swap_disk != !o->fs_disk) {
		topo_args_free(a);
		snprintf(err, errlen, "the reclaim disks come as a pair: the swap and the file system");
		return -1;
	}
	if (o->swap_disk) {
		const char *path[2] = { o->swap_disk, o->fs_disk }, *id[2] = { "swap", "fs" },
			   *serial[2] = { DISK_SWAP_SERIAL, DISK_FS_SERIAL };

		for (int i = 0; i < 2; i++) {
			if (strchr(path[i], ',')) {
				topo_args_free(a);
				snprintf(err, errlen, "disk %s: QEMU cannot take a comma in a file name", path[i]);
				return -1;
			}
			rc |= arg(a, "-drive") |
			      arg(a, "file=%s,if=none,id=%s,format=raw,cache=unsafe", path[i], id[i]);
			rc |= arg(a, "-device") | arg(a, "virtio-blk-pci,drive=%s,serial=%s", id[i], serial[i]);
		}
	}
	if (o->plugin)
		rc |= arg(a, "-plugin") | arg(a, "%s", o->plugin);
	if (rc) {
		topo_args_free(a);
		return -2;
	}
	return 0;
}
