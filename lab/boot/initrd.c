// SPDX-License-Identifier: GPL-2.0
/*
 * A boot's initramfs: the base image, then a newc archive of the boot's own
 * files (initrd.h).  Until 2026-12-07 run-lab.sh staged these files in a
 * directory and piped it through find, sort and cpio; the archive here has
 * the same entries in the same order, so the guest sees the same tree.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "initrd.h"
#include "util.h"

struct entry {
	char *name;		/* "./lab/plan" */
	unsigned mode;		/* with the file type */
	char *src;		/* a file or link to read, or NULL */
	const char *data;	/* else the file's bytes */
	size_t len;
};

struct tree {
	struct entry *e;
	size_t n, cap;
	unsigned umask_bits;
};

static struct entry *find(struct tree *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->e[i].name, name))
			return &t->e[i];
	return NULL;
}

/* A new entry @name, or the one of that name replaced (cp over a file). */
static struct entry *put(struct tree *t, const char *name, unsigned mode)
{
	struct entry *e = find(t, name);

	if (e) {
		free(e->src);
	} else {
		if (t->n == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 16;
			t->e = xrealloc(t->e, t->cap * sizeof(*t->e));
		}
		e = &t->e[t->n++];
		e->name = xstrdup(name);
	}
	e->mode = mode;
	e->src = NULL;
	e->data = NULL;
	e->len = 0;
	return e;
}

static int is_dir(struct tree *t, const char *name)
{
	struct entry *e = find(t, name);

	return e && S_ISDIR(e->mode);
}

/* mkdir -p of every directory above @name ("./a/b/c": "./a", "./a/b") */
static void parents(struct tree *t, const char *name)
{
	for (const char *p = strchr(name + 2, '/'); p; p = strchr(p + 1, '/')) {
		char *dir = xasprintf("%.*s", (int)(p - name), name);

		if (!is_dir(t, dir))
			put(t, dir, S_IFDIR | (0777 & ~t->umask_bits));
		free(dir);
	}
}

/* cp -r @src @name: a file, a link, or a directory with what is under it */
static int copy_tree(struct tree *t, const char *src, const char *name, char *err, size_t errlen)
{
	struct stat st;
	struct entry *e;
	DIR *d;
	struct dirent *de;
	int rc = 0;

	if (lstat(src, &st) < 0) {
		snprintf(err, errlen, "--add: cannot stage %s: %s", src, strerror(errno));
		return -1;
	}
	if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) {
		e = put(t, name, S_ISLNK(st.st_mode) ? (S_IFLNK | 0777) :
			(S_IFREG | (st.st_mode & 07777 & ~t->umask_bits)));
		e->src = xstrdup(src);
		return 0;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "--add: cannot stage %s: not a file, directory or link", src);
		return -1;
	}
	put(t, name, S_IFDIR | (st.st_mode & 07777 & ~t->umask_bits));
	d = opendir(src);
	if (!d) {
		snprintf(err, errlen, "--add: cannot stage %s: %s", src, strerror(errno));
		return -1;
	}
	while (!rc && (errno = 0, de = readdir(d))) {
		char *s, *n;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		s = xasprintf("%s/%s", src, de->d_name);
		n = xasprintf("%s/%s", name, de->d_name);
		rc = copy_tree(t, s, n, err, errlen);
		free(s);
		free(n);
	}
	if (!rc && errno) {
		snprintf(err, errlen, "--add: cannot stage %s: %s", src, strerror(errno));
		rc = -1;
	}
	closedir(d);
	return rc;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

static int pad(FILE *f, unsigned long long at, unsigned to)
{
	static const char zero[512];
	size_t n = (size_t)((to - at % to) % to);

	return n && fwrite(zero, 1, n, f) != n ? -1 : 0;
}

/* One newc header and name: "070701" then 13 fields of 8 hex digits. */
static int header(FILE *f, unsigned long long *at, unsigned ino, unsigned mode, unsigned nlink,
		  unsigned long long mtime, unsigned long long size, const char *name)
{
	size_t namesize = strlen(name) + 1;
	int n = fprintf(f, "070701%08X%08X%08X%08X%08X%08llX%08llX%08X%08X%08X%08X%08zX%08X",
			ino, mode, (unsigned)getuid(), (unsigned)getgid(), nlink, mtime & 0xffffffffULL,
			size, 0u, 0u, 0u, 0u, namesize, 0u);

	if (n != 110 || fwrite(name, 1, namesize, f) != namesize)
		return -1;
	*at += 110 + namesize;
	if (pad(f, *at, 4))
		return -1;
	*at += (4 - *at % 4) % 4;
	return 0;
}

