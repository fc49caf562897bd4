// SPDX-License-Identifier: GPL-2.0
/*
 * probe_fetch.c - the fetcher thread (prober.h): reads each peer fabteld's
 * endpoint document (libcurl, HTTP only, bounded size and time) every
 * probe_refresh_s, sooner when the prober asks, and the peers file when it
 * changes (libcurl opened when the prober starts: probe_curl.c).  Nothing it receives is more than data: parsed by probe_doc.c,
 * refused whole when anything in it is off.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "clock.h"
#include "probe_curl.h"
#include "prober.h"
#include "text.h"

#define FETCH_TIMEOUT_MS	2000
#define FETCH_CONNECT_MS	1000

static const char *const fetch_err_names[FETCH_ERR_NR] = {
	[FETCH_CONNECT] = "connect", [FETCH_HTTP] = "http_status",
	[FETCH_TOO_LARGE] = "too_large", [FETCH_BAD_DOCUMENT] = "bad_document",
};

/* libcurl, opened now (probe_curl.c) */
int probe_fetch_init(char *why, size_t len)
{
	return probe_curl_open(why, len);
}

void probe_fetch_exit(void)
{
	probe_curl_close();
}

const char *probe_fetch_err_name(enum probe_fetch_err e)
{
	return e < FETCH_ERR_NR ? fetch_err_names[e] : "?";
}

struct body {
	char data[PROBE_DOC_MAX];
	size_t len;
	bool too_big;
};

static size_t on_data(char *p, size_t size, size_t n, void *arg)
{
	struct body *b = arg;
	size_t len = size * n;

	if (len > sizeof(b->data) - b->len) {
		b->too_big = true;
		return 0;	/* curl stops with a write error */
	}
	memcpy(b->data + b->len, p, len);
	b->len += len;
	return len;
}

/* -1 (taken: eps, *n), or why not */
static int fetch_one(CURL *c, const char *addr, struct body *b, struct probe_endpoint *eps,
		     unsigned int *n, char *why, size_t whylen)
{
	char url[PROBE_ADDR_LEN + 64];
	const char *perr;
	long code = 0;
	CURLcode rc;
	int k;

	snprintf(url, sizeof(url), "http://%s/api/v1/probe/endpoints", addr);
	b->len = 0;
	b->too_big = false;
	pcurl.easy_reset(c);
	pcurl.easy_setopt(c, CURLOPT_URL, url);
	pcurl.easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http");
	pcurl.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	pcurl.easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)FETCH_TIMEOUT_MS);
	pcurl.easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, (long)FETCH_CONNECT_MS);
	pcurl.easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	pcurl.easy_setopt(c, CURLOPT_WRITEDATA, b);
	rc = pcurl.easy_perform(c);
	if (b->too_big) {
		snprintf(why, whylen, "document over %d bytes", PROBE_DOC_MAX);
		return FETCH_TOO_LARGE;
	}
	if (rc != CURLE_OK) {
		snprintf(why, whylen, "%s", pcurl.easy_strerror(rc));
		return FETCH_CONNECT;
	}
	pcurl.easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	if (code != 200) {
		snprintf(why, whylen, "HTTP status %ld", code);
		return FETCH_HTTP;
	}
	k = probe_doc_parse(b->data, b->len, eps, PROBE_SRC_EPS, &perr);
	if (k < 0) {
		snprintf(why, whylen, "bad document: %s", perr);
		return FETCH_BAD_DOCUMENT;
	}
	*n = (unsigned int)k;
	return -1;
}

