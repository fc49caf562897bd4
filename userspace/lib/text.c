// SPDX-License-Identifier: GPL-2.0
/*
 * text.c - text helpers (text.h).
 */
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
