/* SPDX-License-Identifier: GPL-2.0 */
/*
 * http.h - fabteld's HTTP endpoints, served by libmicrohttpd:
 * /metrics, /api/v1/snapshot, /api/v1/jobs, /healthz.  GET and HEAD only.
 */
#ifndef FABTELD_HTTP_H
#define FABTELD_HTTP_H

#include "model.h"
#include "config.h"

struct http;

/* NULL and a message in err on failure (address in use, bad address). */
struct http *http_start(struct model *m, const struct config *cfg, char *err, size_t errlen);
void http_stop(struct http *h);

#endif /* FABTELD_HTTP_H */
