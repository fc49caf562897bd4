// SPDX-License-Identifier: GPL-2.0
/*
 * health.c - per-job verdicts (see health.h).
 */
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "health.h"
#include "text.h"

#define MAX_PORTS 32

void health_cfg_defaults(struct health_cfg *cfg)
{
	cfg->window_s = 60;
	cfg->hold_s = 300;
	cfg->oos_events = 5;
	cfg->ack_timeouts = 5;
	cfg->rnr_naks = 100;
	cfg->link_errors = 10;
	cfg->pcie_errors = 10;
	cfg->degrading_window_s = 30;
	cfg->degrading_fec_ppb = 1000;
	cfg->degrading_symbols = 10;
}

const char *health_verdict_name(enum health_verdict v)
{
	static const char *const n[] = { "healthy", "degraded", "failing" };

	return v <= VERDICT_FAILING ? n[v] : "unknown";
}

const char *health_sig_name(enum health_sig s)
{
	static const char *const n[HS_NR] = {
		"out_of_sequence", "nak_seq_rcvd", "ack_timeout", "rnr_nak_rcvd",
		"retry_exceeded", "rnr_retry_exceeded", "qp_error", "link_flap",
		"pause_storm", "traffic", "link_errors", "pcie_errors", "pcie_uncorrectable",
		"nic_firmware", "driver_messages",
	};

	return s < HS_NR ? n[s] : "unknown";
}

void health_init(struct health_track *t)
{
	memset(t, 0, sizeof(*t));
}

static struct health_signal *nth(const struct health_track *t, unsigned int i)
{
	/* i = 0 is the oldest */
	unsigned int first = (t->head + HEALTH_MAX_SIGNALS - t->count) % HEALTH_MAX_SIGNALS;

	return (struct health_signal *)&t->sig[(first + i) % HEALTH_MAX_SIGNALS];
}

void health_add(struct health_track *t, const struct health_signal *s)
{
	struct health_signal *last;

	if (t->count) {
		last = nth(t, t->count - 1);
		if (last->sig == s->sig && last->port == s->port && last->shared == s->shared &&
		    last->counter == s->counter && last->has_peer == s->has_peer &&
		    !memcmp(last->peer, s->peer, sizeof(s->peer)) &&
		    !strcmp(last->device, s->device) && s->at_ns >= last->at_ns &&
		    s->at_ns - last->at_ns < NS_PER_S && s->sig != HS_LINK_FLAP) {
			last->n += s->n;
			last->at_ns = s->at_ns;
			return;
		}
	}
	t->sig[t->head] = *s;
	t->head = (t->head + 1) % HEALTH_MAX_SIGNALS;
	if (t->count < HEALTH_MAX_SIGNALS)
		t->count++;
	else
		t->dropped++;
}

void health_expire(struct health_track *t, const struct health_cfg *cfg, uint64_t now_ns)
{
	uint64_t keep = (uint64_t)(cfg->window_s > cfg->hold_s ? cfg->window_s : cfg->hold_s) * NS_PER_S;

	while (t->count && nth(t, 0)->at_ns + keep < now_ns)
		t->count--;
}

struct port_sum {
	char device[HEALTH_DEV_LEN];
	uint32_t port;
	uint64_t win[HS_NR], hold[HS_NR];	/* counts in window / hold */
	uint64_t last[HS_NR];			/* newest at_ns */
	bool shared[HS_NR];
	bool counter[HS_NR];
};

static struct port_sum *port_of(struct port_sum *ps, unsigned int *n, const char *dev,
				uint32_t port)
{
	unsigned int i;

	for (i = 0; i < *n; i++)
		if (ps[i].port == port && !strcmp(ps[i].device, dev))
			return &ps[i];
	if (*n == MAX_PORTS)
		return NULL;
	memset(&ps[*n], 0, sizeof(ps[*n]));
	snprintf(ps[*n].device, sizeof(ps[*n].device), "%s", dev);
	ps[*n].port = port;
	return &ps[(*n)++];
}

static void reason(struct health_result *r, const char *what, const char *sev,
		   const struct port_sum *p, uint64_t at, uint64_t count, bool shared)
{
	struct health_reason *x;

	if (r->nr_reasons == HEALTH_MAX_REASONS)
		return;
	x = &r->reasons[r->nr_reasons++];
	x->reason = what;
	x->severity = sev;
	snprintf(x->device, sizeof(x->device), "%s", p->device);
	x->port = p->port;
	x->at_ns = at;
	x->count = count;
	x->shared = shared;
	x->evidence = shared ? "port" : "qp_event";
}

