// SPDX-License-Identifier: GPL-2.0
/*
 * meta.json (#14 item 1): its one writer's text (lab/rundir/meta.c), read back by
 * the same reader the report uses, every key of lab/rundir/meta.h once; a newer
 * meta_format and unknown keys refused in one line naming the file; the
 * SHA-256 of the topology files against FIPS 180-4's vectors.
 */
#include "harness.h"
#include "meta.h"
#include "report.h"

#include <stdlib.h>

static void set(struct meta *m, const char *a, int *failures)
{
	char err[256];

	if (meta_set(m, a, false, err, sizeof(err)) < 0) {
		fprintf(stderr, "  meta_set(%s): %s\n", a, err);
		(*failures)++;
	}
}

static void add_topology(struct meta *m, const char *file, const char *hash)
{
	m->topo = xrealloc(m->topo, (m->ntopo + 1) * sizeof(*m->topo));
	m->topo[m->ntopo].file = xstrdup(file);
	m->topo[m->ntopo].hash = xstrdup(hash);
	m->ntopo++;
}

TEST(meta_writer_text_in_list_order)
{
	struct meta m = { 0 };
	char err[256];
	char *text;

	CHECK(meta_set(&m, "meta_format=1", true, err, sizeof(err)) == 0);
	set(&m, "options=profile=quick exec=", failures);
	set(&m, "kernel_release=6.12.118-tierlab-e3b0c442", failures);
	set(&m, "clock=icount", failures);
	CHECK(meta_set(&m, "host_cpus=2", true, err, sizeof(err)) == 0);
	/* quote, backslash and a control character escaped; UTF-8 as it is */
	set(&m, "qemu_version=a \"b\" \\ c\x01 µ", failures);
	add_topology(&m, "/lab/topologies/dram-pmem.yaml", "3e421d773ce64fff");
	text = meta_json(&m);
	CHECK_STR(text, "{\n"
			"  \"meta_format\": 1,\n"
			"  \"kernel_release\": \"6.12.118-tierlab-e3b0c442\",\n"
			"  \"qemu_version\": \"a \\\"b\\\" \\\\ c\\u0001 µ\",\n"
			"  \"clock\": \"icount\",\n"
			"  \"host_cpus\": 2,\n"
			"  \"topologies\": [\n"
			"    {\n"
			"      \"hash\": \"3e421d773ce64fff\",\n"
			"      \"file\": \"/lab/topologies/dram-pmem.yaml\"\n"
			"    }\n"
			"  ],\n"
			"  \"options\": \"profile=quick exec=\"\n"
			"}\n");
	free(text);
	meta_free(&m);
}

/* Every key the writer can write comes back through the report's reader. */
TEST(meta_reader_gets_every_key_the_writer_wrote)
{
	struct meta m = { 0 }, back = { 0 };
	struct run r = { 0 };
	char err[256], *text, *again;

	for (int k = 0; k < META_NR; k++) {
		char *a;

		if (meta_keys[k].type == META_TOPOLOGIES)
			continue;
		a = xasprintf("%s=%s", meta_keys[k].name,
			      meta_keys[k].type == META_NUM ? "7" : meta_keys[k].name);
		CHECK(meta_set(&m, a, true, err, sizeof(err)) == 0);
		free(a);
	}
	add_topology(&m, "a.yaml", "0011223344556677");
	add_topology(&m, "b \"quoted\".yaml", "8899aabbccddeeff");
	/* meta_format 7 is newer than this labtool: read the rest first */
	free(m.v[META_meta_format]);
	m.v[META_meta_format] = xstrdup("1");
	text = meta_json(&m);
	CHECK(json_flatten(text, strlen(text), "meta.json", &r.meta, err, sizeof(err)) == 0);
	for (int k = 0; k < META_NR; k++) {
		if (meta_keys[k].type == META_TOPOLOGIES)
			continue;
		CHECK_STR(run_meta(&r, (enum meta_key)k), m.v[k]);
	}
	CHECK_STR(run_meta_topology(&r, 0, "file"), "a.yaml");
	CHECK_STR(run_meta_topology(&r, 1, "file"), "b \"quoted\".yaml");
	CHECK_STR(run_meta_topology(&r, 1, "hash"), "8899aabbccddeeff");
	CHECK(run_meta_topology(&r, 2, "file") == NULL);
	/* and the writer's own reader gives the same file again */
	CHECK(meta_from_kv(&r.meta, "meta.json", true, &back, err, sizeof(err)) == 0);
	again = meta_json(&back);
	CHECK_STR(again, text);
	free(again);
	free(text);
	kv_free(&r.meta);
	meta_free(&m);
	meta_free(&back);
}

