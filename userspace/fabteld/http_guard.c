// SPDX-License-Identifier: GPL-2.0
/*
 * http_guard.c - admission and deadlines for fabteld's HTTP connections
 * (see http_guard.h for the rules).
 *
 * Each connection libmicrohttpd opens gets a slot (its socket context) from
 * NOTIFY_STARTED to NOTIFY_CLOSED.  A connection is closed early by
 * shutdown(2) of its socket: libmicrohttpd then reads end-of-file and
 * closes it the normal way.  The shutdown is done under g->lock, and
 * libmicrohttpd reports NOTIFY_CLOSED (which takes g->lock to free the
 * slot) before it closes the descriptor, so a slot's fd is never a
 * descriptor reused by something else.  A response cut off is reset
 * (SO_LINGER 0 before the shutdown): its unsent bytes are dropped at the
 * close, not left to the kernel to trickle to the slow reader.
 *
 * Slow readers.  fabteld builds each answer in memory and libmicrohttpd
 * writes it out; a slot is ACTIVE from the request to the answer's last
 * byte handed to the kernel.  An answer that fits in the socket's kernel
 * buffers leaves at once; one that does not is held by its reader's pace.
 * libmicrohttpd closes a connection it could not write to for 10 s (its
 * idle timeout; counted here as response_timeout too, and reset), but that
 * timer restarts at every write: a reader that takes a few KiB every few
 * seconds holds its slot and its body for as long as the body lasts.
 * Hence:
 *
 * - the response deadline: an ACTIVE slot is due response_s after its
 *   request (guard_reap), so a slot and its body are held at most that long;
 * - the large cap: bodies over GUARD_LARGE_BYTES count in flight
 *   (g->large) until their answer is done or cut off, at most
 *   max_connections / 8; a body over the cap gets 503 (small, it leaves at
 *   once and closes the connection) unless it is the scrape, which cuts
 *   off the oldest one instead (counted as slow_reader_evicted);
 * - the reserve: a response in flight for over GUARD_SLOW_S is evictable
 *   like a connection waiting for its request.
 *
 * So a new connection is refused only when every slot holds a parked long
 * poll (at most a quarter) or an answer under GUARD_SLOW_S old, and once
 * in, a small answer and the scrape are always given.  Memory held for
 * answers in flight: at most max_connections / 8 large bodies, and up to
 * GUARD_LARGE_BYTES per other connection (4 MiB at 64 connections).
 */
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "http_guard.h"

enum slot_state { SLOT_FREE, SLOT_WAITING, SLOT_IDLE, SLOT_ACTIVE, SLOT_PARKED };

struct slot {
	enum slot_state state;
	bool closing;			/* shut down by us, not yet closed */
	bool large;			/* ACTIVE with a body over GUARD_LARGE_BYTES */
	int fd;
	uint64_t since_ns;		/* accept (WAITING), request (ACTIVE), answer (IDLE) */
	struct sockaddr_storage addr;
};

struct guard {
	pthread_mutex_t lock;
	unsigned int max;		/* live connections */
	unsigned int nslots;
	unsigned int used;		/* slots not FREE */
	unsigned int closing;
	unsigned int parked;
	unsigned int park_max, park_per_client;
	unsigned int large, large_max;	/* large responses in flight (not closing) */
	uint64_t response_ns;		/* the response deadline */
	uint64_t rejected[GUARD_NR_REASONS];
	struct slot slots[];
};

static const char *const reason_names[GUARD_NR_REASONS] = {
	[GUARD_CONNECTION_LIMIT] = "connection_limit",
	[GUARD_EVICTED] = "evicted",
	[GUARD_REQUEST_TIMEOUT] = "request_timeout",
	[GUARD_LONG_POLL_LIMIT] = "long_poll_limit",
	[GUARD_LONG_POLL_CLIENT_LIMIT] = "long_poll_client_limit",
	[GUARD_RESPONSE_TIMEOUT] = "response_timeout",
	[GUARD_LARGE_RESPONSE_LIMIT] = "large_response_limit",
	[GUARD_SLOW_READER_EVICTED] = "slow_reader_evicted",
};