/*
 * The peers of the counter-set signals of kind a or b on port p within the
 * hold before now, in words: "towards 10.0.0.2, 10.0.0.3"; "" if none.
 */
static void peers_of(const struct health_track *t, const struct port_sum *p, enum health_sig a,
		     enum health_sig b, uint64_t from, char *out, size_t len)
{
	const struct health_signal *s, *o;
	char addr[48];
	size_t at = 0;
	unsigned int i, k, more = 0;

	out[0] = '\0';
	for (i = 0; i < t->count; i++) {
		s = nth(t, i);
		if (!s->has_peer || (s->sig != a && s->sig != b) || s->at_ns < from ||
		    s->port != p->port || strcmp(s->device, p->device))
			continue;
		for (k = 0; k < i; k++) {	/* named already? */
			o = nth(t, k);
			if (o->has_peer && (o->sig == a || o->sig == b) && o->at_ns >= from &&
			    o->port == p->port && !memcmp(o->peer, s->peer, sizeof(o->peer)) &&
			    !strcmp(o->device, p->device))
				break;
		}
		if (k < i)
			continue;
		text_gid(addr, sizeof(addr), s->peer);
		if (at + strlen(addr) + 24 > len) {
			more++;
			continue;
		}
		at += (size_t)snprintf(out + at, len - at, "%s%s", at ? ", " : "towards ", addr);
	}
	if (more)
		snprintf(out + at, len - at, " and %u more", more);
}

/*
 * A counter-set signal behind the newest reason (not a port-wide one): its
 * evidence, and the peers where sets are by peer.
 */
static void by_counter(struct health_result *r, unsigned int before, bool counter,
		       const struct health_track *t, const struct port_sum *p,
		       enum health_sig a, enum health_sig b, uint64_t from)
{
	struct health_reason *x;

	if (r->nr_reasons <= before || !counter || r->reasons[r->nr_reasons - 1].shared)
		return;
	x = &r->reasons[r->nr_reasons - 1];
	x->evidence = "qp_counter";
	peers_of(t, p, a, b, from, x->detail, sizeof(x->detail));
}

/* Is p a port whose traffic the collector sees for this job? */
static bool seen(const struct health_track *t, const struct port_sum *p)
{
	unsigned int i;

	for (i = 0; i < t->nr_visible; i++)
		if (t->visible[i].port == p->port && !strcmp(t->visible[i].device, p->device))
			return true;
	return false;
}

void health_visible(struct health_track *t, const char *device, uint32_t port)
{
	if (t->nr_visible == HEALTH_MAX_VISIBLE)
		return;
	snprintf(t->visible[t->nr_visible].device, sizeof(t->visible[0].device), "%s", device);
	t->visible[t->nr_visible++].port = port;
}

/* Did the job move traffic (or hit errors) on p within window of a flap at at? */
static bool active_around(const struct health_track *t, const struct port_sum *p,
			  uint64_t at, uint64_t window)
{
	const struct health_signal *s;
	unsigned int i;

	for (i = 0; i < t->count; i++) {
		s = nth(t, i);
		if (s->port != p->port || strcmp(s->device, p->device) ||
		    s->sig == HS_LINK_FLAP || s->sig == HS_PAUSE_STORM || s->shared || !s->n)
			continue;
		if (s->at_ns + window >= at)
			return true;
	}
	return false;
}

