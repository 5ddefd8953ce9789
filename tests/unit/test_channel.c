// SPDX-License-Identifier: GPL-2.0
/* Results-channel framing and ROW parsing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "channel.h"
#include "words.h"
#include "frame.h"
#include "harness.h"
#include "rowvalue.h"

TEST(crc32_check_value)
{
	/* The CRC-32/ISO-HDLC check value of "123456789". */
	CHECK(frame_crc32("123456789", 9) == 0xcbf43926u);
	CHECK(frame_crc32("", 0) == 0);
}

static char *framed(unsigned long seq, const char *payload)
{
	char *s;

	if (asprintf(&s, "%lu %08x %s", seq, frame_crc32(payload, strlen(payload)),
		     payload) < 0)
		abort();
	return s;
}

TEST(frame_ok_seq_crc)
{
	struct frame f;
	char *line = framed(7, "ROW bench=x metric=m value=1");

	CHECK(frame_parse(line, 7, &f) == FRAME_OK);
	CHECK_STR(f.payload, "ROW bench=x metric=m value=1");
	CHECK(frame_parse(line, 8, &f) == FRAME_BAD_SEQ);
	line[strlen(line) - 1] = '2'; /* one flipped character */
	CHECK(frame_parse(line, 7, &f) == FRAME_BAD_CRC);
	free(line);
}

TEST(frame_begin_end_malformed)
{
	struct frame f;
	char begin[] = "TIERLAB 1 BEGIN boot=3", end[] = "TIERLAB 1 END count=12 rc=1";
	char bad_end[] = "TIERLAB 1 END count=x rc=1", junk[] = "hello world";
	char short_crc[] = "1 abc ROW x", no_space[] = "12";

	CHECK(frame_parse(begin, 1, &f) == FRAME_BEGIN);
	CHECK(frame_parse(end, 1, &f) == FRAME_END);
	CHECK(f.end_count == 12 && f.end_rc == 1);
	CHECK(frame_parse(bad_end, 1, &f) == FRAME_MALFORMED);
	CHECK(frame_parse(junk, 1, &f) == FRAME_MALFORMED);
	CHECK(frame_parse(short_crc, 1, &f) == FRAME_MALFORMED);
	CHECK(frame_parse(no_space, 1, &f) == FRAME_MALFORMED);
}

TEST(row_fields_and_defaults)
{
	char p[] = "bench=latency policy=bind nodes=pmem:1+3 metric=p50_ns value=812 unit=ns x_mib=4";
	struct row r;

	CHECK(row_parse(p, &r) == NULL);
	CHECK_STR(r.field[0], "latency");
	CHECK_STR(r.field[2], "pmem:1+3");
	CHECK_STR(r.field[3], "-"); /* pagesize not given */
	CHECK_STR(r.field[6], "812");
	CHECK_STR(r.field[7], "ns");
}

TEST(row_rejects_commas_and_missing)
{
	char comma[] = "bench=a metric=m value=1,2", nometric[] = "bench=a value=1";
	char noeq[] = "bench=a metric value=1", empty[] = "bench=a metric=m value=";
	struct row r;

	CHECK(row_parse(comma, &r) != NULL);
	CHECK(row_parse(nometric, &r) != NULL);
	CHECK(row_parse(noeq, &r) != NULL);
	CHECK(row_parse(empty, &r) != NULL);
}

TEST(unescape_plan_tokens)
{
	char a[] = "sh%20-c", b[] = "100%25", bad[] = "x%2", bad2[] = "%zz";

	CHECK(frame_unescape(a) == 0);
	CHECK_STR(a, "sh -c");
	CHECK(frame_unescape(b) == 0);
	CHECK_STR(b, "100%");
	CHECK(frame_unescape(bad) < 0);
	CHECK(frame_unescape(bad2) < 0);
}

TEST(row_curve_point)
{
	char p[] = "bench=fallback policy=bind scenario=fill metric=preferred_frac value=0.5 x_mib=48";
	struct row r;

	CHECK(row_parse(p, &r) == NULL);
	CHECK_STR(r.field[4], "fill");
	CHECK_STR(r.x, "48");
}


/* A row collect stores is a row the report reads (lab/lib/rowvalue.h). */
TEST(row_rejects_what_summary_csv_cannot_hold)
{
	char slash[] = "bench=b metric=m value=1/2";
	char twice[] = "bench=b metric=m value=1 value=2";
	char twice_x[] = "bench=b metric=m value=1 x_mib=4 x_mib=8";
	char word[] = "bench=oom metric=outcome value=oom_killed";
	char inf[] = "bench=b metric=m value=inf";
	struct row r;
	double num;
	bool numeric;

	CHECK_STR(row_parse(slash, &r),
		  "value= is neither a number nor one word of A-Z a-z 0-9 _ . : + -");
	CHECK_STR(row_parse(twice, &r), "a field given twice");
	CHECK_STR(row_parse(twice_x, &r), "a field given twice");
	CHECK(row_parse(word, &r) == NULL);
	CHECK(row_parse(inf, &r) == NULL);	/* a word, not a number */
	CHECK(row_value_parse("2.5e3", &num, &numeric) && numeric && num == 2500);
	CHECK(row_value_parse("oom_killed", &num, &numeric) && !numeric);
	CHECK(!row_value_parse("a b", &num, &numeric));
	CHECK(!row_value_parse("", &num, &numeric));
}

/* guest/vocab.h's ROW keys are the parser's fields, in order (issue 14 item 3). */
TEST(vocab_row_keys_parse)
{
	char line[512] = "", *copy;
	struct row r;

	/* a ROW with every key of the list, each with its own name as value */
	for (int k = 0; k < VOCAB_NROW_KEYS; k++)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s%s=%s",
			 k ? " " : "", vocab_row_key_names[k],
			 k == ROW_VALUE ? "1" : vocab_row_key_names[k]);
	copy = strdup(line);
	CHECK(copy && row_parse(copy, &r) == NULL);
	for (int k = 0; copy && k < ROW_FIELDS; k++) {
		CHECK_STR(row_field_names[k], vocab_row_key_names[k]);
		CHECK_STR(r.field[k], k == ROW_VALUE ? "1" : vocab_row_key_names[k]);
	}
	free(copy);
}
