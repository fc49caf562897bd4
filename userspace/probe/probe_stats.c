// SPDX-License-Identifier: GPL-2.0
/*
 * probe_stats.c - one pair's probe bookkeeping (probe_stats.h).
 */
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "probe_stats.h"

const double probe_rtt_le[PROBE_RTT_BUCKETS] = {
	0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.001,
	0.0025, 0.005, 0.01, 0.025, 0.1, 1.0,
};

void probe_stats_init(struct probe_stats *s, uint32_t first_seq)
{
	memset(s, 0, sizeof(*s));
	s->next_seq = first_seq;
}

static void outcome(struct probe_stats *s, unsigned int flow, uint64_t now_ns, bool lost)
{
	uint64_t sec = now_ns / NS_PER_S;
	unsigned int b = sec % (PROBE_WINDOW_MAX_S + 1);

	probe_flow_outcome(&s->flow[flow], now_ns, lost);

	if (s->bin[b].sec != sec) {
		s->bin[b].sec = sec;
		s->bin[b].done = 0;
		s->bin[b].lost = 0;
	}
	s->bin[b].done++;
	if (lost) {
		s->bin[b].lost++;
		s->timeouts++;
		s->consec_timeouts++;
	}
}

uint32_t probe_stats_send(struct probe_stats *s, unsigned int flow, uint64_t now_ns)
{
	uint32_t seq = s->next_seq++;
	unsigned int k = seq % PROBE_OUTSTANDING;

	if (flow >= PROBE_MAX_FLOWS)
		flow = 0;
	if (s->out[k].state == SLOT_WAITING)
		outcome(s, s->out[k].flow, now_ns, true);
	else
		s->inflight++;
	s->flow[flow].sent++;
	s->out[k].flow = (uint8_t)flow;
	s->out[k].seq = seq;
	s->out[k].state = SLOT_WAITING;
	s->out[k].sent_ns = now_ns;
	s->sent++;
	return seq;
}

uint64_t probe_stats_rtt(uint64_t total_ns, uint64_t t_rx, uint64_t t_tx)
{
	if (t_tx < t_rx || t_tx - t_rx >= total_ns)
		return PROBE_RTT_NONE;
	return total_ns - (t_tx - t_rx);
}

static void rtt_sample(struct probe_stats *s, uint64_t now_ns, uint64_t rtt_ns)
{
	double rtt = (double)rtt_ns / NS_PER_S;
	unsigned int b;

	for (b = 0; b < PROBE_RTT_BUCKETS && rtt > probe_rtt_le[b]; b++)
		;
	s->bucket[b]++;
	s->rtt_sum += rtt;
	s->rtt[s->rtt_head].at_ns = now_ns;
	s->rtt[s->rtt_head].rtt_s = (float)rtt;
	s->rtt_head = (s->rtt_head + 1) % PROBE_RTT_SAMPLES;
	if (s->rtt_count < PROBE_RTT_SAMPLES)
		s->rtt_count++;
}

enum probe_drop probe_stats_reply(struct probe_stats *s, uint32_t seq, uint64_t t_sent,
				  uint64_t now_ns, uint64_t rtt_ns, uint64_t real_ns)
{
	unsigned int k = seq % PROBE_OUTSTANDING;

	if (s->out[k].seq != seq || s->out[k].state == SLOT_FREE || s->out[k].sent_ns != t_sent)
		return PROBE_DROP_UNSOLICITED;
	if (s->out[k].state == SLOT_ANSWERED)
		return PROBE_DROP_DUPLICATE;
	if (s->out[k].state == SLOT_TIMED_OUT)
		return PROBE_DROP_LATE;
	s->out[k].state = SLOT_ANSWERED;
	s->inflight--;
	s->replies++;
	s->consec_timeouts = 0;
	s->last_ok_ns = real_ns;
	s->flow[s->out[k].flow].replies++;
	outcome(s, s->out[k].flow, now_ns, false);
	if (rtt_ns != PROBE_RTT_NONE)
		rtt_sample(s, now_ns, rtt_ns);
	return PROBE_DROP_NR;
}

unsigned int probe_stats_expire(struct probe_stats *s, uint64_t now_ns, uint64_t timeout_ns)
{
	unsigned int k, n = 0;

	if (!s->inflight)
		return 0;
	for (k = 0; k < PROBE_OUTSTANDING; k++) {
		if (s->out[k].state != SLOT_WAITING || s->out[k].sent_ns + timeout_ns > now_ns)
			continue;
		s->out[k].state = SLOT_TIMED_OUT;
		s->inflight--;
		outcome(s, s->out[k].flow, now_ns, true);
		n++;
	}
	return n;
}

double probe_stats_loss(const struct probe_stats *s, uint64_t now_ns, unsigned int window_s,
			unsigned int *ended)
{
	uint64_t sec = now_ns / NS_PER_S, done = 0, lost = 0;
	unsigned int b;

	if (window_s > PROBE_WINDOW_MAX_S)
		window_s = PROBE_WINDOW_MAX_S;
	for (b = 0; b <= PROBE_WINDOW_MAX_S; b++) {
		if (!s->bin[b].done || s->bin[b].sec + window_s <= sec)
			continue;
		done += s->bin[b].done;
		lost += s->bin[b].lost;
	}
	if (ended)
		*ended = (unsigned int)done;
	return done ? (double)lost / (double)done : -1;
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

double probe_stats_rtt_q(const struct probe_stats *s, uint64_t now_ns, unsigned int window_s,
			 double q)
{
	float v[PROBE_RTT_SAMPLES];
	unsigned int i, n = 0;
	uint64_t w = (uint64_t)window_s * NS_PER_S;

	for (i = 0; i < s->rtt_count; i++)
		if (s->rtt[i].at_ns + w > now_ns)
			v[n++] = s->rtt[i].rtt_s;
	if (!n)
		return -1;
	qsort(v, n, sizeof(v[0]), cmp_float);
	i = (unsigned int)(q * (n - 1) + 0.5);
	return v[i < n ? i : n - 1];
}
