/* SPDX-License-Identifier: GPL-2.0 */
/*
 * feed_int.h - the feed's insides, shared by feed.c (the threads, frames,
 * standalone mode) and feed_http.c (fabteld over HTTP, trace export).
 */
#ifndef FABTOP_FEED_INT_H
#define FABTOP_FEED_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <curl/curl.h>
#include <json-c/json.h>

#include "collect.h"
#include "feed.h"
#include "http_xfer.h"

#define TIMEOUT_MS	2000L
#define MAX_BODY	(256u << 20)
#define EVENTS_RETRY	10
#define WATCH_WAIT_S	5

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
	struct collector *col;		/* ... and its collector */
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
	char rec_path[160];		/* a flight record asked for, "" none (feed_record.c) */
	struct json_object *rec;	/* ... the last one fetched, NULL none */
	char rec_err[320];		/* ... why not */
	bool rec_busy;			/* ... still being fetched */
	char ack_dev[64];		/* a port to acknowledge, "" none (feed_ack.c) */
	unsigned int ack_port;
	struct json_object *pending;	/* events the watcher got, for the fetcher */
	uint64_t seen_seq;		/* the newest fabteld event in a frame */
	/* the watcher thread's */
	struct conn watch;
	pthread_t watcher;
	bool watching;
	atomic_bool wstop;
	pthread_cond_t wcond;		/* its pauses between polls */
};

/* feed_http.c */
void feed_set_error(struct feed_status *st, const char *brief, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
CURLcode feed_watch_perform(struct feed *f);
int feed_http_get(struct feed *f, struct conn *cn, const char *path, struct json_object **out,
		  struct feed_status *st, char **body);
int feed_http_json(struct feed *f, const char *path, struct json_object **out,
		   struct feed_status *st);
struct frame *feed_fetch_http(struct feed *f, struct feed_status *st);
int feed_conn_init(struct conn *cn, long timeout_ms, bool multi);
void feed_conn_fini(struct conn *cn);
int feed_http_init(struct feed *f, char *err, size_t errlen);
/* feed_ack.c: acknowledge the port asked for (f->lock held, dropped meanwhile) */
void feed_serve_ack(struct feed *f);
/* feed_record.c: fetch the record asked for (f->lock held, dropped meanwhile) */
void feed_serve_record(struct feed *f);
/* Save a job's trace; what happened in st's notice. */
void feed_export_trace(struct feed *f, const char *job, struct feed_status *st);

#endif /* FABTOP_FEED_INT_H */
