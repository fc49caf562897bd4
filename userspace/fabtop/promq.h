/* SPDX-License-Identifier: GPL-2.0 */
/*
 * promq.h - fabtop's client of the Prometheus HTTP API (libcurl, json-c):
 * instant and range queries sent as POST form bodies (a job's host list
 * can be long), a bearer token and a CA file when asked for, a bound on
 * every request, every failure worded for the status line, and a count of
 * the queries sent and the time they took (the cost of a refresh).
 */
#ifndef FABTOP_PROMQ_H
#define FABTOP_PROMQ_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

struct json_object;

struct promq_opts {
	const char *url;		/* Prometheus's base URL, http:// or https:// */
	const char *token_file;		/* bearer token, read once; NULL none */
	const char *ca_file;		/* CA bundle for https; NULL the system's */
	long timeout_ms;		/* per request, connect included */
};

struct promq {
	void *curl;			/* CURL * */
	void *multi;			/* CURLM *: what promq_abort wakes */
	atomic_bool stop;		/* promq_abort was called */
	void *hdr;			/* struct curl_slist *: the Authorization header */
	const struct promq_opts *o;
	unsigned int queries;		/* sent since the last promq_reset_count */
	double ms;			/* and their time, in ms */
	char error[400];		/* the last failure, whole */
};

/* 0, or -1 with why in err (an unreadable or empty token file, libcurl). */
int promq_init(struct promq *q, const struct promq_opts *o, char *err, size_t len);
void promq_free(struct promq *q);
void promq_reset_count(struct promq *q);
/*
 * From another thread: end the request under way now, and fail every
 * later one at once (quitting never waits for a slow Prometheus).
 */
void promq_abort(struct promq *q);

/*
 * An instant query's result (an array of {metric, value}), or a range
 * query's (step s over [start, end], Unix s: {metric, values}); the
 * caller's to json_object_put.  NULL with q->error set when Prometheus
 * could not be reached, answered an error, or something not a vector
 * (a matrix for range queries).
 */
struct json_object *promq_instant(struct promq *q, const char *expr);
struct json_object *promq_range(struct promq *q, const char *expr, double start, double end,
				double step);
/*
 * An answer's body (NUL-terminated, or NULL for none) and HTTP status as
 * the above return it: the result when the status is "success" and
 * data.resultType is want, else NULL with q->error set (q->o->url names
 * the server).  What promq_instant and promq_range do with what came.
 */
struct json_object *promq_parse(struct promq *q, const char *body, long code, const char *want);

/* A sample's label ("" when absent) and value (NAN when none or not a number). */
const char *promq_label(struct json_object *sample, const char *name);
double promq_value(struct json_object *sample);
/* A range series' points, and the i-th one's value (NAN if none) and time. */
size_t promq_points(struct json_object *series);
double promq_point(struct json_object *series, size_t i, double *t);

#endif /* FABTOP_PROMQ_H */
