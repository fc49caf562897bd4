// SPDX-License-Identifier: GPL-2.0
/*
 * render_config.c - each port's RoCE configuration as Prometheus text
 * (render.h, Documentation/metrics.rst): one info series whose labels are
 * the settings (so a rule can compare a job's hosts), and the verdict on
 * them (fabtel_port_misconfigured).
 */
#include <stdio.h>
#include <string.h>

#include "labels.h"
#include "render.h"

/* "3,4" from a priority mask; "" for none */
static void prio_list(char *out, size_t len, uint8_t mask)
{
	size_t n = 0;
	unsigned int k;

	out[0] = '\0';
	for (k = 0; k < MODEL_PRIOS; k++)
		if (mask & (1u << k))
			n += (size_t)snprintf(out + n, n < len ? len - n : 0, "%s%u", n ? "," : "", k);
}

/* "26:3,48:6": the DSCP values the APP table maps, with their priorities */
static void dscp_list(char *out, size_t len, const struct port_config *c)
{
	size_t n = 0;
	unsigned int d;

	out[0] = '\0';
	for (d = 0; d < 64 && n < len; d++)
		if (c->dscp_prio[d])
			n += (size_t)snprintf(out + n, len - n, "%s%u:%u", n ? "," : "", d,
					      c->dscp_prio[d] - 1);
}

static void info_one(struct expo *e, const struct model_port *p)
{
	const struct port_config *c = &p->cfg;
	char port[12], pfc[24], dscp[400], tos[8], prio[8], mtu[12], gids[12];
	struct expo_label l[13];
	unsigned int n = 0;

	snprintf(port, sizeof(port), "%u", p->port);
	l[n++] = (struct expo_label){ "device", p->device };
	l[n++] = (struct expo_label){ "port", port };
	l[n++] = (struct expo_label){ "netdev", p->netdev };
	prio_list(pfc, sizeof(pfc), c->pfc_en);
	l[n++] = (struct expo_label){ "pfc", c->have_pfc ? pfc : "unknown" };
	dscp_list(dscp, sizeof(dscp), c);
	l[n++] = (struct expo_label){ "trust", c->dcb_err ? "unknown" : c->dscp_mode ? "dscp" : "pcp" };
	l[n++] = (struct expo_label){ "dscp_map", dscp };
	snprintf(tos, sizeof(tos), "%d", c->tos);
	l[n++] = (struct expo_label){ "roce_tos", c->tos >= 0 ? tos : "unknown" };
	l[n++] = (struct expo_label){ "tos_source", c->tos_source ? c->tos_source : "" };
	snprintf(prio, sizeof(prio), "%d", c->tos_prio);
	l[n++] = (struct expo_label){ "tos_priority", c->tos_prio >= 0 ? prio : "unknown" };
	snprintf(mtu, sizeof(mtu), "%u", c->mtu);
	l[n++] = (struct expo_label){ "mtu", c->mtu ? mtu : "unknown" };
	snprintf(gids, sizeof(gids), "%d", c->roce_v2_gids);
	l[n++] = (struct expo_label){ "roce_v2_gids", c->roce_v2_gids >= 0 ? gids : "unknown" };
	l[n] = (struct expo_label){ NULL, NULL };
	expo_u64(e, "fabtel_port_config_info", l, 1);
}

void render_config_families(const struct model *m, struct expo *e)
{
	struct port_labels pl;
	unsigned int i;
	bool any = false;

	for (i = 0; i < MODEL_MAX_PORTS; i++) {
		if (!m->ports[i].present || !m->ports[i].cfg.read)
			continue;
		if (!any)
			expo_family(e, "fabtel_port_config_info", "gauge",
				    "1: the port's RoCE settings as labels: PFC-enabled priorities, trust mode, DSCP map, RoCE ToS and where it came from, the priority it lands on, MTU, RoCE v2 GIDs.");
		any = true;
		info_one(e, &m->ports[i]);
	}
	any = false;
	for (i = 0; i < MODEL_MAX_PORTS; i++) {
		const struct model_port *p = &m->ports[i];

		if (!p->present || !p->cfg.read || !p->cfg.have_pfc || p->cfg.tos_prio < 0)
			continue;
		if (!any)
			expo_family(e, "fabtel_port_misconfigured", "gauge",
				    "1 while RoCE traffic's ToS lands on a priority without PFC (reason misconfigured); absent when that cannot be told.");
		any = true;
		expo_u64(e, "fabtel_port_misconfigured", port_labels(&pl, p, NULL, NULL),
			 p->misconfigured);
	}
}
