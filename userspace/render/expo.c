// SPDX-License-Identifier: GPL-2.0
/*
 * expo.c - Prometheus text format writer (see expo.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expo.h"

void expo_init(struct expo *e)
{
	memset(e, 0, sizeof(*e));
}

void expo_free(struct expo *e)
{
	free(e->buf);
	memset(e, 0, sizeof(*e));
}

static bool reserve(struct expo *e, size_t more)
{
	size_t cap;
	char *p;

	if (e->oom)
		return false;
	if (e->len + more + 1 <= e->cap)
		return true;
	cap = e->cap ? e->cap : 4096;
	while (cap < e->len + more + 1)
		cap *= 2;
	p = realloc(e->buf, cap);
	if (!p) {
		e->oom = true;
		return false;
	}
	e->buf = p;
	e->cap = cap;
	return true;
}

static void put(struct expo *e, const char *s, size_t n)
{
	if (!reserve(e, n))
		return;
	memcpy(e->buf + e->len, s, n);
	e->len += n;
	e->buf[e->len] = '\0';
}

static void puts_(struct expo *e, const char *s)
{
	put(e, s, strlen(s));
}

static void printf_(struct expo *e, const char *fmt, ...)
{
	char tmp[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		put(e, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

/* quote: also escape '"' (label values; HELP leaves it alone) */
static void escaped(struct expo *e, const char *s, bool quote)
{
	for (; *s; s++) {
		if (*s == '\\')
			puts_(e, "\\\\");
		else if (*s == '\n')
			puts_(e, "\\n");
		else if (*s == '"' && quote)
			puts_(e, "\\\"");
		else
			put(e, s, 1);
	}
}

bool expo_valid_metric_name(const char *s)
{
	const char *p;

	if (!s || !*s || (*s >= '0' && *s <= '9'))
		return false;
	for (p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == ':'))
			return false;
	return true;
}

bool expo_valid_label_name(const char *s)
{
	return expo_valid_metric_name(s) && !strchr(s, ':') && strncmp(s, "__", 2);
}

void expo_family(struct expo *e, const char *name, const char *type, const char *help)
{
	if (!expo_valid_metric_name(name) || (strcmp(type, "counter") &&
	    strcmp(type, "gauge") && strcmp(type, "histogram") &&
	    strcmp(type, "untyped"))) {
		e->bad++;
		return;
	}
	puts_(e, "# HELP ");
	puts_(e, name);
	put(e, " ", 1);
	escaped(e, help, false);
	puts_(e, "\n# TYPE ");
	puts_(e, name);
	put(e, " ", 1);
	puts_(e, type);
	put(e, "\n", 1);
}

static bool sample_head(struct expo *e, const char *name, const struct expo_label *labels)
{
	const struct expo_label *l;

	if (!expo_valid_metric_name(name)) {
		e->bad++;
		return false;
	}
	for (l = labels; l && l->name; l++) {
		if (!expo_valid_label_name(l->name) || !l->value) {
			e->bad++;
			return false;
		}
	}
	puts_(e, name);
	if (labels && labels->name) {
		put(e, "{", 1);
		for (l = labels; l->name; l++) {
			if (l != labels)
				put(e, ",", 1);
			puts_(e, l->name);
			puts_(e, "=\"");
			escaped(e, l->value, true);
			put(e, "\"", 1);
		}
		put(e, "}", 1);
	}
	put(e, " ", 1);
	return true;
}

void expo_u64(struct expo *e, const char *name, const struct expo_label *labels, uint64_t v)
{
	if (sample_head(e, name, labels))
		printf_(e, "%llu\n", (unsigned long long)v);
}

/* the shortest of %.15g, %.17g that reads back as v */
static const char *shortest(char *buf, size_t n, double v)
{
	snprintf(buf, n, "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, n, "%.17g", v);
	return buf;
}

void expo_double(struct expo *e, const char *name, const struct expo_label *labels, double v)
{
	char tmp[40];

	if (!sample_head(e, name, labels))
		return;
	if (isnan(v))
		puts_(e, "NaN\n");
	else if (isinf(v))
		puts_(e, v > 0 ? "+Inf\n" : "-Inf\n");
	else
		printf_(e, "%s\n", shortest(tmp, sizeof(tmp), v));
}
