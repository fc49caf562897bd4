/* SPDX-License-Identifier: GPL-2.0 */
/*
 * http.h - fabteld's HTTP endpoints, served by libmicrohttpd:
 * /metrics, /api/v1/snapshot, /api/v1/jobs, /api/v1/events, /api/v1/probes,
 * /api/v1/probe/endpoints (pr: NULL when probing is off), /healthz.  GET and HEAD only.
 */
#ifndef FABTELD_HTTP_H
#define FABTELD_HTTP_H

#include "model.h"
#include "config.h"

struct http;
struct web;

/*
 * NULL and a message in err on failure (address in use, bad address).  web:
 * HTTPS and basic auth (http_web.h), NULL for plain HTTP open to all.
 */
struct http *http_start(struct model *m, const struct config *cfg, struct prober *pr,
			struct web *web, char *err, size_t errlen);
void http_stop(struct http *h);

#endif /* FABTELD_HTTP_H */
