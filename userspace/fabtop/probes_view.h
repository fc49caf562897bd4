/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probes_view.h - fabteld's probe matrix (/api/v1/probes) as lines of text:
 * the `P` overlay of the console and the "Probes" part of --once.
 */
#ifndef FABTOP_PROBES_VIEW_H
#define FABTOP_PROBES_VIEW_H

#include <stddef.h>

struct json_object;

#define PROBES_MAX_LINES	600
#define PROBES_LINE_LEN		160

enum probe_line_kind { PL_HEAD, PL_PLAIN, PL_TROUBLE, PL_CULPRIT };

struct probe_line {
	enum probe_line_kind kind;
	char text[PROBES_LINE_LEN];
};

/*
 * The matrix in lines (at most max): a heading, per port a line and a row per
 * peer (RTT p50/p99, loss, sent, timeouts).  The port fabteld suspects itself
 * is PL_CULPRIT ("<< this port"), each pair in trouble PL_TROUBLE ("<< path
 * or peer").  probes NULL (an fabteld without probes): one line saying so.
 */
unsigned int probes_lines(struct json_object *probes, struct probe_line *out, unsigned int max);

#endif /* FABTOP_PROBES_VIEW_H */