struct guard *guard_new(unsigned int max_connections, unsigned int response_s)
{
	unsigned int n = max_connections * 2;
	struct guard *g;

	g = calloc(1, sizeof(*g) + n * sizeof(g->slots[0]));
	if (!g)
		return NULL;
	pthread_mutex_init(&g->lock, NULL);
	g->max = max_connections;
	g->nslots = n;
	g->park_max = max_connections / 4 ? max_connections / 4 : 1;
	g->park_per_client = max_connections / 16 ? max_connections / 16 : 1;
	g->large_max = max_connections / 8 ? max_connections / 8 : 1;
	g->response_ns = (uint64_t)response_s * NS_PER_S;
	return g;
}

void guard_free(struct guard *g)
{
	if (!g)
		return;
	pthread_mutex_destroy(&g->lock);
	free(g);
}

unsigned int guard_mhd_limit(const struct guard *g)
{
	return g->nslots;
}

/* the close of s's socket will be a reset: what is still unsent is dropped */
static void reset_on_close(const struct slot *s)
{
	static const struct linger abort_close = { .l_onoff = 1, .l_linger = 0 };

	setsockopt(s->fd, SOL_SOCKET, SO_LINGER, &abort_close, sizeof(abort_close));
}

/* under g->lock; reset: an answer cut off */
static void close_slot(struct guard *g, struct slot *s, bool reset)
{
	if (s->closing)
		return;
	s->closing = true;
	g->closing++;
	if (s->large) {
		s->large = false;
		g->large--;
	}
	if (reset)
		reset_on_close(s);
	shutdown(s->fd, SHUT_RDWR);
}

/* The oldest response in flight (ACTIVE) since at most before_ns; large: only large ones. */
static struct slot *oldest_active(struct guard *g, uint64_t before_ns, bool large)
{
	struct slot *best = NULL, *s;
	unsigned int i;

	for (i = 0; i < g->nslots; i++) {
		s = &g->slots[i];
		if (s->closing || s->state != SLOT_ACTIVE || s->since_ns > before_ns ||
		    (large && !s->large))
			continue;
		if (!best || s->since_ns < best->since_ns)
			best = s;
	}
	return best;
}

/* The oldest connection waiting for a request (first ones before keep-alive ones). */
static struct slot *oldest_waiting(struct guard *g)
{
	struct slot *best = NULL, *s;
	unsigned int i;

	for (i = 0; i < g->nslots; i++) {
		s = &g->slots[i];
		if (s->closing || (s->state != SLOT_WAITING && s->state != SLOT_IDLE))
			continue;
		if (!best || (s->state == SLOT_IDLE && best->state == SLOT_WAITING) ||
		    (s->state == best->state && s->since_ns < best->since_ns))
			best = s;
	}
	return best;
}

enum MHD_Result guard_accept(void *cls, const struct sockaddr *addr, socklen_t addrlen)
{
	struct guard *g = cls;
	enum MHD_Result ret = MHD_YES;
	struct slot *s;

	(void)addr;
	(void)addrlen;
	pthread_mutex_lock(&g->lock);
	if (g->used - g->closing >= g->max || g->used >= g->nslots) {
		s = g->used < g->nslots ? oldest_waiting(g) : NULL;
		if (!s && g->used < g->nslots)
			s = oldest_active(g, clock_ns(CLOCK_MONOTONIC) - GUARD_SLOW_S * NS_PER_S,
					  false);
		if (s) {
			/* a keep-alive connection between requests is not refused anything */
			if (s->state == SLOT_WAITING)
				g->rejected[GUARD_EVICTED]++;
			else if (s->state == SLOT_ACTIVE)
				g->rejected[GUARD_SLOW_READER_EVICTED]++;
			close_slot(g, s, s->state == SLOT_ACTIVE);
		} else {
			g->rejected[GUARD_CONNECTION_LIMIT]++;
			ret = MHD_NO;
		}
	}
	pthread_mutex_unlock(&g->lock);
	return ret;
}

