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
#define PROBE_MAX_FLOWS		16	/* flows (UDP source ports) a pair's probes cycle over */
#define PROBE_FLOW_RING		32	/* a flow's last outcomes kept for its loss */

/* the histogram's upper bounds, seconds */
extern const double probe_rtt_le[PROBE_RTT_BUCKETS];

enum probe_slot_state { SLOT_FREE, SLOT_WAITING, SLOT_ANSWERED, SLOT_TIMED_OUT };

/*
 * One flow of a pair (probe_flow.c): the probes that took one UDP source
 * port, so one ECMP path.  Its loss is over its last PROBE_FLOW_RING
 * outcomes that fall in the window: a flow gets 1/K of the pair's probes,
 * and a ring of seconds per flow would cost K times the pair's bins.
 */
struct probe_flow {
	uint64_t sent, replies, timeouts;
	uint32_t ring[PROBE_FLOW_RING];	/* monotonic second << 1 | lost */
	uint8_t head, count;
};

void probe_flow_outcome(struct probe_flow *f, uint64_t now_ns, bool lost);
/* lost / ended of the flow's outcomes within window_s; -1 if none ended */
double probe_flow_loss(const struct probe_flow *f, uint64_t now_ns, unsigned int window_s,
		       unsigned int *ended);
/*
 * The flow label of flow f of k on a driver that takes the UDP source port
 * from it (mlx5: rdma_flow_label_to_udp_sport): 0 for flow 0 (the device's
 * own port, as replies use), the others spread over the port's 14 bits.
 */
uint32_t probe_flow_label(unsigned int f, unsigned int k);

struct probe_stats {
	uint32_t next_seq;
	struct {
		uint32_t seq;
		uint8_t state;
		uint8_t flow;		/* the flow it went on */
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
	struct probe_flow flow[PROBE_MAX_FLOWS];
};

void probe_stats_init(struct probe_stats *s, uint32_t first_seq);

/*
 * A probe leaves at now_ns on flow (< PROBE_MAX_FLOWS): its sequence
 * number.  If its slot still waits for the probe PROBE_OUTSTANDING before,
 * that one has timed out.  The pair's counts are its flows' sums.
 */
uint32_t probe_stats_send(struct probe_stats *s, unsigned int flow, uint64_t now_ns);

/* rtt_ns of a reply taken with no RTT sample (probe_stats_rtt) */
#define PROBE_RTT_NONE		UINT64_MAX

/*
 * The round trip a reply shows: total_ns (sent to received, this host's
 * clock) less the responder's turnaround t_tx - t_rx (its clock, its word).
 * PROBE_RTT_NONE when the turnaround is not less than total_ns, or t_tx is
 * before t_rx: the RTT would be zero or less, which no path has, so the
 * peer's times are not believed (Documentation/probes.rst "The probe").
 */
uint64_t probe_stats_rtt(uint64_t total_ns, uint64_t t_rx, uint64_t t_tx);

/*
 * A reply to seq (which says it left at t_sent) came at now_ns with a round trip of rtt_ns (the
 * responder's own time already taken out); real_ns is the wall clock for
 * last_ok_ns.  rtt_ns PROBE_RTT_NONE: the reply counts (not lost) but adds
 * no RTT sample.  PROBE_DROP_NR if taken, else why not (duplicate, late,
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
