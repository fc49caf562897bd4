/* SPDX-License-Identifier: GPL-2.0 */
/*
 * http_xfer.h - what fabtop's two HTTP clients share (fabteld's API,
 * feed_http.c; Prometheus's, promq.c): an answer's body grown up to a cap,
 * and one transfer on a multi handle that a flag set by another thread
 * ends (curl_multi_wakeup wakes the poll).
 */
#ifndef FABTOP_HTTP_XFER_H
#define FABTOP_HTTP_XFER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <curl/curl.h>

struct http_body {
	char *p;		/* NUL-terminated; the caller frees it */
	size_t len, cap;
	size_t max;		/* the cap: a longer answer fails the transfer */
	bool too_big;		/* ... and is why */
};

/* CURLOPT_WRITEFUNCTION with CURLOPT_WRITEDATA a struct http_body. */
size_t http_body_write(char *data, size_t size, size_t n, void *arg);

/*
 * curl's transfer on multi until it ends or *stop is set (then
 * CURLE_ABORTED_BY_CALLBACK; CURLE_FAILED_INIT when curl cannot be
 * added); curl is added and removed again.
 */
CURLcode http_multi_perform(CURLM *multi, CURL *curl, atomic_bool *stop);

#endif /* FABTOP_HTTP_XFER_H */
