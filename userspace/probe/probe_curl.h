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
	void (*easy_reset)(CURL *c);
	CURLcode (*easy_setopt)(CURL *c, CURLoption opt, ...);
	CURLcode (*easy_perform)(CURL *c);
	CURLcode (*easy_getinfo)(CURL *c, CURLINFO info, ...);
	const char *(*easy_strerror)(CURLcode rc);
};

/* set while loaded: between a probe_curl_open() that returned 0 and probe_curl_close() */
extern struct probe_curl pcurl;

/* 0, or -1 with why (the loader's message) */
int probe_curl_open(char *why, size_t len);
void probe_curl_close(void);

#endif
