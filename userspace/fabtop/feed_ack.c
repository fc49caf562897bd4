// SPDX-License-Identifier: GPL-2.0
/*
 * feed_ack.c - fabtop's `a` on a port: POST /api/v1/ack?device=D&port=N
 * (Documentation/fabteld.rst "Recent faults"), by the fetcher thread so
 * that the keys never wait on fabteld; in standalone mode the in-process
 * collector's sticky_ack.  The outcome comes back as the status's notice.
 */
#include <stdio.h>
#include <string.h>

#include "feed_int.h"

/* the POST through the fetcher's connection, then back to GET; -1 with why, else cleared */
static int post_ack(struct feed *f, const char *dev, unsigned int port, char *why, size_t len)
{
	struct feed_status st = { 0 };
	struct json_object *o = NULL;
	char path[256], *esc = curl_easy_escape(f->fetch.curl, dev, 0);
	int64_t n = -1;
	int rc;

	if (!esc) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	snprintf(path, sizeof(path), "/api/v1/ack?device=%s&port=%u", esc, port);
	curl_free(esc);
	curl_easy_setopt(f->fetch.curl, CURLOPT_POSTFIELDS, "");
	curl_easy_setopt(f->fetch.curl, CURLOPT_POSTFIELDSIZE, 0L);
	rc = feed_http_json(f, path, &o, &st);
	curl_easy_setopt(f->fetch.curl, CURLOPT_HTTPGET, 1L);
	if (rc == 404)
		snprintf(why, len, "fabteld has no port %s/%u (or no POST /api/v1/ack)", dev, port);
	else if (rc)
		snprintf(why, len, "%s", st.error);
	else if (json_object_is_type(json_object_object_get(o, "cleared"), json_type_int))
		n = json_object_get_int64(json_object_object_get(o, "cleared"));
	else
		snprintf(why, len, "fabteld's answer has no \"cleared\"");
	json_object_put(o);
	return (int)n;
}

void feed_request_ack(struct feed *f, const char *device, unsigned int port)
{
	pthread_mutex_lock(&f->lock);
	snprintf(f->ack_dev, sizeof(f->ack_dev), "%s", device);
	f->ack_port = port;
	pthread_cond_broadcast(&f->cond);
	pthread_mutex_unlock(&f->lock);
}

void feed_serve_ack(struct feed *f)
{
	char dev[sizeof(f->ack_dev)], why[400] = "";
	unsigned int port = f->ack_port;
	int n;

	snprintf(dev, sizeof(dev), "%s", f->ack_dev);
	f->ack_dev[0] = '\0';
	pthread_mutex_unlock(&f->lock);
	if (f->o.standalone) {
		pthread_mutex_lock(&f->model->lock);
		n = sticky_ack(f->model, dev, port, "fabtop", (uint64_t)(feed_now() * 1e9));
		pthread_mutex_unlock(&f->model->lock);
		if (n < 0)
			snprintf(why, sizeof(why), "no port %s/%u", dev, port);
	} else {
		n = post_ack(f, dev, port, why, sizeof(why));
	}
	pthread_mutex_lock(&f->lock);
	f->st.notice_bad = n < 0;
	if (n < 0)
		snprintf(f->st.notice, sizeof(f->st.notice), "%s/%u not acknowledged: %s", dev, port,
			 why);
	else
		snprintf(f->st.notice, sizeof(f->st.notice),
			 "%s/%u acknowledged: %d recent fault%s cleared", dev, port, n, n == 1 ? "" : "s");
	f->st.notice_at = feed_now();
}
