// SPDX-License-Identifier: GPL-2.0
/*
 * http.c - fabteld's HTTP side (see http.h).
 *
 * libmicrohttpd runs one internal thread (epoll); a handler takes the
 * model's lock only to build the response from memory (http_reply.c).  Who
 * may connect and for how long is http_guard.c's (max_connections, request
 * and response deadlines, the caps on large responses and long polls,
 * fabtel_http_rejected_total).  Limits here: 16 KiB per
 * connection for the request (bigger headers get 431), 10 s idle timeout,
 * request bodies refused (413), strict HTTP parsing (HTTP/1.1 without Host:
 * 400).
 *
 * Long polls: /api/v1/events?since=N&wait=S parks the connection
 * (MHD_suspend_connection) until an event after N is logged or S seconds
 * (at most MAX_WAIT_S) have passed.  The collector tells us of each event
 * (model.on_event, under the model's lock); a waker thread resumes the
 * connections whose wait is over.  Lock order: the model's, then wlock.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <netdb.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>
#include <microhttpd.h>

#include "clock.h"
#include "expo.h"
#include "http.h"
#include "http_guard.h"
#include "http_reply.h"
#include "http_web.h"
#include "render.h"
#include "render_probes.h"

#define MEMORY_LIMIT	16384
#define IDLE_TIMEOUT_S	10
#define MAX_WAIT_S	30

/* A parked long poll; the connection's state from then on, freed on completion. */
struct waiter {
	struct MHD_Connection *c;
	uint64_t since;
	uint64_t deadline_ns;		/* CLOCK_MONOTONIC */
	struct waiter *next;
};

struct http {
	struct MHD_Daemon *d;
	struct guard *g;
	struct model *m;
	const struct config *cfg;
	struct prober *pr;		/* NULL: probing off */
	struct web *web;		/* NULL: plain HTTP, no auth */
	struct replier rep;		/* libmicrohttpd's thread's */
	/* long polls, under wlock */
	pthread_mutex_t wlock;
	pthread_cond_t wcond;
	struct waiter *waiters;		/* parked */
	unsigned int parked;		/* suspended and not yet answered */
	uint64_t next_seq;		/* the model's, as on_event last told */
	uint64_t waker_until;		/* when the waker wakes; UINT64_MAX: not before told */
	bool stopping;
	pthread_t waker;
	bool waker_running;
};

static int marker;

static void poke_waker(struct http *h, struct MHD_Connection *c);

#define JOBS_PREFIX	"/api/v1/jobs/"
#define RECORDS_PREFIX	"/api/v1/records"
#define ACK_PATH	"/api/v1/ack"

/* /api/v1/jobs/<id>/trace: rest is "<id>/trace" */
static enum MHD_Result job_trace(struct http *h, struct MHD_Connection *c, const char *rest)
{
	char id[JOB_ID_LEN];
	struct json_object *o;
	size_t n = strcspn(rest, "/");

	if (n == 0 || strcmp(rest + n, "/trace"))
		return reply_text(c, MHD_HTTP_NOT_FOUND,
				  "not found: want /api/v1/jobs/<job_id>/trace\n");
	if (n >= sizeof(id))
		return reply_text(c, MHD_HTTP_NOT_FOUND, "no such job (see /api/v1/jobs)\n");
	memcpy(id, rest, n);
	id[n] = '\0';
	pthread_mutex_lock(&h->m->lock);
	o = render_trace(h->m, id);
	pthread_mutex_unlock(&h->m->lock);
	if (!o)
		return reply_text(c, MHD_HTTP_NOT_FOUND, "no such job (see /api/v1/jobs)\n");
	return reply_json(&h->rep, c, o);
}

/* /api/v1/history[?since=UNIX_SECONDS][&seconds=N] (render_history.c) */
static enum MHD_Result history(struct http *h, struct MHD_Connection *c)
{
	const char *arg = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "since");
	unsigned long long seconds = 300;
	struct json_object *o;
	double since = 0;
	char *end;

	/* as render_history makes it ns: below 2^64 (18446744073.709551615 s) */
	if (arg) {
		errno = 0;
		since = strtod(arg, &end);
		if (!isdigit((unsigned char)arg[0]) || *end || errno ||
		    !(since * NS_PER_S < 0x1p64))
			return reply_text(c, MHD_HTTP_BAD_REQUEST, "since: want Unix seconds\n");
	}
	if (reply_arg_u64(c, "seconds", 3600, &seconds) || !seconds)
		return reply_text(c, MHD_HTTP_BAD_REQUEST,
				  "seconds: want whole seconds, 1 to 3600\n");
	pthread_mutex_lock(&h->m->lock);
	o = render_history(h->m, since, (unsigned int)seconds);
	pthread_mutex_unlock(&h->m->lock);
	return reply_json(&h->rep, c, o);
}

