// SPDX-License-Identifier: GPL-2.0
/*
 * fold_ports.c - the ports' readings into the model: monotonic counters
 * and rates, carrier changes, PFC and pause storms, error bursts, flaps,
 * ports that came and went, and each port's rate history (fold.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <net/if.h>

#include "fold.h"
#include "text.h"

/* The model's port for a reading, a new one if it is new (NULL: no room). */
static struct model_port *port_for(struct model *m, const struct raw_port *rp, uint64_t now)
{
	struct model_port *p = model_port_get(m, rp->device, rp->port);
	unsigned int k;

	if (p)
		return p;
	for (k = 0; k < MODEL_MAX_PORTS && m->port_key[k]; k++)
		;
	if (k == MODEL_MAX_PORTS)
		return NULL;
	p = &m->ports[k];
	memset(p, 0, sizeof(*p));
	p->present = true;
	m->port_key[k] = model_port_key(rp->device, rp->port);
	if (k >= m->port_slots)
		m->port_slots = k + 1;
	p->carrier = -1;
	p->carrier_logged = -1;
	text_copy(p->device, sizeof(p->device), rp->device);
	p->port = rp->port;
	if (m->samples)		/* not the ports there at start */
		model_log_event(m, EV_PORT_ADDED, p->device, p->port, now);
	return p;
}

/*
 * if_nametoindex(3) through one socket kept for the collector thread:
 * glibc's opens and closes a socket at each call, which was an eighth of a
 * fabtel.ko-mode sample.  Asked at every pass, so a netdev made again under
 * the same name is seen with its new index; not asked when fabtel.ko's
 * snapshot gave it (the netdev itself, not a name looked up after).
 */
static int ifindex_of(struct fold *f, const char *name)
{
	struct ifreq ifr = { 0 };

	if (strlen(name) >= sizeof(ifr.ifr_name))
		return 0;
	if (f->sock < 0)
		f->sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (f->sock < 0)
		return (int)if_nametoindex(name);
	memcpy(ifr.ifr_name, name, strlen(name) + 1);
	return ioctl(f->sock, SIOCGIFINDEX, &ifr) ? 0 : ifr.ifr_ifindex;
}

static void fold_link(struct fold *f, struct model *m, struct model_port *p,
		      const struct raw_port *rp, uint64_t now)
{
	text_copy(p->netdev, sizeof(p->netdev), rp->netdev);
	p->ifindex = !p->netdev[0] ? 0 : rp->ifindex > 0 ? rp->ifindex : ifindex_of(f, p->netdev);
	text_copy(p->driver, sizeof(p->driver), rp->driver[0] ? rp->driver : "-");
	p->soft_roce = rp->soft_roce || !strcmp(rp->driver, "rxe");
	text_copy(p->state, sizeof(p->state), rp->state);
	p->carrier = rp->carrier;
	if (p->carrier_logged < 0) {
		p->carrier_logged = p->carrier;
	} else if (p->carrier >= 0 && p->carrier != p->carrier_logged &&
		   (m->src[SRC_BPF_FLAP] != SRC_STATE_UP || p->ifindex <= 0)) {
		/*
		 * Without the flap program, a change seen by sampling.  With
		 * it, its events (exact, handled as they come) are the word:
		 * a reading taken before an event it has already reported
		 * would log the change a second time, backwards.
		 */
		p->carrier_logged = p->carrier;
		model_log_event(m, p->carrier ? EV_LINK_UP : EV_LINK_DOWN, p->device, p->port,
				now);
	}
}

/*
 * One reading into a total and its rate.  wide: the source's counter is 64
 * bits, so a fall is a reset, never a 32-bit wrap.  rebase: the source
 * changed since the last pass, so the reading is a new baseline, not a
 * rise.  After a reset or a rebase the rate over the interval is unknown.
 */
static void fold_count(struct mono *c, struct rate *r, uint64_t raw, bool wide, bool rebase,
		       uint64_t mono)
{
	uint64_t resets = c->resets;

	if (rebase)
		mono_rebase(c, raw);
	else if (wide)
		mono_update64(c, raw);
	else
		mono_update(c, raw);
	if (!r)
		return;
	if (rebase || c->resets != resets)
		rate_forget(r, c->total, mono);
	else
		rate_update(r, c->total, mono);
}

/*
 * A count (fold_count: wide if the source's is 64-bit, so that a drop is a
 * reset, never a 32-bit wrap); how much it rose: 0 at its first reading
 * and at a new baseline.
 */
