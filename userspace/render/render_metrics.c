// SPDX-License-Identifier: GPL-2.0
/*
 * render_metrics.c - the model as Prometheus text (see render.h,
 * Documentation/metrics.rst).  Every family is written whole (its samples
 * together), in a fixed order.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "labels.h"
#include "render.h"
#include "schema.h"

#ifndef FABTEL_VERSION
#define FABTEL_VERSION "0.0.0"
#endif

static void ports_family(const struct model *m, struct expo *e, const char *name,
			 const char *type, const char *help,
			 bool (*get)(const struct model_port *, uint64_t *))
{
	struct port_labels pl;
	uint64_t v;
	unsigned int i;
	bool any = false;

	for (i = 0; i < MODEL_MAX_PORTS; i++) {
		const struct model_port *p = &m->ports[i];

		if (!p->present || !get(p, &v))
			continue;
		if (!any)
			expo_family(e, name, type, help);
		any = true;
		expo_u64(e, name, port_labels(&pl, p, NULL, NULL), v);
	}
}

static bool get_up(const struct model_port *p, uint64_t *v)
{
	*v = !strcmp(p->state, "ACTIVE");
	return p->state[0];
}

static bool get_carrier(const struct model_port *p, uint64_t *v)
{
	*v = p->carrier > 0;
	return p->carrier >= 0;
}

static bool get_flaps(const struct model_port *p, uint64_t *v)
{
	*v = p->flaps.total;
	return p->have_flaps;
}

static bool get_bursts(const struct model_port *p, uint64_t *v)
{
	*v = p->bursts.total;
	return p->have_bursts;
}

static bool get_busy_skips(const struct model_port *p, uint64_t *v)
{
	*v = p->dcb_busy_skips.total;
	return p->have_busy_skips;
}

static bool get_pma_errors(const struct model_port *p, uint64_t *v)
{
	*v = p->pma_errors.total;
	return p->have_pma_errors;
}

static bool get_events_dropped(const struct model_port *p, uint64_t *v)
{
	*v = p->events_dropped.total;
	return p->have_events_dropped;
}

/* the per-QP BPF maps fabteld reads, in the order of its [2] counters */
static const char *const bpf_qp_maps[2] = { "rxe_qp_counts", "wire_qps" };

/* A counter family of two series told apart by one label. */
static void counter_pair(struct expo *e, const char *name, const char *help, const char *label,
			 const char *const value[2], const uint64_t v[2])
{
	struct expo_label l[2] = { { label, NULL }, { NULL, NULL } };
	unsigned int i;

	expo_family(e, name, "counter", help);
	for (i = 0; i < 2; i++) {
		l[0].value = value[i];
		expo_u64(e, name, l, v[i]);
	}
}

/* a counter family with one of a port's indexed counters: get gives NULL where absent */
static void indexed_family(const struct model *m, struct expo *e, const char *name,
			   const char *help, unsigned int c,
			   const struct mono *(*get)(const struct model_port *, unsigned int))
{
	const struct mono *v;
	struct port_labels pl;
	unsigned int i;
	bool any = false;

	for (i = 0; i < MODEL_MAX_PORTS; i++) {
		const struct model_port *p = &m->ports[i];

		if (!p->present || !(v = get(p, c)))
			continue;
		if (!any)
			expo_family(e, name, "counter", help);
		any = true;
		expo_u64(e, name, port_labels(&pl, p, NULL, NULL), v->total);
	}
}

static const struct mono *ctr_of(const struct model_port *p, unsigned int c)
{
	return p->have[c] ? &p->ctr[c] : NULL;
}

static const struct mono *pma_of(const struct model_port *p, unsigned int c)
{
	return p->have_pma[c] ? &p->pma[c] : NULL;
}

static void counter_families(const struct model *m, struct expo *e)
{
	char name[96], help[160];
	unsigned int c;

	for (c = 0; c < FABTEL_NR_COUNTERS; c++) {
		snprintf(name, sizeof(name), "fabtel_port_%s_total", schema_ctr_name(c));
		snprintf(help, sizeof(help),
			 "Normalized RoCE counter %s (Documentation/counters.rst); absent when the NIC has no source for it.",
			 schema_ctr_name(c));
		indexed_family(m, e, name, help, c, ctr_of);
	}
}

