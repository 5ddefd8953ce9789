// SPDX-License-Identifier: GPL-2.0
/* The guest's reclaim disks: see lab/boot/disks.h. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "disks.h"
#include "util.h"

extern char **environ;

static void put_le32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

int disk_swap_header(unsigned char *page, uint64_t bytes, char *err, size_t errlen)
{
	uint64_t pages = bytes / DISK_PAGE;

	if (pages < 10 || pages - 1 > UINT32_MAX) {
		snprintf(err, errlen, "a swap area of %llu bytes: want 10 pages to 2^32",
			 (unsigned long long)bytes);
		return -1;
	}
	memset(page, 0, DISK_PAGE);
	/* info after 1024 boot bytes: version, last_page, nr_badpages, uuid, label */
	put_le32(page + 1024, 1);
	put_le32(page + 1028, (uint32_t)(pages - 1));
	put_le32(page + 1032, 0);
	memcpy(page + 1052, "tierlab-swap", 12);
	memcpy(page + DISK_PAGE - 10, "SWAPSPACE2", 10);
	return 0;
}

char *disk_path(const char *initrd, const char *name)
{
	const char *slash = strrchr(initrd, '/');

	if (!slash)
		return xasprintf("%s", name);
	return xasprintf("%.*s/%s", (int)(slash - initrd), initrd, name);
}

/* A sparse file of @bytes at @path, @head (may be NULL) as its first @hlen bytes. */
static int sparse_file(const char *path, uint64_t bytes, const unsigned char *head, size_t hlen,
		       char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || ftruncate(fd, (off_t)bytes) ||
	    (head && pwrite(fd, head, hlen, 0) != (ssize_t)hlen)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (close(fd)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

#define STR_(x) #x
#define STR(x) STR_(x)

int disks_make(const char *swap_path, const char *fs_path, const char *mke2fs, char *err,
	       size_t errlen)
{
	unsigned char page[DISK_PAGE];
	posix_spawn_file_actions_t fa;
	int status, rc;
	pid_t pid;
	/*
	 * ext4 without a journal (nothing is written that must survive),
	 * DISK_FS_INODES inodes, every table written now (no lazy init thread in
	 * the guest), no reserved blocks, the label the guest could use; its
	 * UUID, directory hash seed and time fixed (disks.h).
	 */
	char *const argv[] = { (char *)mke2fs, "-q", "-F", "-t", "ext4", "-O", "^has_journal",
			       "-b", "4096", "-N", STR(DISK_FS_INODES), "-m", "0", "-E",
			       "lazy_itable_init=0,nodiscard,hash_seed=" DISK_FS_HASH_SEED,
			       "-U", DISK_FS_UUID, "-L", DISK_FS_SERIAL, (char *)fs_path, NULL };
	static const char fake_time[] = "E2FSPROGS_FAKE_TIME=" DISK_FS_TIME;
	char **envp;
	size_t n = 0, k = 0;

	if (disk_swap_header(page, DISK_SWAP_BYTES, err, errlen) ||
	    sparse_file(swap_path, DISK_SWAP_BYTES, page, sizeof(page), err, errlen) ||
	    sparse_file(fs_path, DISK_FS_BYTES, NULL, 0, err, errlen))
		return -1;
	/* mke2fs's own output goes nowhere: its exit status says enough, its file is named */
	if (posix_spawn_file_actions_init(&fa) ||
	    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0)) {
		snprintf(err, errlen, "%s: cannot set up %s", fs_path, mke2fs);
		return -1;
	}
	/* the environment, its E2FSPROGS_FAKE_TIME ours */
	while (environ[n])
		n++;
	envp = calloc(n + 2, sizeof(*envp));
	if (!envp) {
		posix_spawn_file_actions_destroy(&fa);
		snprintf(err, errlen, "%s: out of memory", fs_path);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "E2FSPROGS_FAKE_TIME=", 20))
			envp[k++] = environ[i];
	envp[k] = (char *)fake_time;
	rc = posix_spawnp(&pid, mke2fs, &fa, NULL, argv, envp);
	free(envp);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		snprintf(err, errlen, "%s: cannot run %s: %s%s", fs_path, mke2fs, strerror(rc),
			 rc == ENOENT ? " (Debian package e2fsprogs, lab/packages)" : "");
		return -1;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			snprintf(err, errlen, "%s: waiting for %s: %s", fs_path, mke2fs, strerror(errno));
			return -1;
		}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(err, errlen, "%s: %s failed (%s %d)", fs_path, mke2fs,
			 WIFEXITED(status) ? "exit" : "signal",
			 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return -1;
	}
	return 0;
}
