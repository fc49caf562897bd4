// SPDX-License-Identifier: GPL-2.0
/*
 * render_phy.c - the driver statistics fabteld maps (source_ethstats.c) as
 * Prometheus families: per priority how long PFC paused the port, the PHY's
 * symbol, CRC and discard counts.  Only what the driver reports: no series
 * for a statistic it lacks, never a zero.
 */
#include <stdio.h>

#include "labels.h"
#include "render.h"

static const struct {
	const char *name, *help;
	enum es_prio_stat stat;
} prio_families[] = {
	{ "fabtel_pfc_pause_rx_duration_seconds_total",
	  "How long the link partner kept the priority paused (driver statistics: mlx5e rx_prio<N>_pause_duration, bnxt_en pfc_pri<N>_rx_duration_us).",
	  ES_PAUSE_RX_US },
	{ "fabtel_pfc_pause_tx_duration_seconds_total",
	  "How long the port asked its link partner to pause the priority (driver statistics: mlx5e tx_prio<N>_pause_duration, bnxt_en pfc_pri<N>_tx_duration_us).",
	  ES_PAUSE_TX_US },
};

static const struct {
	const char *name, *help;
	enum es_port_stat stat;
} port_families[] = {
	{ "fabtel_port_phy_symbol_errors_total",
	  "Symbol errors the PHY counted (driver statistics: mlx5e rx_symbol_err_phy).",
	  ES_SYMBOL_ERRORS },
	{ "fabtel_port_phy_crc_errors_total",
	  "Frames received with a bad FCS (driver statistics: mlx5e rx_crc_errors_phy, bnxt_en rx_fcs_err_frames, ice rx_crc_errors.nic).",
	  ES_CRC_ERRORS },
	{ "fabtel_port_phy_discards_total",
	  "Frames the port dropped on receive for lack of buffers (driver statistics: mlx5e rx_discards_phy).",
	  ES_DISCARDS },
};

static void prio_family(const struct model *m, struct expo *e, unsigned int f)
{
	struct port_labels pl;
	char prio[4];
	unsigned int i, k;
	bool any = false;

	for (i = 0; i < MODEL_MAX_PORTS; i++) {
		const struct model_port *p = &m->ports[i];

		for (k = 0; p->present && k < MODEL_PRIOS; k++) {
			if (!p->have_es_prio[prio_families[f].stat][k])
				continue;
			if (!any)
				expo_family(e, prio_families[f].name, "counter", prio_families[f].help);
			any = true;
			snprintf(prio, sizeof(prio), "%u", k);
			/* microseconds, as all three drivers count them */
			expo_double(e, prio_families[f].name, port_labels(&pl, p, "priority", prio),
				    (double)p->es_prio[prio_families[f].stat][k].total / 1e6);
		}
	}
}

static void port_family(const struct model *m, struct expo *e, unsigned int f)
{
	struct port_labels pl;
	unsigned int i;
	bool any = false;

	for (i = 0; i < MODEL_MAX_PORTS; i++) {
		const struct model_port *p = &m->ports[i];

		if (!p->present || !p->have_es_port[port_families[f].stat])
			continue;
		if (!any)
			expo_family(e, port_families[f].name, "counter", port_families[f].help);
		any = true;
		expo_u64(e, port_families[f].name, port_labels(&pl, p, NULL, NULL),
			 p->es_port[port_families[f].stat].total);
	}
}

void render_phy_families(const struct model *m, struct expo *e)
{
	unsigned int f;

	for (f = 0; f < sizeof(prio_families) / sizeof(prio_families[0]); f++)
		prio_family(m, e, f);
	for (f = 0; f < sizeof(port_families) / sizeof(port_families[0]); f++)
		port_family(m, e, f);
}
