/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h - the few TAP (version 13) helpers fabtel's C tests need.
 *
 *	tap_plan(3);
 *	tap_ok(x == 1, "x is one (got %d)", x);
 *	tap_skip("needs root");
 *	return tap_done();
 */
#ifndef FABTEL_TAP_H
#define FABTEL_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define TAP_EXIT_SKIP 4	/* kselftest's "cannot run here" */

static int tap_n, tap_failed, tap_skipped;

static inline void tap_plan(int n)
{
	printf("TAP version 13\n1..%d\n", n);
	fflush(stdout);
}

__attribute__((format(printf, 2, 3)))
static inline bool tap_ok(bool pass, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", pass ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (!pass)
		tap_failed++;
	return pass;
}

__attribute__((format(printf, 1, 2)))
static inline void tap_skip(const char *fmt, ...)
{
	va_list ap;

	printf("ok %d # SKIP ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	tap_skipped++;
}

/* Skip the whole program: plan nothing, say why, exit 4. */
__attribute__((format(printf, 1, 2), noreturn))
static inline void tap_skip_all(const char *fmt, ...)
{
	va_list ap;

	printf("TAP version 13\n1..0 # SKIP ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	exit(TAP_EXIT_SKIP);
}

static inline int tap_done(void)
{
	if (tap_failed)
		return 1;
	return tap_n && tap_skipped == tap_n ? TAP_EXIT_SKIP : 0;
}

#endif /* FABTEL_TAP_H */