static bool get_speed(const struct model_port *p, uint64_t *v)
{
	*v = p->rate_mbps * 125000;	/* Mb/s -> bytes/s */
	return p->have_rate;
}

static bool get_lanes(const struct model_port *p, uint64_t *v)
{
	*v = p->lanes;
	return p->have_rate;
}

static bool get_speed_max(const struct model_port *p, uint64_t *v)
{
	*v = p->rate_max_mbps * 125000;
	return p->have_rate && p->rate_max_mbps;
}

static bool get_degraded(const struct model_port *p, uint64_t *v)
{
	*v = p->degraded;
	return p->have_rate && p->rate_max_mbps;
}

static bool get_degrading(const struct model_port *p, uint64_t *v)
{
	*v = p->trend.degrading;
	return true;
}

static bool get_nd_speed(const struct model_port *p, uint64_t *v)
{
	*v = p->nd_speed_mbps * 125000;
	return p->have_nd_speed;
}


/* the fastest link modes (ethtool), by set: absent when not read or none */
static void link_mode_family(const struct model *m, struct expo *e)
{
	static const char *const sets[] = { "supported", "advertised", "peer" };
	struct port_labels pl;
	uint32_t v[3];
	unsigned int i, k;
	bool any = false;

	for (i = 0; i < MODEL_MAX_PORTS; i++) {
		const struct model_port *p = &m->ports[i];

		if (!p->present || !p->have_lm)
			continue;
		v[0] = p->lm_supported_mbps;
		v[1] = p->lm_advertised_mbps;
		v[2] = p->lm_peer_mbps;
		for (k = 0; k < 3; k++) {
			if (!v[k])
				continue;
			if (!any)
				expo_family(e, "fabtel_port_netdev_mode_max_bytes", "gauge",
					    "The fastest link mode the netdev supports, advertises, or its link partner advertises (set), bytes/s (ethtool); absent when none is reported.");
			any = true;
			expo_u64(e, "fabtel_port_netdev_mode_max_bytes",
				 port_labels(&pl, p, "set", sets[k]), (uint64_t)v[k] * 125000);
		}
	}
}

/* the IB port (PMA) counters, from ib_core's sysfs: absent where the driver has none */
static void pma_families(const struct model *m, struct expo *e)
{
	char name[96], help[200];
	unsigned int c;

	for (c = 0; c < FABTEL_NR_PMA; c++) {
		snprintf(name, sizeof(name), "fabtel_port_ib_%s_total", schema_pma_metric(c));
		snprintf(help, sizeof(help),
			 "IB port counter %s (ports/<n>/counters/%s%s; Documentation/counters.rst).",
			 schema_pma_file(c), schema_pma_file(c),
			 schema_pma_width(c) < 32 ? ", saturates at its width" :
			 schema_pma_scale(c) > 1 ? ", 4-octet words as bytes" : "");
		indexed_family(m, e, name, help, c, pma_of);
	}
}

static const struct mono *fec_of(const struct model_port *p, unsigned int c)
{
	return p->have_fec[c] ? &p->fec[c] : NULL;
}

