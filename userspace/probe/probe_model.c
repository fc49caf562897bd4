// SPDX-License-Identifier: GPL-2.0
/*
 * probe_model.c - between the prober and the collector's model (prober.h):
 * the model's RoCE ports in, each port's probe summary out (struct
 * port_probe), and the per-pair verdicts the renderers and the summary share.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "model.h"
#include "prober.h"

bool probe_pair_loss_bad(const struct prober *pr, const struct probe_pair *p, uint64_t now_ns,
			 double *loss)
{
	unsigned int ended = 0;

	*loss = probe_stats_loss(&p->st, now_ns, pr->cfg.window_s, &ended);
	return ended >= PROBE_MIN_ENDED && *loss * 100 >= pr->cfg.loss_pct;
}

bool probe_flow_losing(const struct prober *pr, const struct probe_flow *f, uint64_t now_ns,
		       double *loss)
{
	unsigned int ended = 0;

	*loss = probe_flow_loss(f, now_ns, pr->cfg.window_s, &ended);
	return ended >= PROBE_MIN_ENDED && *loss * 100 >= pr->cfg.loss_pct;
}

unsigned int probe_pair_flows_losing(const struct prober *pr, const struct probe_port *pp,
				     const struct probe_pair *p, uint64_t now_ns)
{
	unsigned int f, n = 0;
	double loss;

	for (f = 0; f < pp->nr_flows && f < PROBE_MAX_FLOWS; f++)
		n += probe_flow_losing(pr, &p->st.flow[f], now_ns, &loss);
	return n;
}

bool probe_pair_rtt_bad(const struct prober *pr, const struct probe_pair *p, uint64_t now_ns,
			double *rtt_s)
{
	*rtt_s = probe_stats_rtt_q(&p->st, now_ns, pr->cfg.window_s, 0.5);
	return *rtt_s >= 0 && *rtt_s * 1e6 >= pr->cfg.rtt_us;
}

static void peer_name(const struct probe_pair *p, char *out, size_t len)
{
	snprintf(out, len, "%s/%s/%u", p->peer.host, p->peer.device, p->peer.port);
}

static void summarize(const struct prober *pr, struct probe_port *pp, uint64_t now,
		      uint64_t real, struct port_probe *s)
{
	double loss, rtt;
	unsigned int k;
	int err;

	memset(s, 0, sizeof(*s));
	s->have = pp->up;
	s->worst_loss = -1;
	s->worst_rtt_s = -1;
	for (k = 0; pp->up && k < PROBE_MAX_PEERS; k++) {
		const struct probe_pair *p = &pp->pairs[k];

		if (!p->present)
			continue;
		s->pairs++;
		if (probe_pair_address(pp, p, &err) == PROBE_ADDR_UNRESOLVED)
			s->unresolved++;
		if (probe_pair_loss_bad(pr, p, now, &loss))
			s->loss_bad++;
		if (loss >= 0 && loss < 1)
			s->reachable++;
		if (loss > s->worst_loss) {
			s->worst_loss = loss;
			peer_name(p, s->loss_peer, sizeof(s->loss_peer));
			s->loss_flows = pp->nr_flows;
			s->loss_flows_losing = probe_pair_flows_losing(pr, pp, p, now);
		}
		if (probe_pair_rtt_bad(pr, p, now, &rtt))
			s->latency_bad++;
		if (rtt > s->worst_rtt_s) {
			s->worst_rtt_s = rtt;
			peer_name(p, s->rtt_peer, sizeof(s->rtt_peer));
		}
	}
	if (!s->loss_bad)
		pp->loss_since_ns = 0;
	else if (!pp->loss_since_ns)
		pp->loss_since_ns = real;
	if (!s->latency_bad)
		pp->latency_since_ns = 0;
	else if (!pp->latency_since_ns)
		pp->latency_since_ns = real;
	s->loss_since_ns = pp->loss_since_ns;
	s->latency_since_ns = pp->latency_since_ns;
}

struct port_in {
	char device[64];
	uint32_t port;
	char netdev[IF_NAMESIZE];
	bool active;
	int tos;
	char driver[32];
};

static struct probe_port *slot_for(struct prober *pr, const struct port_in *in)
{
	struct probe_port *free_slot = NULL;
	unsigned int i;

	for (i = 0; i < PROBE_MAX_PORTS; i++) {
		struct probe_port *pp = &pr->ports[i];

		/* its own slot, kept (counts and all) while it was down or gone */
		if (pp->device[0] && !strcmp(pp->device, in->device) && pp->port == in->port)
			return pp;
		if (!free_slot && !pp->present && !pp->up && !pp->busy && !pp->device[0])
			free_slot = pp;
	}
	if (!free_slot)
		for (i = 0; i < PROBE_MAX_PORTS && !free_slot; i++)
			if (!pr->ports[i].present && !pr->ports[i].up && !pr->ports[i].busy)
				free_slot = &pr->ports[i];
	if (free_slot) {
		struct probe_pair *pairs = free_slot->pairs;

		if (!pairs)
			pairs = calloc(PROBE_MAX_PEERS, sizeof(*pairs));
		else
			memset(pairs, 0, PROBE_MAX_PEERS * sizeof(*pairs));
		if (!pairs)
			return NULL;
		memset(free_slot, 0, sizeof(*free_slot));
		free_slot->pairs = pairs;
		snprintf(free_slot->device, sizeof(free_slot->device), "%s", in->device);
		free_slot->port = in->port;
	}
	return free_slot;
}

