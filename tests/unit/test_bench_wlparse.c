// SPDX-License-Identifier: GPL-2.0
/*
 * bench/wlparse.c: the fio JSON reader, the stress-ng YAML metrics reader
 * and ${NAME} expansion, on fio 3.33 / stress-ng 0.15.06 shaped input.
 */
#include "harness.h"
#include "wlparse.h"

#include <math.h>
#include <stdlib.h>

static const char fio_json[] =
	"note: a line fio printed first\n"
	"{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [\n    {\n"
	"      \"jobname\" : \"mmap-randrw\", \"error\" : 0,\n"
	"      \"read\" : { \"io_bytes\" : 43008000, \"bw\" : 41958, \"iops\" : 10489.51049,\n"
	"        \"clat_ns\" : { \"mean\" : 8008.13, \"percentile\" : { \"50.000000\" : 692, \"99.000000\" : 118272 } } },\n"
	"      \"write\" : { \"io_bytes\" : 0, \"bw\" : 0, \"clat_ns\" : { \"percentile\" : {} } },\n"
	"      \"flags\" : [true, false, null, -1.5e3, \"a\\\"b\\\\c\\u0041\\u00e9\"]\n"
	"    }\n  ]\n}\n";

TEST(json_fio_fields)
{
	char err[128];
	struct json *j = json_parse(fio_json, err, sizeof(err));
	const struct json *jobs, *job, *flags;

	CHECK(j != NULL);
	if (!j)
		return;
	jobs = json_get(j, "jobs");
	CHECK(jobs && jobs->type == JSON_ARRAY && jobs->n == 1);
	job = &jobs->items[0];
	CHECK_STR(json_get(job, "jobname")->string, "mmap-randrw");
	CHECK_NEAR(json_number(job, "read/bw"), 41958, 0);
	CHECK_NEAR(json_number(job, "read/iops"), 10489.51049, 1e-9);
	CHECK_NEAR(json_number(job, "read/clat_ns/percentile/50.000000"), 692, 0);
	CHECK_NEAR(json_number(job, "read/clat_ns/percentile/99.000000"), 118272, 0);
	CHECK(isnan(json_number(job, "write/clat_ns/percentile/50.000000")));
	CHECK(isnan(json_number(job, "jobname")));
	CHECK(isnan(json_number(job, "nosuch/path")));
	flags = json_get(job, "flags");
	CHECK(flags && flags->n == 5);
	CHECK(flags->items[0].type == JSON_BOOL && flags->items[0].number == 1);
	CHECK(flags->items[2].type == JSON_NULL);
	CHECK_NEAR(flags->items[3].number, -1500, 0);
	CHECK_STR(flags->items[4].string, "a\"b\\cA?");
	CHECK_STR(json_get(j, "fio version")->string, "fio-3.33");
	json_free(j);
}

TEST(json_rejects_malformed)
{
	static const char *const bad[] = {
		"", "no object", "{", "{\"a\" 1}", "{\"a\": }", "{\"a\": 1,}", "{\"a\": [1 2]}",
		"{\"a\": \"unterminated}", "{\"a\": tru}", "{\"a\": 1.2.3}", "{\"a\": \"\\x\"}",
		"{1: 2}", "{\"a\": \"\\u12\"}",
	};
	char err[128], deep[600];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct json *j = json_parse(bad[i], err, sizeof(err));

		if (j)
			fprintf(stderr, "  accepted: %s\n", bad[i]);
		CHECK(j == NULL);
		json_free(j);
	}
	/* 100 levels: refused, not a stack overflow */
	snprintf(deep, sizeof(deep), "{\"a\":");
	memset(deep + 5, '[', 100);
	deep[105] = 0;
	CHECK(json_parse(deep, err, sizeof(err)) == NULL);
	CHECK(strstr(err, "deeply") != NULL);
}

static const char sng_yaml[] =
	"---\nsystem-info:\n      stress-ng-version: 0.15.06\n      cpus: 2\n\n"
	"metrics:\n    - stressor: vm\n      bogo-ops: 74716\n"
	"      bogo-ops-per-second-real-time: 37201.766566\n      max-rss: 34860\n"
	"    - stressor: mmap\n      bogo-ops: 14\n      name: text\n\n...\n";

TEST(stress_ng_yaml_metrics)
{
	struct sng_metrics m[4];
	int n = sng_yaml_metrics(sng_yaml, m, 4);

	CHECK(n == 2);
	if (n != 2)
		return;
	CHECK_STR(m[0].stressor, "vm");
	CHECK_NEAR(sng_field(&m[0], "bogo-ops"), 74716, 0);
	CHECK_NEAR(sng_field(&m[0], "bogo-ops-per-second-real-time"), 37201.766566, 1e-9);
	CHECK_NEAR(sng_field(&m[0], "max-rss"), 34860, 0);
	CHECK(isnan(sng_field(&m[0], "cpus")));		/* system-info is not a metric */
	CHECK_STR(m[1].stressor, "mmap");
	CHECK_NEAR(sng_field(&m[1], "bogo-ops"), 14, 0);
	CHECK(isnan(sng_field(&m[1], "name")));		/* not a number */
	CHECK(sng_yaml_metrics("---\nsystem-info:\n  a: 1\n", m, 4) == -1);
	CHECK(sng_yaml_metrics(sng_yaml, m, 1) == 1);
}

static const char *lookup(const char *name)
{
	return !strcmp(name, "WL_SECS") ? "3" : !strcmp(name, "WL_DIR") ? "/tmp/x" : NULL;
}

TEST(expand_vars_job_file)
{
	char err[128], *s;

	s = expand_vars("# uses ${NOT_SET}\ntimeout ${WL_SECS}\ntemp-path ${WL_DIR}/a$b\n", lookup,
			err, sizeof(err));
	CHECK_STR(s, "# uses ${NOT_SET}\ntimeout 3\ntemp-path /tmp/x/a$b\n");
	free(s);
	s = expand_vars("vm-bytes ${NOT_SET}m\n", lookup, err, sizeof(err));
	CHECK(s == NULL);
	CHECK_STR(err, "${NOT_SET} is not set");
	CHECK(expand_vars("a ${WL_SECS", lookup, err, sizeof(err)) == NULL);
	CHECK(expand_vars("a ${}", lookup, err, sizeof(err)) == NULL);
	s = expand_vars("", lookup, err, sizeof(err));
	CHECK_STR(s, "");
	free(s);
}
