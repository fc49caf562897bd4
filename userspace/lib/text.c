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
