/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe_stats.h - what one (local port, peer) pair's probes did: the probes
 * in flight, the totals Prometheus reads, an RTT histogram, and a short
 * window (per-second bins, recent RTT samples) for the loss ratio and RTT
 * quantiles the verdicts use.  Pure: no verbs, no clock of its own.
 */
#ifndef FABTEL_PROBE_STATS_H
#define FABTEL_PROBE_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "probe_pkt.h"

#define PROBE_OUTSTANDING	64	/* probes in flight per pair */
#define PROBE_WINDOW_MAX_S	60
#define PROBE_RTT_SAMPLES	256
#define PROBE_RTT_BUCKETS	12	/* finite bounds; +Inf is one more */

/* the histogram's upper bounds, seconds */
extern const double probe_rtt_le[PROBE_RTT_BUCKETS];

enum probe_slot_state { SLOT_FREE, SLOT_WAITING, SLOT_ANSWERED, SLOT_TIMED_OUT };

struct probe_stats {
	uint32_t next_seq;
	struct {
		uint32_t seq;
		uint8_t state;
		uint64_t sent_ns;	/* monotonic */
	} out[PROBE_OUTSTANDING];
	uint64_t sent, replies, timeouts;
	uint64_t bucket[PROBE_RTT_BUCKETS + 1];	/* not cumulative; last: +Inf */
	double rtt_sum;				/* seconds */
	uint64_t last_ok_ns;			/* CLOCK_REALTIME of the last reply; 0 never */
	unsigned int consec_timeouts;
	unsigned int inflight;		/* slots waiting */
	struct {
		uint64_t sec;			/* monotonic second of the outcomes */
		uint32_t done, lost;
	} bin[PROBE_WINDOW_MAX_S + 1];
	struct {
		uint64_t at_ns;
		float rtt_s;
	} rtt[PROBE_RTT_SAMPLES];
	unsigned int rtt_head, rtt_count;
};

void probe_stats_init(struct probe_stats *s, uint32_t first_seq);

/*
 * A probe leaves at now_ns: its sequence number.  If its slot still waits
 * for the probe PROBE_OUTSTANDING before, that one has timed out.
 */
uint32_t probe_stats_send(struct probe_stats *s, uint64_t now_ns);

/*
 * A reply to seq (which says it left at t_sent) came at now_ns with a round trip of rtt_ns (the
 * responder's own time already taken out); real_ns is the wall clock for
 * last_ok_ns.  PROBE_DROP_NR if taken, else why not (duplicate, late,
 * unsolicited).
 */
enum probe_drop probe_stats_reply(struct probe_stats *s, uint32_t seq, uint64_t t_sent,
				  uint64_t now_ns, uint64_t rtt_ns, uint64_t real_ns);

/* Probes in flight longer than timeout_ns are lost: how many now. */
unsigned int probe_stats_expire(struct probe_stats *s, uint64_t now_ns, uint64_t timeout_ns);

/*
 * Lost / (answered + lost) over the last window_s seconds; -1 if none ended.
 * ended: how many ended in the window (NULL: not wanted).
 */
double probe_stats_loss(const struct probe_stats *s, uint64_t now_ns, unsigned int window_s,
			unsigned int *ended);

/* The q-quantile (0..1) of the RTTs of the last window_s seconds; -1 if none. */
double probe_stats_rtt_q(const struct probe_stats *s, uint64_t now_ns, unsigned int window_s,
			 double q);

#endif /* FABTEL_PROBE_STATS_H */
