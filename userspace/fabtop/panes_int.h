/* SPDX-License-Identifier: GPL-2.0 */
/*
 * panes_int.h - what the pane files (panes*.c) share: the cells every
 * pane formats alike, and the NICs pane's builder.
 */
#ifndef FABTOP_PANES_INT_H
#define FABTOP_PANES_INT_H

#include "panes.h"

struct json_object;

/* The Events pane's columns (panes.c); a job's page shows its rows too. */
enum { E_TIME, E_EVENT, E_PORT, E_DETAIL, E_JOB, E_NR };
extern const struct column event_cols[E_NR];

/* "12.3" Gb/s from bytes per second. */
void fmt_gbps(char *buf, size_t len, double bytes_per_s);
/* A Unix time as the local clock, "HH:MM:SS"; "-" if unknown. */
void fmt_clock(char *buf, size_t len, double t);
/* An integer field as a cell (and its sort key), "-" if absent. */
void int_cell(struct row *r, unsigned int c, struct json_object *o, const char *k);
enum row_color verdict_color(const char *v);
/* failing first, then degraded, healthy */
double verdict_rank(const char *v);

/* The NICs pane of f (panes_nics.c). */
void panes_build_nics(struct frame *f);
/* The Events pane of f (panes_events.c). */
void panes_build_events(const struct digest *d, struct frame *f);

#endif /* FABTOP_PANES_INT_H */
