// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's reclaim disks (lab/boot/disks.c, issue 20): the swap header
 * the guest's swapon reads (include/linux/swap.h union swap_header), the
 * paths beside the initrd, the two sparse files with mke2fs run on one,
 * and a one-line error naming the file when anything fails; QEMU's
 * virtio-blk arguments (lab/boot/qemu.c).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "disks.h"
#include "harness.h"
#include "qemu.h"
#include "util.h"

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

TEST(disks_swap_header_is_swapspace2_v1)
{
	unsigned char page[DISK_PAGE];
	char err[128];

	memset(page, 0xaa, sizeof(page));
	CHECK(disk_swap_header(page, 4ULL << 30, err, sizeof(err)) == 0);
	CHECK(!memcmp(page + DISK_PAGE - 10, "SWAPSPACE2", 10));
	CHECK(le32(page + 1024) == 1);				/* version */
	CHECK(le32(page + 1028) == (uint32_t)((4ULL << 30) / DISK_PAGE - 1));	/* last_page */
	CHECK(le32(page + 1032) == 0);				/* nr_badpages */
	CHECK(!memcmp(page + 1052, "tierlab-swap", 12));	/* sws_volume */
	CHECK(page[0] == 0 && page[1023] == 0);		/* the boot bits cleared */
	/* too small for swapon, or more pages than the header counts */
	CHECK(disk_swap_header(page, 9 * DISK_PAGE, err, sizeof(err)) == -1);
	CHECK(strstr(err, "want 10 pages") != NULL);
	CHECK(disk_swap_header(page, (UINT64_C(1) << 32) * DISK_PAGE + DISK_PAGE, err, sizeof(err)) == -1);
}

TEST(disks_paths_beside_the_initrd)
{
	char *p = disk_path("/tmp/w/boot-3/initrd", "swap.img");

	CHECK_STR(p, "/tmp/w/boot-3/swap.img");
	free(p);
	p = disk_path("initrd", "fs.img");
	CHECK_STR(p, "fs.img");
	free(p);
}

TEST(disks_made_sparse_and_errors_name_the_file)
{
	char dir[] = "/tmp/tierlab-disks-XXXXXX", err[512], *swap, *fs;
	unsigned char page[DISK_PAGE];
	struct stat st;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	swap = xasprintf("%s/swap.img", dir);
	fs = xasprintf("%s/fs.img", dir);
	/* "true" stands in for mke2fs: the files and the header are this code's */
	CHECK(disks_make(swap, fs, "true", err, sizeof(err)) == 0);
	CHECK(stat(swap, &st) == 0 && (uint64_t)st.st_size == DISK_SWAP_BYTES);
	CHECK(st.st_blocks * 512 < 1024 * 1024);	/* sparse: the header only */
	CHECK(stat(fs, &st) == 0 && (uint64_t)st.st_size == DISK_FS_BYTES);
	f = fopen(swap, "rb");
	CHECK(f && fread(page, 1, sizeof(page), f) == sizeof(page));
	if (f)
		fclose(f);
	CHECK(!memcmp(page + DISK_PAGE - 10, "SWAPSPACE2", 10));
	/* mke2fs failing, or not installed: one line naming the file */
	CHECK(disks_make(swap, fs, "false", err, sizeof(err)) == -1);
	CHECK(strstr(err, fs) == err && strstr(err, "false failed (exit 1)") && !strchr(err, '\n'));
	CHECK(disks_make(swap, fs, "tierlab-no-such-mke2fs", err, sizeof(err)) == -1);
	CHECK(strstr(err, "cannot run tierlab-no-such-mke2fs") && strstr(err, "e2fsprogs"));
	/* a directory that is not there: the swap file named */
	CHECK(disks_make("/nonexistent/dir/swap.img", fs, "true", err, sizeof(err)) == -1);
	CHECK(strstr(err, "/nonexistent/dir/swap.img: ") == err);
	unlink(swap);
	unlink(fs);
	rmdir(dir);
	free(swap);
	free(fs);
}

