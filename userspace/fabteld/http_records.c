// SPDX-License-Identifier: GPL-2.0
/*
 * http_records.c - fabtel.ko's flight records in the JSON API
 * (Documentation/recorder.rst, "fabteld"): /api/v1/records lists the ones
 * fabteld keeps, newest first; /api/v1/records/<device>/<port>/<seq> is
 * one, with a series per signal that moved (?at=TRIGGER_REAL_NS picks
 * between two of the same seq, from before and after fabtel.ko was loaded
 * again; without it, the newer).
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http_reply.h"
#include "render.h"

/* "<device>/<port>/<seq>": 0, or -1 */
static int parse_path(const char *s, char *dev, size_t size, uint32_t *port, uint64_t *seq)
{
	size_t n = strcspn(s, "/");
	unsigned long long p, q;
	char *end;

	if (!n || n >= size || s[n] != '/')
		return -1;
	memcpy(dev, s, n);
	dev[n] = '\0';
	s += n + 1;
	errno = 0;
	p = strtoull(s, &end, 10);	/* digits only: strtoull takes "-1" and " 1" */
	if (!isdigit((unsigned char)*s) || *end != '/' || errno || !p || p > UINT32_MAX)
		return -1;
	s = end + 1;
	q = strtoull(s, &end, 10);
	if (!isdigit((unsigned char)*s) || *end || errno || !q)
		return -1;
	*port = (uint32_t)p;
	*seq = q;
	return 0;
}

enum MHD_Result http_records(struct model *m, struct replier *r, struct MHD_Connection *c,
			     const char *rest)
{
	unsigned long long at = 0;
	struct json_object *o;
	const struct rec *rec;
	char dev[64];
	uint32_t port;
	uint64_t seq;

	if (!rest[0] || !strcmp(rest, "/")) {
		pthread_mutex_lock(&m->lock);
		o = render_records(m);
		pthread_mutex_unlock(&m->lock);
		return reply_json(r, c, o);
	}
	if (rest[0] != '/' || parse_path(rest + 1, dev, sizeof(dev), &port, &seq))
		return reply_text(c, MHD_HTTP_BAD_REQUEST,
				  "want /api/v1/records/<device>/<port>/<seq>[?at=NS]\n");
	if (reply_arg_u64(c, "at", UINT64_MAX, &at))
		return reply_text(c, MHD_HTTP_BAD_REQUEST, "at wants a trigger_real_ns\n");
	pthread_mutex_lock(&m->lock);
	rec = model_record_find(&m->records, dev, port, seq, at);
	o = rec ? render_record(rec) : NULL;
	pthread_mutex_unlock(&m->lock);
	if (!rec)
		return reply_text(c, MHD_HTTP_NOT_FOUND,
				  "no such record kept (see /api/v1/records)\n");
	return reply_json(r, c, o);
}
