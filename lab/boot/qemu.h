/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The QEMU command line of a boot, built in one place (lab/boot/qemu.c): the
 * machine from the topology (memory backends, NUMA nodes, distances, HMAT),
 * the accelerator and clock, the kernel and its command line, the two
 * serial files and the memory-timing plugin.  `labtool qemu-argv` prints it
 * for run-lab.sh, `labtool qemu-args` the machine part alone.
 */
#ifndef TIERLAB_QEMU_H
#define TIERLAB_QEMU_H

#include <stdbool.h>
#include <stddef.h>

#include "topology.h"

/* QEMU arguments, one argv word per element. */
struct topo_args {
	size_t n, cap;
	char **v;
};

/* The guest kernel's command line: die fast and loudly, so a dead guest is a result. */
extern const char qemu_kernel_cmdline[];
/* ... and, for a topology with movable nodes, this after it (lab/boot/qemu.c says why). */
#define QEMU_MEMHP_CMDLINE "memhp_default_state=offline"
/*
 * ... and, with the memory-timing plugin on a machine of more than one
 * CPU, this followed by "1-N" (N the last CPU): every CPU but CPU 0 out
 * of the scheduler's load balancing and device interrupts on CPU 0, so
 * that nothing runs on them inside a phase unless pinned there (README,
 * "Memory timing", determinism; lab/boot/qemu.c).
 */
#define QEMU_MT_ISOLATE_CMDLINE "irqaffinity=0 isolcpus=domain,managed_irq,"

/*
 * Under --clock icount, the date the guest's real-time clock starts at
 * (qemu_argv: a fixed one, not the host's).
 */
#define QEMU_ICOUNT_RTC_BASE "2025-01-01T00:00:00"
/*
 * And its kernel options: the TSC trusted without the clocksource
 * watchdog.  Under icount every clock the watchdog could compare the TSC
 * with counts the same instructions, and its timer, moving from CPU to
 * CPU every half second, woke the isolated CPUs inside the plugin's
 * phases (their counts moved by ~150 misses a case between two boots of
 * one id, 2026-12-07).
 */
#define QEMU_ICOUNT_CMDLINE "tsc=reliable"

struct qemu_opts {
	const char *kernel, *initrd;	/* -kernel, -initrd */
	const char *console, *channel;	/* the files of ttyS0 and ttyS1 (the results channel) */
	const char *accel;		/* "tcg" or "kvm" */
	bool icount;			/* --clock icount: TCG only */
	const char *boot_id;		/* under icount, seeds the guest's random numbers (NULL: "1") */
	bool no_prealloc;		/* guest memory not preallocated (make bench-lab) */
	const char *bios;		/* -bios FILE, or NULL */
	const char *plugin;		/* -plugin's value (--memory-timing count), or NULL: TCG only */
	bool delay;			/* the plugin injects delays (--memory-timing delay): not with icount */
	/* the reclaim disks (lab/boot/disks.h), virtio-blk with their serials; NULL: none */
	const char *swap_disk, *fs_disk;
};

/* The machine's arguments, memory preallocated unless @no_prealloc.  -1: out of memory. */
int qemu_machine_args(const struct topo *t, bool no_prealloc, struct topo_args *a);
/* The same, preallocated: what `labtool qemu-args` prints. */
int topo_qemu_args(const struct topo *t, struct topo_args *a);

/*
 * Delay injection waits on the host; under icount the guest's clock counts
 * instructions, which a wait does not add: the one-line refusal (labtool
 * qemu-argv; run-lab.sh says the same before it builds anything).
 */
#define QEMU_DELAY_ICOUNT_ERR \
	"--memory-timing delay needs --clock wall: under --clock icount the guest's clock counts instructions and never sees a host-side delay"

/*
 * The whole command, argv[0] qemu-system-x86_64.  -1 with a one-line
 * message in err for options that conflict (icount or a plugin under KVM,
 * delay injection under icount,
 * an accelerator that is not tcg or kvm, a file missing), -2 out of memory.
 */
int qemu_argv(const struct topo *t, const struct qemu_opts *o, struct topo_args *a,
	      char *err, size_t errlen);

void topo_args_free(struct topo_args *a);

/*
 * A boot's whole command for the topology file at @path (lab/boot/cmd_qemu_argv.c):
 * qboot as firmware when QEMU has it; with @mt_out, the memory-timing
 * plugin @so writing its report there, its address rule from @version (the
 * first line of qemu-system-x86_64 --version) and its mode @mode (count or
 * delay; ignored without @mt_out).  0, or an exit code with the message on
 * stderr.
 */
enum acct_mode;
int qemu_boot_argv(const char *path, struct qemu_opts *o, const char *mt_out, const char *so,
		   const char *version, enum acct_mode mode, struct topo_args *a);

#endif