/* the netdev's FEC (ethtool): its mode, and the statistics the driver reports */
static void fec_families(const struct model *m, struct expo *e)
{
	static const char *const names[ETHNL_FEC_NR][2] = {
		{ "fabtel_port_fec_corrected_blocks_total",
		  "FEC blocks received with errors the FEC corrected (ethtool --show-fec)." },
		{ "fabtel_port_fec_uncorrectable_blocks_total",
		  "FEC blocks received with errors the FEC could not correct: frames lost (ethtool --show-fec)." },
		{ "fabtel_port_fec_corrected_bits_total",
		  "Bits the FEC corrected: the pre-FEC bit errors (ethtool --show-fec)." },
	};
	struct port_labels pl;
	unsigned int c, i;
	const char *mode;
	bool any = false;

	for (i = 0; i < MODEL_MAX_PORTS; i++) {
		const struct model_port *p = &m->ports[i];

		if (!p->present || !(mode = ethnl_fec_mode_name(p->fec_mode)))
			continue;
		if (!any)
			expo_family(e, "fabtel_port_fec_mode", "gauge",
				    "The FEC the netdev runs (mode: off, rs, baser, llrs); absent if ethtool does not say.");
		any = true;
		expo_u64(e, "fabtel_port_fec_mode", port_labels(&pl, p, "mode", mode), 1);
	}
	for (c = 0; c < ETHNL_FEC_NR; c++)
		indexed_family(m, e, names[c][0], names[c][1], c, fec_of);
}

enum prio_field { PF_ENABLED, PF_TX, PF_RX, PF_STORM, PF_STORMS };

static void prio_family(const struct model *m, struct expo *e, const char *name,
			const char *type, const char *help, enum prio_field f)
{
	struct port_labels pl;
	char prio[4];
	unsigned int i, k;
	uint64_t v;
	bool any = false;

	for (i = 0; i < MODEL_MAX_PORTS; i++) {
		const struct model_port *p = &m->ports[i];

		if (!p->present)
			continue;
		for (k = 0; k < MODEL_PRIOS; k++) {
			if (f == PF_ENABLED ? !p->pfc_read : !p->prio_read[k])
				continue;
			switch (f) {
			case PF_ENABLED:
				v = (p->pfc_enabled_mask >> k) & 1;
				break;
			case PF_TX:
				v = p->pause_tx[k].total;
				break;
			case PF_RX:
				v = p->pause_rx[k].total;
				break;
			case PF_STORM:
				v = p->storm[k];
				break;
			default:
				v = p->storms[k].total;
				break;
			}
			if (!any)
				expo_family(e, name, type, help);
			any = true;
			snprintf(prio, sizeof(prio), "%u", k);
			expo_u64(e, name, port_labels(&pl, p, "priority", prio), v);
		}
	}
}

/* one gauge per present job, labelled job_id only */
static void job_gauge(const struct model *m, struct expo *e, const char *name, const char *help,
		      uint64_t (*get)(const struct model_job *))
{
	struct expo_label l[2] = { { "job_id", NULL }, { NULL, NULL } };
	unsigned int i;

	expo_family(e, name, "gauge", help);
	for (i = 0; i < m->job_slots; i++) {
		if (!m->jobs[i].present)
			continue;
		l[0].value = m->jobs[i].id.id;
		expo_u64(e, name, l, get(&m->jobs[i]));
	}
}

static uint64_t get_verdict(const struct model_job *j)
{
	return j->result.verdict;
}

static uint64_t get_qps(const struct model_job *j)
{
	return j->nr_qps;
}

