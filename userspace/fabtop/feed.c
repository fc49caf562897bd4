// SPDX-License-Identifier: GPL-2.0
/*
 * feed.c - fabteld over HTTP, or its collector in-process (see feed.h).
 *
 * HTTP: GET /api/v1/snapshot, /api/v1/jobs and /api/v1/events?since=SEQ
 * with one keep-alive curl handle, 2 s to connect and 2 s in all per
 * request.  An fabteld without /api/v1/events (404) is asked again every
 * EVENTS_RETRY fetches, the events meanwhile derived from the snapshots.
 *
 * Events do not wait for the next fetch: a watcher thread long-polls
 * /api/v1/events?since=SEQ&wait=WATCH_WAIT_S with a handle of its own (curl
 * multi, so feed_stop can wake it) and hands what comes to the fetcher,
 * which publishes a frame at once: the new events over the last fetch's
 * snapshot and jobs (kept as text, parsed again, so no JSON object is
 * shared between threads).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <curl/curl.h>
#include <json-c/json.h>

#include "collect.h"
#include "feed.h"
#include "fjson.h"
#include "render.h"

#define TIMEOUT_MS	2000L
#define MAX_BODY	(256u << 20)
#define EVENTS_RETRY	10
#define WATCH_WAIT_S	5

struct body {
	char *p;
	size_t len, cap;
	bool too_big;
};

struct conn {
	CURL *curl;
	CURLM *multi;			/* the watcher's: a transfer feed_stop can wake */
	char err[CURL_ERROR_SIZE];
};

struct feed {
	struct feed_opts o;
	char url[512];
	char source[600];
	/* the fetching thread's */
	struct conn fetch;
	char *snap_body, *jobs_body;	/* the last fetch's, for frames between fetches */
	struct model *model;		/* standalone */
	struct collect_opts copts;	/* --standalone: the collector's */
	struct digest dg;
	int events_api;			/* -1 unknown, 0 none (404), 1 there */
	unsigned int fetches;
	/* published, under lock */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t thread;
	bool running, stop;
	struct frame *latest;
	struct feed_status st;
	char trace_job[128];		/* a trace export asked for, "" none */
	struct json_object *pending;	/* events the watcher got, for the fetcher */
	uint64_t seen_seq;		/* the newest fabteld event in a frame */
	/* the watcher thread's */
	struct conn watch;
	pthread_t watcher;
	bool watching;
	atomic_bool wstop;
	pthread_cond_t wcond;		/* its pauses between polls */
};

double feed_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

const char *feed_source(const struct feed *f)
{
	return f->source;
}

/* ---- HTTP ---------------------------------------------------------------- */

