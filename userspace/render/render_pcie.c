// SPDX-License-Identifier: GPL-2.0
/*
 * render_pcie.c - the RDMA devices' PCI functions (fold_pcie.c) as
 * Prometheus text and JSON (render.h; Documentation/nic_health.rst,
 * metrics.rst): each function's link (current, its maximum, its slot's),
 * whether it runs below what it should, and its AER counters by kind.
 */
#include <stdio.h>

#include <json-c/json.h>

#include "fold.h"
#include "render.h"

static const char *const sev_name[3] = { "correctable", "nonfatal", "fatal" };

/* which link of q: 0 current, 1 its maximum, 2 its slot's (upstream port's) maximum */
static void link_of(const struct model_pcie *q, int which, unsigned int *mts, unsigned int *w)
{
	*mts = which == 0 ? q->cur_mts : which == 1 ? q->max_mts : q->slot_mts;
	*w = which == 0 ? q->cur_w : which == 1 ? q->max_w : q->slot_w;
}

static void link_series(const struct model_pcie *q, struct expo *e, bool width)
{
	static const char *const link[3] = { "current", "max", "slot" };
	struct expo_label l[4] = { { "device", q->device }, { "pci", q->bdf } };
	unsigned int mts, w;
	int k;

	for (k = 0; k < 3; k++) {
		link_of(q, k, &mts, &w);
		if (width ? !w : !mts)
			continue;
		l[2] = (struct expo_label){ "link", link[k] };
		l[3] = (struct expo_label){ NULL, NULL };
		if (width)
			expo_u64(e, "fabtel_pcie_link_width", l, w);
		else
			expo_double(e, "fabtel_pcie_link_speed_gts", l, mts / 1000.0);
	}
}

static void aer_series(const struct model_pcie *q, struct expo *e)
{
	struct expo_label l[5] = { { "device", q->device }, { "pci", q->bdf } };
	unsigned int k;

	for (k = 0; k < q->nr_aer; k++) {
		l[2] = (struct expo_label){ "severity", sev_name[q->aer[k].sev % 3] };
		l[3] = (struct expo_label){ "error", q->aer[k].name };
		l[4] = (struct expo_label){ NULL, NULL };
		expo_u64(e, "fabtel_pcie_aer_errors_total", l, q->aer[k].n);
	}
}

void render_pcie_families(const struct model *m, struct expo *e)
{
	struct expo_label l[3] = { { NULL, NULL } };
	unsigned int i;

	if (m->src[SRC_PCIE] != SRC_STATE_UP)
		return;
	expo_family(e, "fabtel_pcie_link_speed_gts", "gauge",
		    "PCIe link speed of an RDMA device's PCI function in GT/s: current, its maximum, its slot's (the upstream port's maximum).");
	for (i = 0; i < m->nr_pcie; i++)
		if (m->pcie[i].bdf[0])
			link_series(&m->pcie[i], e, false);
	expo_family(e, "fabtel_pcie_link_width", "gauge",
		    "PCIe link width of an RDMA device's PCI function in lanes: current, its maximum, its slot's.");
	for (i = 0; i < m->nr_pcie; i++)
		if (m->pcie[i].bdf[0])
			link_series(&m->pcie[i], e, true);
	expo_family(e, "fabtel_pcie_degraded", "gauge",
		    "1: the function's link runs below the lower of its and its slot's maximum, or below the best it ran at since fabteld started (reason pcie_degraded).");
	for (i = 0; i < m->nr_pcie; i++) {
		if (!m->pcie[i].bdf[0])
			continue;
		l[0] = (struct expo_label){ "device", m->pcie[i].device };
		l[1] = (struct expo_label){ "pci", m->pcie[i].bdf };
		expo_u64(e, "fabtel_pcie_degraded", l, m->pcie[i].degraded);
	}
	expo_family(e, "fabtel_pcie_aer_errors_total", "counter",
		    "AER errors the function reported, by severity and kind (aer_dev_correctable, _nonfatal, _fatal).");
	for (i = 0; i < m->nr_pcie; i++)
		if (m->pcie[i].bdf[0] && m->pcie[i].have_aer)
			aer_series(&m->pcie[i], e);
}

static struct json_object *jlink(const struct model_pcie *q, int which)
{
	struct json_object *o;
	unsigned int mts, w;

	link_of(q, which, &mts, &w);
	if (!mts && !w)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "speed_gts", mts ? json_object_new_double(mts / 1000.0) : NULL);
	json_object_object_add(o, "width", w ? json_object_new_int64(w) : NULL);
	return o;
}

static struct json_object *jaer(const struct model_pcie *q)
{
	struct json_object *o = json_object_new_object(), *k[3];
	unsigned int s, i;

	for (s = 0; s < 3; s++) {
		k[s] = json_object_new_object();
		json_object_object_add(k[s], "total", json_object_new_uint64(q->aer_total[s]));
	}
	for (i = 0; i < q->nr_aer; i++)
		json_object_object_add(k[q->aer[i].sev % 3], q->aer[i].name,
				       json_object_new_uint64(q->aer[i].n));
	for (s = 0; s < 3; s++)
		json_object_object_add(o, sev_name[s], k[s]);
	return o;
}

/* every RDMA device's PCI function, for /api/v1/snapshot's pcie */
struct json_object *render_pcie_functions(const struct model *m)
{
	struct json_object *a = json_object_new_array(), *o;
	unsigned int i;

	for (i = 0; i < m->nr_pcie; i++) {
		const struct model_pcie *q = &m->pcie[i];

		o = json_object_new_object();
		json_object_object_add(o, "device", json_object_new_string(q->device));
		json_object_object_add(o, "pci", q->bdf[0] ? json_object_new_string(q->bdf) : NULL);
		json_object_object_add(o, "current", jlink(q, 0));
		json_object_object_add(o, "max", jlink(q, 1));
		json_object_object_add(o, "slot", jlink(q, 2));
		json_object_object_add(o, "degraded", json_object_new_boolean(q->degraded));
		json_object_object_add(o, "detail", q->detail[0] ?
				       json_object_new_string(q->detail) : NULL);
		json_object_object_add(o, "aer", q->have_aer ? jaer(q) : NULL);
		json_object_object_add(o, "note", q->why[0] ? json_object_new_string(q->why) : NULL);
		json_object_array_add(a, o);
	}
	return a;
}
