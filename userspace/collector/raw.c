// SPDX-License-Identifier: GPL-2.0
/*
 * raw.c - what a source says of itself in a pass's readings (source.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "source.h"

const char *raw_strerror(int err)
{
	static char unknown[32];	/* the collector thread's only */
	const char *s = strerrordesc_np(err);

	if (s)
		return s;
	snprintf(unknown, sizeof(unknown), "Unknown error %d", err);
	return unknown;
}

void raw_report(struct raw *r, enum model_source s, enum src_state st, const char *fmt, ...)
{
	va_list ap;

	r->reported[s] = true;
	r->state[s] = st;
	va_start(ap, fmt);
	vsnprintf(r->why[s], sizeof(r->why[s]), fmt, ap);
	va_end(ap);
}
