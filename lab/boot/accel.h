/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The accelerator of a run (lab/boot/cmd_accel.c, `labtool accel`): --accel
 * tcg, kvm or auto, and for auto a probe boot under KVM whose verdict is
 * cached per host boot and kernel.
 */
#ifndef TIERLAB_ACCEL_H
#define TIERLAB_ACCEL_H

#include <stdbool.h>
#include <stddef.h>

enum accel_choice {
	ACCEL_TCG,
	ACCEL_KVM,
	ACCEL_PROBE,	/* auto: KVM if a probe boot reaches /init in time */
	ACCEL_NO_KVM,	/* --accel kvm without a usable /dev/kvm: refused */
};

/*
 * What --accel @accel means with --clock @clock and --memory-timing
 * @memory_timing, /dev/kvm being writable or not (@kvm): auto is TCG under
 * icount or with the memory-timing plugin (both TCG only), else a probe.
 */
enum accel_choice accel_decide(const char *accel, const char *clock, const char *memory_timing,
			       bool kvm);

/*
 * The probe's cache file: @cache_root/kvm-probe/<host boot id>-<kernel
 * directory's name>, so a new host boot or kernel probes again.
 */
char *accel_probe_cache(const char *cache_root, const char *boot_id, const char *kernel_dir);

#endif