/* /api/v1/events[?since=SEQ][&wait=SECONDS] */
static enum MHD_Result events(struct http *h, struct MHD_Connection *c, void **state)
{
	unsigned long long since = 0, wait = 0;
	struct waiter *w = *state != &marker ? *state : NULL;
	struct json_object *o;
	uint64_t next;

	if (w) {		/* resumed */
		pthread_mutex_lock(&h->wlock);
		h->parked--;
		pthread_mutex_unlock(&h->wlock);
		guard_unpark(h->g, c);
		poke_waker(h, c);	/* its response deadline */
		since = w->since;
		goto answer;
	}
	if (reply_arg_u64(c, "since", ULLONG_MAX - 1, &since))
		return reply_text(c, MHD_HTTP_BAD_REQUEST,
				  "since: want an event sequence number\n");
	if (reply_arg_u64(c, "wait", MAX_WAIT_S, &wait))
		return reply_text(c, MHD_HTTP_BAD_REQUEST, "wait: want whole seconds, 0 to 30\n");
	pthread_mutex_lock(&h->m->lock);
	next = h->m->next_event_seq ? h->m->next_event_seq : 1;
	pthread_mutex_unlock(&h->m->lock);
	/* nothing new yet, and since is one of ours (not a restarted fabteld's) */
	if (wait && next == since + 1) {
		if (guard_park(h->g, c))
			return reply_text(c, MHD_HTTP_TOO_MANY_REQUESTS,
				"too many long polls waiting: retry, or poll without wait\n");
		w = calloc(1, sizeof(*w));
		if (!w) {
			guard_unpark(h->g, c);
			return reply_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
		}
		w->c = c;
		w->since = since;
		w->deadline_ns = clock_ns(CLOCK_MONOTONIC) + wait * NS_PER_S;
		pthread_mutex_lock(&h->wlock);
		if (!h->stopping) {
			*state = w;
			w->next = h->waiters;
			h->waiters = w;
			h->parked++;
			MHD_suspend_connection(c);
			pthread_cond_signal(&h->wcond);
			w = NULL;
		}
		pthread_mutex_unlock(&h->wlock);
		if (!w)
			return MHD_YES;
		free(w);
		guard_unpark(h->g, c);
	}
answer:
	pthread_mutex_lock(&h->m->lock);
	o = render_events(h->m, since);
	pthread_mutex_unlock(&h->m->lock);
	return reply_json(&h->rep, c, o);
}

/*
 * URL decoding (path and query): a %00 would make a C string end early, so
 * "/metrics%00junk" would be served as "/metrics".  It is left undecoded
 * here and refused with 400 by has_nul_escape().
 */
static size_t unescape(void *cls, struct MHD_Connection *c, char *s)
{
	(void)cls;
	(void)c;
	if (strstr(s, "%00"))
		return strlen(s);
	return MHD_http_unescape(s);
}

static enum MHD_Result arg_nul(void *cls, enum MHD_ValueKind kind, const char *key,
			       const char *value)
{
	bool *found = cls;

	(void)kind;
	if (strstr(key, "%00") || (value && strstr(value, "%00"))) {
		*found = true;
		return MHD_NO;
	}
	return MHD_YES;
}

static bool has_nul_escape(struct MHD_Connection *c, const char *url)
{
	bool found = strstr(url, "%00") != NULL;

	if (!found)
		MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, arg_nul, &found);
	return found;
}

/* /metrics: the scrape, never refused for its size (http_guard.h) */
static enum MHD_Result metrics(struct http *h, struct MHD_Connection *c, uint64_t start)
{
	struct expo e;

