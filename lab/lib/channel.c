// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "channel.h"
#include "frame.h"
#include "rowvalue.h"

const char *const row_field_names[ROW_FIELDS] = { VOCAB_ROW_KEYS(VOCAB_NAME2) };

static int parse_ulong(const char *s, char **end, unsigned long *v)
{
	if (*s < '0' || *s > '9')
		return -1;
	*v = strtoul(s, end, 10);
	return 0;
}

enum frame_result frame_parse(char *line, unsigned long expect_seq,
			      struct frame *f)
{
	const size_t ml = strlen(FRAME_MAGIC);
	char *p;
	unsigned long v;

	memset(f, 0, sizeof(*f));
	if (!strncmp(line, FRAME_MAGIC " BEGIN", ml + 6))
		return FRAME_BEGIN;
	if (!strncmp(line, FRAME_MAGIC " END count=", ml + 11)) {
		p = line + ml + 11;
		if (parse_ulong(p, &p, &f->end_count) < 0 ||
		    strncmp(p, " rc=", 4))
			return FRAME_MALFORMED;
		f->end_rc = atoi(p + 4);
		return FRAME_END;
	}
	if (parse_ulong(line, &p, &f->seq) < 0 || *p != ' ')
		return FRAME_MALFORMED;
	p++;
	for (int i = 0; i < 8; i++)
		if (!strchr("0123456789abcdef", p[i]) || !p[i])
			return FRAME_MALFORMED;
	if (p[8] != ' ')
		return FRAME_MALFORMED;
	v = strtoul(p, NULL, 16);
	f->payload = p + 9;
	if (f->seq != expect_seq)
		return FRAME_BAD_SEQ;
	if (v != frame_crc32(f->payload, strlen(f->payload)))
		return FRAME_BAD_CRC;
	return FRAME_OK;
}

bool row_value_parse(const char *s, double *num, bool *numeric)
{
	char *end;

	*num = strtod(s, &end);
	if (end != s && !*end && isfinite(*num)) {
		*numeric = true;
		return true;
	}
	*numeric = false;
	*num = NAN;
	for (const char *p = s; *p; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("_.:+-", *p)))
			return false;
	}
	return *s != '\0';
}

const char *row_parse(char *payload, struct row *r)
{
	static const char dash[] = "-";
	char *save = NULL;
	double num;
	bool numeric;

	for (int i = 0; i < ROW_FIELDS; i++)
		r->field[i] = NULL;
	r->x = NULL;
	for (char *tok = strtok_r(payload, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');
		int i;

		if (!eq)
			return "a field without '='";
		*eq = '\0';
		for (i = 0; i < ROW_FIELDS; i++)
			if (!strcmp(tok, row_field_names[i]))
				break;
		if (i == ROW_FIELDS && strcmp(tok, "x_mib"))
			continue; /* other keys are for raw/ readers */
		if (strpbrk(eq + 1, ",\"\r\n@") || !eq[1])
			return "a value that is empty or has a comma, quote or '@'";
		/* a second one would replace the first in silence */
		if (i == ROW_FIELDS ? r->x != NULL : r->field[i] != NULL)
			return "a field given twice";
		if (i == ROW_FIELDS)
			r->x = eq + 1;
		else
			r->field[i] = eq + 1;
	}
	if (!r->field[ROW_BENCH])
		return "missing bench=";
	if (!r->field[ROW_METRIC])
		return "missing metric=";
	if (!r->field[ROW_VALUE])
		return "missing value=";
	if (!row_value_parse(r->field[ROW_VALUE], &num, &numeric))
		return "value= is neither a number nor one word of A-Z a-z 0-9 _ . : + -";
	for (int i = 0; i < ROW_FIELDS; i++)
		if (!r->field[i])
			r->field[i] = (char *)dash;
	return NULL;
}