static unsigned int ports_in(struct model *m, struct port_in *in)
{
	unsigned int i, n = 0;

	pthread_mutex_lock(&m->lock);
	for (i = 0; i < MODEL_MAX_PORTS; i++) {
		const struct model_port *p = &m->ports[i];

		if (!p->present)
			continue;
		snprintf(in[n].device, sizeof(in[n].device), "%s", p->device);
		in[n].port = p->port;
		snprintf(in[n].netdev, sizeof(in[n].netdev), "%s", p->netdev);
		in[n].active = !strcmp(p->state, "ACTIVE") && p->carrier != 0;
		in[n].tos = p->cfg.tos;
		snprintf(in[n].driver, sizeof(in[n].driver), "%s", p->driver);
		n++;
	}
	pthread_mutex_unlock(&m->lock);
	return n;
}

void prober_sync(struct prober *pr, struct model *m)
{
	static struct port_in in[MODEL_MAX_PORTS];	/* the main thread's alone */
	static struct port_probe sum[PROBE_MAX_PORTS];
	static char dev[PROBE_MAX_PORTS][64];
	uint32_t port[PROBE_MAX_PORTS];
	uint64_t now = clock_ns(CLOCK_MONOTONIC), real = clock_ns(CLOCK_REALTIME);
	unsigned int n = ports_in(m, in), i, ns = 0;
	struct probe_port *pp;
	struct model_port *mp;

	pthread_mutex_lock(&pr->lock);
	for (i = 0; i < PROBE_MAX_PORTS; i++)
		pr->ports[i].present = false;
	pr->ports_over = 0;
	for (i = 0; i < n; i++) {
		pp = slot_for(pr, &in[i]);
		if (!pp) {
			pr->ports_over++;
			continue;
		}
		pp->present = true;
		pp->active = in[i].active;
		pp->tos = in[i].tos;
		snprintf(pp->driver, sizeof(pp->driver), "%s", in[i].driver);
		snprintf(pp->netdev, sizeof(pp->netdev), "%s", in[i].netdev);
		summarize(pr, pp, now, real, &sum[ns]);
		snprintf(dev[ns], sizeof(dev[ns]), "%s", pp->device);
		port[ns++] = pp->port;
	}
	pthread_mutex_unlock(&pr->lock);
	probe_wake(pr);

	pthread_mutex_lock(&m->lock);
	for (i = 0; i < MODEL_MAX_PORTS; i++)
		m->ports[i].probe.have = false;
	for (i = 0; i < ns; i++) {
		mp = model_port_get(m, dev[i], port[i]);
		if (mp)
			mp->probe = sum[i];
	}
	pthread_mutex_unlock(&m->lock);
}

unsigned int prober_endpoints(const struct prober *pr, struct probe_endpoint *eps,
			      unsigned int max)
{
	unsigned int i, n = 0;

	for (i = 0; i < PROBE_MAX_PORTS && n < max; i++) {
		const struct probe_port *pp = &pr->ports[i];

		if (!pp->up)
			continue;
		memset(&eps[n], 0, sizeof(eps[n]));
		snprintf(eps[n].host, sizeof(eps[n].host), "%s", pr->cfg.host);
		snprintf(eps[n].device, sizeof(eps[n].device), "%s", pp->device);
		eps[n].port = pp->port;
		snprintf(eps[n].netdev, sizeof(eps[n].netdev), "%s", pp->netdev[0] ? pp->netdev : "-");
		memcpy(eps[n].gid, pp->gid, 16);
		eps[n].qpn = pp->qpn;
		eps[n].qkey = pr->cfg.qkey;
		n++;
	}
	return n;
}