static void eval_port(const struct health_track *t, const struct health_cfg *cfg,
		      const struct port_sum *p, struct health_result *r, int pass, uint64_t now)
{
	static const enum health_sig fatal[] = {
		HS_RETRY_EXCEEDED, HS_RNR_RETRY_EXCEEDED, HS_QP_ERROR,
	};
	uint64_t window = (uint64_t)cfg->window_s * NS_PER_S;
	uint64_t hold = (uint64_t)cfg->hold_s * NS_PER_S;
	uint64_t win_from = now > window ? now - window : 0, hold_from = now > hold ? now - hold : 0;
	uint64_t oos = p->win[HS_OUT_OF_SEQUENCE] + p->win[HS_NAK_SEQ_RCVD];
	uint64_t at;
	bool idle;
	unsigned int i, before;

	if (pass == VERDICT_FAILING) {
		for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) {
			before = r->nr_reasons;
			if (p->hold[fatal[i]])
				reason(r, health_sig_name(fatal[i]), "failing", p,
				       p->last[fatal[i]], p->hold[fatal[i]], p->shared[fatal[i]]);
			by_counter(r, before, p->counter[fatal[i]], t, p, fatal[i], fatal[i],
				   hold_from);
		}
		if (p->hold[HS_PCIE_FATAL])	/* uncorrectable: the function may have reset */
			reason(r, "pcie_errors", "failing", p, p->last[HS_PCIE_FATAL],
			       p->hold[HS_PCIE_FATAL], true);
		if (p->hold[HS_LINK_FLAP]) {
			idle = seen(t, p) &&
			       !active_around(t, p, p->last[HS_LINK_FLAP], window);
			reason(r, "link_flap", idle ? "notice" : "failing", p,
			       p->last[HS_LINK_FLAP], p->hold[HS_LINK_FLAP], true);
		}
		return;
	}
	before = r->nr_reasons;
	if (oos && oos >= cfg->oos_events) {
		at = p->last[HS_OUT_OF_SEQUENCE] > p->last[HS_NAK_SEQ_RCVD] ?
		     p->last[HS_OUT_OF_SEQUENCE] : p->last[HS_NAK_SEQ_RCVD];
		reason(r, "out_of_sequence", "degraded", p, at, oos,
		       p->shared[HS_OUT_OF_SEQUENCE] || p->shared[HS_NAK_SEQ_RCVD]);
		by_counter(r, before, p->counter[HS_OUT_OF_SEQUENCE] || p->counter[HS_NAK_SEQ_RCVD],
			   t, p, HS_OUT_OF_SEQUENCE, HS_NAK_SEQ_RCVD, win_from);
	}
	before = r->nr_reasons;
	if (p->win[HS_ACK_TIMEOUT] && p->win[HS_ACK_TIMEOUT] >= cfg->ack_timeouts)
		reason(r, "ack_timeout", "degraded", p, p->last[HS_ACK_TIMEOUT],
		       p->win[HS_ACK_TIMEOUT], p->shared[HS_ACK_TIMEOUT]);
	by_counter(r, before, p->counter[HS_ACK_TIMEOUT], t, p, HS_ACK_TIMEOUT, HS_ACK_TIMEOUT,
		   win_from);
	before = r->nr_reasons;
	if (p->win[HS_RNR_NAK] && p->win[HS_RNR_NAK] >= cfg->rnr_naks)
		reason(r, "rnr_nak", "degraded", p, p->last[HS_RNR_NAK], p->win[HS_RNR_NAK],
		       p->shared[HS_RNR_NAK]);
	by_counter(r, before, p->counter[HS_RNR_NAK], t, p, HS_RNR_NAK, HS_RNR_NAK, win_from);
	if (p->win[HS_PAUSE_STORM])
		reason(r, "pause_storm", "degraded", p, p->last[HS_PAUSE_STORM],
		       p->win[HS_PAUSE_STORM], true);
	if (p->win[HS_LINK_ERRORS] && p->win[HS_LINK_ERRORS] >= cfg->link_errors) {
		/* like a slowed link: a notice for a job that moves nothing there */
		idle = seen(t, p) &&
		       !active_around(t, p, p->last[HS_LINK_ERRORS], window);
		reason(r, "link_errors", idle ? "notice" : "degraded", p,
		       p->last[HS_LINK_ERRORS], p->win[HS_LINK_ERRORS], true);
	}
	if (p->win[HS_NIC_FW])	/* errors its reporters counted and recovered */
		reason(r, "nic_firmware", "degraded", p, p->last[HS_NIC_FW], p->win[HS_NIC_FW],
		       true);
	if (p->win[HS_DRIVER])	/* error lines its driver logged (driver_messages.rst) */
		reason(r, "driver_messages", "degraded", p, p->last[HS_DRIVER], p->win[HS_DRIVER],
		       true);
	if (p->win[HS_PCIE_ERRORS] && p->win[HS_PCIE_ERRORS] >= cfg->pcie_errors)
		reason(r, "pcie_errors", "degraded", p, p->last[HS_PCIE_ERRORS],
		       p->win[HS_PCIE_ERRORS], true);
}