static void slot_open(struct guard *g, struct MHD_Connection *c, void **socket_context)
{
	const union MHD_ConnectionInfo *fd, *ad;
	struct slot *s = NULL;
	unsigned int i;

	fd = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	ad = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	pthread_mutex_lock(&g->lock);
	for (i = 0; fd && i < g->nslots; i++) {
		if (g->slots[i].state == SLOT_FREE) {
			s = &g->slots[i];
			break;
		}
	}
	if (s) {
		memset(s, 0, sizeof(*s));
		s->state = SLOT_WAITING;
		s->fd = fd->connect_fd;
		s->since_ns = clock_ns(CLOCK_MONOTONIC);
		if (ad && ad->client_addr) {
			size_t len = ad->client_addr->sa_family == AF_INET6 ?
					     sizeof(struct sockaddr_in6) :
					     sizeof(struct sockaddr_in);

			memcpy(&s->addr, ad->client_addr, len);
		}
		g->used++;
	}
	pthread_mutex_unlock(&g->lock);
	*socket_context = s;	/* NULL: untracked (cannot happen with guard_mhd_limit) */
}

void guard_notify(void *cls, struct MHD_Connection *c, void **socket_context,
		  enum MHD_ConnectionNotificationCode code)
{
	struct guard *g = cls;
	struct slot *s = *socket_context;

	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		slot_open(g, c, socket_context);
		return;
	}
	if (!s)
		return;
	pthread_mutex_lock(&g->lock);
	if (s->closing)
		g->closing--;
	if (s->state == SLOT_PARKED)
		g->parked--;
	if (s->large)
		g->large--;
	s->state = SLOT_FREE;
	s->closing = false;
	s->large = false;
	g->used--;
	pthread_mutex_unlock(&g->lock);
	*socket_context = NULL;
}

static struct slot *slot_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *i;

	i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return i ? i->socket_context : NULL;
}

static void set_state(struct guard *g, struct MHD_Connection *c, enum slot_state to)
{
	struct slot *s = slot_of(c);

	if (!s)
		return;
	pthread_mutex_lock(&g->lock);
	if (s->state == SLOT_PARKED)
		g->parked--;
	if (s->large)
		g->large--;
	s->large = false;
	s->state = to;
	s->since_ns = clock_ns(CLOCK_MONOTONIC);
	pthread_mutex_unlock(&g->lock);
}

/* when the guard closes s (its request, next request or answer not done): UINT64_MAX never */
static uint64_t slot_due(const struct guard *g, const struct slot *s)
{
	if (s->closing)
		return UINT64_MAX;
	switch (s->state) {
	case SLOT_WAITING:
		return s->since_ns + GUARD_REQUEST_S * NS_PER_S;
	case SLOT_IDLE:
		return s->since_ns + GUARD_IDLE_S * NS_PER_S;
	case SLOT_ACTIVE:
		return s->since_ns + g->response_ns;
	default:
		return UINT64_MAX;
	}
}

uint64_t guard_due(struct guard *g, struct MHD_Connection *c)
{
	struct slot *s = slot_of(c);
	uint64_t due;

	if (!s)
		return UINT64_MAX;
	pthread_mutex_lock(&g->lock);
	due = slot_due(g, s);
	pthread_mutex_unlock(&g->lock);
	return due;
}

void guard_request_in(struct guard *g, struct MHD_Connection *c)
{
	set_state(g, c, SLOT_ACTIVE);
}

void guard_request_done(struct guard *g, struct MHD_Connection *c, bool timed_out)
{
	struct slot *s = slot_of(c);

	if (s && timed_out) {
		pthread_mutex_lock(&g->lock);
		if (s->state == SLOT_ACTIVE && !s->closing) {
			g->rejected[GUARD_RESPONSE_TIMEOUT]++;
			reset_on_close(s);	/* libmicrohttpd closes it next */
		}
		pthread_mutex_unlock(&g->lock);
	}
	set_state(g, c, SLOT_IDLE);
}

void guard_unpark(struct guard *g, struct MHD_Connection *c)
{
	set_state(g, c, SLOT_ACTIVE);
}

