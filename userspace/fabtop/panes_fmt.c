// SPDX-License-Identifier: GPL-2.0
/*
 * panes_fmt.c - the cells every pane shares (see panes_int.h): rates, Gb/s,
 * clock times, integers, verdicts.  Unknown is "-", never 0.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "fjson.h"
#include "panes_int.h"

void fmt_rate(char *buf, size_t len, double v)
{
	static const char units[] = "kMGTP";
	unsigned int u = 0;

	if (v == 0) {
		snprintf(buf, len, "0");
		return;
	}
	if (v < 10) {
		snprintf(buf, len, "%.1f", v);
		return;
	}
	if (v < 1000) {
		snprintf(buf, len, "%.0f", v);
		return;
	}
	v /= 1000;
	while (v >= 999.5 && u < sizeof(units) - 2) {
		v /= 1000;
		u++;
	}
	snprintf(buf, len, v < 9.95 ? "%.1f%c" : "%.0f%c", v, units[u]);
}

void fmt_gbps(char *buf, size_t len, double bytes_per_s)
{
	double g = bytes_per_s * 8 / 1e9;

	/* three significant digits down to 1 Mb/s: a slow link is not "0.00" */
	if (g == 0)
		snprintf(buf, len, "0");
	else
		snprintf(buf, len, g < 1 ? "%.3f" : g < 10 ? "%.2f" : g < 100 ? "%.1f" : "%.0f", g);
}

void fmt_clock(char *buf, size_t len, double t)
{
	struct tm tm;
	time_t s;

	/* a time from the daemon: anything but a sane Unix time is "-" */
	if (!(t >= 0 && t < 1e11)) {
		snprintf(buf, len, "-");
		return;
	}
	s = (time_t)t;
	if (!localtime_r(&s, &tm)) {
		snprintf(buf, len, "-");
		return;
	}
	/* older than a day: the date says more than the time */
	strftime(buf, len, time(NULL) - s < 86400 ? "%H:%M:%S" : "%m-%d %H:%M", &tm);
}

/* An integer field as a cell (and its sort key), "-" if absent. */
void int_cell(struct row *r, unsigned int c, struct json_object *o, const char *k)
{
	long long v = 0;
	bool ok = fj_int(o, k, &v);

	row_num(r, c, ok, (double)v, "%lld", v);
}

enum row_color verdict_color(const char *v)
{
	if (!v)
		return RC_NONE;
	if (!strcmp(v, "failing"))
		return RC_BAD;
	if (!strcmp(v, "degraded"))
		return RC_WARN;
	return !strcmp(v, "healthy") ? RC_GOOD : RC_NONE;
}

double verdict_rank(const char *v)
{
	enum row_color c = verdict_color(v);

	return c == RC_BAD ? 2 : c == RC_WARN ? 1 : c == RC_GOOD ? 0 : NAN;
}
