/* SPDX-License-Identifier: GPL-2.0 */
/*
 * meta.json, a run's provenance: every key is named once, here (as
 * bench/benches.h names the benchmarks).  `labtool meta` (lab/rundir/meta.c) is the
 * file's one writer; the report and compare read it through the same list
 * (run_meta(r, META_<key>)), so a key that is read is a key that is written,
 * and a misspelt key does not compile.
 *
 * X(key, type, set_by, label):
 *   type    STR a JSON string, NUM a JSON number, TOPOLOGIES the list of
 *           {"hash", "file"} objects of the run's topology files
 *   set_by  ARG given to `labtool meta init|end` as KEY=VALUE (TOPOLOGIES:
 *           --topology FILE), SELF set by the writer itself
 *   label   the row of the report's environment table; NULL: shown there
 *           under its key, with the keys the list does not know
 * The order is the file's order and the table's.
 */
#ifndef TIERLAB_META_H
#define TIERLAB_META_H

#include <stdbool.h>
#include <stddef.h>

/*
 * 1: the first versioned file, written by `labtool meta`.  A file without
 * meta_format was written by run-lab.sh's jq (the same keys, read alike).
 */
#define META_FORMAT 1

#define META_KEYS(X)                                                          \
	X(meta_format, NUM, SELF, NULL)                                       \
	X(kernel_release, STR, ARG, "kernel release")                         \
	X(kernel_flavor, STR, ARG, "kernel flavor")                           \
	X(series_hash, STR, ARG, "kernel patch series (hash)")                \
	X(kernel_source, STR, ARG, "kernel source")                           \
	X(qemu_version, STR, ARG, "QEMU version")                             \
	X(accelerator, STR, ARG, "accelerator")                               \
	X(summary_format, NUM, SELF, NULL)                                    \
	X(clock, STR, ARG, NULL)                                              \
	X(fits, STR, ARG, NULL)                                               \
	X(memory_timing, STR, ARG, NULL)                                      \
	X(memory_timing_dilation, NUM, SELF, "memory timing: delay dilation (experimental)") \
	X(tiering, STR, ARG, "memory tiering (--tiering)")                    \
	X(time_unit, STR, SELF, NULL)                                         \
	X(host_cpus, NUM, SELF, "host CPUs")                                  \
	X(host_kernel, STR, SELF, "host kernel")                              \
	X(topologies, TOPOLOGIES, ARG, "topology file")                       \
	X(lab_commit, STR, ARG, "lab commit")                                 \
	X(start, STR, ARG, "run started")                                     \
	X(end, STR, SELF, "run ended")                                        \
	X(options, STR, ARG, "options")

enum meta_key {
#define X(key, type, set_by, label) META_##key,
	META_KEYS(X)
#undef X
	META_NR
};

enum meta_type { META_STR, META_NUM, META_TOPOLOGIES };

struct meta_key_info {
	const char *name;
	enum meta_type type;
	bool self;		/* set by the writer, never given to it */
	const char *label;	/* the report's environment table; NULL: by name */
};

extern const struct meta_key_info meta_keys[META_NR];

/* The key of that JSON name, or -1. */
int meta_key_lookup(const char *name);

/* One topology file of the run: its path and the first 16 hex of its SHA-256. */
struct meta_topology {
	char *file, *hash;
};

/* A meta.json in memory: a value per key (NULL: absent), the topologies. */
struct meta {
	char *v[META_NR];
	struct meta_topology *topo;
	size_t ntopo;
};

struct kvlist;

/*
 * meta.json's text, keys in list order, two-space indented (as jq wrote
 * it).  Absent keys are left out.  NUM values must be numbers (meta_set
 * checks them).
 */
char *meta_json(const struct meta *m);

/*
 * Sets key=value (a string "key=value"); -1 with a one-line message in err
 * when the key is not in the list, is set by the writer itself (unless
 * @self_ok), or is not a number where one is due.
 */
int meta_set(struct meta *m, const char *assignment, bool self_ok, char *err, size_t errlen);

/*
 * A meta.json's flattened keys (json_flatten) into @m.  -1 with a one-line
 * "<name>: ..." message in err when its meta_format is not 1 to META_FORMAT
 * (a newer lab's file) or, if @strict, when it has a key the list does not
 * know.
 */
int meta_from_kv(const struct kvlist *kv, const char *name, bool strict, struct meta *m,
		 char *err, size_t errlen);

/*
 * meta_format of a flattened meta.json: 0 without one (run-lab.sh's jq),
 * else 1 to META_FORMAT; -1 with "<name>: meta_format: ..." in err for
 * anything else.
 */
int meta_format_check(const struct kvlist *kv, const char *name, char *err, size_t errlen);

void meta_free(struct meta *m);

/* Now as date -Is prints it: 2026-12-02T21:57:31+00:00 (lab/cmd_meta.c). */
int now_iso(char *buf, size_t size);

/* SHA-256 of @len bytes at @data. */
void meta_sha256(const void *data, size_t len, unsigned char out[32]);

/* The summary.csv format run-lab writes (meta.json "summary_format"). */
#define SUMMARY_FORMAT 2

#endif
