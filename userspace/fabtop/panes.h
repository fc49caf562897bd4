/* SPDX-License-Identifier: GPL-2.0 */
/*
 * panes.h - a frame's tables: the NICs, Jobs and Events panes (and the
 * typed rows of --once --json), and a job's detail (reasons, QPs, events).
 */
#ifndef FABTOP_PANES_H
#define FABTOP_PANES_H

#include <stdbool.h>
#include <stddef.h>

#include "digest.h"

/* columns of the Jobs pane the console quotes */
enum { JOB_COL_VERDICT = 1, JOB_COL_REASON = 5 };

/* Fill f->tab and f->rows from f->snapshot, f->jobs and the digest's state and events. */
void panes_build(const struct digest *d, struct frame *f);

/* A job's reasons, QPs and events from a frame; false if it has no such job. */
bool frame_job_detail(const struct frame *f, const char *job_id, struct table *out);
void frame_detail_free(struct table *out);

/* "12.3k": a rate in 4-5 characters. */
void fmt_rate(char *buf, size_t len, double v);

#endif /* FABTOP_PANES_H */
