// SPDX-License-Identifier: GPL-2.0
/*
 * labtool disks DIR
 *
 * The guest's reclaim disks (lab/boot/disks.c) in DIR: DIR/swap.img and
 * DIR/fs.img, as `labtool prepare` makes them beside a boot's initrd.  For
 * a boot by hand: `--print-qemu` names them swap.img and fs.img, relative
 * to the directory QEMU runs in, as it does the serial files.
 *
 * Exit: 0; 64 usage; 74 a disk cannot be made (one line naming the file).
 */
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "disks.h"
#include "util.h"

int cmd_disks(int argc, char **argv)
{
	char err[1024], *swap, *fs;
	int rc;

	if (argc != 2 || argv[1][0] == '\0' || argv[1][0] == '-') {
		fprintf(stderr, "usage: labtool disks DIR\n");
		return EXIT_USAGE;
	}
	swap = xasprintf("%s/swap.img", argv[1]);
	fs = xasprintf("%s/fs.img", argv[1]);
	rc = disks_make(swap, fs, "mke2fs", err, sizeof(err));
	if (rc)
		fprintf(stderr, "labtool disks: %s\n", err);
	free(swap);
	free(fs);
	return rc ? EXIT_IOERR : 0;
}
