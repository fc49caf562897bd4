// SPDX-License-Identifier: GPL-2.0
/*
 * http_xfer.c - the body and transfer helpers of fabtop's HTTP clients
 * (http_xfer.h).
 */
#include <stdlib.h>
#include <string.h>

#include "http_xfer.h"

size_t http_body_write(char *data, size_t size, size_t n, void *arg)
{
	struct http_body *b = arg;
	size_t len = size * n, cap;
	char *p;

	if (b->len + len + 1 > b->max) {
		b->too_big = true;
		return 0;
	}
	if (b->len + len + 1 > b->cap) {
		for (cap = b->cap ? b->cap : 65536; cap < b->len + len + 1; cap *= 2)
			;
		p = realloc(b->p, cap);
		if (!p)
			return 0;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, len);
	b->len += len;
	b->p[b->len] = '\0';
	return len;
}

CURLcode http_multi_perform(CURLM *multi, CURL *curl, atomic_bool *stop)
{
	CURLcode rc = CURLE_ABORTED_BY_CALLBACK;
	int running = 1, left;
	CURLMsg *m;

	if (atomic_load(stop))
		return CURLE_ABORTED_BY_CALLBACK;
	if (curl_multi_add_handle(multi, curl))
		return CURLE_FAILED_INIT;
	while (running && !atomic_load(stop)) {
		if (curl_multi_perform(multi, &running) != CURLM_OK)
			break;
		if (running)
			curl_multi_poll(multi, NULL, 0, 1000, NULL);
	}
	while ((m = curl_multi_info_read(multi, &left)))
		if (m->msg == CURLMSG_DONE)
			rc = m->data.result;
	curl_multi_remove_handle(multi, curl);
	return rc;
}
