// SPDX-License-Identifier: GPL-2.0
/*
 * probe_fetch.c - the fetcher thread (prober.h): reads each peer fabteld's
 * endpoint document every probe_refresh_s, sooner when the prober asks, and
 * the peers file when it changes (libcurl opened when the prober starts:
 * probe_curl.c).  Nothing it receives is more than data: parsed by
 * probe_doc.c, refused whole when anything in it is off (probe_xfer.c).
 *
 * A round fetches every source at once with libcurl's multi interface, up
 * to FETCH_MAX_INFLIGHT transfers in flight, each bounded by its own
 * timeout: sources that do not answer cost a round FETCH_TIMEOUT_MS per
 * FETCH_MAX_INFLIGHT of them, not FETCH_TIMEOUT_MS each, so live peers are
 * read again well within probe_peer_ttl_s however many are dead.  The lock
 * is taken only to copy the source list and to write each verdict back,
 * never while libcurl works; prober_stop() wakes the wait for transfers
 * (probe_fetch_wake), and the transfers in flight are dropped unfinished.
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
#include "probe_xfer.h"
#include "prober.h"
#include "text.h"

#define FETCH_TIMEOUT_MS	2000
#define FETCH_CONNECT_MS	1000
/*
 * Half of PROBE_MAX_SOURCES: a full table of dead sources takes two
 * timeouts, and a fetcher holds at most 64 sockets and libcurl handles.
 */
#define FETCH_MAX_INFLIGHT	64
/* libcurl's own timers and probe_fetch_wake() end a wait sooner */
#define FETCH_POLL_MS		1000
/* between two rounds' starts, however often the prober asks */
#define FETCH_GAP_NS		(2 * NS_PER_S)

static const char *const fetch_err_names[FETCH_ERR_NR] = {
	[FETCH_CONNECT] = "connect", [FETCH_HTTP] = "http_status",
	[FETCH_TOO_LARGE] = "too_large", [FETCH_BAD_DOCUMENT] = "bad_document",
};

/* a transfer in flight */
struct slot {
	CURL *c;			/* NULL: free */
	char addr[PROBE_ADDR_LEN];
	struct probe_body body;
	char errbuf[CURL_ERROR_SIZE];
};

struct fetcher {
	struct prober *pr;
	CURLM *multi;
	char addrs[PROBE_MAX_SOURCES][PROBE_ADDR_LEN];	/* this round's sources */
	unsigned int nr, next, busy;
	struct slot slots[FETCH_MAX_INFLIGHT];
	struct probe_verdict v;
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

static size_t on_data(char *p, size_t size, size_t n, void *arg)
{
	struct probe_body *b = arg;

	/* short: libcurl ends the transfer with a write error (probe_xfer_judge) */
	return probe_body_add(b, p, size * n) ? size * n : 0;
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

/* HTTP, or HTTPS against the configured CA; basic auth if set; no redirect */
static void xfer_setopts(CURL *c, const struct probe_cfg *cfg, struct slot *s, const char *url)
{
	bool tls = cfg->tls_ca_file[0];

	pcurl.easy_setopt(c, CURLOPT_URL, url);
	pcurl.easy_setopt(c, CURLOPT_PROTOCOLS_STR, tls ? "https" : "http");
	pcurl.easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, tls ? "https" : "http");
	pcurl.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	pcurl.easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)FETCH_TIMEOUT_MS);
	pcurl.easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, (long)FETCH_CONNECT_MS);
	/* a peer's connection limit is not held by our idle connections */
	pcurl.easy_setopt(c, CURLOPT_FORBID_REUSE, 1L);
	/* a name lookup still running does not hold up the stop (libcurl >= 7.87) */
	pcurl.easy_setopt(c, CURLOPT_QUICK_EXIT, 1L);
	pcurl.easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
	pcurl.easy_setopt(c, CURLOPT_WRITEDATA, &s->body);
	pcurl.easy_setopt(c, CURLOPT_ERRORBUFFER, s->errbuf);
	if (tls) {
		/* the configured CA alone: not the system's store besides */
		pcurl.easy_setopt(c, CURLOPT_CAINFO, cfg->tls_ca_file);
		pcurl.easy_setopt(c, CURLOPT_CAPATH, (char *)NULL);
		pcurl.easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
		pcurl.easy_setopt(c, CURLOPT_SSL_VERIFYHOST, cfg->tls_verify_host ? 2L : 0L);
	}
	if (cfg->auth_user[0]) {
		pcurl.easy_setopt(c, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
		pcurl.easy_setopt(c, CURLOPT_USERNAME, cfg->auth_user);
		pcurl.easy_setopt(c, CURLOPT_PASSWORD, cfg->auth_password);
	}
}

