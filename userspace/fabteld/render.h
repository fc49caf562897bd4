/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render.h - the model as Prometheus text (Documentation/metrics.rst) and as
 * JSON (/api/v1/snapshot, /api/v1/jobs).  Call with model->lock held.
 */
#ifndef FABTELD_RENDER_H
#define FABTELD_RENDER_H

#include "collect.h"
#include "expo.h"

struct json_object;

/* start_ns: CLOCK_MONOTONIC when the request came, for the scrape duration */
void render_metrics(const struct model *m, struct expo *e, uint64_t start_ns);
struct json_object *render_snapshot(const struct model *m);
struct json_object *render_jobs(const struct model *m);

#endif /* FABTELD_RENDER_H */