	expo_init(&e);
	pthread_mutex_lock(&h->m->lock);
	render_metrics(h->m, &e, start);
	pthread_mutex_unlock(&h->m->lock);
	render_probe_families(h->pr, &e);
	guard_metrics(h->g, &e);
	if (e.oom || !e.buf) {
		expo_free(&e);
		return reply_text(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
	}
	return reply_large(&h->rep, c, "text/plain; version=0.0.4; charset=utf-8", e.buf, e.len,
			   MHD_RESPMEM_MUST_FREE, true);
}

/* /api/v1/...: JSON, some of it large (503 while too many large ones are in flight) */
static enum MHD_Result api(struct http *h, struct MHD_Connection *c, const char *url,
			   void **state)
{
	struct json_object *o;

	if (reply_refuse_early(&h->rep, c, url))
		return reply_busy(c);
	if (!strcmp(url, "/api/v1/snapshot") || !strcmp(url, "/api/v1/jobs")) {
		pthread_mutex_lock(&h->m->lock);
		o = !strcmp(url, "/api/v1/jobs") ? render_jobs(h->m) : render_snapshot(h->m);
		pthread_mutex_unlock(&h->m->lock);
		return reply_json(&h->rep, c, o);
	}
	if (!strcmp(url, "/api/v1/probes"))
		return reply_json(&h->rep, c, render_probes(h->pr));
	if (!strcmp(url, "/api/v1/probe/endpoints")) {
		if (!h->pr)
			return reply_text(c, MHD_HTTP_NOT_FOUND, "probing is off on this host\n");
		return reply_json(&h->rep, c, render_probe_endpoints(h->pr));
	}
	if (!strcmp(url, "/api/v1/events"))
		return events(h, c, state);
	if (!strcmp(url, "/api/v1/history"))
		return history(h, c);
	if (!strncmp(url, RECORDS_PREFIX, strlen(RECORDS_PREFIX)))
		return http_records(h->m, &h->rep, c, url + strlen(RECORDS_PREFIX));
	if (!strncmp(url, JOBS_PREFIX, strlen(JOBS_PREFIX)))
		return job_trace(h, c, url + strlen(JOBS_PREFIX));
	return reply_text(c, MHD_HTTP_NOT_FOUND, "not found\n");
}

/* POST /api/v1/ack: with users configured, the (checked) user acknowledges */
static enum MHD_Result ack(struct http *h, struct MHD_Connection *c, const char *method)
{
	char *user = h->cfg->nr_users ? MHD_basic_auth_get_username_password(c, NULL) : NULL;
	enum MHD_Result ret;

	ret = http_ack(h->m, &h->rep, c, method, h->cfg->nr_users ? (user ? user : "?") : NULL);
	MHD_free(user);
	return ret;
}

/* ready: sampling (Prometheus's /-/ready; /healthz as before) */
static enum MHD_Result ready(struct http *h, struct MHD_Connection *c)
{
	struct timespec ts;
	uint64_t age;

	clock_gettime(CLOCK_REALTIME, &ts);
	pthread_mutex_lock(&h->m->lock);
	age = h->m->samples ? (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000 -
			      h->m->sample_ns / 1000000 : UINT64_MAX;
	pthread_mutex_unlock(&h->m->lock);
	if (age > 3ULL * h->cfg->interval_ms + 2000)
		return reply_text(c, MHD_HTTP_SERVICE_UNAVAILABLE, "stale: no recent sample\n");
	return reply_text(c, MHD_HTTP_OK, "ok\n");
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_size, void **state)
{
	struct http *h = cls;
	uint64_t start = clock_ns(CLOCK_MONOTONIC);

	(void)version;
	(void)upload;
	h->rep.key = 0;		/* remembered only by reply_refuse_early */
	if (*state != NULL && *state != &marker)
		return events(h, c, state);	/* a long poll resumed */
	if (*state == NULL) {
		*state = &marker;	/* headers in: refuse a body before it comes */
		guard_request_in(h->g, c);
		if (MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						MHD_HTTP_HEADER_TRANSFER_ENCODING) ||
		    (MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						 MHD_HTTP_HEADER_CONTENT_LENGTH) &&
		     strcmp(MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							MHD_HTTP_HEADER_CONTENT_LENGTH), "0")))
			return reply_text(c, MHD_HTTP_CONTENT_TOO_LARGE,
					  "request bodies are not accepted\n");
		return MHD_YES;
	}
	if (*upload_size) {
		*upload_size = 0;
		return reply_text(c, MHD_HTTP_CONTENT_TOO_LARGE,
				  "request bodies are not accepted\n");
	}
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD) &&
	    (strcmp(method, MHD_HTTP_METHOD_POST) || strcmp(url, ACK_PATH)))
		return reply_text(c, MHD_HTTP_METHOD_NOT_ALLOWED,
				  "only GET and HEAD (and POST " ACK_PATH ")\n");
	if (has_nul_escape(c, url))
		return reply_text(c, MHD_HTTP_BAD_REQUEST, "a NUL byte (%00) in the URL\n");

	/* the health checks hold no data: open, for the kubelet's probes and the like */
	if (!strcmp(url, "/-/healthy"))	/* the process answers (Prometheus's name) */
		return reply_text(c, MHD_HTTP_OK, "Healthy\n");
	if (!strcmp(url, "/healthz") || !strcmp(url, "/-/ready"))
		return ready(h, c);
	if (h->web && !web_auth_ok(h->web, c))
		return web_auth_fail(c);
	if (!strcmp(url, ACK_PATH))
		return ack(h, c, method);
	if (!strcmp(url, "/metrics"))
		return metrics(h, c, start);
	if (!strncmp(url, "/api/", 5))
		return api(h, c, url, state);
	if (!strcmp(url, "/"))
		return reply_text(c, MHD_HTTP_OK,
				  "fabteld: /metrics /api/v1/snapshot /api/v1/jobs /api/v1/jobs/<id>/trace /api/v1/events /api/v1/history /api/v1/records /api/v1/probes /api/v1/probe/endpoints /healthz /-/healthy /-/ready; POST /api/v1/ack\n");
	return reply_text(c, MHD_HTTP_NOT_FOUND, "not found\n");
}

