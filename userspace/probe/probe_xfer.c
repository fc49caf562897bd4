// SPDX-License-Identifier: GPL-2.0
/*
 * probe_xfer.c - one endpoint-document transfer's bookkeeping (probe_xfer.h):
 * no libcurl here, only what it hands over.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe_xfer.h"

#define BODY_FIRST	4096	/* a document of a few ports fits in the first block */

bool probe_body_add(struct probe_body *b, const char *p, size_t n)
{
	size_t cap;
	char *nd;

	if (n > PROBE_DOC_MAX - b->len) {
		b->too_big = true;
		return false;
	}
	if (b->len + n > b->cap) {
		for (cap = b->cap ? b->cap : BODY_FIRST; cap < b->len + n; cap *= 2)
			;
		if (cap > PROBE_DOC_MAX)
			cap = PROBE_DOC_MAX;
		nd = realloc(b->data, cap);
		if (!nd) {
			b->no_memory = true;
			return false;
		}
		b->data = nd;
		b->cap = cap;
	}
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	return true;
}

void probe_body_free(struct probe_body *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

int probe_xfer_url(char *url, size_t len, const char *addr, bool tls)
{
	int n = snprintf(url, len, "%s://%s/api/v1/probe/endpoints", tls ? "https" : "http", addr);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

void probe_xfer_judge(struct probe_verdict *v, const struct probe_body *b,
		      const char *curl_err, long http_code)
{
	const char *perr;
	int k;

	v->err = -1;
	v->why[0] = '\0';
	v->nr_eps = 0;
	/* before libcurl's words: a body cut short is why it reports a write error */
	if (b->too_big) {
		v->err = FETCH_TOO_LARGE;
		snprintf(v->why, sizeof(v->why), "document over %d bytes", PROBE_DOC_MAX);
		return;
	}
	if (b->no_memory) {
		v->err = FETCH_CONNECT;
		snprintf(v->why, sizeof(v->why), "out of memory for the document");
		return;
	}
	if (curl_err) {
		v->err = FETCH_CONNECT;
		snprintf(v->why, sizeof(v->why), "%s", curl_err);
		return;
	}
	if (http_code != 200) {
		v->err = FETCH_HTTP;
		snprintf(v->why, sizeof(v->why), "HTTP status %ld", http_code);
		return;
	}
	k = probe_doc_parse(b->data ? b->data : "", b->len, v->eps, PROBE_SRC_EPS, &perr);
	if (k < 0) {
		v->err = FETCH_BAD_DOCUMENT;
		snprintf(v->why, sizeof(v->why), "bad document: %s", perr);
		return;
	}
	v->nr_eps = (unsigned int)k;
}

void probe_xfer_apply(struct prober *pr, const char *addr, const struct probe_verdict *v,
		      uint64_t now_ns)
{
	struct probe_source *s = NULL;
	unsigned int k;

	/* the peers file may have changed the table while the transfer ran */
	for (k = 0; k < pr->nr_src; k++)
		if (!strcmp(pr->src[k].addr, addr)) {
			s = &pr->src[k];
			break;
		}
	if (v->err >= 0) {
		if (v->err < FETCH_ERR_NR)
			pr->fetch_err[v->err]++;
		if (s)
			snprintf(s->err, sizeof(s->err), "%s", v->why);
		return;
	}
	if (!s)
		return;
	pr->fetches++;
	if (s->nr_eps != v->nr_eps || memcmp(s->eps, v->eps, v->nr_eps * sizeof(v->eps[0])))
		pr->src_gen++;
	memcpy(s->eps, v->eps, v->nr_eps * sizeof(v->eps[0]));
	s->nr_eps = v->nr_eps;
	s->ok_ns = now_ns;
	s->err[0] = '\0';
}
