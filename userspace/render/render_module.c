// SPDX-License-Identifier: GPL-2.0
/*
 * render_module.c - the plugged modules' diagnostics as Prometheus text
 * (render.h, Documentation/metrics.rst): what the module is, its monitors
 * in SI units, its own thresholds and its alarm and warning flags, and
 * fabteld's reading of them (fabtel_port_optics_trouble).  A port without
 * a module interface (virtio-net, rxe) or module has none of these.
 */
#include <stdio.h>

#include "labels.h"
#include "render.h"

/* the monitor families, by quantity: name, help */
static const char *const monitor[DDM_NQ][2] = {
	{ "fabtel_port_module_temperature_celsius", "The module's temperature." },
	{ "fabtel_port_module_voltage_volts", "The module's supply voltage." },
	{ "fabtel_port_module_tx_power_watts", "Optical power the module sends, per lane." },
	{ "fabtel_port_module_tx_bias_amperes", "Laser bias current, per lane." },
	{ "fabtel_port_module_rx_power_watts", "Optical power the module receives, per lane." },
};

/* the port's labels and up to two more pairs after the first extra */
static const struct expo_label *more(struct port_labels *pl, const struct model_port *p,
				     const char *k1, const char *v1, const char *k2,
				     const char *v2, const char *k3, const char *v3)
{
	port_labels(pl, p, k1, v1);
	pl->l[4] = (struct expo_label){ k2, v2 };
	pl->l[5] = (struct expo_label){ k3, v3 };
	pl->l[6] = (struct expo_label){ NULL, NULL };
	return pl->l;
}

static void info_family(const struct model *m, struct expo *e)
{
	struct port_labels pl;
	char id[8];
	unsigned int i;
	bool any = false;

	for (i = 0; i < MODEL_MAX_PORTS; i++) {
		const struct model_port *p = &m->ports[i];

		if (!p->present || !p->have_ddm)
			continue;
		if (!any)
			expo_family(e, "fabtel_port_module_info", "gauge",
				    "1: the plugged module, its memory map (sff8636, cmis, unknown) and SFF-8024 identifier.");
		any = true;
		snprintf(id, sizeof(id), "0x%02x", p->ddm.id);
		expo_u64(e, "fabtel_port_module_info",
			 more(&pl, p, "kind", ddm_kind_name(p->ddm.kind), "identifier", id, NULL, NULL), 1);
	}
}

static void monitor_family(const struct model *m, struct expo *e, enum ddm_q q)
{
	struct port_labels pl;
	char lane[4];
	unsigned int i, k;
	bool any = false;

	for (i = 0; i < MODEL_MAX_PORTS; i++) {
		const struct model_port *p = &m->ports[i];

		if (!p->present || !p->have_ddm || !p->ddm.have[q])
			continue;
		if (!any)
			expo_family(e, monitor[q][0], "gauge", monitor[q][1]);
		any = true;
		if (!DDM_LANE_Q(q)) {
			expo_double(e, monitor[q][0], port_labels(&pl, p, NULL, NULL), p->ddm.value[q][0]);
			continue;
		}
		for (k = 0; k < p->ddm.lanes; k++) {
			snprintf(lane, sizeof(lane), "%u", k + 1);
			expo_double(e, monitor[q][0], port_labels(&pl, p, "lane", lane),
				    p->ddm.value[q][k]);
		}
	}
}

static void threshold_family(const struct model *m, struct expo *e)
{
	static const char *name = "fabtel_port_module_threshold";
	struct port_labels pl;
	unsigned int i, q, l;
	bool any = false;

	for (i = 0; i < MODEL_MAX_PORTS; i++) {
		const struct model_port *p = &m->ports[i];

		for (q = 0; p->present && p->have_ddm && q < DDM_NQ; q++) {
			if (!p->ddm.have_thr[q])
				continue;
			if (!any)
				expo_family(e, name, "gauge",
					    "The module's own alarm and warning thresholds, in the unit of the quantity's monitor.");
			any = true;
			for (l = 0; l < DDM_NLEVEL; l++)
				expo_double(e, name,
					    more(&pl, p, "quantity", ddm_q_name(q), "level",
						 ddm_level_name(l), NULL, NULL),
					    p->ddm.thr[q][l]);
		}
	}
}

/* one port's flags: module-level ones (lanes 0) or per lane */
static void port_flags(struct expo *e, const char *name, const struct model_port *p, bool lanes)
{
	struct port_labels pl;
	char lane[4];
	unsigned int q, l, k;

	for (q = 0; q < DDM_NQ; q++) {
		if (DDM_LANE_Q(q) != lanes || !p->ddm.have[q])
			continue;
		for (l = 0; l < DDM_NLEVEL; l++) {
			if (!lanes) {
				expo_u64(e, name, more(&pl, p, "quantity", ddm_q_name(q), "level",
						       ddm_level_name(l), NULL, NULL),
					 p->ddm.flags[q][l] & 1);
				continue;
			}
			for (k = 0; k < p->ddm.lanes; k++) {
				snprintf(lane, sizeof(lane), "%u", k + 1);
				expo_u64(e, name, more(&pl, p, "quantity", ddm_q_name(q), "level",
						       ddm_level_name(l), "lane", lane),
					 (p->ddm.flags[q][l] >> k) & 1);
			}
		}
	}
}

static void flag_families(const struct model *m, struct expo *e, bool lanes)
{
	const char *name = lanes ? "fabtel_port_module_lane_flag" : "fabtel_port_module_flag";
	unsigned int i;
	bool any = false;

	for (i = 0; i < MODEL_MAX_PORTS; i++) {
		const struct model_port *p = &m->ports[i];

		if (!p->present || !p->have_ddm || !p->ddm.have_flags)
			continue;
		if (!any)
			expo_family(e, name, "gauge", lanes ?
				    "1 while the module raises this alarm or warning flag of the lane." :
				    "1 while the module raises this alarm or warning flag (temperature, voltage).");
		any = true;
		port_flags(e, name, p, lanes);
	}
}

static void trouble_family(const struct model *m, struct expo *e)
{
	struct port_labels pl;
	unsigned int i;
	bool any = false;

	for (i = 0; i < MODEL_MAX_PORTS; i++) {
		const struct model_port *p = &m->ports[i];

		if (!p->present || !p->have_ddm || p->ddm.kind == DDM_UNKNOWN)
			continue;
		if (!any)
			expo_family(e, "fabtel_port_optics_trouble", "gauge",
				    "1 while the module raises an alarm, or receives less than its low-warning power on a lane (reason optics).");
		any = true;
		expo_u64(e, "fabtel_port_optics_trouble", port_labels(&pl, p, NULL, NULL),
			 p->optics_trouble);
	}
}

void render_module_families(const struct model *m, struct expo *e)
{
	unsigned int q;

	info_family(m, e);
	for (q = 0; q < DDM_NQ; q++)
		monitor_family(m, e, q);
	threshold_family(m, e);
	flag_families(m, e, false);
	flag_families(m, e, true);
	trouble_family(m, e);
}
