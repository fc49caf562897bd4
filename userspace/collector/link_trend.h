/* SPDX-License-Identifier: GPL-2.0 */
/*
 * link_trend.h - a port's link getting worse before it fails
 * (link_trend.c): when its FEC-corrected and PMA symbol-error totals last
 * changed, and the link_degrading state their rates make.
 */
#ifndef FABTEL_LINK_TREND_H
#define FABTEL_LINK_TREND_H

#include <stdbool.h>
#include <stdint.h>

#include "health.h"

#define LINK_TREND_POINTS	32	/* changes of a total kept */

/* one total's last changes: when a pass saw it move, and to what */
struct trend_series {
	uint64_t mono[LINK_TREND_POINTS];	/* CLOCK_MONOTONIC of the pass */
	uint64_t total[LINK_TREND_POINTS];
	unsigned int head, count;
	bool bits;				/* FEC: corrected bits, else blocks */
};

enum { LT_FEC, LT_SYM, LT_NR };

struct link_trend {
	struct trend_series s[LT_NR];
	/* the last evaluation */
	bool degrading;
	uint64_t since_ns;			/* CLOCK_REALTIME it began */
	double fec_ppb, sym_per_s;		/* -1: not known */
	char why[128];
};

struct model_port;
/*
 * link_trend_fold: this pass's totals of p into its trend (mono: when they
 * were read), then the state judged against cfg (now: CLOCK_REALTIME).
 */
void link_trend_fold(struct link_trend *t, const struct model_port *p,
		     const struct health_cfg *cfg, uint64_t mono, uint64_t now);

#endif /* FABTEL_LINK_TREND_H */