static uint64_t count_rise(struct mono *c, uint64_t v, bool wide, bool rebase)
{
	uint64_t before = c->primed ? c->total : v;

	fold_count(c, NULL, v, wide, rebase, 0);
	return c->total > before ? c->total - before : 0;
}

/* the module's diagnostics and the RoCE config: states, kept from their last read */
static void fold_module(struct model_port *p, const struct raw_port *rp, uint64_t now)
{
	/* an identifier neither SFF-8636 nor CMIS is still a module: kind "unknown" */
	p->have_ddm = rp->ddm_read && (!rp->ddm_err || rp->ddm_err == -EPROTONOSUPPORT);
	p->ddm_read = rp->ddm_read;
	p->ddm_by_ko = rp->ddm_by_ko;
	p->ddm_err = rp->ddm_err;
	if (p->have_ddm)
		p->ddm = rp->ddm;
	if (p->have_ddm && ddm_trouble(&p->ddm)) {
		if (!p->optics_trouble)
			p->optics_since_ns = now;
		p->optics_trouble = true;
	} else {
		p->optics_trouble = false;
	}
	/* the RoCE config: the job's ToS on a priority without PFC */
	p->cfg = rp->cfg;
	if (rp->cfg.have_pfc && rp->cfg.tos_prio >= 0 &&
	    !(rp->cfg.pfc_en & (1u << rp->cfg.tos_prio))) {
		if (!p->misconfigured)
			p->misconfigured_ns = now;
		p->misconfigured = true;
	} else {
		p->misconfigured = false;
	}
}

static void fold_counters(struct model_port *p, const struct raw_port *rp, bool ko, bool rebase,
			  uint64_t mono)
{
	unsigned int c;

	for (c = 0; c < FABTEL_NR_COUNTERS; c++) {
		p->have[c] = rp->have[c];
		if (!rp->have[c])
			continue;
		/* not read this pass: its rate stays that of its last read */
		if ((rp->held & (1u << c)) && !rebase && p->ctr[c].primed)
			continue;
		/* fabtel.ko extends 32-bit counters itself */
		fold_count(&p->ctr[c], &p->rate[c], rp->ctr[c], ko || rp->width[c] == 64, rebase,
			   mono);
	}
	/* PMA counters saturate rather than wrap: a drop is a clear (perfquery -x) */
	for (c = 0; c < FABTEL_NR_PMA; c++) {
		p->have_pma[c] = rp->have_pma[c];
		if (rp->have_pma[c])
			fold_count(&p->pma[c], NULL, rp->pma[c], true, rebase, mono);
	}
	/* the netdev's, whichever source read the port: no new baseline */
	p->fec_mode = rp->fec_mode;
	for (c = 0; c < ETHNL_FEC_NR; c++) {
		p->have_fec[c] = rp->have_fec[c];
		if (rp->have_fec[c])
			fold_count(&p->fec[c], NULL, rp->fec[c], true, false, mono);
	}
	/* the driver's statistics (ethtool -S), 64-bit totals */
	text_copy(p->es_vendor, sizeof(p->es_vendor), rp->es_vendor);
	for (c = 0; c < ES_PRIO_NR * MODEL_PRIOS; c++) {
		unsigned int s = c / MODEL_PRIOS, k = c % MODEL_PRIOS;

		p->have_es_prio[s][k] = rp->have_es_prio[s][k];
		if (rp->have_es_prio[s][k])
			fold_count(&p->es_prio[s][k], NULL, rp->es_prio[s][k], true, false, mono);
	}
	for (c = 0; c < ES_PORT_NR; c++) {
		p->have_es_port[c] = rp->have_es_port[c];
		if (rp->have_es_port[c])
			fold_count(&p->es_port[c], NULL, rp->es_port[c], true, false, mono);
	}
	p->have_nd = rp->have_nd;
	if (rp->have_nd) {
		fold_count(&p->nd_rx, &p->nd_rx_rate, rp->nd_rx_bytes, true, false, mono);
		fold_count(&p->nd_tx, &p->nd_tx_rate, rp->nd_tx_bytes, true, false, mono);
	}
}

