/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup v2 for a case (cgroup.c): the guest's /init mounts the unified
 * hierarchy at /sys/fs/cgroup and enables +cpuset +memory for its children.
 * A case makes a child group of its own, moves its task there, writes the
 * group's files (cpuset.mems, memory.reclaim) and removes it afterwards.
 */
#ifndef TIERBENCH_CGROUP_H
#define TIERBENCH_CGROUP_H

#include <stddef.h>

#define CG_ROOT "/sys/fs/cgroup"

/* Why @controller ("memory", "cpuset") cannot be used by a child group, or NULL. */
const char *cg_unavailable(const char *controller, char *why, size_t len);
/* mkdir CG_ROOT/@name into @path; 0, or -1 with "path: why" in @why. */
int cg_create(const char *name, char *path, size_t pathlen, char *why, size_t len);
/* Write @val to @path/@file; 0, or -1 with errno kept and "file: why" in @why. */
int cg_write(const char *path, const char *file, const char *val, char *why, size_t len);
/* The calling task into @path (cgroup.procs); 0 or -1 as cg_write. */
int cg_join(const char *path, char *why, size_t len);
/* Read @path/@file's first line into @buf; 0 or -1 as cg_write. */
int cg_read(const char *path, const char *file, char *buf, size_t buflen, char *why, size_t len);
/* rmdir @path (its tasks gone); a failure is said on stderr. */
void cg_remove(const char *path);

#endif
