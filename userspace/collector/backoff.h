/* SPDX-License-Identifier: GPL-2.0 */
/*
 * backoff.h - when a read that failed may be asked again (backoff.c).
 *
 * On a real NIC each read of a port's driver state may be a firmware
 * command; one that fails is not asked again before its back-off: its
 * period or 1 s, whichever is longer, doubled at each failure in a row up
 * to 300 s; one success ends it.  fabtel.ko keeps the same schedule
 * (kmod/fabtel/fabtel_backoff.c).  Pure: the caller gives the time.
 */
#ifndef FABTEL_BACKOFF_H
#define FABTEL_BACKOFF_H

#include <stdbool.h>
#include <stdint.h>

#define BACKOFF_MIN_MS	1000
#define BACKOFF_MAX_MS	300000

enum backoff_state {
	BACKOFF_UNKNOWN,	/* never asked */
	BACKOFF_OK,		/* the last call answered */
	BACKOFF_FAILING,	/* the last call failed: not asked before next_ns */
	BACKOFF_UNSUPPORTED,	/* the driver has no such thing (-EOPNOTSUPP, none to read) */
};

struct backoff {
	uint64_t failures;	/* failed calls since the state was made (the port added) */
	uint32_t consecutive;	/* failed calls in a row; 0 after a success */
	int err;		/* the last failure's -errno; 0 none yet */
	uint64_t next_ns;	/* while failing: not asked before (the caller's clock) */
	uint32_t delay_ms;	/* the current back-off; 0 while not failing */
	enum backoff_state state;
};

/* True unless a failure's back-off holds the read at now_ns. */
bool backoff_due(const struct backoff *b, uint64_t now_ns);
/* The read answered: the back-off ends (failures and err are kept). */
void backoff_ok(struct backoff *b);
/*
 * The read failed with err (-errno) at now_ns; period_ms is how often it
 * is asked when it answers (0: each pass).  The next try is due after
 * max(period_ms, BACKOFF_MIN_MS), or twice the last delay, up to
 * BACKOFF_MAX_MS.
 */
void backoff_fail(struct backoff *b, int err, uint64_t now_ns, uint32_t period_ms);
/* The driver said it has no such read: asked again at its period, no back-off. */
void backoff_unsupported(struct backoff *b);
/*
 * A call's answer, as fabtel.ko takes it: 0 backoff_ok, -EOPNOTSUPP
 * backoff_unsupported, any other -errno backoff_fail.
 */
void backoff_done(struct backoff *b, int err, uint64_t now_ns, uint32_t period_ms);

#endif /* FABTEL_BACKOFF_H */