/* The bytes of a file entry: its data, its source file's, or a link's target. */
static int body(const struct entry *e, char **buf, size_t *len, char *err, size_t errlen)
{
	*buf = NULL;
	*len = e->len;
	if (!e->src)
		return 0;
	if (S_ISLNK(e->mode)) {
		struct stat st;
		ssize_t n;

		if (lstat(e->src, &st) < 0)
			goto fail;
		*buf = xmalloc((size_t)st.st_size + 1);
		n = readlink(e->src, *buf, (size_t)st.st_size + 1);
		if (n < 0 || n > st.st_size) {
			free(*buf);
			*buf = NULL;
			if (n >= 0)
				errno = EAGAIN;
			goto fail;
		}
		*len = (size_t)n;
		return 0;
	}
	if (read_file_all(e->src, buf, len) < 0)
		goto fail;
	return 0;
fail:
	snprintf(err, errlen, "--add: cannot stage %s: %s", e->src, strerror(errno));
	return -1;
}

int initrd_append(FILE *f, const char *plan, size_t planlen, char *const *adds, size_t nadds,
		  char *err, size_t errlen)
{
	struct tree t = { 0 };
	unsigned long long at = 0, mtime = (unsigned long long)time(NULL);
	mode_t um = umask(0);
	struct entry *e;
	int rc = 0;

	umask(um);
	t.umask_bits = (unsigned)um;
	put(&t, ".", S_IFDIR | (0777 & ~t.umask_bits));
	put(&t, "./bin", S_IFDIR | (0777 & ~t.umask_bits));
	put(&t, "./lab", S_IFDIR | (0777 & ~t.umask_bits));
	e = put(&t, "./lab/plan", S_IFREG | (0666 & ~t.umask_bits));
	e->data = plan;
	e->len = planlen;
	for (size_t i = 0; !rc && i < nadds; i++) {
		const char *cut = NULL;
		char *src, *name;

		for (const char *p = adds[i]; (p = strstr(p, ":/")); p++)
			cut = p;
		if (!cut || !cut[2]) {
			snprintf(err, errlen, "--add: '%s' is not SRC:/DEST", adds[i]);
			rc = -1;
			break;
		}
		src = xasprintf("%.*s", (int)(cut - adds[i]), adds[i]);
		name = xasprintf("./%s", cut + 2);
		/* no trailing '/' on a name, as find prints them */
		while (strlen(name) > 2 && name[strlen(name) - 1] == '/')
			name[strlen(name) - 1] = '\0';
		parents(&t, name);
		if (is_dir(&t, name)) {
			char *into = xasprintf("%s/%s", name, strrchr(src, '/') ? strrchr(src, '/') + 1 : src);

			free(name);
			name = into;
		}
		rc = copy_tree(&t, src, name, err, errlen);
		free(src);
		free(name);
	}
	if (!rc)
		qsort(t.e, t.n, sizeof(*t.e), by_name);
	for (size_t i = 0; !rc && i < t.n; i++) {
		char *buf = NULL;
		size_t len = 0;

		e = &t.e[i];
		if (!S_ISDIR(e->mode) && body(e, &buf, &len, err, errlen)) {
			rc = -1;
			break;
		}
		/* sorted as find prints them, stored as cpio does: "./" dropped */
		if (header(f, &at, 721 + (unsigned)i, e->mode, S_ISDIR(e->mode) ? 2 : 1, mtime, len,
			   strncmp(e->name, "./", 2) ? e->name : e->name + 2) ||
		    (len && fwrite(buf ? buf : e->data, 1, len, f) != len) ||
		    pad(f, at + len, 4)) {
			snprintf(err, errlen, "cannot write the boot's initramfs: %s", strerror(errno));
			rc = -1;
		}
		at += len + (4 - len % 4) % 4;
		free(buf);
	}
	if (!rc && (header(f, &at, 0, 0, 1, 0, 0, "TRAILER!!!") || pad(f, at, 512))) {
		snprintf(err, errlen, "cannot write the boot's initramfs: %s", strerror(errno));
		rc = -1;
	}
	for (size_t i = 0; i < t.n; i++) {
		free(t.e[i].name);
		free(t.e[i].src);
	}
	free(t.e);
	return rc;
}

int initrd_write(const char *out, const char *base, const char *plan, size_t planlen,
		 char *const *adds, size_t nadds, char *err, size_t errlen)
{
	char *tmp = xasprintf("%s.tmp-%d", out, (int)getpid());
	FILE *in = fopen(base, "rb"), *f = NULL;
	char buf[65536];
	size_t n;
	int rc = 0;

	if (!in) {
		snprintf(err, errlen, "%s: %s", base, strerror(errno));
		free(tmp);
		return -1;
	}
	f = fopen(tmp, "wb");
	if (!f) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		rc = -1;
	}
	while (!rc && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, f) != n) {
			snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
			rc = -1;
		}
	if (!rc && ferror(in)) {
		snprintf(err, errlen, "%s: %s", base, strerror(errno));
		rc = -1;
	}
	if (!rc)
		rc = initrd_append(f, plan, planlen, adds, nadds, err, errlen);
	if (f && fclose(f) && !rc) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		rc = -1;
	}
	fclose(in);
	if (!rc && rename(tmp, out) < 0) {
		snprintf(err, errlen, "%s: %s", out, strerror(errno));
		rc = -1;
	}
	if (rc && f)
		unlink(tmp);
	free(tmp);
	return rc;
}
