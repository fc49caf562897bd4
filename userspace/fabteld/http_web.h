/* SPDX-License-Identifier: GPL-2.0 */
/*
 * http_web.h - HTTPS and basic auth for fabteld's endpoint, configured as
 * Prometheus exporters' web config is: a certificate and key (PEM) and
 * users with bcrypt hashes (Documentation/fabteld.rst, "HTTP").
 */
#ifndef FABTELD_HTTP_WEB_H
#define FABTELD_HTTP_WEB_H

#include <stdbool.h>
#include <stddef.h>
#include <microhttpd.h>

#include "config.h"

struct web {
	char *cert_pem, *key_pem;	/* NULL: plain HTTP */
	const struct config *cfg;	/* its users */
	/* per user, the password last verified against its hash */
	char ok[CONFIG_MAX_USERS][128];
	bool have_ok[CONFIG_MAX_USERS];
};

/*
 * Read the certificate and key named in cfg (call before dropping
 * privileges: the key is usually readable by root only).  0, or -1 with a
 * message naming the file in err.
 */
int web_load(struct web *w, const struct config *cfg, char *err, size_t errlen);
void web_free(struct web *w);
/* Does the request carry a configured user's password (or are there none)? */
bool web_auth_ok(struct web *w, struct MHD_Connection *c);
/* 401 with WWW-Authenticate: Basic */
enum MHD_Result web_auth_fail(struct MHD_Connection *c);

#endif /* FABTELD_HTTP_WEB_H */