static void job_families(const struct model *m, struct expo *e)
{
	struct expo_label l[8];
	char port[16];
	unsigned int i, k, s;
	bool any;

	expo_family(e, "fabtel_job_info", "gauge",
		    "A job with QPs on this host (or that had some within job_linger_s); kind: slurm, k8s, config; user: its processes' user; hpc_job: the Slurm job id, as DCGM's exporter labels GPUs.");
	for (i = 0; i < m->job_slots; i++) {
		const struct model_job *j = &m->jobs[i];

		if (!j->present)
			continue;
		l[0] = (struct expo_label){ "job_id", j->id.id };
		l[1] = (struct expo_label){ "kind", job_kind_name(j->id.kind) };
		l[2] = (struct expo_label){ "user", j->user };
		l[3] = (struct expo_label){ "hpc_job", j->id.kind == JOB_SLURM ? j->id.id : "" };
		l[4] = (struct expo_label){ NULL, NULL };
		expo_u64(e, "fabtel_job_info", l, 1);
	}
	job_gauge(m, e, "fabtel_job_verdict",
		  "The job's fabric verdict on this host: 0 healthy, 1 degraded, 2 failing (reasons: /api/v1/jobs).",
		  get_verdict);
	job_gauge(m, e, "fabtel_job_qps", "The job's live QPs on this host.", get_qps);
	any = false;
	for (i = 0; i < m->job_slots; i++) {
		const struct model_job *j = &m->jobs[i];

		for (k = 0; j->present && k < j->nr_ports; k++) {
			if (!any)
				expo_family(e, "fabtel_job_port", "gauge",
					    "A port the job's QPs use; shared=\"1\" when other jobs use it too.");
			any = true;
			snprintf(port, sizeof(port), "%u", j->ports[k].port);
			l[0] = (struct expo_label){ "job_id", j->id.id };
			l[1] = (struct expo_label){ "device", j->ports[k].device };
			l[2] = (struct expo_label){ "port", port };
			l[3] = (struct expo_label){ "netdev", j->ports[k].netdev };
			l[4] = (struct expo_label){ "shared", j->ports[k].shared ? "1" : "0" };
			l[5] = (struct expo_label){ NULL, NULL };
			expo_u64(e, "fabtel_job_port", l, 1);
		}
	}
	any = false;
	for (i = 0; i < m->job_slots; i++) {
		const struct model_job *j = &m->jobs[i];

		for (k = 0; j->present && k < j->nr_ports; k++) {
			for (s = 0; s <= HS_QP_ERROR; s++) {
				if (!any)
					expo_family(e, "fabtel_job_qp_events_total", "counter",
						    "Events on the job's own QPs (BPF rxe program; QP errors from RDMA netlink), by port and kind.");
				any = true;
				snprintf(port, sizeof(port), "%u", j->ports[k].port);
				l[0] = (struct expo_label){ "job_id", j->id.id };
				l[1] = (struct expo_label){ "device", j->ports[k].device };
				l[2] = (struct expo_label){ "port", port };
				l[3] = (struct expo_label){ "kind", model_event_kind(s) };
				l[4] = (struct expo_label){ NULL, NULL };
				expo_u64(e, "fabtel_job_qp_events_total", l, j->ports[k].events[s]);
			}
		}
	}
	any = false;
	for (i = 0; i < m->job_slots; i++) {
		const struct model_job *j = &m->jobs[i];

		for (k = 0; j->present && k < j->nr_ports; k++) {
			if (!any)
				expo_family(e, "fabtel_job_link_flaps_total", "counter",
					    "Link flaps on the job's ports while it ran here.");
			any = true;
			snprintf(port, sizeof(port), "%u", j->ports[k].port);
			l[0] = (struct expo_label){ "job_id", j->id.id };
			l[1] = (struct expo_label){ "device", j->ports[k].device };
			l[2] = (struct expo_label){ "port", port };
			l[3] = (struct expo_label){ NULL, NULL };
			expo_u64(e, "fabtel_job_link_flaps_total", l, j->ports[k].flaps);
		}
	}
}

/* evidence lost before fabteld could count it */
static void lost_families(const struct model *m, struct expo *e)
{
	static const char *const progs[3] = { "flap", "qp", "rxe" };
	struct expo_label l[2] = { { "program", NULL }, { NULL, NULL } };
	unsigned int i;

	if (m->have_ring_drops) {
		expo_family(e, "fabtel_bpf_ring_drops_total", "counter",
			    "Events a BPF program lost because its ring buffer was full (flaps, QP owners, rxe events).");
		for (i = 0; i < 3; i++) {
			l[0].value = progs[i];
			expo_u64(e, "fabtel_bpf_ring_drops_total", l, m->bpf_ring_drops[i]);
		}
	}
	if (m->have_wire_refused) {
		static const char *const why[2] = { "map_full", "unknown_qp" };

		expo_family(e, "fabtel_wire_qp_refused_total", "counter",
			    "RoCEv2 frames the wire program did not count per QP: map_full, or unknown_qp (a QP RDMA netlink does not list, made up or not yet seen, when such QPs already hold their 4096 entries).");
		l[0].name = "reason";
		for (i = 0; i < 2; i++) {
			l[0].value = why[i];
			expo_u64(e, "fabtel_wire_qp_refused_total", l, m->wire_refused[i]);
		}
	}
	expo_family(e, "fabtel_ports_over_limit", "gauge",
		    "RoCE ports found beyond the 64 fabteld tracks (last pass): they have no series.");
	expo_u64(e, "fabtel_ports_over_limit", NULL, m->ports_over);
	expo_family(e, "fabtel_jobs_over_port_limit", "gauge",
		    "Jobs whose QPs use more than the 32 ports fabteld tracks per job (last pass): "
		    "signals on the others are not the job's.");
	expo_u64(e, "fabtel_jobs_over_port_limit", NULL, m->jobs_over_ports);
}

