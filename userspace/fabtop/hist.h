/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist.h - each port's rate history as fabtop keeps it (hist.c): the
 * points fabteld's /api/v1/history gave, newest last, up to HIST_KEEP
 * per port; and sparklines drawn from them.
 */
#ifndef FABTOP_HIST_H
#define FABTOP_HIST_H

#include <stddef.h>
#include <stdbool.h>

#define HIST_KEEP	300
#define HIST_PORTS	64

struct json_object;

/* the series fabtop draws, by fabteld's names (model.h's enum model_hist) */
enum hist_series {
	HSER_RX, HSER_TX, HSER_OOS, HSER_NAK, HSER_ACKTO, HSER_RETRY, HSER_CNP, HSER_ECN,
	HSER_PTX, HSER_PRX, HSER_NR,
};

struct hist_port {
	char key[96];			/* "mlx5_0/1" */
	double t[HIST_KEEP];		/* Unix s */
	float v[HIST_KEEP][HSER_NR];	/* NAN: not known */
	unsigned int head, count;	/* head: next slot */
};

struct hist {
	struct hist_port *port;		/* cap of them, n used */
	unsigned int n, cap;
	double last_t;			/* the newest point taken: the next since= */
	double interval;		/* fabteld's sampling period (s), 0 unknown */
};

/* A history for up to HIST_PORTS ports; NULL out of memory. */
struct hist *hist_new(void);
/* A copy of h's ports as they are now, for a frame; NULL out of memory. */
struct hist *hist_copy(const struct hist *h);
void hist_free(struct hist *h);
/* Merge an /api/v1/history answer (points after those already kept). */
void hist_take(struct hist *h, struct json_object *resp);
const struct hist_port *hist_find(const struct hist *h, const char *key);
/*
 * The sum of the series in mask (bits of enum hist_series) at the i-th
 * newest point; NAN when none of them is known there or past the end.
 */
double hist_sum(const struct hist_port *p, unsigned int i, unsigned int mask);
/*
 * A sparkline of that sum over the newest width points, oldest left, in
 * ASCII ('_' nothing, then ".,:-=+*#@" up to the window's highest; ' '
 * unknown) into buf (size > width); the newest value in *last (NAN unknown).
 */
void hist_spark(char *buf, size_t width, const struct hist_port *p, unsigned int mask,
		double *last);

#endif /* FABTOP_HIST_H */
