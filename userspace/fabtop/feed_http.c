// SPDX-License-Identifier: GPL-2.0
/*
 * feed_http.c - fabteld over HTTP for the feed (feed.c): one keep-alive
 * curl handle per thread, 2 s to connect and 2 s in all per request (the
 * watcher's long polls longer), bodies capped at 256 MiB, every failure
 * worded for the status line; and a job's trace export.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feed_int.h"
#include "fjson.h"
#include "render.h"

/* ---- HTTP ---------------------------------------------------------------- */

void feed_set_error(struct feed_status *st, const char *brief, const char *fmt, ...)
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
CURLcode feed_watch_perform(struct feed *f)
{
	return http_multi_perform(f->watch.multi, f->watch.curl, &f->wstop);
}

/*
 * GET path as JSON on cn: 0 and *out (and the text in *text when asked
 * for, the caller's to free); 404 (no such endpoint, *out NULL); -1 when
 * fabteld could not be reached, -2 when it answered something else than
 * JSON; the status says why.
 */
int feed_http_get(struct feed *f, struct conn *cn, const char *path, struct json_object **out,
		    struct feed_status *st, char **text)
{
	struct http_body b = { .max = MAX_BODY };
	enum json_tokener_error jerr;
	char url[1024], why[256];
	long code = 0;
	CURLcode rc;

	*out = NULL;
	snprintf(url, sizeof(url), "%s%s", f->url, path);
	cn->err[0] = '\0';
	curl_easy_setopt(cn->curl, CURLOPT_URL, url);
	curl_easy_setopt(cn->curl, CURLOPT_WRITEDATA, &b);
	rc = cn->multi ? feed_watch_perform(f) : curl_easy_perform(cn->curl);
	if (rc != CURLE_OK) {
		transfer_error(cn, rc, why, sizeof(why));
		if (b.too_big)
			snprintf(why, sizeof(why), "%s: answer over %u MiB", path, MAX_BODY >> 20);
		feed_set_error(st, "fabteld unreachable", "fabteld at %s unreachable (%s)", f->url, why);
		free(b.p);
		return -1;
	}
	curl_easy_getinfo(cn->curl, CURLINFO_RESPONSE_CODE, &code);
	if (code == 404) {
		free(b.p);
		return 404;
	}
	if (code != 200) {
		feed_set_error(st, "fabteld: bad answer", "fabteld at %s answered HTTP %ld to %s", f->url,
			  code, path);
		free(b.p);
		return -2;
	}
	*out = json_tokener_parse_verbose(b.p ? b.p : "", &jerr);
	if (!*out || !json_object_is_type(*out, json_type_object)) {
		feed_set_error(st, "fabteld: bad JSON", "fabteld at %s: %s is not a JSON object (%s)",
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

int feed_http_json(struct feed *f, const char *path, struct json_object **out,
		     struct feed_status *st)
{
	return feed_http_get(f, &f->fetch, path, out, st, NULL);
}

struct frame *feed_fetch_http(struct feed *f, struct feed_status *st)
{
	struct json_object *snap, *jobs, *events = NULL;
	struct json_object *probes = NULL, *hist = NULL;
	struct feed_status pst = { 0 };
	struct frame *fr;
	char path[64], *snap_body = NULL, *jobs_body = NULL;
	int rc;

	rc = feed_http_get(f, &f->fetch, "/api/v1/snapshot", &snap, st, &snap_body);
	if (rc == 404)
		feed_set_error(st, "not fabteld", "%s/api/v1/snapshot: 404 (is that fabteld?)", f->url);
	if (rc)
		return NULL;
	rc = feed_http_get(f, &f->fetch, "/api/v1/jobs", &jobs, st, &jobs_body);
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
		rc = feed_http_json(f, path, &events, st);
		if (rc == -1) {
			json_object_put(snap);
			json_object_put(jobs);
			return NULL;
		}
		if (rc == -2)		/* this time without fabteld's events */
			memset(st, 0, sizeof(*st));
		f->events_api = rc == 0;
	}
	/* the rates' history since the last point (404: an older fabteld) */
	snprintf(path, sizeof(path), "/api/v1/history?since=%.3f", digest_history_since(&f->dg));
	if (feed_http_get(f, &f->fetch, path, &hist, &pst, NULL) == 0)
		digest_history(&f->dg, hist);
	memset(&pst, 0, sizeof(pst));
	fr = digest_frame(&f->dg, snap, jobs, events);
	/* the probe matrix, when this fabteld has one (404: older, or none) */
	if (fr && feed_http_get(f, &f->fetch, "/api/v1/probes", &probes, &pst, NULL) == 0)
		fr->probes = probes;
	return fr;
}

int feed_conn_init(struct conn *cn, long timeout_ms, bool multi)
{
	cn->curl = curl_easy_init();
	if (!cn->curl)
		return -1;
	if (multi) {
		cn->multi = curl_multi_init();
		if (!cn->multi)
			return -1;
	}
	curl_easy_setopt(cn->curl, CURLOPT_WRITEFUNCTION, http_body_write);
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

void feed_conn_fini(struct conn *cn)
{
	if (cn->multi)
		curl_multi_cleanup(cn->multi);
	if (cn->curl)
		curl_easy_cleanup(cn->curl);
}

int feed_http_init(struct feed *f, char *err, size_t errlen)
{
	if (feed_conn_init(&f->fetch, TIMEOUT_MS, false) ||
	    feed_conn_init(&f->watch, WATCH_WAIT_S * 1000L + TIMEOUT_MS, true)) {
		snprintf(err, errlen, "cannot set up libcurl");
		return -1;
	}
	return 0;
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
	rc = feed_http_json(f, path, &o, &st);
	if (rc == 404)
		snprintf(why, len, "fabteld has no job %s (or no trace export)", job);
	else if (rc)
		snprintf(why, len, "%s", st.error);
	return rc ? NULL : o;
}

/* Save a job's trace; what happened in st's notice. */
void feed_export_trace(struct feed *f, const char *job, struct feed_status *st)
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