/* fabteld itself: version, sources, passes, what it dropped or failed to read */
static void self_families(const struct model *m, struct expo *e)
{
	render_self_families(m, e);
	counter_pair(e, "fabtel_dropped_total",
		     "QPs or jobs fabteld could not track (its tables were full).", "what",
		     (const char *const[2]){ "qps", "jobs" },
		     (const uint64_t[2]){ m->qps_dropped, m->jobs_dropped });
	counter_pair(e, "fabtel_bpf_stale_entries_removed_total",
		     "BPF map entries of QPs that are gone, deleted by fabteld.", "map",
		     bpf_qp_maps, m->bpf_pruned);
	counter_pair(e, "fabtel_bpf_map_read_errors_total",
		     "Passes whose walk of a per-QP BPF map failed (that pass's per-QP counts are partial).",
		     "map", bpf_qp_maps, m->bpf_read_errors);
	lost_families(m, e);
}

/*
 * The port's device as the host has it (devshape.h): its PCI function, a
 * VF's PF (address and RDMA device), a PF's VF count, a LAG port's bond
 * slaves; "" where it is none of these or cannot be told.
 */
static void port_info_family(const struct model *m, struct expo *e)
{
	struct port_labels pl;
	struct expo_label l[10];
	char vfs[16];
	unsigned int i;
	bool any = false;

	for (i = 0; i < MODEL_MAX_PORTS; i++) {
		const struct model_port *p = &m->ports[i];

		if (!p->present)
			continue;
		if (!any)
			expo_family(e, "fabtel_port_info", "gauge",
				    "An RDMA port with an Ethernet link layer (RoCE): its driver, PCI function, SR-IOV PF or VFs, RoCE LAG bond slaves.");
		any = true;
		memcpy(l, port_labels(&pl, p, "driver", p->driver), 4 * sizeof(l[0]));
		snprintf(vfs, sizeof(vfs), "%u", p->shape.vfs);
		l[4] = (struct expo_label){ "pci", p->shape.pci };
		l[5] = (struct expo_label){ "pf", p->shape.pf };
		l[6] = (struct expo_label){ "pf_device", p->shape.pf_device };
		l[7] = (struct expo_label){ "vfs", p->shape.is_pf ? vfs : "" };
		l[8] = (struct expo_label){ "bond_slaves", p->shape.bond_slaves };
		l[9] = (struct expo_label){ NULL, NULL };
		expo_u64(e, "fabtel_port_info", l, 1);
	}
}

/* one value per port, each its own family */
struct port_family {
	const char *name, *type, *help;
	bool (*get)(const struct model_port *p, uint64_t *v);
};

static const struct port_family port_link_families[] = {
	{ "fabtel_port_up", "gauge", "1 if the IB port state is ACTIVE.", get_up },
	{ "fabtel_port_carrier", "gauge", "The netdev's carrier (1 up).", get_carrier },
	{ "fabtel_link_flaps_total", "counter",
	  "Carrier flaps (down then up), including ones linkwatch coalesced.", get_flaps },
	{ "fabtel_port_error_bursts_total", "counter",
	  "Error-burst events fabtel.ko recorded (/sys/kernel/fabtel/.../events).", get_bursts },
	{ "fabtel_port_events_dropped_total", "counter",
	  "Error-burst events fabtel.ko lost: its per-port ring was full (events_dropped).",
	  get_events_dropped },
	{ "fabtel_port_dcb_busy_skips_total", "counter",
	  "DCB reads fabtel.ko skipped because RTNL was busy: PFC and ETS values are older while it rises.",
	  get_busy_skips },
	{ "fabtel_port_pma_read_errors_total", "counter",
	  "Samples in which the port's PMA did not answer fabtel.ko: the IB port counters are absent from that scrape.",
	  get_pma_errors },
};