static void fold_pfc(struct model *m, struct model_port *p, const struct raw_port *rp,
		     uint64_t mono, uint64_t now)
{
	struct model_event *ev;
	unsigned int k;
	bool was_storm;

	p->have_busy_skips = rp->have_busy_skips;
	if (rp->have_busy_skips)
		fold_count(&p->dcb_busy_skips, NULL, rp->dcb_busy_skips, true, false, mono);
	p->have_pma_errors = rp->have_pma_errors;
	if (rp->have_pma_errors)
		fold_count(&p->pma_errors, NULL, rp->pma_errors, true, false, mono);
	p->pfc_read = rp->pfc_read;
	p->pfc_enabled_mask = rp->pfc_mask;
	for (k = 0; k < MODEL_PRIOS; k++) {
		p->prio_read[k] = rp->prio_read[k];
		if (!rp->prio_read[k])
			continue;
		fold_count(&p->pause_tx[k], &p->pause_tx_rate[k], rp->pause_tx[k], true, false, mono);
		fold_count(&p->pause_rx[k], &p->pause_rx_rate[k], rp->pause_rx[k], true, false, mono);
		fold_count(&p->storms[k], NULL, rp->storms[k], true, false, mono);
		was_storm = p->storm[k];
		p->storm[k] = rp->storm[k];
		if (was_storm != p->storm[k]) {
			ev = model_log_event(m, p->storm[k] ? EV_PAUSE_STORM : EV_PAUSE_STORM_END,
					     p->device, p->port, now);
			ev->priority = (int)k;
		}
	}
}

/*
 * One event per counter for the bursts fabtel.ko detailed since the last
 * pass (from..to of rp->burst_ev): the sum of their rises, count the
 * bursts, span from the first one's sample to the last's end.  A pass logs
 * at most one event a counter, so a port under loss does not push the
 * rest of the log out of its ring.
 */
static void log_counter_bursts(struct model *m, struct model_port *p, const struct raw_port *rp,
			       unsigned int from)
{
	const struct raw_burst *b, *c;
	struct model_event *ev;
	bool done[RAW_BURSTS] = { false };
	unsigned int i, k;

	for (i = from; i < rp->nr_burst_ev; i++) {
		if (done[i])
			continue;
		b = &rp->burst_ev[i];
		ev = NULL;
		for (k = i; k < rp->nr_burst_ev; k++) {
			c = &rp->burst_ev[k];
			if (done[k] || strcmp(c->counter, b->counter))
				continue;
			done[k] = true;
			if (!ev) {
				ev = model_log_event(m, EV_ERROR_BURST, p->device, p->port, c->at_ns);
				text_copy(ev->counter, sizeof(ev->counter), c->counter);
				ev->count = 0;
			}
			ev->count++;
			ev->amount += c->amount;
			ev->at_ns = c->at_ns;	/* the newest */
			ev->span_ns = c->at_ns - b->at_ns + c->span_ns;
		}
	}
}

/* fabtel.ko's error-burst events (a count and events), and those its ring lost */
static void fold_bursts(struct model *m, struct model_port *p, const struct raw_port *rp,
			bool rebase, uint64_t now)
{
	unsigned int first;
	uint64_t n;

	p->have_bursts = rp->have_bursts;
	/* fabtel.ko's events_seq and events_dropped are 64-bit */
	if (rp->have_bursts && (n = count_rise(&p->bursts, rp->bursts, true, rebase))) {
		/* one for the oldest, not detailed (past those read), then by counter */
		first = rp->nr_burst_ev > n ? rp->nr_burst_ev - (unsigned int)n : 0;
		if (n > rp->nr_burst_ev - first)
			model_log_event(m, EV_ERROR_BURST, p->device, p->port,
					rp->nr_burst_ev ? rp->burst_ev[first].at_ns : now)->count =
				n - (rp->nr_burst_ev - first);
		log_counter_bursts(m, p, rp, first);
	}
	p->have_events_dropped = rp->have_events_dropped;
	if (rp->have_events_dropped)
		fold_count(&p->events_dropped, NULL, rp->events_dropped, true, rebase, 0);
}

/*
 * The port's speed.  Degraded: ACTIVE at a lower rate than it had ACTIVE
 * before (renegotiated down: a lane lost, an optic or cable failing; the
 * most it had is this fabteld's memory, which a restart forgets), or its
 * netdev running below the fastest mode both ends advertise (ethtool: ours
 * and the link partner's, known only where the link autonegotiates and the
 * driver reports the partner).
 */
