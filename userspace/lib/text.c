// SPDX-License-Identifier: GPL-2.0
/*
 * text.c - text helpers (text.h).
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <string.h>

#include "text.h"

char *text_trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

const char *text_dec_u64(const char *s, uint64_t *v)
{
	uint64_t x = 0;
	unsigned int d;
	const char *p;

	for (p = s; *p >= '0' && *p <= '9'; p++) {
		d = (unsigned int)(*p - '0');
		/* 19 digits always fit in 64 bits: the check from the 20th */
		if (p - s >= 19 && (x > UINT64_MAX / 10 || x * 10 > UINT64_MAX - d))
			return NULL;
		x = x * 10 + d;
	}
	if (p == s)
		return NULL;
	*v = x;
	return p;
}

void text_copy(char *dst, size_t len, const char *src)
{
	size_t n;

	if (!len)
		return;
	n = strnlen(src, len - 1);
	memmove(dst, src, n);
	dst[n] = '\0';
}

void text_gid(char *dst, size_t len, const uint8_t gid[16])
{
	static const uint8_t v4mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	if (!memcmp(gid, v4mapped, sizeof(v4mapped))) {
		if (!inet_ntop(AF_INET, gid + 12, dst, (socklen_t)len))
			dst[0] = '\0';
	} else if (!inet_ntop(AF_INET6, gid, dst, (socklen_t)len)) {
		dst[0] = '\0';
	}
}