static const char *const port_reason[] = {
	[HP_DOWN] = "port_down", [HP_DEGRADED] = "link_degraded",
	[HP_OPTICS] = "optics", [HP_MISCONFIGURED] = "misconfigured",
	[HP_PATH_LOSS] = "path_loss", [HP_PATH_LATENCY] = "path_latency",
	[HP_PCIE] = "pcie_degraded", [HP_NIC_FW] = "nic_firmware",
	[HP_WEDGED] = "driver_wedged", [HP_DEGRADING] = "link_degrading",
};

void health_eval(const struct health_track *t, const struct health_cfg *cfg,
		 uint64_t now_ns, const struct health_port_state *ports,
		 unsigned int nr_ports, struct health_result *out)
{
	struct port_sum ps[MAX_PORTS];		/* 11 KiB: each entry set when added */
	uint64_t window = (uint64_t)cfg->window_s * NS_PER_S, hold = (uint64_t)cfg->hold_s * NS_PER_S;
	const struct health_signal *s;
	struct port_sum *p, dp;
	unsigned int i, n = 0, best;

	memset(out, 0, sizeof(*out));
	out->culprit = -1;
	for (i = 0; i < t->count; i++) {
		s = nth(t, i);
		if (s->at_ns > now_ns + NS_PER_S)	/* from the future: clock stepped back */
			continue;
		p = port_of(ps, &n, s->device, s->port);
		if (!p)
			continue;
		if (s->at_ns + hold >= now_ns)
			p->hold[s->sig] += s->n;
		if (s->at_ns + window >= now_ns)
			p->win[s->sig] += s->n;
		if (s->at_ns + hold >= now_ns && s->at_ns > p->last[s->sig])
			p->last[s->sig] = s->at_ns;
		if (s->at_ns + hold >= now_ns && s->shared)
			p->shared[s->sig] = true;
		if (s->at_ns + hold >= now_ns && s->counter)
			p->counter[s->sig] = true;
	}
	for (i = 0; i < nr_ports; i++) {
		unsigned int before = out->nr_reasons;
		bool idle;

		memset(&dp, 0, sizeof(dp));
		snprintf(dp.device, sizeof(dp.device), "%s", ports[i].device);
		dp.port = ports[i].port;
		/* like a flap: a notice for a job that demonstrably moves nothing there */
		idle = seen(t, &dp) && !active_around(t, &dp, now_ns, window);
		if (ports[i].kind == HP_DOWN)
			reason(out, "port_down", idle ? "notice" : "failing", &dp,
			       ports[i].since_ns, 1, true);
		else if (ports[i].kind == HP_NIC_FW || ports[i].kind == HP_WEDGED)
			/* the NIC or its driver itself, used or idle */
			reason(out, port_reason[ports[i].kind], "failing", &dp, ports[i].since_ns,
			       ports[i].count ? ports[i].count : 1, true);
		else
			reason(out, port_reason[ports[i].kind], idle ? "notice" : "degraded", &dp,
			       ports[i].since_ns, ports[i].count ? ports[i].count : 1, true);
		if (out->nr_reasons > before && ports[i].detail[0])
			snprintf(out->reasons[out->nr_reasons - 1].detail,
				 sizeof(out->reasons[0].detail), "%s", ports[i].detail);
	}
	for (i = 0; i < n; i++)
		eval_port(t, cfg, &ps[i], out, VERDICT_FAILING, now_ns);
	for (i = 0; i < n; i++)
		eval_port(t, cfg, &ps[i], out, VERDICT_DEGRADED, now_ns);

	for (i = 0; i < out->nr_reasons; i++) {
		if (!strcmp(out->reasons[i].severity, "failing")) {
			out->verdict = VERDICT_FAILING;
			break;
		}
		if (!strcmp(out->reasons[i].severity, "degraded"))
			out->verdict = VERDICT_DEGRADED;
	}
	if (out->verdict == VERDICT_HEALTHY)
		return;
	/* culprit: the newest failing reason, else the degraded one with most events */
	best = out->nr_reasons;
	for (i = 0; i < out->nr_reasons; i++) {
		const struct health_reason *x = &out->reasons[i];

		if (strcmp(x->severity, health_verdict_name(out->verdict)))
			continue;
		if (best == out->nr_reasons ||
		    (out->verdict == VERDICT_FAILING ? x->at_ns > out->reasons[best].at_ns :
					       x->count > out->reasons[best].count))
			best = i;
	}
	out->culprit = (int)best;
}