static void fold_speed(struct model_port *p, const struct raw_port *rp, uint64_t now)
{
	bool active = !strcmp(p->state, "ACTIVE"), below;
	uint32_t best;

	p->have_rate = rp->have_rate;
	p->rate_mbps = rp->rate_mbps;
	p->lanes = rp->lanes;
	p->have_nd_speed = rp->have_nd_speed;
	p->nd_speed_mbps = rp->nd_speed_mbps;
	p->have_lm = rp->have_lm;
	p->lm_supported_mbps = rp->have_lm ? rp->lm.supported_mbps : 0;
	p->lm_advertised_mbps = rp->have_lm ? rp->lm.advertised_mbps : 0;
	p->lm_peer_mbps = rp->have_lm ? rp->lm.peer_mbps : 0;
	if (!rp->have_rate || !active)
		return;
	if (rp->rate_mbps > p->rate_max_mbps)
		p->rate_max_mbps = rp->rate_mbps;
	best = p->lm_advertised_mbps < p->lm_peer_mbps ? p->lm_advertised_mbps : p->lm_peer_mbps;
	below = rp->rate_mbps < p->rate_max_mbps ||
		(best && rp->have_nd_speed && rp->nd_speed_mbps < best);
	if (below && !p->degraded)
		p->degraded_ns = now;
	p->degraded = below;
}

/*
 * a flap is timed by the flap program when it saw it (a time no earlier
 * flap took, within 30 s), else now: without the program, a flap 10 s
 * after another is not given the other's time
 */
static void fold_flaps(struct model *m, struct model_port *p, const struct raw_port *rp,
		       bool ko, bool rebase, uint64_t now)
{
	struct model_event *ev;
	uint64_t n;

	p->have_flaps = rp->have_flaps;
	/* fabtel.ko's flaps are 64-bit, sysfs's carrier_down_count 32 */
	if (!rp->have_flaps || !(n = count_rise(&p->flaps, rp->flaps, ko, rebase)))
		return;
	if (!p->last_flap_ns || p->last_flap_ns <= p->flap_timed_ns ||
	    p->last_flap_ns + 30 * NS_PER_S < now)
		p->last_flap_ns = now;	/* BPF did not time it */
	p->flap_timed_ns = p->last_flap_ns;
	ev = model_log_event(m, EV_LINK_FLAP, p->device, p->port, p->last_flap_ns);
	ev->count = n;
	ev->have_down = rp->have_flap_down;
	ev->down_ns = rp->flap_down_ns;
}

void fold_ports(struct fold *f, struct model *m, const struct raw *r, uint64_t now)
{
	bool seen[MODEL_MAX_PORTS] = { false };
	/*
	 * fabtel.ko loaded or unloaded since the last pass: the same ports'
	 * counts now come from elsewhere (a flap count that includes the down
	 * at device setup, 32-bit values): a new baseline, not a flap.
	 */
	bool rebase = m->ports_ko >= 0 && m->ports_ko != r->ko;
	unsigned int i;

	m->ports_ko = r->ko;

	for (i = 0; i < r->nr_ports; i++) {
		const struct raw_port *rp = &r->ports[i];
		struct model_port *p = port_for(m, rp, now);

		if (!p)
			continue;
		seen[p - m->ports] = true;
		fold_link(f, m, p, rp, now);
		p->reads = rp->reads;	/* how its reads fared this pass */
		fold_speed(p, rp, now);
		fold_counters(p, rp, r->ko, rebase, r->ports_mono);
		fold_module(p, rp, now);
		link_trend_fold(&p->trend, p, &m->opts.health, r->ports_mono, now);
		fold_bursts(m, p, rp, rebase, now);
		fold_pfc(m, p, rp, r->ports_mono, now);
		fold_flaps(m, p, rp, r->ko, rebase, now);
	}
	for (i = 0; i < m->port_slots; i++)
		if (m->ports[i].present && seen[i])
			model_hist_record(&m->ports[i], now);
	for (i = 0; i < m->port_slots; i++)
		if (m->ports[i].present && !seen[i]) {
			m->ports[i].present = false;	/* device gone */
			m->port_key[i] = 0;
			model_log_event(m, EV_PORT_REMOVED, m->ports[i].device,
					m->ports[i].port, now);
		}
	while (m->port_slots && !m->ports[m->port_slots - 1].present)
		m->port_slots--;
}

void fold_init(struct fold *f)
{
	memset(f, 0, sizeof(*f));
	f->sock = -1;
}

void fold_fini(struct fold *f)
{
	if (f->sock >= 0)
		close(f->sock);
	f->sock = -1;
}
