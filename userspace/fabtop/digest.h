/* SPDX-License-Identifier: GPL-2.0 */
/*
 * digest.h - fabteld's JSON (snapshot, jobs, events, history) into what
 * fabtop shows.
 *
 * The JSON is the collector's: fabteld's over HTTP, or, standalone, the
 * renderers' over the collector run in-process (feed.c).  Rates, flaps,
 * storms, bursts and every event are what the collector folded; a digest
 * detects nothing.  It keeps only what it was given over time: the events
 * log (from /api/v1/events, only what is newer) and the ports' rate history
 * (hist.c).  A digest is fed every fetch, in the fetcher thread; each call
 * yields an immutable frame: the JSON it came from plus the panes as tables
 * (panes.h).
 */
#ifndef FABTOP_DIGEST_H
#define FABTOP_DIGEST_H

#include <stdbool.h>
#include <stdint.h>

#include "hist.h"
#include "table.h"

#define EVENT_RING	512

struct json_object;

enum { TAB_NICS, TAB_JOBS, TAB_EVENTS, TAB_NR };
enum { DTAB_REASONS, DTAB_HISTORY, DTAB_QPS, DTAB_EVENTS, DTAB_NR };

struct event {
	uint64_t seq;			/* fabteld's */
	double time;			/* Unix s */
	char kind[24];			/* link_flap, pause_storm, qp_error, ... */
	char device[64];
	int port;			/* -1: none */
	int priority;			/* -1: none */
	long long qpn;			/* -1: none */
	char job_id[TABLE_ID_LEN];	/* "": none */
	uint64_t count;			/* 0: not given */
	char counter[32];		/* error bursts: which counter, "" not known */
	uint64_t amount;		/* ... its rise, 0 not known */
	double span;			/* ... within (s), 0 not known */
	double down;			/* flaps: how long the link was down (s), -1 not known */
	char jobs[TABLE_ID_LEN];	/* the jobs on the port then, ','-joined; "" none */
	char record[TABLE_REC_LEN];	/* its flight record's API path; "" none */
	uint64_t record_seq;
};

struct frame {
	unsigned int refs;		/* under the feed's lock */
	uint64_t gen;
	double sample_time;		/* the snapshot's (Unix s), 0 if none */
	double fetched;			/* when it arrived (Unix s) */
	const char *rates_from;		/* "fabteld" or NULL (none yet) */
	struct json_object *snapshot, *jobs, *events, *rows;
	struct json_object *probes;	/* /api/v1/probes; NULL: none (standalone, older fabteld) */
	struct table tab[TAB_NR];
	char port_source[32];		/* "fabtel_ko", "sysfs" or "none" */
	struct hist *hist;		/* the ports' rate history then; NULL none */
};

struct digest {
	struct event ring[EVENT_RING];
	unsigned int head, count;	/* head: next slot */
	uint64_t api_seq;		/* newest fabteld event seen */
	double log_started;		/* which fabteld log api_seq is in, 0 unknown */
	bool have_log;			/* an events answer came: its log is shown */
	struct hist *hist;		/* the ports' rate history (hist.c) */
};

void digest_init(struct digest *d);
void digest_fini(struct digest *d);

/* Merge an /api/v1/history answer (takes the reference); the since= to ask it with. */
void digest_history(struct digest *d, struct json_object *resp);
double digest_history_since(const struct digest *d);

/* The since= to ask /api/v1/events with. */
uint64_t digest_events_since(const struct digest *d);

/*
 * One fetch: snap (required), jobs and events (an /api/v1/events answer, or
 * NULL: none this time, the log stays as it is).  Takes the references.
 * NULL when out of memory.
 */
struct frame *digest_frame(struct digest *d, struct json_object *snap, struct json_object *jobs,
			   struct json_object *events);
void frame_free(struct frame *f);

/* The i-th event of the log, 0 the oldest; NULL past the end. */
const struct event *digest_event(const struct digest *d, unsigned int i);

#endif /* FABTOP_DIGEST_H */
