// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "frame.h"

uint32_t frame_crc32(const char *data, size_t len)
{
	/* IEEE 802.3 CRC-32, bitwise: the channel is slow, the code is tiny. */
	uint32_t crc = 0xffffffffu;

	for (size_t i = 0; i < len; i++) {
		crc ^= (unsigned char)data[i];
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1u));
	}
	return ~crc;
}

int frame_known_payload(const char *line)
{
	static const char *const kinds[] = { "ROW ", "TOPO ", "TAP ", "META ",
					     "HIST ", "STEP ", "PHASE ", "MEMPROBE " };

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strncmp(line, kinds[i], strlen(kinds[i])))
			return 1;
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int frame_unescape(char *token)
{
	char *out = token;

	for (const char *in = token; *in; in++) {
		if (*in != '%') {
			*out++ = *in;
			continue;
		}
		int hi = hexval(in[1]), lo = hi < 0 ? -1 : hexval(in[2]);

		if (hi < 0 || lo < 0)
			return -1;
		*out++ = (char)(hi << 4 | lo);
		in += 2;
	}
	*out = '\0';
	return 0;
}
