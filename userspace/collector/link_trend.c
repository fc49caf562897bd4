// SPDX-License-Identifier: GPL-2.0
/*
 * link_trend.c - link_degrading (link_trend.h, Documentation/recorder.rst,
 * "Precursors"): a link that is up but whose FEC corrects more and more,
 * or whose PMA counts symbol errors, is the link that flaps next.
 *
 * Each pass adds the port's FEC-corrected total (bits where the NIC counts
 * them, else blocks: each corrected block held one bit error at least, so
 * blocks give a lower bound of the bit error rate) and its PMA
 * symbol_error total, one point per LINK_TREND_STEP_MS at most.  The rates
 * are taken from the newest point back to the oldest within
 * degrading_window_s (at least a second apart); FEC as bits per 10^9 bits
 * of the link's speed (the pre-FEC bit error rate, in ppb).  While the
 * link is down or not ACTIVE there is no trend: a flap is port_down's and
 * link_flap's, and the counts across it are not a rate.
 */
#include <stdio.h>
#include <string.h>

#include "link_trend.h"
#include "model.h"

#define NS_PER_MS	1000000ull
#define NS_PER_SEC	1000000000ull

static uint8_t readings(const struct model_port *p, uint64_t *fec, uint64_t *sym)
{
	uint8_t have = 0;

	if (p->have_fec[ETHNL_FEC_CORR_BITS]) {
		*fec = p->fec[ETHNL_FEC_CORR_BITS].total;
		have |= LT_FEC | LT_FEC_BITS;
	} else if (p->have_fec[ETHNL_FEC_CORRECTED]) {
		*fec = p->fec[ETHNL_FEC_CORRECTED].total;
		have |= LT_FEC;
	}
	if (p->have_pma[FABTEL_PMA_SYMBOL_ERROR]) {
		*sym = p->pma[FABTEL_PMA_SYMBOL_ERROR].total;
		have |= LT_SYM;
	}
	return have;
}

static void add_point(struct link_trend *t, const struct model_port *p, uint64_t mono)
{
	unsigned int last = (t->head + LINK_TREND_POINTS - 1) % LINK_TREND_POINTS;
	uint64_t fec = 0, sym = 0;
	uint8_t have = readings(p, &fec, &sym);

	if (!have)
		return;
	if (t->count && mono < t->mono[last] + LINK_TREND_STEP_MS * NS_PER_MS)
		return;
	t->mono[t->head] = mono;
	t->fec[t->head] = fec;
	t->sym[t->head] = sym;
	t->have[t->head] = have;
	t->head = (t->head + 1) % LINK_TREND_POINTS;
	if (t->count < LINK_TREND_POINTS)
		t->count++;
}

static uint64_t link_mbps(const struct model_port *p)
{
	if (p->have_nd_speed && p->nd_speed_mbps)
		return p->nd_speed_mbps;
	return p->have_rate ? p->rate_mbps : 0;
}

/* the rates between the newest point and the oldest in the window: false if none a second apart */
static bool rates(struct link_trend *t, const struct model_port *p, unsigned int window_s)
{
	unsigned int nw = (t->head + LINK_TREND_POINTS - 1) % LINK_TREND_POINTS, i, k, old = nw;
	uint64_t span, mbps = link_mbps(p);

	for (k = 1; k < t->count; k++) {
		i = (nw + LINK_TREND_POINTS - k) % LINK_TREND_POINTS;
		if (t->mono[nw] - t->mono[i] > (uint64_t)window_s * NS_PER_SEC ||
		    t->have[i] != t->have[nw])
			break;
		old = i;
	}
	span = t->mono[nw] - t->mono[old];
	t->fec_ppb = t->sym_per_s = -1;
	if (old == nw || span < NS_PER_SEC)
		return false;
	if ((t->have[nw] & LT_FEC) && mbps && t->fec[nw] >= t->fec[old])
		/* bits/s over (mbps * 10^6) bits/s, times 10^9 */
		t->fec_ppb = (double)(t->fec[nw] - t->fec[old]) * 1e9 / (double)span * 1e3 /
			     (double)mbps;
	if ((t->have[nw] & LT_SYM) && t->sym[nw] >= t->sym[old])
		t->sym_per_s = (double)(t->sym[nw] - t->sym[old]) * 1e9 / (double)span;
	return true;
}

void link_trend_fold(struct link_trend *t, const struct model_port *p,
		     const struct health_cfg *cfg, uint64_t mono, uint64_t now)
{
	bool up = p->carrier != 0 && (!p->state[0] || !strcmp(p->state, "ACTIVE")), bad;
	int at = 0;

	if (!up) {
		t->count = 0;
		t->degrading = false;
		t->fec_ppb = t->sym_per_s = -1;
		return;
	}
	add_point(t, p, mono);
	if (!t->count || !rates(t, p, cfg->degrading_window_s)) {
		t->degrading = false;
		return;
	}
	bad = (t->fec_ppb >= 0 && t->fec_ppb >= cfg->degrading_fec_ppb) ||
	      (t->sym_per_s >= 0 && t->sym_per_s >= cfg->degrading_symbols);
	if (bad && !t->degrading)
		t->since_ns = now;
	t->degrading = bad;
	if (!bad)
		return;
	t->why[0] = '\0';
	if (t->fec_ppb >= cfg->degrading_fec_ppb)
		at = snprintf(t->why, sizeof(t->why), "FEC corrected %s %.3g ppb of %llu Mb/s",
			      t->have[(t->head + LINK_TREND_POINTS - 1) % LINK_TREND_POINTS] &
			      LT_FEC_BITS ? "bits" : "blocks (a lower bound)",
			      t->fec_ppb, (unsigned long long)link_mbps(p));
	if (t->sym_per_s >= cfg->degrading_symbols && at >= 0 && (size_t)at < sizeof(t->why))
		snprintf(t->why + at, sizeof(t->why) - (size_t)at, "%ssymbol errors %.3g/s",
			 at ? ", " : "", t->sym_per_s);
}