/* the collector logged an event (model lock held) */
static void on_event(void *arg, uint64_t next_seq)
{
	struct http *h = arg;

	pthread_mutex_lock(&h->wlock);
	h->next_seq = next_seq;
	if (h->waiters)
		pthread_cond_signal(&h->wcond);
	pthread_mutex_unlock(&h->wlock);
}

/*
 * Resume the parked polls that have an event or whose time is up, and let
 * the guard close what overstayed.  With nothing due it sleeps until told
 * (an idle fabteld wakes once a second, to sample, not twice): a new
 * connection or an answer sets a deadline, and poke_waker wakes it when that
 * comes before the one it sleeps to.
 */
static void *waker(void *arg)
{
	struct http *h = arg;
	struct waiter **pp, *w;
	struct timespec ts;
	uint64_t now, first;

	pthread_mutex_lock(&h->wlock);
	while (!h->stopping) {
		now = clock_ns(CLOCK_MONOTONIC);
		first = guard_reap(h->g, now);
		for (pp = &h->waiters; (w = *pp);) {
			if (h->next_seq > w->since + 1 || now >= w->deadline_ns) {
				*pp = w->next;
				MHD_resume_connection(w->c);
				continue;
			}
			if (w->deadline_ns < first)
				first = w->deadline_ns;
			pp = &w->next;
		}
		h->waker_until = first;
		if (first == UINT64_MAX) {
			pthread_cond_wait(&h->wcond, &h->wlock);
			continue;
		}
		ts.tv_sec = (time_t)(first / NS_PER_S);
		ts.tv_nsec = (long)(first % NS_PER_S);
		pthread_cond_timedwait(&h->wcond, &h->wlock, &ts);
	}
	pthread_mutex_unlock(&h->wlock);
	return NULL;
}

/* c has a new deadline (the guard's): wake the waker if it sleeps past it. */
static void poke_waker(struct http *h, struct MHD_Connection *c)
{
	uint64_t due = guard_due(h->g, c);

	pthread_mutex_lock(&h->wlock);
	if (due < h->waker_until)
		pthread_cond_signal(&h->wcond);
	pthread_mutex_unlock(&h->wlock);
}

static void notify(void *cls, struct MHD_Connection *c, void **socket_context,
		   enum MHD_ConnectionNotificationCode code)
{
	struct http *h = cls;

	guard_notify(h->g, c, socket_context, code);
	if (code == MHD_CONNECTION_NOTIFY_STARTED)
		poke_waker(h, c);
}

static void completed(void *cls, struct MHD_Connection *c, void **state,
		      enum MHD_RequestTerminationCode why)
{
	struct http *h = cls;

	guard_request_done(h->g, c, why == MHD_REQUEST_TERMINATED_TIMEOUT_REACHED);
	poke_waker(h, c);
	if (*state && *state != &marker)
		free(*state);
	*state = NULL;
}

static void log_error(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	fputs("fabteld: http: ", stderr);
	vfprintf(stderr, fmt, ap);
}

/* libmicrohttpd on ai, h's callbacks and limits; NULL if it cannot listen */
static struct MHD_Daemon *start_mhd(struct http *h, const struct addrinfo *ai)
{
	/* HTTPS: the key and certificate (PEM, in memory), else nothing */
	struct MHD_OptionItem tls[3] = {
		{ MHD_OPTION_END, 0, NULL }, { MHD_OPTION_END, 0, NULL }, { MHD_OPTION_END, 0, NULL },
	};
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG |
			     MHD_ALLOW_SUSPEND_RESUME;