/* Whether files @a and @b hold the same bytes. */
static bool same_bytes(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	bool same = fa && fb;
	char ba[65536], bb[65536];

	while (same) {
		size_t na = fread(ba, 1, sizeof(ba), fa), nb = fread(bb, 1, sizeof(bb), fb);

		same = na == nb && !memcmp(ba, bb, na);
		if (!na)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/*
 * The real mke2fs (when installed): the file system has the inodes for
 * every fill file the page-cache scenario may keep, RECLAIM_FILL_FILES (8)
 * per node for 64 nodes, so that no refill meets ENOSPC; its UUID is
 * DISK_FS_UUID, and made twice it is the same bytes.
 */
TEST(disks_fs_has_inodes_for_every_fill_file)
{
	static const char *const progs[] = { "/usr/sbin/mke2fs", "/sbin/mke2fs" };
	const char *mke2fs = NULL, *dumpe2fs = NULL;
	char dir[] = "/tmp/tierlab-disks-XXXXXX", err[512], line[256], *swap, *fs, *fs2, *cmd;
	long free_inodes = -1;
	bool uuid_ok = false;
	FILE *p;

	for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]) && !mke2fs; i++)
		if (!access(progs[i], X_OK))
			mke2fs = progs[i];
	if (!access("/usr/sbin/dumpe2fs", X_OK))
		dumpe2fs = "/usr/sbin/dumpe2fs";
	else if (!access("/sbin/dumpe2fs", X_OK))
		dumpe2fs = "/sbin/dumpe2fs";
	if (!mke2fs || !dumpe2fs)
		return;	/* e2fsprogs not installed: nothing to measure */
	CHECK(mkdtemp(dir) != NULL);
	swap = xasprintf("%s/swap.img", dir);
	fs = xasprintf("%s/fs.img", dir);
	/* a caller's time (the test's stand-in for the host's clock) is not taken */
	setenv("E2FSPROGS_FAKE_TIME", "1", 1);
	CHECK(disks_make(swap, fs, mke2fs, err, sizeof(err)) == 0);
	cmd = xasprintf("%s -h %s 2>/dev/null", dumpe2fs, fs);
	p = popen(cmd, "r");
	CHECK(p != NULL);
	while (p && fgets(line, sizeof(line), p)) {
		sscanf(line, "Free inodes: %ld", &free_inodes);
		if (!strncmp(line, "Filesystem UUID:", 16))
			uuid_ok = strstr(line, DISK_FS_UUID) != NULL;
	}
	if (p)
		pclose(p);
	CHECK(free_inodes >= 64 * 8);
	CHECK(uuid_ok);
	/*
	 * Made again (another boot's), at another time of the caller's: the
	 * same bytes (no random UUID, hash seed or time)
	 */
	fs2 = xasprintf("%s/fs2.img", dir);
	setenv("E2FSPROGS_FAKE_TIME", "2", 1);
	CHECK(disks_make(swap, fs2, mke2fs, err, sizeof(err)) == 0);
	unsetenv("E2FSPROGS_FAKE_TIME");
	CHECK(same_bytes(fs, fs2));
	unlink(fs2);
	unlink(swap);
	unlink(fs);
	rmdir(dir);
	free(cmd);
	free(swap);
	free(fs);
	free(fs2);
}

TEST(disks_qemu_virtio_blk_by_serial)
{
	struct qemu_opts o = { .kernel = "k", .initrd = "i", .console = "c", .channel = "ch",
			       .accel = "tcg", .swap_disk = "/s/swap.img", .fs_disk = "/s/fs.img" };
	struct topo *t = xcalloc(1, sizeof(*t));
	FILE *null = fopen("/dev/null", "w");
	struct topo_args a;
	char err[256];
	int drives = 0, blks = 0;

	CHECK(topo_load("topologies/dram-pmem.yaml", t, null ? null : stderr) == 0);
	if (null)
		fclose(null);
	CHECK(qemu_argv(t, &o, &a, err, sizeof(err)) == 0);
	for (size_t i = 0; i + 1 < a.n; i++) {
		if (!strcmp(a.v[i], "-drive"))
			drives++;
		/* the other devices are the movable nodes' DIMMs */
		if (!strcmp(a.v[i], "-device") && !strncmp(a.v[i + 1], "virtio-blk", 10)) {
			CHECK(!strcmp(a.v[i + 1], "virtio-blk-pci,drive=swap,serial=" DISK_SWAP_SERIAL) ||
			      !strcmp(a.v[i + 1], "virtio-blk-pci,drive=fs,serial=" DISK_FS_SERIAL));
			blks++;
		}
	}
	CHECK(drives == 2);
	CHECK(blks == 2);
	CHECK(a.n > 0);
	for (size_t i = 0; i < a.n; i++)
		if (!strcmp(a.v[i], "-drive"))
			CHECK(strstr(a.v[i + 1], "format=raw,cache=unsafe") != NULL);
	topo_args_free(&a);
	/* one without the other, a comma QEMU would split: refused in one line */
	o.fs_disk = NULL;
	CHECK(qemu_argv(t, &o, &a, err, sizeof(err)) == -1);
	CHECK_STR(err, "the reclaim disks come as a pair: the swap and the file system");
	o.fs_disk = "/s/a,b.img";
	CHECK(qemu_argv(t, &o, &a, err, sizeof(err)) == -1);
	CHECK(strstr(err, "a,b.img") && strstr(err, "comma"));
	free(t);
}
