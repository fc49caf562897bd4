/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record_view.h - one of fabtel.ko's flight records
 * (/api/v1/records/<device>/<port>/<seq>) as lines of text: the `r`
 * overlay of the console, over an event that has one.
 */
#ifndef FABTOP_RECORD_VIEW_H
#define FABTOP_RECORD_VIEW_H

struct json_object;

#define REC_VIEW_LINES		64
#define REC_VIEW_LEN		400

enum rec_line_kind { RL_HEAD, RL_PLAIN, RL_DOWN };

struct rec_line {
	enum rec_line_kind kind;
	char text[REC_VIEW_LEN];
};

/*
 * The record in lines of at most width columns (at most max lines): what
 * froze it and when, then a plot row per signal that moved (the carrier
 * first): each column the samples it covers (the largest rise among them;
 * ' ' none read, '_' 0, ".:-=+*#" up to the row's largest), a '^' under
 * the trigger's column and the time axis.  rec NULL: one line saying why
 * (err).
 */
unsigned int record_lines(struct json_object *rec, const char *err, int width,
			  struct rec_line *out, unsigned int max);

#endif /* FABTOP_RECORD_VIEW_H */
