/* SPDX-License-Identifier: GPL-2.0 */
/*
 * http_guard.h - who gets a connection to fabteld's HTTP side, and for how
 * long (http_guard.c).  The aim: Prometheus's scrape is always answered,
 * whatever else is connected, and what slow clients hold stays bounded.
 *
 * - At most max_connections live connections.  When a new one comes and all
 *   are taken, the oldest connection still waiting for its request is closed
 *   to make room ("evicted"); if none is waiting, the oldest response in
 *   flight for over GUARD_SLOW_S ("slow_reader_evicted"); if none of these
 *   (all are fresh answers or parked long polls) the new one is refused
 *   ("connection_limit").
 * - A request must arrive whole within GUARD_REQUEST_S of the accept: a
 *   socket that trickles bytes is closed then ("request_timeout").  An idle
 *   keep-alive connection is closed GUARD_IDLE_S after its last answer.
 * - A response must be handed to the kernel whole within response_s (the
 *   setting response_timeout_s, default 30) of its request, or of a long
 *   poll's wake-up, however slowly its reader takes it: else it is cut off,
 *   the connection reset ("response_timeout"; so is one libmicrohttpd gave
 *   up on, its reader having taken nothing for 10 s).
 * - Large responses (bodies over GUARD_LARGE_BYTES): at most
 *   max_connections / 8 (at least 1) in flight.  One more gets 503
 *   ("large_response_limit"), except a scrape of /metrics, which takes the
 *   place of the oldest one in flight (cut off: "slow_reader_evicted").
 * - Long polls: at most max_connections / 4 parked at once, and at most
 *   max_connections / 16 (at least 1) per client address; more get 429
 *   ("long_poll_limit", "long_poll_client_limit").  So three quarters of
 *   the connections are always left for short requests.
 *
 * Every refusal is counted: fabtel_http_rejected_total{reason}.  Calls are
 * thread-safe; the guard's lock is a leaf (taken last, nothing taken under it).
 */
#ifndef FABTELD_HTTP_GUARD_H
#define FABTELD_HTTP_GUARD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

#include "expo.h"

#define GUARD_REQUEST_S	5
#define GUARD_IDLE_S	10
#define GUARD_SLOW_S	1
#define GUARD_LARGE_BYTES	(64 * 1024)

enum guard_reason {
	GUARD_CONNECTION_LIMIT,
	GUARD_EVICTED,
	GUARD_REQUEST_TIMEOUT,
	GUARD_LONG_POLL_LIMIT,
	GUARD_LONG_POLL_CLIENT_LIMIT,
	GUARD_RESPONSE_TIMEOUT,
	GUARD_LARGE_RESPONSE_LIMIT,
	GUARD_SLOW_READER_EVICTED,
	GUARD_NR_REASONS
};

struct guard;

/* response_s: the response deadline (response_timeout_s) */
struct guard *guard_new(unsigned int max_connections, unsigned int response_s);
void guard_free(struct guard *g);
/* the connection limit to give libmicrohttpd: room for evicted sockets still closing */
unsigned int guard_mhd_limit(const struct guard *g);

/* libmicrohttpd callbacks: MHD_OPTION_ACCEPT_POLICY / MHD_OPTION_NOTIFY_CONNECTION, cls = guard */
enum MHD_Result guard_accept(void *cls, const struct sockaddr *addr, socklen_t addrlen);
void guard_notify(void *cls, struct MHD_Connection *c, void **socket_context,
		  enum MHD_ConnectionNotificationCode code);

/*
 * the request's headers are in / its answer is done (keep-alive: waiting
 * again); timed_out: libmicrohttpd gave up on it (its idle timeout: the
 * reader took nothing for that long), counted as "response_timeout"
 */
void guard_request_in(struct guard *g, struct MHD_Connection *c);
void guard_request_done(struct guard *g, struct MHD_Connection *c, bool timed_out);
/* when c is closed if nothing comes (CLOCK_MONOTONIC ns); UINT64_MAX: never */
uint64_t guard_due(struct guard *g, struct MHD_Connection *c);
/* may c park as a long poll?  0 (now counted as parked), or the reason it may not */
int guard_park(struct guard *g, struct MHD_Connection *c);
void guard_unpark(struct guard *g, struct MHD_Connection *c);
/*
 * c's answer has a body over GUARD_LARGE_BYTES: 0 (now counted in flight
 * until the answer is done), or GUARD_LARGE_RESPONSE_LIMIT (answer 503).
 * scrape: always 0, the oldest large response in flight cut off if need be.
 */
int guard_large(struct guard *g, struct MHD_Connection *c, bool scrape);
/*
 * Before rendering an answer that was large last time: true if the next
 * large one would get 503 now (then counted as that 503, which the caller
 * gives), false if it may go.
 */
bool guard_large_refused(struct guard *g);

/* Close the connections past their deadline; the next deadline (CLOCK_MONOTONIC ns), UINT64_MAX if none. */
uint64_t guard_reap(struct guard *g, uint64_t now_ns);
/* fabtel_http_rejected_total and fabtel_http_connections */
void guard_metrics(struct guard *g, struct expo *e);

#endif /* FABTELD_HTTP_GUARD_H */
