/* SPDX-License-Identifier: GPL-2.0 */
/* Parsing of the results channel's framed lines; see README.md. */
#ifndef TIERLAB_CHANNEL_H
#define TIERLAB_CHANNEL_H

#include <stddef.h>

#include "vocab.h"

enum frame_result {
	FRAME_OK,        /* a payload line with the expected seq and crc */
	FRAME_BEGIN,     /* "TIERLAB 1 BEGIN ..." */
	FRAME_END,       /* "TIERLAB 1 END count=N rc=R" */
	FRAME_BAD_SEQ,   /* sequence gap or repeat */
	FRAME_BAD_CRC,   /* checksum mismatch */
	FRAME_MALFORMED, /* not a frame at all */
};

struct frame {
	unsigned long seq;
	const char *payload; /* points into the line */
	unsigned long end_count;
	int end_rc;
};

/*
 * Checks one line (without its newline).  expect_seq is the sequence number
 * the line must carry.  On FRAME_OK, f->payload is the payload.
 */
enum frame_result frame_parse(char *line, unsigned long expect_seq,
			      struct frame *f);

/* The ROW fields of guest/vocab.h, in its (and summary.csv's) order. */
#define X(id, name) ROW_##id,
enum { VOCAB_ROW_KEYS(X) ROW_FIELDS };
#undef X
extern const char *const row_field_names[ROW_FIELDS];

struct row {
	char *field[ROW_FIELDS]; /* bench policy nodes pagesize scenario metric value unit */
	char *x;                 /* x_mib=, the x of a curve's point, or NULL */
};

/*
 * Parses "k=v k=v ..." of a ROW payload (after "ROW ") into r, pointing
 * into payload, which is modified.  Missing optional fields become "-".
 * Returns NULL on success or a static message naming the problem.
 */
const char *row_parse(char *payload, struct row *r);

#endif