	if (ai->ai_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	if (h->web && h->web->cert_pem) {
		flags |= MHD_USE_TLS;
		tls[0] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0, h->web->key_pem };
		tls[1] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0, h->web->cert_pem };
	}
	return MHD_start_daemon(flags, (uint16_t)h->cfg->listen_port, guard_accept, h->g, handle, h,
				MHD_OPTION_EXTERNAL_LOGGER, log_error, NULL,
				MHD_OPTION_SOCK_ADDR, ai->ai_addr,
				MHD_OPTION_CONNECTION_LIMIT, guard_mhd_limit(h->g),
				MHD_OPTION_NOTIFY_CONNECTION, notify, h,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)MEMORY_LIMIT,
				MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)IDLE_TIMEOUT_S,
				MHD_OPTION_STRICT_FOR_CLIENT, (int)1,
				MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,
				MHD_OPTION_NOTIFY_COMPLETED, completed, h,
				MHD_OPTION_ARRAY, tls,
				MHD_OPTION_END);
}

struct http *http_start(struct model *m, const struct config *cfg, struct prober *pr,
			struct web *web, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_flags = AI_NUMERICHOST | AI_PASSIVE,
				  .ai_socktype = SOCK_STREAM };
	struct addrinfo *ai = NULL;
	pthread_condattr_t ca;
	char port[8];
	struct http *h;
	int rc;

	h = calloc(1, sizeof(*h));
	if (!h) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	h->m = m;
	h->pr = pr;
	h->web = web;
	h->cfg = cfg;
	h->waker_until = UINT64_MAX;
	h->g = guard_new(cfg->max_connections, cfg->response_timeout_s);
	if (!h->g) {
		snprintf(err, errlen, "out of memory");
		free(h);
		return NULL;
	}
	h->rep.g = h->g;
	pthread_mutex_init(&h->wlock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&h->wcond, &ca);
	pthread_condattr_destroy(&ca);
	snprintf(port, sizeof(port), "%u", cfg->listen_port);
	rc = getaddrinfo(cfg->listen_addr, port, &hints, &ai);
	if (rc) {
		snprintf(err, errlen, "listen address '%s': %s", cfg->listen_addr, gai_strerror(rc));
		goto free_h;
	}
	h->d = start_mhd(h, ai);
	if (!h->d) {
		snprintf(err, errlen, "cannot listen on %s:%u (in use? see above)",
			 cfg->listen_addr, cfg->listen_port);
		goto free_ai;
	}
	freeaddrinfo(ai);
	if (pthread_create(&h->waker, NULL, waker, h)) {
		snprintf(err, errlen, "cannot start a thread");
		goto stop_daemon;
	}
	h->waker_running = true;
	pthread_mutex_lock(&m->lock);
	h->next_seq = m->next_event_seq ? m->next_event_seq : 1;
	m->on_event_arg = h;
	m->on_event = on_event;
	pthread_mutex_unlock(&m->lock);
	return h;

stop_daemon:
	MHD_stop_daemon(h->d);
	goto free_h;
free_ai:
	freeaddrinfo(ai);
free_h:
	pthread_cond_destroy(&h->wcond);
	pthread_mutex_destroy(&h->wlock);
	guard_free(h->g);
	free(h);
	return NULL;
}

void http_stop(struct http *h)
{
	struct waiter *w;
	int i;

	if (!h)
		return;
	pthread_mutex_lock(&h->m->lock);
	h->m->on_event = NULL;
	pthread_mutex_unlock(&h->m->lock);
	pthread_mutex_lock(&h->wlock);
	h->stopping = true;
	pthread_cond_signal(&h->wcond);
	pthread_mutex_unlock(&h->wlock);
	if (h->waker_running)
		pthread_join(h->waker, NULL);
	/* MHD must not be stopped with connections suspended: answer them first */
	pthread_mutex_lock(&h->wlock);
	while ((w = h->waiters)) {
		h->waiters = w->next;
		MHD_resume_connection(w->c);
	}
	for (i = 0; h->parked && i < 100; i++) {	/* at most 1 s: stop.c's grace */
		pthread_mutex_unlock(&h->wlock);
		nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
		pthread_mutex_lock(&h->wlock);
	}
	pthread_mutex_unlock(&h->wlock);
	MHD_stop_daemon(h->d);
	pthread_cond_destroy(&h->wcond);
	pthread_mutex_destroy(&h->wlock);
	guard_free(h->g);
	free(h);
}