/* the verdict on addr written back (the lock taken for it alone) */
static void xfer_verdict(struct fetcher *f, const char *addr)
{
	pthread_mutex_lock(&f->pr->lock);
	probe_xfer_apply(f->pr, addr, &f->v, clock_ns(CLOCK_MONOTONIC));
	pthread_mutex_unlock(&f->pr->lock);
}

/* the transfer from addr started in a free slot; a failure to start is its verdict */
static void xfer_start(struct fetcher *f, const char *addr)
{
	char url[PROBE_ADDR_LEN + 64];
	struct slot *s = NULL;
	unsigned int i;
	CURL *c;

	for (i = 0; i < FETCH_MAX_INFLIGHT && !s; i++)
		if (!f->slots[i].c)
			s = &f->slots[i];
	c = s && !probe_xfer_url(url, sizeof(url), addr, f->pr->cfg.tls_ca_file[0]) ?
		pcurl.easy_init() : NULL;
	if (c) {
		s->errbuf[0] = '\0';
		xfer_setopts(c, &f->pr->cfg, s, url);
		if (!pcurl.multi_add_handle(f->multi, c)) {
			s->c = c;
			snprintf(s->addr, sizeof(s->addr), "%s", addr);
			f->busy++;
			return;
		}
		pcurl.easy_cleanup(c);
	}
	f->v.err = FETCH_CONNECT;
	f->v.nr_eps = 0;
	snprintf(f->v.why, sizeof(f->v.why), "the transfer could not start (out of memory)");
	xfer_verdict(f, addr);
}

static void slot_free(struct fetcher *f, struct slot *s)
{
	pcurl.multi_remove_handle(f->multi, s->c);
	pcurl.easy_cleanup(s->c);
	s->c = NULL;
	probe_body_free(&s->body);
	f->busy--;
}

/* the finished transfers' verdicts: how many finished */
static unsigned int reap(struct fetcher *f)
{
	unsigned int n = 0, i;
	const char *words;
	CURLMsg *m;
	CURLcode rc;
	long code;
	int left;
	CURL *c;

	while ((m = pcurl.multi_info_read(f->multi, &left))) {
		if (m->msg != CURLMSG_DONE)
			continue;
		c = m->easy_handle;	/* m is gone once the handle is removed */
		rc = m->data.result;
		for (i = 0; i < FETCH_MAX_INFLIGHT && f->slots[i].c != c; i++)
			;
		if (i == FETCH_MAX_INFLIGHT)
			continue;
		code = 0;
		words = NULL;
		if (rc == CURLE_OK)
			pcurl.easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
		else	/* the error buffer says more: which host, how long, which check */
			words = f->slots[i].errbuf[0] ? f->slots[i].errbuf : pcurl.easy_strerror(rc);
		probe_xfer_judge(&f->v, &f->slots[i].body, words, code);
		xfer_verdict(f, f->slots[i].addr);
		slot_free(f, &f->slots[i]);
		n++;
	}
	return n;
}

/* every transfer still in flight ended with why as its verdict, or dropped (why NULL) */
static void abandon(struct fetcher *f, const char *why)
{
	unsigned int i;

	for (i = 0; i < FETCH_MAX_INFLIGHT; i++) {
		if (!f->slots[i].c)
			continue;
		if (why) {
			f->v.err = FETCH_CONNECT;
			f->v.nr_eps = 0;
			snprintf(f->v.why, sizeof(f->v.why), "%s", why);
			xfer_verdict(f, f->slots[i].addr);
		}
		slot_free(f, &f->slots[i]);
	}
}

static bool stopping(struct prober *pr)
{
	bool stop;

	pthread_mutex_lock(&pr->lock);
	stop = pr->stop;
	pthread_mutex_unlock(&pr->lock);
	return stop;
}