static bool same_host(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->ss_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr, 16);
	return true;
}

int guard_park(struct guard *g, struct MHD_Connection *c)
{
	struct slot *s = slot_of(c);
	unsigned int i, same = 0;
	int why = 0;

	pthread_mutex_lock(&g->lock);
	for (i = 0; s && i < g->nslots; i++)
		if (g->slots[i].state == SLOT_PARKED && same_host(&g->slots[i].addr, &s->addr))
			same++;
	if (!s || g->parked >= g->park_max)
		why = GUARD_LONG_POLL_LIMIT;
	else if (same >= g->park_per_client)
		why = GUARD_LONG_POLL_CLIENT_LIMIT;
	if (why) {
		g->rejected[why]++;
	} else {
		s->state = SLOT_PARKED;
		g->parked++;
	}
	pthread_mutex_unlock(&g->lock);
	return why;
}

int guard_large(struct guard *g, struct MHD_Connection *c, bool scrape)
{
	struct slot *s = slot_of(c), *old = NULL;
	int why = 0;

	if (!s)
		return 0;
	pthread_mutex_lock(&g->lock);
	if (!s->large && g->large >= g->large_max) {
		if (scrape)
			old = oldest_active(g, UINT64_MAX, true);
		if (old) {
			g->rejected[GUARD_SLOW_READER_EVICTED]++;
			close_slot(g, old, true);
		} else if (!scrape) {
			why = GUARD_LARGE_RESPONSE_LIMIT;
			g->rejected[why]++;
		}
	}
	if (!why && !s->large) {
		s->large = true;
		g->large++;
	}
	pthread_mutex_unlock(&g->lock);
	return why;
}

bool guard_large_refused(struct guard *g)
{
	bool full;

	pthread_mutex_lock(&g->lock);
	full = g->large >= g->large_max;
	if (full)
		g->rejected[GUARD_LARGE_RESPONSE_LIMIT]++;
	pthread_mutex_unlock(&g->lock);
	return full;
}

uint64_t guard_reap(struct guard *g, uint64_t now)
{
	uint64_t next = UINT64_MAX, due;
	struct slot *s;
	unsigned int i;

	pthread_mutex_lock(&g->lock);
	for (i = 0; i < g->nslots; i++) {
		s = &g->slots[i];
		due = slot_due(g, s);
		if (due == UINT64_MAX)
			continue;
		if (now >= due) {
			if (s->state == SLOT_WAITING)
				g->rejected[GUARD_REQUEST_TIMEOUT]++;
			else if (s->state == SLOT_ACTIVE)
				g->rejected[GUARD_RESPONSE_TIMEOUT]++;
			close_slot(g, s, s->state == SLOT_ACTIVE);
		} else if (due < next) {
			next = due;
		}
	}
	pthread_mutex_unlock(&g->lock);
	return next;
}

void guard_metrics(struct guard *g, struct expo *e)
{
	struct expo_label l[2] = { { "reason", NULL }, { NULL, NULL } };
	uint64_t rejected[GUARD_NR_REASONS];
	unsigned int i, used, parked;

	pthread_mutex_lock(&g->lock);
	memcpy(rejected, g->rejected, sizeof(rejected));
	used = g->used - g->closing;
	parked = g->parked;
	pthread_mutex_unlock(&g->lock);
	expo_family(e, "fabtel_http_rejected_total", "counter",
		    "HTTP connections or requests fabteld refused or cut off to keep /metrics answered (reason: Documentation/metrics.rst).");
	for (i = 0; i < GUARD_NR_REASONS; i++) {
		l[0].value = reason_names[i];
		expo_u64(e, "fabtel_http_rejected_total", l, rejected[i]);
	}
	l[0].name = "state";
	expo_family(e, "fabtel_http_connections", "gauge",
		    "HTTP connections open now (parked: long polls waiting for an event).");
	l[0].value = "open";
	expo_u64(e, "fabtel_http_connections", l, used);
	l[0].value = "parked";
	expo_u64(e, "fabtel_http_connections", l, parked);
}
