// SPDX-License-Identifier: GPL-2.0
/*
 * feed_record.c - a flight record fetched when the console asks for one
 * (the `r` overlay): by the fetcher thread, so that a slow fabteld never
 * blocks the keys; from fabteld's /api/v1/records/..., or in standalone
 * mode from the in-process collector's records.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feed_int.h"
#include "render.h"

#define RECORDS_PATH	"/api/v1/records/"

/* "/api/v1/records/<device>/<port>/<seq>" from the in-process model */
static struct json_object *standalone_record(struct feed *f, const char *path, char *why,
					     size_t len)
{
	char dev[64];
	unsigned int port;
	unsigned long long seq, at = 0;
	const char *q = strchr(path, '?');
	const struct rec *r;
	struct json_object *o = NULL;

	if (strncmp(path, RECORDS_PATH, strlen(RECORDS_PATH)) ||
	    sscanf(path + strlen(RECORDS_PATH), "%63[^/]/%u/%llu", dev, &port, &seq) != 3) {
		snprintf(why, len, "not a record's path: %s", path);
		return NULL;
	}
	pthread_mutex_lock(&f->model->lock);
	if (q && !strncmp(q, "?at=", 4))
		at = strtoull(q + 4, NULL, 10);
	r = model_record_find(&f->model->records, dev, port, seq, at);
	if (r)
		o = render_record(r);
	pthread_mutex_unlock(&f->model->lock);
	if (!o)
		snprintf(why, len, "record %llu of %s/%u is no longer kept", seq, dev, port);
	return o;
}

static struct json_object *fetch_record(struct feed *f, const char *path, char *why, size_t len)
{
	struct feed_status st = { 0 };
	struct json_object *o = NULL;
	int rc;

	if (f->o.standalone)
		return standalone_record(f, path, why, len);
	rc = feed_http_json(f, path, &o, &st);
	if (rc == 404)
		snprintf(why, len, "fabteld no longer keeps it (%s)", path);
	else if (rc)
		snprintf(why, len, "%s", st.error);
	return rc ? NULL : o;
}

void feed_request_record(struct feed *f, const char *path)
{
	pthread_mutex_lock(&f->lock);
	snprintf(f->rec_path, sizeof(f->rec_path), "%s", path);
	json_object_put(f->rec);
	f->rec = NULL;
	f->rec_err[0] = '\0';
	f->rec_busy = true;
	pthread_cond_broadcast(&f->cond);
	pthread_mutex_unlock(&f->lock);
}

struct json_object *feed_record(struct feed *f, char *err, size_t len, bool *busy)
{
	struct json_object *o;

	pthread_mutex_lock(&f->lock);
	o = json_object_get(f->rec);
	snprintf(err, len, "%s", f->rec_err);
	*busy = f->rec_busy;
	pthread_mutex_unlock(&f->lock);
	return o;
}

void feed_serve_record(struct feed *f)
{
	char path[sizeof(f->rec_path)], why[sizeof(f->rec_err)] = "";
	struct json_object *o;

	snprintf(path, sizeof(path), "%s", f->rec_path);
	f->rec_path[0] = '\0';
	pthread_mutex_unlock(&f->lock);
	o = fetch_record(f, path, why, sizeof(why));
	pthread_mutex_lock(&f->lock);
	if (f->rec_path[0]) {	/* another was asked for meanwhile */
		json_object_put(o);
		return;
	}
	json_object_put(f->rec);
	f->rec = o;
	snprintf(f->rec_err, sizeof(f->rec_err), "%s", why);
	f->rec_busy = false;
}
