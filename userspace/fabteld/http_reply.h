/* SPDX-License-Identifier: GPL-2.0 */
/*
 * http_reply.h - fabteld's HTTP answers (http_reply.c): each built whole in
 * memory and queued to libmicrohttpd; a body over GUARD_LARGE_BYTES only
 * while the guard's cap on large responses in flight allows (http_guard.h),
 * else 503 with Retry-After.
 *
 * Refusing costs little: the replier remembers which of the latest
 * requests (URL and arguments) had a large answer, and while the cap is
 * full the same request is refused before it is rendered.  All of it runs
 * on libmicrohttpd's one thread, so the replier needs no lock.
 */
#ifndef FABTELD_HTTP_REPLY_H
#define FABTELD_HTTP_REPLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>
#include <microhttpd.h>

#include "http_guard.h"

#define REPLY_MEMO	16	/* requests whose answer was large, remembered */

struct replier {
	struct guard *g;
	uint64_t key;		/* the request being answered; 0: not remembered */
	struct {
		uint64_t key;
		size_t len;
	} large[REPLY_MEMO];
	unsigned int next;
};

/* msg: static */
enum MHD_Result reply_text(struct MHD_Connection *c, unsigned int status, const char *msg);
/* 503, Retry-After: 5, the connection closed after it */
enum MHD_Result reply_busy(struct MHD_Connection *c);

/*
 * A request of the JSON API comes (url and its arguments): remembered as
 * r->key.  true: answer reply_busy now (its answer was large last time and
 * the cap is full; counted).
 */
bool reply_refuse_early(struct replier *r, struct MHD_Connection *c, const char *url);
/*
 * 200 with body, or 503 if it is large and over the cap (scrape: /metrics,
 * never refused).  body: copied (MUST_COPY) or malloc'd and freed here
 * (MUST_FREE).
 */
enum MHD_Result reply_large(struct replier *r, struct MHD_Connection *c, const char *type,
			    void *body, size_t len, enum MHD_ResponseMemoryMode mode, bool scrape);
/* 200 with o as JSON (o put here); NULL o: 500 */
enum MHD_Result reply_json(struct replier *r, struct MHD_Connection *c, struct json_object *o);

/* a query argument as a number in [0, max]: 0 and *v (untouched if absent), or -1 */
int reply_arg_u64(struct MHD_Connection *c, const char *name, unsigned long long max,
		  unsigned long long *v);
/*
 * /api/v1/records (rest ""), /api/v1/records/<device>/<port>/<seq>[?at=NS]
 * (http_records.c); takes m's lock
 */
struct model;
/* POST /api/v1/ack (http_ack.c): user, the basic auth user; NULL: none configured */
enum MHD_Result http_ack(struct model *m, struct replier *r, struct MHD_Connection *c,
			 const char *method, const char *user);
enum MHD_Result http_records(struct model *m, struct replier *r, struct MHD_Connection *c,
			     const char *rest);

#endif /* FABTELD_HTTP_REPLY_H */