/* this round's sources copied, the prober's ask taken; false when stopping */
static bool round_begin(struct fetcher *f)
{
	struct prober *pr = f->pr;
	unsigned int i;

	pthread_mutex_lock(&pr->lock);
	for (i = 0; i < pr->nr_src; i++)
		snprintf(f->addrs[i], PROBE_ADDR_LEN, "%s", pr->src[i].addr);
	f->nr = pr->nr_src;
	f->next = 0;
	pr->refetch = false;	/* asked again during the round: the next one comes sooner */
	pthread_mutex_unlock(&pr->lock);
	return !stopping(pr);
}

/* one round over the sources, all at once (FETCH_MAX_INFLIGHT in flight) */
static void fetch_round(struct fetcher *f)
{
	char why[160];
	CURLMcode mc;
	int running;

	while (!stopping(f->pr)) {
		while (f->busy < FETCH_MAX_INFLIGHT && f->next < f->nr)
			xfer_start(f, f->addrs[f->next++]);
		if (!f->busy)
			return;
		mc = pcurl.multi_perform(f->multi, &running);
		if (mc == CURLM_OK && !reap(f))
			mc = pcurl.multi_poll(f->multi, NULL, 0, FETCH_POLL_MS, NULL);
		if (mc != CURLM_OK) {
			snprintf(why, sizeof(why), "libcurl: %s", pcurl.multi_strerror(mc));
			abandon(f, why);
			return;
		}
	}
	abandon(f, NULL);
}

/* pr->lock held: until at_ns (monotonic), or a signal of fetch_cond */
static void wait_until(struct prober *pr, uint64_t at_ns)
{
	uint64_t now = clock_ns(CLOCK_MONOTONIC), real;
	struct timespec until;

	if (at_ns <= now)
		return;
	/* fetch_cond runs on CLOCK_REALTIME (probe_main.c sets it up) */
	real = clock_ns(CLOCK_REALTIME) + (at_ns - now);
	until.tv_sec = (time_t)(real / NS_PER_S);
	until.tv_nsec = (long)(real % NS_PER_S);
	pthread_cond_timedwait(&pr->fetch_cond, &pr->lock, &until);
}

/*
 * Until the next round: probe_refresh_s after this one began, or when the
 * prober asks (a pair timed out three times: its peer may have a new QP),
 * but not within FETCH_GAP_NS of this one's start.  false when stopping.
 */
static bool round_wait(struct prober *pr, uint64_t start_ns)
{
	uint64_t refresh = start_ns + (uint64_t)pr->cfg.refresh_s * NS_PER_S;
	uint64_t soonest = start_ns + FETCH_GAP_NS, now;
	bool stop;

	pthread_mutex_lock(&pr->lock);
	for (;;) {
		now = clock_ns(CLOCK_MONOTONIC);
		if (pr->stop || now >= refresh || (pr->refetch && now >= soonest))
			break;
		wait_until(pr, pr->refetch ? soonest : refresh);
	}
	stop = pr->stop;
	pthread_mutex_unlock(&pr->lock);
	return !stop;
}

void probe_fetch_wake(struct prober *pr)
{
	pthread_mutex_lock(&pr->lock);
	if (pr->fetch_multi)
		pcurl.multi_wakeup(pr->fetch_multi);
	pthread_mutex_unlock(&pr->lock);
}

void *probe_fetch_thread(void *arg)
{
	struct prober *pr = arg;
	struct timespec mtime = { 0, 0 };
	struct fetcher *f = calloc(1, sizeof(*f));
	uint64_t start;

	if (!f)
		return NULL;
	f->pr = pr;
	f->multi = pcurl.multi_init();
	pthread_mutex_lock(&pr->lock);
	pr->fetch_multi = f->multi;	/* probe_fetch_wake() may use it from now */
	pthread_mutex_unlock(&pr->lock);
	while (f->multi) {
		read_peers_file(pr, &mtime);
		start = clock_ns(CLOCK_MONOTONIC);
		if (!round_begin(f))
			break;
		fetch_round(f);
		pthread_mutex_lock(&pr->lock);
		pr->fetch_round_ns = clock_ns(CLOCK_MONOTONIC) - start;
		pthread_mutex_unlock(&pr->lock);
		if (!round_wait(pr, start))
			break;
	}
	pthread_mutex_lock(&pr->lock);
	pr->fetch_multi = NULL;
	pthread_mutex_unlock(&pr->lock);
	if (f->multi)
		pcurl.multi_cleanup(f->multi);
	free(f);
	return NULL;
}
