// SPDX-License-Identifier: GPL-2.0
/*
 * Small parsers of the labtool commands (#14 item 6): a key matched only at
 * a word's start, a count that must be the whole word.
 */
#include "harness.h"
#include "commands.h"

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