static size_t on_body(char *data, size_t size, size_t n, void *arg)
{
	struct body *b = arg;
	size_t len = size * n, cap;
	char *p;

	if (b->len + len + 1 > MAX_BODY) {
		b->too_big = true;
		return 0;
	}
	if (b->len + len + 1 > b->cap) {
		cap = b->cap ? b->cap : 65536;
		while (cap < b->len + len + 1)
			cap *= 2;
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

static void set_error(struct feed_status *st, const char *brief, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_error(struct feed_status *st, const char *brief, const char *fmt, ...)
{
	va_list ap;

	st->failing = true;
	snprintf(st->brief, sizeof(st->brief), "%s", brief);
	va_start(ap, fmt);
	vsnprintf(st->error, sizeof(st->error), fmt, ap);
	va_end(ap);
}

/* Why a transfer failed, the way a person says it ("Connection refused"). */
static void transfer_error(struct conn *cn, CURLcode rc, char *why, size_t len)
{
	long os = 0;

	curl_easy_getinfo(cn->curl, CURLINFO_OS_ERRNO, &os);
	if (rc == CURLE_COULDNT_CONNECT && os)
		snprintf(why, len, "%s", strerror((int)os));
	else if (rc == CURLE_OPERATION_TIMEDOUT)
		snprintf(why, len, "no answer within %ld s", TIMEOUT_MS / 1000);
	else
		snprintf(why, len, "%s", cn->err[0] ? cn->err : curl_easy_strerror(rc));
}

/* One transfer on the watcher's handle; feed_stop ends it early. */
static CURLcode watch_perform(struct feed *f)
{
	struct conn *cn = &f->watch;
	CURLcode rc = CURLE_ABORTED_BY_CALLBACK;
	int running = 1, left;
	CURLMsg *msg;

	if (curl_multi_add_handle(cn->multi, cn->curl))
		return CURLE_FAILED_INIT;
	while (running && !f->wstop) {
		if (curl_multi_perform(cn->multi, &running) != CURLM_OK)
			break;
		if (running)
			curl_multi_poll(cn->multi, NULL, 0, 1000, NULL);
	}
	while ((msg = curl_multi_info_read(cn->multi, &left)))
		if (msg->msg == CURLMSG_DONE)
			rc = msg->data.result;
	curl_multi_remove_handle(cn->multi, cn->curl);
	return rc;
}

/*
 * GET path as JSON on cn: 0 and *out (and the text in *text when asked
 * for, the caller's to free); 404 (no such endpoint, *out NULL); -1 when
 * fabteld could not be reached, -2 when it answered something else than
 * JSON; the status says why.
 */
static int http_get(struct feed *f, struct conn *cn, const char *path, struct json_object **out,
		    struct feed_status *st, char **text)
{
	struct body b = { 0 };
	enum json_tokener_error jerr;
	char url[1024], why[256];
	long code = 0;
	CURLcode rc;

	*out = NULL;
	snprintf(url, sizeof(url), "%s%s", f->url, path);
	cn->err[0] = '\0';
	curl_easy_setopt(cn->curl, CURLOPT_URL, url);
	curl_easy_setopt(cn->curl, CURLOPT_WRITEDATA, &b);
	rc = cn->multi ? watch_perform(f) : curl_easy_perform(cn->curl);
	if (rc != CURLE_OK) {
		transfer_error(cn, rc, why, sizeof(why));
		if (b.too_big)
			snprintf(why, sizeof(why), "%s: answer over %u MiB", path, MAX_BODY >> 20);
		set_error(st, "fabteld unreachable", "fabteld at %s unreachable (%s)", f->url, why);
		free(b.p);
		return -1;
	}
	curl_easy_getinfo(cn->curl, CURLINFO_RESPONSE_CODE, &code);
	if (code == 404) {
		free(b.p);
		return 404;
	}
	if (code != 200) {
		set_error(st, "fabteld: bad answer", "fabteld at %s answered HTTP %ld to %s", f->url,
			  code, path);
		free(b.p);
		return -2;
	}
	*out = json_tokener_parse_verbose(b.p ? b.p : "", &jerr);
	if (!*out || !json_object_is_type(*out, json_type_object)) {
		set_error(st, "fabteld: bad JSON", "fabteld at %s: %s is not a JSON object (%s)",
			  f->url, path, *out ? "another type" : json_tokener_error_desc(jerr));
		json_object_put(*out);
		*out = NULL;
		free(b.p);
		return -2;
	}
	if (text)
		*text = b.p;
	else
		free(b.p);
	return 0;
}

static int http_json(struct feed *f, const char *path, struct json_object **out,
		     struct feed_status *st)
{
	return http_get(f, &f->fetch, path, out, st, NULL);
}

static struct frame *fetch_http(struct feed *f, struct feed_status *st)
{
	struct json_object *snap, *jobs, *events = NULL;
	char path[64], *snap_body = NULL, *jobs_body = NULL;
	int rc;

	rc = http_get(f, &f->fetch, "/api/v1/snapshot", &snap, st, &snap_body);
	if (rc == 404)
		set_error(st, "not fabteld", "%s/api/v1/snapshot: 404 (is that fabteld?)", f->url);
	if (rc)
		return NULL;
	rc = http_get(f, &f->fetch, "/api/v1/jobs", &jobs, st, &jobs_body);
	if (rc < 0) {
		json_object_put(snap);
		free(snap_body);
		return NULL;
	}
	free(f->snap_body);
	free(f->jobs_body);
	f->snap_body = snap_body;
	f->jobs_body = jobs_body;	/* NULL: fabteld without /api/v1/jobs */
	if (f->events_api != 0 || f->fetches % EVENTS_RETRY == 0) {
		snprintf(path, sizeof(path), "/api/v1/events?since=%llu",
			 (unsigned long long)digest_events_since(&f->dg));
		rc = http_json(f, path, &events, st);
		if (rc == -1) {
			json_object_put(snap);
			json_object_put(jobs);
			return NULL;
		}
		if (rc == -2)		/* this time without fabteld's events */
			memset(st, 0, sizeof(*st));
		f->events_api = rc == 0;
	}
	return digest_frame(&f->dg, snap, jobs, events);
}

static int conn_init(struct conn *cn, long timeout_ms, bool multi)
{
	cn->curl = curl_easy_init();
	if (!cn->curl)
		return -1;
	if (multi) {
		cn->multi = curl_multi_init();
		if (!cn->multi)
			return -1;
	}
	curl_easy_setopt(cn->curl, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(cn->curl, CURLOPT_ERRORBUFFER, cn->err);
	curl_easy_setopt(cn->curl, CURLOPT_CONNECTTIMEOUT_MS, TIMEOUT_MS);
	curl_easy_setopt(cn->curl, CURLOPT_TIMEOUT_MS, timeout_ms);
	/* no SIGALRM in a threaded program */
	curl_easy_setopt(cn->curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(cn->curl, CURLOPT_USERAGENT, "fabtop/" FABTEL_VERSION);
	curl_easy_setopt(cn->curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(cn->curl, CURLOPT_ACCEPT_ENCODING, "");
	return 0;
}

static void conn_fini(struct conn *cn)
{
	if (cn->multi)
		curl_multi_cleanup(cn->multi);
	if (cn->curl)
		curl_easy_cleanup(cn->curl);
}

static int http_init(struct feed *f, char *err, size_t errlen)
{
	if (conn_init(&f->fetch, TIMEOUT_MS, false) ||
	    conn_init(&f->watch, WATCH_WAIT_S * 1000L + TIMEOUT_MS, true)) {
		snprintf(err, errlen, "cannot set up libcurl");
		return -1;
	}
	return 0;
}

/* ---- standalone ------------------------------------------------------------- */

static struct frame *fetch_standalone(struct feed *f)
{
	struct json_object *snap, *jobs, *events;

	collect_sample(f->model);
	pthread_mutex_lock(&f->model->lock);
	snap = render_snapshot(f->model);
	jobs = render_jobs(f->model);
	events = render_events(f->model, digest_events_since(&f->dg));
	pthread_mutex_unlock(&f->model->lock);
	return digest_frame(&f->dg, snap, jobs, events);
}

static int standalone_init(struct feed *f, char *err, size_t errlen)
{
	double ms = f->o.interval * 1000;

	collect_opts_default(&f->copts);
	f->copts.bpf = false;	/* BPF is fabteld's, as root */
	f->copts.wire = false;
	f->copts.interval_ms = ms < 100 ? 100 : ms > 60000 ? 60000 : (unsigned int)ms;
	if (f->o.sysfs_root) {
		if (strlen(f->o.sysfs_root) >= sizeof(f->copts.sysfs_root)) {
			snprintf(err, errlen, "--sysfs-root: path too long");
			return -1;
		}
		snprintf(f->copts.sysfs_root, sizeof(f->copts.sysfs_root), "%s", f->o.sysfs_root);
	}
	f->model = calloc(1, sizeof(*f->model));
	if (!f->model) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	collect_init(f->model, &f->copts);
	return 0;
}

/* ---- the feed ------------------------------------------------------------- */

struct feed *feed_new(const struct feed_opts *o, char *err, size_t errlen)
{
	struct feed *f = calloc(1, sizeof(*f));
	pthread_condattr_t ca;
	size_t n;

	if (!f) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	f->o = *o;
	f->events_api = -1;
	digest_init(&f->dg);
	pthread_mutex_init(&f->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&f->cond, &ca);
	pthread_cond_init(&f->wcond, &ca);
	pthread_condattr_destroy(&ca);
	if (o->standalone) {
		snprintf(f->source, sizeof(f->source), "standalone (sysfs under %s)",
			 o->sysfs_root && *o->sysfs_root ? o->sysfs_root : "/");
		if (standalone_init(f, err, errlen))
			goto fail;
		return f;
	}
	snprintf(f->url, sizeof(f->url), "%s", o->url ? o->url : FEED_DEFAULT_URL);
	n = strlen(f->url);
	while (n && f->url[n - 1] == '/')
		f->url[--n] = '\0';
	if (!n || strlen(o->url ? o->url : "") >= sizeof(f->url)) {
		snprintf(err, errlen, "--url: want http://HOST:PORT (up to %zu characters)",
			 sizeof(f->url) - 1);
		goto fail;
	}
	snprintf(f->source, sizeof(f->source), "%s", f->url);
	if (http_init(f, err, errlen))
		goto fail;
	return f;
fail:
	feed_free(f);
	return NULL;
}

struct frame *feed_fetch(struct feed *f, struct feed_status *st)
{
	struct frame *fr;

	memset(st, 0, sizeof(*st));
	fr = f->o.standalone ? fetch_standalone(f) : fetch_http(f, st);
	f->fetches++;
	if (!fr && !st->failing)
		set_error(st, "out of memory", "out of memory");
	return fr;
}

static void publish(struct feed *f, struct frame *fr, const struct feed_status *st)
{
	struct frame *old = NULL;

	pthread_mutex_lock(&f->lock);
	f->st.failing = st->failing;
	snprintf(f->st.error, sizeof(f->st.error), "%s", st->error);
	snprintf(f->st.brief, sizeof(f->st.brief), "%s", st->brief);
	if (fr) {
		fr->refs = 1;
		fr->gen = ++f->st.gen;
		f->st.last_ok = fr->fetched;
		old = f->latest;
		f->latest = fr;
		f->seen_seq = digest_events_since(&f->dg);
	}
	if (old && --old->refs == 0)
		frame_free(old);
	pthread_mutex_unlock(&f->lock);
}

/* ---- trace export ---------------------------------------------------------- */

static struct json_object *get_trace(struct feed *f, const char *job, char *why, size_t len)
{
	struct feed_status st = { 0 };
	struct json_object *o = NULL;
	char path[512], *esc;
	int rc;

	if (f->o.standalone) {
		pthread_mutex_lock(&f->model->lock);
		o = render_trace(f->model, job);
		pthread_mutex_unlock(&f->model->lock);
		if (!o)
			snprintf(why, len, "no job %s", job);
		return o;
	}
	esc = curl_easy_escape(f->fetch.curl, job, 0);
	if (!esc) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	snprintf(path, sizeof(path), "/api/v1/jobs/%s/trace", esc);
	curl_free(esc);
	rc = http_json(f, path, &o, &st);
	if (rc == 404)
		snprintf(why, len, "fabteld has no job %s (or no trace export)", job);
	else if (rc)
		snprintf(why, len, "%s", st.error);
	return rc ? NULL : o;
}

/* Save a job's trace; what happened in st's notice. */
static void export_trace(struct feed *f, const char *job, struct feed_status *st)
{
	char name[256], safe[128], why[400] = "", stamp[32];
	struct json_object *o, *ev;
	time_t now = time(NULL);
	struct tm tm;
	const char *err;
	size_t i;
	int n = 0;

	o = get_trace(f, job, why, sizeof(why));
	/* the job id in a file name: nothing that makes a path */
	for (i = 0; job[i] && i < sizeof(safe) - 1; i++)
		safe[i] = (job[i] == '/' || job[i] == '\\' || (unsigned char)job[i] < 32) ? '_' : job[i];
	safe[i] = '\0';
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(name, sizeof(name), "fabtel-job-%s-%s.json", safe, stamp);
	if (o && json_object_object_get_ex(o, "traceEvents", &ev))
		n = (int)json_object_array_length(ev);
	if (o && json_object_to_file_ext(name, o, JSON_C_TO_STRING_PLAIN) < 0) {
		/* json-c keeps the reason (with errno's text) itself */
		err = json_util_get_last_err();
		snprintf(why, sizeof(why), "cannot write %s (%.*s)", name,
			 err ? (int)strcspn(err, "\n") : 7, err ? err : "unknown");
	}
	st->notice_bad = !o || why[0];
	if (st->notice_bad)
		snprintf(st->notice, sizeof(st->notice), "trace of job %s not saved: %s", job, why);
	else
		snprintf(st->notice, sizeof(st->notice), "trace of job %s (%d events) saved as %s",
			 job, n, name);
	st->notice_at = feed_now();
	json_object_put(o);
}

void feed_request_trace(struct feed *f, const char *job_id)
{
	pthread_mutex_lock(&f->lock);
	snprintf(f->trace_job, sizeof(f->trace_job), "%s", job_id);
	pthread_cond_broadcast(&f->cond);
	pthread_mutex_unlock(&f->lock);
}

/* ---- events at once ----------------------------------------------------- */

/* A frame of new events over the last fetch's snapshot and jobs (fetcher). */
static struct frame *events_frame(struct feed *f, struct json_object *events)
{
	struct json_object *snap = json_tokener_parse(f->snap_body);
	struct json_object *jobs = f->jobs_body ? json_tokener_parse(f->jobs_body) : NULL;

	if (!snap) {
		json_object_put(jobs);
		json_object_put(events);
		return NULL;
	}
	return digest_frame(&f->dg, snap, jobs, events);
}

/* Pause the watcher for s seconds, or until feed_stop. */
static void watch_pause(struct feed *f, double s)
{
	struct timespec until;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += (time_t)s;
	until.tv_nsec += (long)((s - floor(s)) * 1e9);
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&f->lock);
	while (!f->stop && pthread_cond_timedwait(&f->wcond, &f->lock, &until) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&f->lock);
}

/* Add resp's events to those not yet taken (under lock). */
static void stash(struct feed *f, struct json_object *resp)
{
	struct json_object *have, *more, *e;
	size_t i;

	if (!f->pending) {
		f->pending = resp;
		return;
	}
	have = fj_get(f->pending, "events");
	more = fj_get(resp, "events");
	for (i = 0; i < fj_len(more); i++) {
		e = json_object_array_get_idx(more, i);
		json_object_array_add(have, json_object_get(e));
	}
	if ((e = fj_get(resp, "next_seq")))
		json_object_object_add(f->pending, "next_seq", json_object_get(e));
	json_object_put(resp);
}

static void *watcher(void *arg)
{
	struct feed *f = arg;
	struct feed_status st;
	struct json_object *resp, *evs, *last;
	uint64_t mine = 0, since, next, seq;
	char path[96];
	double t0;
	int rc;

	while (!f->wstop) {
		pthread_mutex_lock(&f->lock);
		since = f->seen_seq > mine ? f->seen_seq : mine;
		pthread_mutex_unlock(&f->lock);
		snprintf(path, sizeof(path), "/api/v1/events?since=%llu&wait=%d",
			 (unsigned long long)since, WATCH_WAIT_S);
		memset(&st, 0, sizeof(st));
		t0 = feed_now();
		rc = http_get(f, &f->watch, path, &resp, &st, NULL);
		if (f->wstop) {
			json_object_put(resp);
			break;
		}
		if (rc) {
			/* the fetcher says why on screen; try again in a while */
			watch_pause(f, f->o.interval > 1 ? f->o.interval : 1);
			continue;
		}
		evs = fj_get(resp, "events");
		if (!fj_u64(resp, "next_seq", &next) || next <= since) {
			/* another fabteld (restarted): start over once the fetcher has */
			mine = 0;
			json_object_put(resp);
			watch_pause(f, f->o.interval);
			continue;
		}
		if (!fj_len(evs)) {
			json_object_put(resp);
			/* an fabteld that does not wait answers at once */
			if (feed_now() - t0 < 0.5)
				watch_pause(f, f->o.interval);
			continue;
		}
		last = json_object_array_get_idx(evs, fj_len(evs) - 1);
		if (fj_u64(last, "seq", &seq))
			mine = seq;
		pthread_mutex_lock(&f->lock);
		stash(f, resp);
		pthread_cond_broadcast(&f->cond);
		pthread_mutex_unlock(&f->lock);
	}
	return NULL;
}

static void *fetcher(void *arg)
{
	struct feed *f = arg;
	struct feed_status st;
	struct frame *fr;
	struct timespec next;
	double s;

	pthread_mutex_lock(&f->lock);
	while (!f->stop) {
		pthread_mutex_unlock(&f->lock);
		clock_gettime(CLOCK_MONOTONIC, &next);
		fr = feed_fetch(f, &st);
		publish(f, fr, &st);
		/* the next fetch an interval after this one began */
		s = floor(f->o.interval);
		next.tv_sec += (time_t)s;
		next.tv_nsec += (long)((f->o.interval - s) * 1e9);
		if (next.tv_nsec >= 1000000000L) {
			next.tv_sec++;
			next.tv_nsec -= 1000000000L;
		}
		pthread_mutex_lock(&f->lock);
		while (!f->stop) {
			if (f->trace_job[0]) {
				char job[sizeof(f->trace_job)];
				struct feed_status ts = { 0 };

				snprintf(job, sizeof(job), "%s", f->trace_job);
				f->trace_job[0] = '\0';
				pthread_mutex_unlock(&f->lock);
				export_trace(f, job, &ts);
				pthread_mutex_lock(&f->lock);
				snprintf(f->st.notice, sizeof(f->st.notice), "%s", ts.notice);
				f->st.notice_at = ts.notice_at;
				f->st.notice_bad = ts.notice_bad;
				continue;
			}
			if (f->pending && f->snap_body) {
				struct json_object *evs = f->pending;
				struct feed_status cur = f->st;

				f->pending = NULL;
				pthread_mutex_unlock(&f->lock);
				fr = events_frame(f, evs);
				if (fr)
					publish(f, fr, &cur);
				pthread_mutex_lock(&f->lock);
				continue;
			}
			if (pthread_cond_timedwait(&f->cond, &f->lock, &next) == ETIMEDOUT)
				break;
		}
	}
	pthread_mutex_unlock(&f->lock);
	return NULL;
}

int feed_start(struct feed *f)
{
	int err = pthread_create(&f->thread, NULL, fetcher, f);

	f->running = !err;
	if (!err && !f->o.standalone)
		f->watching = !pthread_create(&f->watcher, NULL, watcher, f);
	return -err;
}

void feed_stop(struct feed *f)
{
	if (!f->running)
		return;
	pthread_mutex_lock(&f->lock);
	f->stop = true;
	f->wstop = true;
	pthread_cond_broadcast(&f->cond);
	pthread_cond_broadcast(&f->wcond);
	pthread_mutex_unlock(&f->lock);
	if (f->watching) {
		curl_multi_wakeup(f->watch.multi);
		pthread_join(f->watcher, NULL);
		f->watching = false;
	}
	pthread_join(f->thread, NULL);
	f->running = false;
}

struct frame *feed_get(struct feed *f, struct feed_status *st)
{
	struct frame *fr;

	pthread_mutex_lock(&f->lock);
	fr = f->latest;
	if (fr)
		fr->refs++;
	if (st)
		*st = f->st;
	pthread_mutex_unlock(&f->lock);
	return fr;
}

void feed_put(struct feed *f, struct frame *fr)
{
	bool last;

	if (!fr)
		return;
	pthread_mutex_lock(&f->lock);
	last = --fr->refs == 0;
	pthread_mutex_unlock(&f->lock);
	if (last)
		frame_free(fr);
}

void feed_free(struct feed *f)
{
	if (!f)
		return;
	feed_stop(f);
	if (f->latest && --f->latest->refs == 0)
		frame_free(f->latest);
	conn_fini(&f->fetch);
	conn_fini(&f->watch);
	free(f->snap_body);
	free(f->jobs_body);
	json_object_put(f->pending);
	if (f->model) {
		collect_fini(f->model);
		free(f->model);
	}
	digest_fini(&f->dg);
	pthread_cond_destroy(&f->cond);
	pthread_cond_destroy(&f->wcond);
	pthread_mutex_destroy(&f->lock);
	free(f);
}
