// SPDX-License-Identifier: GPL-2.0
/*
 * link_trend.c - link_degrading (link_trend.h, Documentation/recorder.rst,
 * "Precursors"): a link that is up but whose FEC corrects more and more,
 * or whose PMA counts symbol errors, is the link that flaps next.
 *
 * The totals are read at their own pace (fabtel.ko's slow_ms, fabteld's
 * fec_s and pma_s: 10 s by default), not each pass: a total that did not
 * move may just not have been read again.  So each total keeps the passes
 * at which it moved, and its rate is taken between the newest such change
 * and the oldest one within degrading_window_s of it (at least a second
 * apart), going back no further than a gap over twice the newest step (2 s
 * at least): steps of a total read every 10 s give its true rate, not a
 * spike and a zero, and a climb after a quiet stretch is not diluted by
 * it.  A total that has not moved for twice its last step (2 s at least)
 * is still: rate 0.  FEC counts bits where the NIC counts
 * them, else blocks (each corrected block held one bit error at least: a
 * lower bound), as bits per 10^9 of the link's speed (the pre-FEC bit
 * error rate, in ppb).  While the link is down or not ACTIVE there is no
 * trend: a flap is port_down's and link_flap's, and counts across it are
 * no rate.
 */
#include <stdio.h>
#include <string.h>

#include "link_trend.h"
#include "model.h"

#define NS_PER_SEC	1000000000ull
#define LT_STILL_MIN	(2 * NS_PER_SEC)

#define AT(s, k)	(((s)->head + LINK_TREND_POINTS - 1 - (k)) % LINK_TREND_POINTS)

static void series_add(struct trend_series *s, bool have, uint64_t total, uint64_t mono)
{
	if (!have) {
		s->count = 0;
		return;
	}
	if (s->count && s->total[AT(s, 0)] == total)
		return;
	if (s->count && s->total[AT(s, 0)] > total)
		s->count = 0;		/* cleared: a new start */
	s->mono[s->head] = mono;
	s->total[s->head] = total;
	s->head = (s->head + 1) % LINK_TREND_POINTS;
	if (s->count < LINK_TREND_POINTS)
		s->count++;
}

/*
 * per second, between the newest change and the oldest within window_s of
 * it that no still stretch separates from it (a gap over twice the newest
 * one, 2 s at least: a climb after a quiet hour is its own rate); -1 none
 */
static double series_rate(const struct trend_series *s, unsigned int window_s, uint64_t mono)
{
	uint64_t newest, still, span;
	unsigned int k, old = 0;

	if (s->count < 2)
		return -1;
	newest = s->mono[AT(s, 0)];
	still = 2 * (newest - s->mono[AT(s, 1)]);
	still = still > LT_STILL_MIN ? still : LT_STILL_MIN;
	if (mono - newest > still)
		return 0;
	for (k = 1; k < s->count; k++) {
		if (newest - s->mono[AT(s, k)] > (uint64_t)window_s * NS_PER_SEC ||
		    s->mono[AT(s, k - 1)] - s->mono[AT(s, k)] > still)
			break;
		old = k;
	}
	span = newest - s->mono[AT(s, old)];
	if (!old || span < NS_PER_SEC)
		return -1;
	return (double)(s->total[AT(s, 0)] - s->total[AT(s, old)]) * 1e9 / (double)span;
}

static uint64_t link_mbps(const struct model_port *p)
{
	if (p->have_nd_speed && p->nd_speed_mbps)
		return p->nd_speed_mbps;
	return p->have_rate ? p->rate_mbps : 0;
}

static void take(struct link_trend *t, const struct model_port *p, uint64_t mono)
{
	struct trend_series *f = &t->s[LT_FEC];
	bool bits = p->have_fec[ETHNL_FEC_CORR_BITS];
	enum ethnl_fec_stat which = bits ? ETHNL_FEC_CORR_BITS : ETHNL_FEC_CORRECTED;

	if (f->bits != bits)
		f->count = 0;	/* another total: a new start */
	f->bits = bits;
	series_add(f, p->have_fec[which], p->fec[which].total, mono);
	series_add(&t->s[LT_SYM], p->have_pma[FABTEL_PMA_SYMBOL_ERROR],
		   p->pma[FABTEL_PMA_SYMBOL_ERROR].total, mono);
}

static void explain(struct link_trend *t, const struct health_cfg *cfg, uint64_t mbps)
{
	int at = 0;

	t->why[0] = '\0';
	if (t->fec_ppb >= cfg->degrading_fec_ppb)
		at = snprintf(t->why, sizeof(t->why), "FEC corrected %s %.3g ppb of %llu Mb/s",
			      t->s[LT_FEC].bits ? "bits" : "blocks (a lower bound)", t->fec_ppb,
			      (unsigned long long)mbps);
	if (t->sym_per_s >= cfg->degrading_symbols && at >= 0 && (size_t)at < sizeof(t->why))
		snprintf(t->why + at, sizeof(t->why) - (size_t)at, "%ssymbol errors %.3g/s",
			 at ? ", " : "", t->sym_per_s);
}

void link_trend_fold(struct link_trend *t, const struct model_port *p,
		     const struct health_cfg *cfg, uint64_t mono, uint64_t now)
{
	bool up = p->carrier != 0 && (!p->state[0] || !strcmp(p->state, "ACTIVE")), bad;
	uint64_t mbps = link_mbps(p);
	double fec;

	t->fec_ppb = t->sym_per_s = -1;
	if (!up) {
		t->s[LT_FEC].count = t->s[LT_SYM].count = 0;
		t->degrading = false;
		return;
	}
	take(t, p, mono);
	fec = series_rate(&t->s[LT_FEC], cfg->degrading_window_s, mono);
	/* bits/s over (mbps * 10^6) bits/s, times 10^9 */
	if (fec >= 0 && mbps)
		t->fec_ppb = fec * 1e3 / (double)mbps;
	t->sym_per_s = series_rate(&t->s[LT_SYM], cfg->degrading_window_s, mono);
	bad = (t->fec_ppb >= 0 && t->fec_ppb >= cfg->degrading_fec_ppb) ||
	      (t->sym_per_s >= 0 && t->sym_per_s >= cfg->degrading_symbols);
	if (bad && !t->degrading)
		t->since_ns = now;
	t->degrading = bad;
	if (bad)
		explain(t, cfg, mbps);
}
