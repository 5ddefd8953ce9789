// SPDX-License-Identifier: GPL-2.0
/* cgroup v2 helpers of the cases that need a group of their own (cgroup.h). */
#include "cgroup.h"
#include "tb.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *cg_unavailable(const char *controller, char *why, size_t len)
{
	char line[256], err[160];
	size_t cl = strlen(controller);

	if (cg_read(CG_ROOT, "cgroup.subtree_control", line, sizeof(line), err, sizeof(err))) {
		snprintf(why, len, "no cgroup v2 at " CG_ROOT " (%s)", err);
		return why;
	}
	for (char *p = line; (p = strstr(p, controller)); p += cl)
		if ((p == line || p[-1] == ' ') && (p[cl] == '\0' || p[cl] == ' '))
			return NULL;
	snprintf(why, len, "the %s controller is not enabled in " CG_ROOT "/cgroup.subtree_control (\"%s\")",
		 controller, line);
	return why;
}

int cg_create(const char *name, char *path, size_t pathlen, char *why, size_t len)
{
	if ((size_t)snprintf(path, pathlen, CG_ROOT "/%s", name) >= pathlen) {
		snprintf(why, len, "cgroup name %s: too long", name);
		return -1;
	}
	if (!mkdir(path, 0755))
		return 0;
	/* a group left by a killed run: empty by now, so it goes */
	if (errno == EEXIST && !rmdir(path) && !mkdir(path, 0755))
		return 0;
	snprintf(why, len, "mkdir %s: %s", path, strerror(errno));
	return -1;
}

int cg_write(const char *path, const char *file, const char *val, char *why, size_t len)
{
	char p[256];
	int fd, e;
	ssize_t n;

	if ((size_t)snprintf(p, sizeof(p), "%s/%s", path, file) >= sizeof(p)) {
		snprintf(why, len, "%s/%s: path too long", path, file);
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(p, O_WRONLY);
	if (fd < 0) {
		e = errno;
		snprintf(why, len, "open %s: %s", p, strerror(e));
		errno = e;
		return -1;
	}
	n = write(fd, val, strlen(val));
	e = errno;
	close(fd);
	if (n != (ssize_t)strlen(val)) {
		snprintf(why, len, "write \"%s\" to %s: %s", val, p, n < 0 ? strerror(e) : "short write");
		errno = n < 0 ? e : EIO;
		return -1;
	}
	return 0;
}

int cg_join(const char *path, char *why, size_t len)
{
	return cg_write(path, "cgroup.procs", "0", why, len);
}

int cg_read(const char *path, const char *file, char *buf, size_t buflen, char *why, size_t len)
{
	char p[256];
	FILE *f;

	if ((size_t)snprintf(p, sizeof(p), "%s/%s", path, file) >= sizeof(p)) {
		snprintf(why, len, "%s/%s: path too long", path, file);
		return -1;
	}
	f = fopen(p, "r");
	if (!f) {
		snprintf(why, len, "%s: %s", p, strerror(errno));
		return -1;
	}
	if (!fgets(buf, (int)buflen, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

void cg_remove(const char *path)
{
	/* the case's task may still be leaving: a few tries */
	for (int i = 0; i < 50; i++) {
		if (!rmdir(path) || errno == ENOENT)
			return;
		if (errno != EBUSY)
			break;
		usleep(20000);
	}
	msg("rmdir %s: %s", path, strerror(errno));
}