static const struct port_family port_speed_families[] = {
	{ "fabtel_port_speed_bytes", "gauge",
	  "The IB port's rate (ports/<n>/rate) in bytes/s; absent if it cannot be read.",
	  get_speed },
	{ "fabtel_port_lanes", "gauge", "The IB port's width in lanes (4X: 4).", get_lanes },
	{ "fabtel_port_speed_max_seen_bytes", "gauge",
	  "The highest rate this port had while ACTIVE since fabteld started, bytes/s.",
	  get_speed_max },
	{ "fabtel_port_link_degraded", "gauge",
	  "1 while the port is ACTIVE below the highest rate it had (renegotiated down), or its netdev below the fastest mode both ends advertise.",
	  get_degraded },
	{ "fabtel_port_link_degrading", "gauge",
	  "1 while the link is up with FEC-corrected or PMA symbol errors at or past the degrading_* thresholds (reason link_degrading).",
	  get_degrading },
	{ "fabtel_port_netdev_speed_bytes", "gauge",
	  "The netdev's negotiated speed (/sys/class/net/<netdev>/speed) in bytes/s; absent when unknown.",
	  get_nd_speed },
};

void render_metrics(const struct model *m, struct expo *e, uint64_t start_ns)
{
	struct timespec ts;
	size_t i;

	self_families(m, e);
	port_info_family(m, e);
	for (i = 0; i < sizeof(port_link_families) / sizeof(port_link_families[0]); i++)
		ports_family(m, e, port_link_families[i].name, port_link_families[i].type,
			     port_link_families[i].help, port_link_families[i].get);
	render_source_families(m, e);
	counter_families(m, e);
	pma_families(m, e);
	fec_families(m, e);
	render_module_families(m, e);
	render_phy_families(m, e);
	render_config_families(m, e);
	render_qpcnt_families(m, e);
	render_pcie_families(m, e);
	render_devlink_families(m, e);
	render_kmsg_families(m, e);
	render_sticky_families(m, e);
	/* speeds in bytes a second, as node_exporter's node_network_speed_bytes */
	for (i = 0; i < sizeof(port_speed_families) / sizeof(port_speed_families[0]); i++)
		ports_family(m, e, port_speed_families[i].name, port_speed_families[i].type,
			     port_speed_families[i].help, port_speed_families[i].get);
	link_mode_family(m, e);
	prio_family(m, e, "fabtel_pfc_enabled", "gauge", "PFC enabled on the priority (DCB).",
		    PF_ENABLED);
	prio_family(m, e, "fabtel_pfc_pause_tx_total", "counter", "PFC pause frames sent.", PF_TX);
	prio_family(m, e, "fabtel_pfc_pause_rx_total", "counter", "PFC pause frames received.",
		    PF_RX);
	prio_family(m, e, "fabtel_pfc_storm", "gauge", "1 while a pause storm is in progress.",
		    PF_STORM);
	prio_family(m, e, "fabtel_pfc_storms_total", "counter", "Pause storms seen.", PF_STORMS);
	job_families(m, e);

	clock_gettime(CLOCK_MONOTONIC, &ts);
	expo_family(e, "fabtel_scrape_duration_seconds", "gauge",
		    "How long building this response took (from memory: sources are never read during a scrape).");
	expo_double(e, "fabtel_scrape_duration_seconds", NULL,
		    ((double)ts.tv_sec * 1e9 + (double)ts.tv_nsec - (double)start_ns) / 1e9);
}
