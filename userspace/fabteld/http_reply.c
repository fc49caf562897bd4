// SPDX-License-Identifier: GPL-2.0
/*
 * http_reply.c - fabteld's HTTP answers and the cap on large ones (see
 * http_reply.h; the rule is http_guard.c's).
 *
 * An answer is counted as large from its queueing until libmicrohttpd has
 * handed its last byte to the kernel (the request's completion, or its
 * connection's close).  Its size is known only once rendered, so the first
 * request over the cap is rendered and refused; the same request again
 * (same URL and arguments) is refused before rendering while the cap stays
 * full: a history of 64 ports takes tens of milliseconds to render, on the
 * thread that also answers the scrape.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "http_reply.h"

static enum MHD_Result reply(struct MHD_Connection *c, unsigned int status, const char *type,
			     void *body, size_t len, enum MHD_ResponseMemoryMode mode)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, body, mode);
	if (!r) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	if (status == MHD_HTTP_TOO_MANY_REQUESTS)
		MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, "5");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

enum MHD_Result reply_text(struct MHD_Connection *c, unsigned int status, const char *msg)
{
	return reply(c, status, "text/plain; charset=utf-8", (void *)msg, strlen(msg),
		     MHD_RESPMEM_PERSISTENT);
}

enum MHD_Result reply_busy(struct MHD_Connection *c)
{
	static const char msg[] = "too many large responses in flight: retry\n";
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(sizeof(msg) - 1, (void *)msg, MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, "5");
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
	ret = MHD_queue_response(c, MHD_HTTP_SERVICE_UNAVAILABLE, r);
	MHD_destroy_response(r);
	return ret;
}

/* FNV-1a, 64 bits, over s and a separator */
static uint64_t fnv(uint64_t h, const char *s, char sep)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (h ^ (unsigned char)sep) * 0x100000001b3ULL;
}

static enum MHD_Result hash_arg(void *cls, enum MHD_ValueKind kind, const char *key,
				const char *value)
{
	uint64_t *h = cls;

	(void)kind;
	*h = fnv(*h, key, '=');
	*h = fnv(*h, value ? value : "", '&');
	return MHD_YES;
}

static int memo_find(const struct replier *r, uint64_t key)
{
	unsigned int i;

	for (i = 0; key && i < REPLY_MEMO; i++)
		if (r->large[i].key == key)
			return (int)i;
	return -1;
}

/* what the answer to r->key weighed: remembered if large, forgotten if not */
static void memo_note(struct replier *r, size_t len)
{
	int i = memo_find(r, r->key);

	if (!r->key)
		return;
	if (len <= GUARD_LARGE_BYTES) {
		if (i >= 0)
			r->large[i].key = 0;
		return;
	}
	if (i < 0) {
		i = (int)r->next;
		r->next = (r->next + 1) % REPLY_MEMO;
	}
	r->large[i].key = r->key;
	r->large[i].len = len;
}

bool reply_refuse_early(struct replier *r, struct MHD_Connection *c, const char *url)
{
	uint64_t h = fnv(0xcbf29ce484222325ULL, url, '?');

	MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, hash_arg, &h);
	r->key = h ? h : 1;
	return memo_find(r, r->key) >= 0 && guard_large_refused(r->g);
}

enum MHD_Result reply_large(struct replier *r, struct MHD_Connection *c, const char *type,
			    void *body, size_t len, enum MHD_ResponseMemoryMode mode, bool scrape)
{
	memo_note(r, len);
	if (len > GUARD_LARGE_BYTES && guard_large(r->g, c, scrape)) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(body);
		return reply_busy(c);
	}
	return reply(c, MHD_HTTP_OK, type, body, len, mode);
}

enum MHD_Result reply_json(struct replier *r, struct MHD_Connection *c, struct json_object *o)
{
	const char *s;
	enum MHD_Result ret;

	if (!o)
		return reply_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	ret = s ? reply_large(r, c, "application/json", (void *)s, strlen(s),
			      MHD_RESPMEM_MUST_COPY, false) :
		  reply_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
	json_object_put(o);
	return ret;
}

/* a query argument as a number in [0, max]: 0 and *v, or -1 */
int reply_arg_u64(struct MHD_Connection *c, const char *name, unsigned long long max,
		   unsigned long long *v)
{
	const char *arg = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, name);
	char *end;

	if (!arg)
		return 0;
	errno = 0;
	*v = strtoull(arg, &end, 10);
	if (!isdigit((unsigned char)arg[0]) || *end || errno || *v > max)
		return -1;
	return 0;
}
