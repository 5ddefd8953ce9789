/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's reclaim disks (issue 20; bench reclaim, the full-reclaimable
 * scenarios): two sparse files in the boot's staging directory, given to
 * QEMU as virtio-blk disks (lab/boot/qemu.c) that the guest's /init finds
 * by their serial: a swap area (its header written here) and an ext4 file
 * system (made here by mke2fs from e2fsprogs).  Sparse: the host's disk
 * holds only what the guest writes (the swap-out of full-reclaimable-anon;
 * the page-cache fill reads holes and writes nothing).
 */
#ifndef TIERLAB_DISKS_H
#define TIERLAB_DISKS_H

#include <stddef.h>
#include <stdint.h>

#define DISK_SWAP_SERIAL "tierlab-swap"
#define DISK_FS_SERIAL "tierlab-fs"
/*
 * Sizes: the swap holds more than any filler may (tierbench refuses to
 * fill more than --fill-cap-mib, 3072 MiB); the file system holds only the
 * sparse fill files' inodes.
 */
#define DISK_SWAP_BYTES (4ULL << 30)
#define DISK_FS_BYTES (64ULL << 20)
/*
 * Its inodes (mke2fs -N): the page-cache fill keeps up to
 * RECLAIM_FILL_FILES (8, bench/tb.h) files per node, 64 nodes at most
 * (MAX_NODE 63): 512 files, beside ext4's 11 reserved inodes and
 * lost+found.  64 ran out after a few dozen refills (ENOSPC).
 */
#define DISK_FS_INODES 1024
/*
 * What mke2fs would take from the host's clock and random numbers, fixed,
 * for every boot (it costs nothing under the wall clock either): every
 * boot's file system the same bytes, so that under --clock icount two
 * boots read the same disk (README, "Memory timing", determinism).  The
 * time is QEMU_ICOUNT_RTC_BASE's (lab/boot/qemu.h), in seconds since 1970.
 */
#define DISK_FS_UUID "5e1a7c2b-3d4f-4a6b-8c9d-0e1f2a3b4c5d"
#define DISK_FS_HASH_SEED "8c1d5e3a-2f4b-4c6d-9e7f-0a1b2c3d4e5f"
#define DISK_FS_TIME "1735689600"
#define DISK_PAGE 4096

/*
 * The first page of a swap area of @bytes (version 1, "SWAPSPACE2", no bad
 * pages; include/linux/swap.h union swap_header) into @page, DISK_PAGE
 * bytes.  0, or -1 with a message when @bytes holds fewer than 10 pages or
 * more than the header can count.
 */
int disk_swap_header(unsigned char *page, uint64_t bytes, char *err, size_t errlen);

/* The paths of a boot's disks beside its initrd: DIR/swap.img, DIR/fs.img. */
char *disk_path(const char *initrd, const char *name);

/*
 * Make both disks (replacing old ones); @mke2fs the program to run
 * ("mke2fs", or a test's stand-in).  0, or -1 with a one-line message
 * naming the file.
 */
int disks_make(const char *swap_path, const char *fs_path, const char *mke2fs, char *err,
	       size_t errlen);

#endif
