// SPDX-License-Identifier: GPL-2.0
/*
 * raw.c - what a source says of itself in a pass's readings (source.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "source.h"

const char *raw_strerror(struct raw *r, int err)
{
	const char *s = strerrordesc_np(err);

	if (s)
		return s;
	snprintf(r->errtext, sizeof(r->errtext), "Unknown error %d", err);
	return r->errtext;
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
