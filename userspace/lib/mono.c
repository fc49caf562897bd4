// SPDX-License-Identifier: GPL-2.0
/*
 * mono.c - monotonic totals and rates of hardware counters (see mono.h).
 */
#include "mono.h"

/*
 * A 32-bit counter that wrapped moves on by a small modular step; a counter
 * that was reset to zero (and counted a little since) looks like a huge one.
 * No error or packet counter gains 2^31 in one sampling interval (that is
 * 2 G packets a second at 1 Hz), so a step below that is a wrap and anything
 * else a reset, whose new value is what was counted since.
 */
#define WRAP_MAX_STEP	(1ULL << 31)

static uint64_t update(struct mono *m, uint64_t raw, bool may_wrap32)
{
	uint64_t step;

	if (!m->primed) {
		m->total = raw;
		m->primed = true;
	} else if (raw >= m->last) {
		m->total += raw - m->last;
	} else {
		step = (1ULL << 32) - m->last + raw;
		if (may_wrap32 && m->last <= UINT32_MAX && step < WRAP_MAX_STEP) {
			m->total += step;
		} else {
			m->total += raw;
			m->resets++;
		}
	}
	m->last = raw;
	return m->total;
}

uint64_t mono_update(struct mono *m, uint64_t raw)
{
	return update(m, raw, true);
}

uint64_t mono_update64(struct mono *m, uint64_t raw)
{
	return update(m, raw, false);
}

void mono_rebase(struct mono *m, uint64_t raw)
{
	if (!m->primed) {
		m->total = raw;
		m->primed = true;
	}
	m->last = raw;
}

void rate_forget(struct rate *r, uint64_t total, uint64_t now_ns)
{
	r->prev = total;
	r->prev_ns = now_ns;
	r->primed = true;
	r->valid = false;
}

void rate_update(struct rate *r, uint64_t total, uint64_t now_ns)
{
	if (r->primed && now_ns <= r->prev_ns)
		return;
	if (!r->primed || total < r->prev) {
		r->valid = false;
	} else {
		r->per_s = (double)(total - r->prev) * 1e9 / (double)(now_ns - r->prev_ns);
		r->valid = true;
	}
	r->prev = total;
	r->prev_ns = now_ns;
	r->primed = true;
}