TEST(meta_writer_refuses_what_it_does_not_know)
{
	struct meta m = { 0 };
	char err[256];

	CHECK(meta_set(&m, "run_id=x", false, err, sizeof(err)) == -1);
	CHECK_STR(err, "'run_id': not a meta.json key (lab/rundir/meta.h)");
	CHECK(meta_set(&m, "end=now", false, err, sizeof(err)) == -1);
	CHECK_STR(err, "end: set by labtool meta itself, not given to it");
	CHECK(meta_set(&m, "topologies=x", false, err, sizeof(err)) == -1);
	CHECK(meta_set(&m, "clock", false, err, sizeof(err)) == -1);
	CHECK_STR(err, "'clock': not KEY=VALUE");
	CHECK(meta_set(&m, "host_cpus=2x", true, err, sizeof(err)) == -1);
	CHECK_STR(err, "host_cpus: '2x' is not a whole number");
	CHECK(meta_set(&m, "host_cpus=", true, err, sizeof(err)) == -1);
	CHECK(m.v[META_host_cpus] == NULL);
	/* an empty string is a value */
	CHECK(meta_set(&m, "fits=", false, err, sizeof(err)) == 0);
	CHECK_STR(m.v[META_fits], "");
	meta_free(&m);
}

static int format_of(const char *json, char *err, size_t errlen)
{
	struct kvlist kv = { 0 };
	int rc;

	if (json_flatten(json, strlen(json), "run/meta.json", &kv, err, errlen) < 0)
		return -2;
	rc = meta_format_check(&kv, "run/meta.json", err, errlen);
	kv_free(&kv);
	return rc;
}

TEST(meta_reader_refuses_a_newer_format)
{
	char err[256];

	CHECK(format_of("{\"clock\": \"wall\"}", err, sizeof(err)) == 0);	/* run-lab.sh's jq */
	CHECK(format_of("{\"meta_format\": 1}", err, sizeof(err)) == 1);
	CHECK(format_of("{\"meta_format\": 2}", err, sizeof(err)) == -1);
	CHECK_STR(err, "run/meta.json: meta_format 2 is newer than this labtool reads (1 to 1): "
		       "a run of a newer lab?");
	CHECK(strchr(err, '\n') == NULL);
	CHECK(format_of("{\"meta_format\": \"one\"}", err, sizeof(err)) == -1);
	CHECK_STR(err, "run/meta.json: meta_format: 'one' is not 1 to 1");
	CHECK(format_of("{\"meta_format\": 0}", err, sizeof(err)) == -1);
}

TEST(meta_strict_reader_refuses_unknown_keys)
{
	static const char json[] = "{\"meta_format\": 1, \"clock\": \"wall\", \"run_id\": \"x\"}";
	struct kvlist kv = { 0 };
	struct meta m = { 0 };
	char err[256];

	CHECK(json_flatten(json, strlen(json), "r/meta.json", &kv, err, sizeof(err)) == 0);
	CHECK(meta_from_kv(&kv, "r/meta.json", true, &m, err, sizeof(err)) == -1);
	CHECK_STR(err, "r/meta.json: 'run_id': not a meta.json key of format 1 (lab/rundir/meta.h)");
	meta_free(&m);
	CHECK(meta_from_kv(&kv, "r/meta.json", false, &m, err, sizeof(err)) == 0);
	CHECK_STR(m.v[META_clock], "wall");
	meta_free(&m);
	kv_free(&kv);
}

TEST(meta_every_key_named_once)
{
	for (int a = 0; a < META_NR; a++) {
		CHECK(meta_key_lookup(meta_keys[a].name) == a);
		for (int b = a + 1; b < META_NR; b++)
			CHECK(!meta_keys[a].label || !meta_keys[b].label ||
			      strcmp(meta_keys[a].label, meta_keys[b].label));
	}
	CHECK(meta_key_lookup("run_id") == -1);
	CHECK(meta_key_lookup("topology") == -1);
}

static void hex(const unsigned char d[32], char out[65])
{
	for (int i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

TEST(meta_sha256_vectors)
{
	unsigned char d[32];
	char h[65], *million = malloc(1000000);

	meta_sha256("", 0, d);
	hex(d, h);
	CHECK_STR(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	meta_sha256("abc", 3, d);
	hex(d, h);
	CHECK_STR(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	/* 56 bytes: the length no longer fits the last block */
	meta_sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, d);
	hex(d, h);
	CHECK_STR(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	CHECK(million != NULL);
	if (million) {
		memset(million, 'a', 1000000);
		meta_sha256(million, 1000000, d);
		hex(d, h);
		CHECK_STR(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	}
	free(million);
}
