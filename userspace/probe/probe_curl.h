/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe_curl.h - libcurl, loaded when the prober starts (probe_curl.c).
 */
#ifndef FABTEL_PROBE_CURL_H
#define FABTEL_PROBE_CURL_H

#include <stddef.h>
#include <curl/curl.h>

struct probe_curl {
	CURLcode (*global_init)(long flags);
	void (*global_cleanup)(void);
	CURL *(*easy_init)(void);
	void (*easy_cleanup)(CURL *c);
	CURLcode (*easy_setopt)(CURL *c, CURLoption opt, ...);
	CURLcode (*easy_getinfo)(CURL *c, CURLINFO info, ...);
	const char *(*easy_strerror)(CURLcode rc);
	/* the multi interface: a round's transfers at once (probe_fetch.c) */
	CURLM *(*multi_init)(void);
	CURLMcode (*multi_cleanup)(CURLM *m);
	CURLMcode (*multi_add_handle)(CURLM *m, CURL *c);
	CURLMcode (*multi_remove_handle)(CURLM *m, CURL *c);
	CURLMcode (*multi_perform)(CURLM *m, int *running);
	CURLMcode (*multi_poll)(CURLM *m, struct curl_waitfd *fds, unsigned int nfds,
				int timeout_ms, int *numfds);
	CURLMcode (*multi_wakeup)(CURLM *m);
	CURLMsg *(*multi_info_read)(CURLM *m, int *left);
	const char *(*multi_strerror)(CURLMcode rc);
};

/* set while loaded: between a probe_curl_open() that returned 0 and probe_curl_close() */
extern struct probe_curl pcurl;

/* 0, or -1 with why (the loader's message) */
int probe_curl_open(char *why, size_t len);
void probe_curl_close(void);

#endif
