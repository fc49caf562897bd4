/* SPDX-License-Identifier: GPL-2.0 */
/*
 * link_trend.h - a port's link getting worse before it fails
 * (link_trend.c): the FEC-corrected and PMA symbol-error totals of its
 * last LINK_TREND_MAX_S seconds, and the link_degrading state they make.
 */
#ifndef FABTEL_LINK_TREND_H
#define FABTEL_LINK_TREND_H

#include <stdbool.h>
#include <stdint.h>

#include "health.h"

#define LINK_TREND_POINTS	32	/* one each LINK_TREND_STEP_MS at most: >= LINK_TREND_MAX_S */
#define LINK_TREND_STEP_MS	500

enum { LT_FEC = 1, LT_FEC_BITS = 2, LT_SYM = 4 };

struct link_trend {
	uint64_t mono[LINK_TREND_POINTS];	/* CLOCK_MONOTONIC of the reading */
	uint64_t fec[LINK_TREND_POINTS];	/* corrected bits, else blocks */
	uint64_t sym[LINK_TREND_POINTS];
	uint8_t have[LINK_TREND_POINTS];	/* LT_* */
	unsigned int head, count;
	/* the last evaluation */
	bool degrading;
	uint64_t since_ns;			/* CLOCK_REALTIME it began */
	double fec_ppb, sym_per_s;		/* -1: not known */
	char why[128];
};

struct model_port;
/*
 * link_trend_fold: this pass's readings of p into its trend (mono: when
 * they were read), then the state judged against cfg (now: CLOCK_REALTIME).
 */
void link_trend_fold(struct link_trend *t, const struct model_port *p,
		     const struct health_cfg *cfg, uint64_t mono, uint64_t now);

#endif /* FABTEL_LINK_TREND_H */
