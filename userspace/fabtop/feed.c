// SPDX-License-Identifier: GPL-2.0
/*
 * feed.c - fabteld over HTTP, or its collector in-process (see feed.h).
 *
 * HTTP (feed_http.c): GET /api/v1/snapshot, /api/v1/jobs and /api/v1/events?since=SEQ
 * with one keep-alive curl handle, 2 s to connect and 2 s in all per
 * request.  An fabteld without /api/v1/events (404) is asked again every
 * EVENTS_RETRY fetches; meanwhile the events log stays as it is.
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

#include "feed_int.h"
#include "fjson.h"
#include "render.h"

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

/* ---- standalone ------------------------------------------------------------- */

/*
 * One pass of the collector in-process, rendered as fabteld answers it: the
 * same JSON from the same folds, so both modes show the same events and rates.
 */
static struct frame *fetch_standalone(struct feed *f)
{
	struct json_object *snap, *jobs, *events, *hist;

	collect_sample(f->col);
	pthread_mutex_lock(&f->model->lock);
	snap = render_snapshot(f->model);
	jobs = render_jobs(f->model);
	events = render_events(f->model, digest_events_since(&f->dg));
	hist = render_history(f->model, digest_history_since(&f->dg), 300);
	pthread_mutex_unlock(&f->model->lock);
	digest_history(&f->dg, hist);
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
	f->col = collect_init(f->model, &f->copts);
	if (!f->col) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
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
	if (feed_http_init(f, err, errlen))
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
	fr = f->o.standalone ? fetch_standalone(f) : feed_fetch_http(f, st);
	f->fetches++;
	if (!fr && !st->failing)
		feed_set_error(st, "out of memory", "out of memory");
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
		rc = feed_http_get(f, &f->watch, path, &resp, &st, NULL);
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
			if (f->rec_path[0]) {
				feed_serve_record(f);
				continue;
			}
			if (f->ack_dev[0]) {
				feed_serve_ack(f);
				continue;
			}
			if (f->trace_job[0]) {
				char job[sizeof(f->trace_job)];
				struct feed_status ts = { 0 };

				snprintf(job, sizeof(job), "%s", f->trace_job);
				f->trace_job[0] = '\0';
				pthread_mutex_unlock(&f->lock);
				feed_export_trace(f, job, &ts);
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
	feed_conn_fini(&f->fetch);
	feed_conn_fini(&f->watch);
	free(f->snap_body);
	free(f->jobs_body);
	json_object_put(f->pending);
	json_object_put(f->rec);
	if (f->model) {
		collect_fini(f->col);
		free(f->model);
	}
	digest_fini(&f->dg);
	pthread_cond_destroy(&f->cond);
	pthread_cond_destroy(&f->wcond);
	pthread_mutex_destroy(&f->lock);
	free(f);
}
