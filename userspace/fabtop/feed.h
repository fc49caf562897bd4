/* SPDX-License-Identifier: GPL-2.0 */
/*
 * feed.h - where fabtop's data comes from: fabteld's JSON API over HTTP
 * (libcurl), or, with --standalone, fabteld's own collector run in-process
 * over sysfs.
 *
 * Collecting never blocks drawing: feed_start() runs a fetcher thread that
 * fetches every interval and publishes the newest frame under a mutex; the
 * console only takes a reference to the newest frame (feed_get).  When a
 * fetch fails the last frame stays and the status says why; the next fetch
 * that works clears it.
 */
#ifndef FABTOP_FEED_H
#define FABTOP_FEED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "digest.h"

struct json_object;

#define FEED_DEFAULT_URL	"http://127.0.0.1:9465"

struct feed_opts {
	const char *url;		/* fabteld's base URL */
	bool standalone;
	const char *sysfs_root;		/* standalone: read /sys under this */
	double interval;		/* seconds between fetches */
};

struct feed_status {
	uint64_t gen;			/* frames published so far */
	bool failing;			/* the last fetch failed */
	char error[320];		/* what failed, whole: "fabteld at URL unreachable (...)" */
	char brief[96];			/* the same for narrow screens */
	double last_ok;			/* Unix s of the last fetch that worked, 0 never */
	char notice[600];		/* the outcome of the last trace export */
	double notice_at;		/* when (Unix s), 0 none */
	bool notice_bad;
};

struct feed;

/* NULL and a message in err on failure. */
struct feed *feed_new(const struct feed_opts *o, char *err, size_t errlen);
void feed_free(struct feed *f);
/* "http://127.0.0.1:9465" or "standalone (sysfs under /x)" */
const char *feed_source(const struct feed *f);

/*
 * One fetch in the calling thread (no fetcher thread running): a new frame,
 * or NULL with the reason in the status.
 */
struct frame *feed_fetch(struct feed *f, struct feed_status *st);

int feed_start(struct feed *f);
void feed_stop(struct feed *f);
/* The newest frame, referenced (feed_put it), or NULL; and the status. */
struct frame *feed_get(struct feed *f, struct feed_status *st);
void feed_put(struct feed *f, struct frame *fr);

/*
 * Ask the fetcher thread to save job_id's trace (/api/v1/jobs/<id>/trace,
 * Chrome trace JSON) as fabtel-job-<id>-<time>.json in the current
 * directory; the outcome comes back as the status's notice.
 */
void feed_request_trace(struct feed *f, const char *job_id);

/*
 * Ask the fetcher thread for a flight record (an event's "record" path,
 * /api/v1/records/<device>/<port>/<seq>); feed_record gives it once
 * fetched (a reference, or NULL with why in err; busy while it is being
 * fetched).
 */
void feed_request_record(struct feed *f, const char *path);
struct json_object *feed_record(struct feed *f, char *err, size_t len, bool *busy);

/*
 * Ask the fetcher thread to acknowledge a port's recent fault (POST
 * /api/v1/ack); the outcome comes back as the status's notice.
 */
void feed_request_ack(struct feed *f, const char *device, unsigned int port);

/* Now, Unix seconds (what frame and status times are in). */
double feed_now(void);

#endif /* FABTOP_FEED_H */
