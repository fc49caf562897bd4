/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render_probes.h - the prober's views: Prometheus families
 * (render_probes.c), the /api/v1/probes matrix and its text form
 * (render_probes_json.c).  Each takes the prober's lock itself.
 */
#ifndef FABTEL_RENDER_PROBES_H
#define FABTEL_RENDER_PROBES_H

#include <stdio.h>

#include "expo.h"

struct prober;
struct json_object;

/* nothing when pr is NULL (probing off) */
void render_probe_families(struct prober *pr, struct expo *e);
/* this host's endpoint document (probe_doc.h) */
struct json_object *render_probe_endpoints(struct prober *pr);
/* the probe matrix: ports, their peers, loss, RTT, the local suspect */
struct json_object *render_probes(struct prober *pr);
/* the matrix as the text of `fabteld --once probes` */
void print_probes(struct json_object *matrix, FILE *f);

#endif /* FABTEL_RENDER_PROBES_H */
