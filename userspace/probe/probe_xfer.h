/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe_xfer.h - one transfer of a peer's endpoint document, the parts
 * that need no network: its URL, its body (bounded by PROBE_DOC_MAX), the
 * verdict on what came back, and that verdict written into the source
 * table.  probe_fetch.c drives the transfers with libcurl; these are kept
 * apart so that the unit tests (test_probe) can hold them without it.
 */
#ifndef FABTEL_PROBE_XFER_H
#define FABTEL_PROBE_XFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "prober.h"

/* grown as data comes, so an idle fetcher holds no 64 KiB per transfer */
struct probe_body {
	char *data;
	size_t len, cap;
	bool too_big;			/* more than PROBE_DOC_MAX came */
	bool no_memory;
};

/* n bytes appended: true, or false (too_big or no_memory set) */
bool probe_body_add(struct probe_body *b, const char *p, size_t n);
void probe_body_free(struct probe_body *b);

/* the document's URL on the peer fabteld at addr (HOST:PORT): 0, or -1 if it does not fit */
int probe_xfer_url(char *url, size_t len, const char *addr, bool tls);

struct probe_verdict {
	int err;			/* enum probe_fetch_err, or -1: the document is taken */
	char why[128];			/* err's words */
	unsigned int nr_eps;
	struct probe_endpoint eps[PROBE_SRC_EPS];
};

/*
 * What a finished transfer brought: curl_err is libcurl's words when the
 * transfer failed, NULL when it completed with HTTP status http_code.
 */
void probe_xfer_judge(struct probe_verdict *v, const struct probe_body *b,
		      const char *curl_err, long http_code);

/*
 * The verdict into the source at addr, if it is still listed (pr->lock
 * held): counts, the source's error or its endpoints and ok_ns = now_ns,
 * src_gen moved when its endpoints changed.
 */
void probe_xfer_apply(struct prober *pr, const char *addr, const struct probe_verdict *v,
		      uint64_t now_ns);

#endif /* FABTEL_PROBE_XFER_H */
