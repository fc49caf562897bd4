// SPDX-License-Identifier: GPL-2.0
/*
 * backoff.c - the back-off of a read that failed (backoff.h): the schedule
 * fabtel.ko's kmod/fabtel/fabtel_backoff.c keeps, so that a port that refuses a
 * read costs a few calls an hour (12 at the 300 s cap), not one a pass.
 */
#include <errno.h>

#include "backoff.h"

#define NS_PER_MS	1000000ULL

bool backoff_due(const struct backoff *b, uint64_t now_ns)
{
	return b->state != BACKOFF_FAILING || now_ns >= b->next_ns;
}

void backoff_ok(struct backoff *b)
{
	b->state = BACKOFF_OK;
	b->consecutive = 0;
	b->delay_ms = 0;
	b->next_ns = 0;
}

void backoff_fail(struct backoff *b, int err, uint64_t now_ns, uint32_t period_ms)
{
	uint32_t delay = period_ms > BACKOFF_MIN_MS ? period_ms : BACKOFF_MIN_MS;

	if (b->state == BACKOFF_FAILING && b->delay_ms) {
		if (b->delay_ms >= BACKOFF_MAX_MS / 2)
			delay = BACKOFF_MAX_MS;
		else if (2 * b->delay_ms > delay)
			delay = 2 * b->delay_ms;
	}
	if (delay > BACKOFF_MAX_MS)
		delay = BACKOFF_MAX_MS;
	b->state = BACKOFF_FAILING;
	b->failures++;
	b->consecutive++;
	b->err = err;
	b->delay_ms = delay;
	b->next_ns = now_ns + delay * NS_PER_MS;
}

void backoff_unsupported(struct backoff *b)
{
	b->state = BACKOFF_UNSUPPORTED;
	b->consecutive = 0;
	b->delay_ms = 0;
	b->next_ns = 0;
}

void backoff_done(struct backoff *b, int err, uint64_t now_ns, uint32_t period_ms)
{
	if (!err)
		backoff_ok(b);
	else if (err == -EOPNOTSUPP)
		backoff_unsupported(b);
	else
		backoff_fail(b, err, now_ns, period_ms);
}
