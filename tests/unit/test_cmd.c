// SPDX-License-Identifier: GPL-2.0
/*
 * Small parsers of the labtool commands (#14 item 6): a key matched only at
 * a word's start, a count that must be the whole word.
 */
#include "harness.h"
#include "commands.h"
#include "textfile.h"

TEST(cmd_word_after_matches_a_whole_key)
{
	char buf[32];

	/* "name=" inside "filename=" is not the step's name */
	CHECK_STR(word_after("STEP filename=x.log name=latency status=ok", "name=", buf,
			     sizeof(buf)), "latency");
	CHECK(word_after("STEP filename=x.log status=ok", "name=", buf, sizeof(buf)) == NULL);
	CHECK_STR(word_after("name=first rest", "name=", buf, sizeof(buf)), "first");
	/* truncated to the buffer, never past it */
	CHECK_STR(word_after("STEP name=abcdefgh", "name=", buf, 4), "abc");
}

TEST(cmd_parse_count_takes_whole_numbers_only)
{
	CHECK(parse_count("5", 100) == 5);
	CHECK(parse_count("100", 100) == 100);
	CHECK(parse_count("5x", 100) == -1);
	CHECK(parse_count(" 5", 100) == -1);
	CHECK(parse_count("-5", 100) == -1);
	CHECK(parse_count("0", 100) == -1);
	CHECK(parse_count("101", 100) == -1);
	CHECK(parse_count("", 100) == -1);
	CHECK(parse_count("99999999999999999999", 100) == -1);
}

/* key=value lookups of channel payloads and status files (lib/textfile.c) */
TEST(kv_value_matches_whole_keys_only)
{
	char b[8];

	CHECK_STR(kv_value("STEP filename=x name=exec rc=0", ' ', "name", b, sizeof(b)), "exec");
	CHECK_STR(word_after("STEP filename=x name=exec rc=0", "name=", b, sizeof(b)), "exec");
	CHECK(kv_value("filename=x", ' ', "name", b, sizeof(b)) == NULL);
	CHECK_STR(kv_value("a=1  b=2", ' ', "b", b, sizeof(b)), "2");
	CHECK_STR(kv_value("status=ok\nexec_rc=3\n", '\n', "exec_rc", b, sizeof(b)), "3");
	CHECK(kv_value("status=ok\nexec_rc=3\n", '\n', "rc", b, sizeof(b)) == NULL);
	CHECK_STR(kv_value("k=0123456789", ' ', "k", b, sizeof(b)), "0123456");
	CHECK_STR(kv_value("k= x=1", ' ', "k", b, sizeof(b)), "");
	CHECK(kv_value("", ' ', "k", b, sizeof(b)) == NULL);
}
