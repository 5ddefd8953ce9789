/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Results-channel framing, shared by the guest (labrun writes frames) and
 * the host (labtool collect checks them).  See README.md, "Results channel".
 */
#ifndef TIERLAB_FRAME_H
#define TIERLAB_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define FRAME_MAGIC "TIERLAB 1"

uint32_t frame_crc32(const char *data, size_t len);

/* Payload types a step may print; any other line is carried as "OUT <line>". */
int frame_known_payload(const char *line);

/*
 * Percent-decoding of one plan token in place: "%20" -> ' '.  Returns 0, or
 * -1 on a malformed escape.
 */
int frame_unescape(char *token);

#endif