/* the file's sources replace the file's previous ones (lock not held) */
static void read_peers_file(struct prober *pr, struct timespec *mtime)
{
	static char addrs[PROBE_MAX_SOURCES][PROBE_ADDR_LEN];
	unsigned int n = 0, i, k, lineno = 0, bad = 0, over = 0;
	char line[512], *s;
	struct stat st;
	FILE *f;

	if (!pr->cfg.peers_file[0] || stat(pr->cfg.peers_file, &st) ||
	    (st.st_mtim.tv_sec == mtime->tv_sec && st.st_mtim.tv_nsec == mtime->tv_nsec))
		return;
	*mtime = st.st_mtim;
	f = fopen(pr->cfg.peers_file, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		s = text_trim(line);
		if (!*s || *s == '#')
			continue;
		if (!probe_addr_ok(s)) {
			if (!bad++)
				fprintf(stderr, "fabteld: %s:%u: not HOST:PORT: '%.64s'\n",
					pr->cfg.peers_file, lineno, s);
			continue;
		}
		if (n + pr->cfg.nr_peers >= PROBE_MAX_SOURCES) {
			over++;
			continue;
		}
		snprintf(addrs[n++], PROBE_ADDR_LEN, "%s", s);
	}
	fclose(f);

	pthread_mutex_lock(&pr->lock);
	pr->file_errors += bad;
	pr->sources_over = over;
	/* keep the config's sources and what the file still lists */
	for (i = k = 0; i < pr->nr_src; i++) {
		unsigned int j;
		bool keep = !pr->src[i].from_file;

		for (j = 0; !keep && j < n; j++)
			if (addrs[j][0] && !strcmp(addrs[j], pr->src[i].addr)) {
				keep = true;
				addrs[j][0] = '\0';	/* already there */
			}
		if (keep)
			pr->src[k++] = pr->src[i];
	}
	pr->nr_src = k;
	for (i = 0; i < n && pr->nr_src < PROBE_MAX_SOURCES; i++) {
		if (!addrs[i][0])
			continue;
		memset(&pr->src[pr->nr_src], 0, sizeof(pr->src[0]));
		snprintf(pr->src[pr->nr_src].addr, PROBE_ADDR_LEN, "%s", addrs[i]);
		pr->src[pr->nr_src++].from_file = true;
	}
	pr->src_gen++;
	pthread_mutex_unlock(&pr->lock);
}

/* one round over the sources; the lock is not held while curl works */
static void fetch_round(struct prober *pr, CURL *c, struct body *b)
{
	static struct probe_endpoint eps[PROBE_SRC_EPS];
	char addr[PROBE_ADDR_LEN], why[128];
	unsigned int i, k, n = 0;
	int e;

	for (i = 0;; i++) {
		pthread_mutex_lock(&pr->lock);
		if (i >= pr->nr_src || pr->stop) {
			pthread_mutex_unlock(&pr->lock);
			return;
		}
		snprintf(addr, sizeof(addr), "%s", pr->src[i].addr);
		pthread_mutex_unlock(&pr->lock);

		e = fetch_one(c, addr, b, eps, &n, why, sizeof(why));
		pthread_mutex_lock(&pr->lock);
		for (k = 0; k < pr->nr_src && strcmp(pr->src[k].addr, addr); k++)
			;
		if (e >= 0) {
			pr->fetch_err[e]++;
			if (k < pr->nr_src)
				snprintf(pr->src[k].err, sizeof(pr->src[k].err), "%s", why);
		} else if (k < pr->nr_src) {
			struct probe_source *s = &pr->src[k];

			pr->fetches++;
			if (s->nr_eps != n || memcmp(s->eps, eps, n * sizeof(eps[0])))
				pr->src_gen++;
			memcpy(s->eps, eps, n * sizeof(eps[0]));
			s->nr_eps = n;
			s->ok_ns = clock_ns(CLOCK_MONOTONIC);
			s->err[0] = '\0';
		}
		pthread_mutex_unlock(&pr->lock);
	}
}

void *probe_fetch_thread(void *arg)
{
	struct prober *pr = arg;
	struct timespec mtime = { 0, 0 }, until;
	struct body *b = malloc(sizeof(*b));
	CURL *c = pcurl.easy_init();

	while (b && c) {
		read_peers_file(pr, &mtime);
		fetch_round(pr, c, b);
		pthread_mutex_lock(&pr->lock);
		/* at most a round every 2 s, however often the prober asks */
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 2;
		while (!pr->stop &&
		       pthread_cond_timedwait(&pr->fetch_cond, &pr->lock, &until) != ETIMEDOUT)
			;
		until.tv_sec += pr->cfg.refresh_s > 2 ? pr->cfg.refresh_s - 2 : 0;
		while (!pr->stop && !pr->refetch &&
		       pthread_cond_timedwait(&pr->fetch_cond, &pr->lock, &until) != ETIMEDOUT)
			;
		pr->refetch = false;
		if (pr->stop) {
			pthread_mutex_unlock(&pr->lock);
			break;
		}
		pthread_mutex_unlock(&pr->lock);
	}
	if (c)
		pcurl.easy_cleanup(c);
	free(b);
	return NULL;
}
