// SPDX-License-Identifier: GPL-2.0
/*
 * record_view.c - a flight record as lines of text (record_view.h): a
 * small time plot per signal that moved, ASCII only, so that it reads the
 * same in any terminal and in a tmux capture.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "fjson.h"
#include "record_view.h"

#define LABEL_W		22	/* the signal's name */
#define MAX_W		12	/* its largest rise */
#define PLOT_MIN	10

static const char levels[] = ".:-=+*#";

/* the columns' sample ranges: column c covers [first(c), first(c + 1)) */
static unsigned int first_of(unsigned int c, unsigned int n, unsigned int cols)
{
	return (unsigned int)((unsigned long long)c * n / cols);
}

/* a row of the plot: each column the largest value read among its samples */
static void plot_row(char *out, struct json_object *vals, unsigned int n, unsigned int cols,
		     double max)
{
	unsigned int c, i;
	struct json_object *v;
	double best;
	bool any;

	for (c = 0; c < cols; c++) {
		best = 0;
		any = false;
		for (i = first_of(c, n, cols); i < first_of(c + 1, n, cols); i++) {
			v = json_object_array_get_idx(vals, i);
			if (!v)
				continue;	/* not read in this sample */
			any = true;
			best = fmax(best, json_object_get_double(v));
		}
		if (!any)
			out[c] = ' ';
		else if (best <= 0 || max <= 0)
			out[c] = '_';
		else
			out[c] = levels[(int)ceil(best / max * (double)(sizeof(levels) - 1)) - 1];
	}
	out[cols] = '\0';
}

/* the carrier row: '_' where some sample of the column had it down, else '=' */
static void carrier_row(char *out, struct json_object *vals, unsigned int n, unsigned int cols)
{
	unsigned int c, i;

	for (c = 0; c < cols; c++) {
		out[c] = '=';
		for (i = first_of(c, n, cols); i < first_of(c + 1, n, cols); i++)
			if (!json_object_get_int(json_object_array_get_idx(vals, i)))
				out[c] = '_';
	}
	out[cols] = '\0';
}

static double largest(struct json_object *vals)
{
	double m = 0;
	size_t i;

	for (i = 0; i < fj_len(vals); i++)
		if (json_object_array_get_idx(vals, i))
			m = fmax(m, json_object_get_double(json_object_array_get_idx(vals, i)));
	return m;
}

static void head(struct json_object *rec, unsigned int n, struct rec_line *l)
{
	double at = 0, t0 = 0, t1 = 0, ms = 0;
	char when[32] = "?", trig[64] = "";
	struct json_object *tr = fj_get(rec, "triggers"), *t = fj_get(rec, "t_ms");
	uint64_t seq = 0;
	time_t s;
	struct tm tm;
	size_t i, k = 0;

	fj_u64(rec, "seq", &seq);
	fj_num(rec, "sample_ms", &ms);
	if (fj_num(rec, "trigger_time", &at)) {
		s = (time_t)at;
		localtime_r(&s, &tm);
		k = strftime(when, sizeof(when), "%H:%M:%S", &tm);
		snprintf(when + k, sizeof(when) - k, ".%01d", (int)((at - floor(at)) * 10));
	}
	for (i = k = 0; i < fj_len(tr) && k < sizeof(trig); i++)
		k += (size_t)snprintf(trig + k, sizeof(trig) - k, "%s%s", i ? "," : "",
				      json_object_get_string(json_object_array_get_idx(tr, i)));
	if (n) {
		t0 = json_object_get_double(json_object_array_get_idx(t, 0)) / 1000;
		t1 = json_object_get_double(json_object_array_get_idx(t, n - 1)) / 1000;
	}
	l->kind = RL_HEAD;
	snprintf(l->text, sizeof(l->text),
		 "Flight record %llu of %s/%s: %s at %s (%s), %u samples x %.0f ms, %+.1f s .. %+.1f s  (Esc: back)",
		 (unsigned long long)seq, fj_str(rec, "device") ? fj_str(rec, "device") : "?",
		 json_object_get_string(fj_get(rec, "port")),
		 fj_str(rec, "trigger") ? fj_str(rec, "trigger") : "?", when, trig, n, ms, t0, t1);
}

unsigned int record_lines(struct json_object *rec, const char *err, int width,
			  struct rec_line *out, unsigned int max)
{
	struct json_object *sig = fj_get(rec, "signals");
	unsigned int n = (unsigned int)fj_len(fj_get(rec, "t_ms")), cols, k = 0;
	char plot[REC_VIEW_LEN];
	long long ti = 0;

	if (!max)
		return 0;
	if (!rec || !n) {
		out[0].kind = RL_HEAD;
		snprintf(out[0].text, sizeof(out[0].text), "No flight record: %s  (Esc: back)",
			 err && err[0] ? err : "none");
		return 1;
	}
	cols = width > LABEL_W + MAX_W + PLOT_MIN + 4 ? (unsigned int)width - LABEL_W - MAX_W - 4 :
						       PLOT_MIN;
	cols = cols > n ? n : cols;
	cols = cols >= REC_VIEW_LEN ? REC_VIEW_LEN - 1 : cols;
	head(rec, n, &out[k++]);
	if (k < max) {
		out[k].kind = RL_PLAIN;
		snprintf(out[k++].text, sizeof(out[0].text),
			 "  %-*s %*s  a column: %.1f samples; ' ' not read, '_' 0, %s up to the largest",
			 LABEL_W - 2, "signal", MAX_W, "largest", (double)n / cols, levels);
	}
	if (k < max) {
		carrier_row(plot, fj_get(rec, "carrier"), n, cols);
		out[k].kind = strchr(plot, '_') ? RL_DOWN : RL_PLAIN;
		snprintf(out[k++].text, sizeof(out[0].text), "  %-*s %*s  %s", LABEL_W - 2,
			 "carrier", MAX_W, "up/down", plot);
	}
	json_object_object_foreach(sig, name, vals) {
		double m = largest(vals);

		if (k + 2 >= max)
			break;
		plot_row(plot, vals, n, cols, m);
		out[k].kind = RL_PLAIN;
		snprintf(out[k++].text, sizeof(out[0].text), "  %-*.*s %*.0f  %s", LABEL_W - 2,
			 LABEL_W - 2, name, MAX_W, m, plot);
	}
	fj_int(rec, "trigger_index", &ti);
	memset(plot, ' ', cols);
	plot[cols] = '\0';
	for (unsigned int c = 0; c < cols; c++)
		if ((unsigned long long)ti >= first_of(c, n, cols) &&
		    (unsigned long long)ti < first_of(c + 1, n, cols))
			plot[c] = '^';
	out[k].kind = RL_PLAIN;
	snprintf(out[k++].text, sizeof(out[0].text), "  %-*s %*s  %s", LABEL_W - 2,
		 "trigger", MAX_W, "", plot);
	return k;
}
