/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A boot's initramfs (lab/boot/initrd.c): the lab's base image
 * (build/initramfs.cpio: /init, the benchmarks) followed by a newc archive
 * of the boot's own files, /lab/plan and the --add trees, which the kernel
 * unpacks over the base.  `labtool prepare --base` writes it for a boot,
 * `labtool accel` for the KVM probe.
 */
#ifndef TIERLAB_INITRD_H
#define TIERLAB_INITRD_H

#include <stddef.h>
#include <stdio.h>

/*
 * Appends to @f a newc archive (as `find . | LC_ALL=C sort | cpio -o -H
 * newc` of a staging tree): the directories ".", "./bin", "./lab", the file
 * "./lab/plan" holding @plan, and each of @adds, "ABS-SRC:/DEST" (labtool
 * args's form, split at the last ":/"), laid out as `mkdir -p` of DEST's
 * parent and `cp -r SRC DEST` would (into DEST/NAME when DEST is a
 * directory already; links kept as links).  Entries in the byte order of
 * their "./" names, stored without the "./" as cpio stores them ("."
 * itself kept), the archive padded to 512 bytes.  0, or -1 with a one-line message naming the file in err.
 */
int initrd_append(FILE *f, const char *plan, size_t planlen, char *const *adds, size_t nadds,
		  char *err, size_t errlen);

/*
 * @base's bytes then initrd_append's archive, into @out through a
 * temporary file renamed at the end: 0, or -1 with the message in err and
 * nothing at @out.
 */
int initrd_write(const char *out, const char *base, const char *plan, size_t planlen,
		 char *const *adds, size_t nadds, char *err, size_t errlen);

#endif
