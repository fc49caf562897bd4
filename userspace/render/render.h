/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render.h - the renderers: the model as Prometheus text (render_metrics.c,
 * Documentation/metrics.rst; the families of render_config.c,
 * render_module.c, render_phy.c, render_sources.c, render_self.c over the
 * port labels of labels.h, written with expo.h) and as JSON (render_json.c:
 * /api/v1/snapshot, /api/v1/jobs, /api/v1/events; render_history.c;
 * render_trace.c).  fabteld serves them; fabtop's standalone mode renders
 * the same JSON from its in-process collector.  Call with model->lock held.
 */
#ifndef FABTEL_RENDER_H
#define FABTEL_RENDER_H

#include "model.h"
#include "expo.h"

struct json_object;

/* a CLOCK_REALTIME time as the JSON API gives times: Unix seconds, to the ms */
struct json_object *render_jtime(uint64_t ns);
/* one of a job's reasons, as /api/v1/jobs gives it */
struct json_object *render_reason(const struct health_reason *r);

/*
 * fabtel.ko's flight records (render_records.c): the list, one record, an
 * event's record (NULL none) and its link added to the event's JSON, a
 * record's API path
 */
struct json_object *render_records(const struct model *m);
struct json_object *render_record(const struct rec *r);
const struct rec *render_event_rec(const struct model *m, const struct model_event *ev);
void render_event_record(const struct model *m, const struct model_event *ev,
			 struct json_object *e);
void render_record_id(const struct rec *r, char *out, size_t size);

/* recent_fault (render_sticky.c): its families; a port's, as JSON (NULL: never a fault) */
void render_sticky_families(const struct model *m, struct expo *e);
struct json_object *render_sticky_port(const struct model *m, const struct model_port *p);

/* the ports' RoCE configuration (render_config.c) */
void render_config_families(const struct model *m, struct expo *e);
/* the plugged modules' diagnostics (render_module.c) */
void render_module_families(const struct model *m, struct expo *e);
/* the driver statistics fabteld maps: pause durations, PHY errors (render_phy.c) */
void render_phy_families(const struct model *m, struct expo *e);
/* how each port's reads of its driver fare, fabtel.ko's and fabteld's (render_sources.c) */
void render_source_families(const struct model *m, struct expo *e);

/*
 * the NIC's counter sets (render_qpcnt.c): their families; a port's mode
 * and sets, every set, a job-port's share, as JSON (NULL where none)
 */
void render_qpcnt_families(const struct model *m, struct expo *e);
const char *render_qpcnt_mode(uint32_t mode);
struct json_object *render_qpcnt_port(const struct model *m, const struct model_port *p);
struct json_object *render_qpcnt_sets(const struct model *m);
struct json_object *render_qpcnt_jobport(const struct model_port *p,
					 const struct model_job_port *jp);

/* the RDMA devices' PCI functions (render_pcie.c): their families; each, as JSON */
void render_pcie_families(const struct model *m, struct expo *e);
struct json_object *render_pcie_functions(const struct model *m);
/* the devlink health reporters (render_devlink.c): families, JSON, in error now */
void render_devlink_families(const struct model *m, struct expo *e);
struct json_object *render_devlink_devices(const struct model *m);
bool render_devlink_in_error(const struct model *m, const char *device);
/* the kernel log's driver messages (render_kmsg.c): families, JSON, the port conditions */
void render_kmsg_families(const struct model *m, struct expo *e);
struct json_object *render_kmsg_json(const struct model *m);
void render_kmsg_conditions(const struct model *m, const char *device, struct json_object *a);

/* fabteld itself: version, sources, passes, process_* (render_self.c) */
void render_self_families(const struct model *m, struct expo *e);
/* a source's state: up, failed, absent (by design here) or standby */
const char *render_source_state(const struct model *m, enum model_source s);

/* start_ns: CLOCK_MONOTONIC when the request came, for the scrape duration */
void render_metrics(const struct model *m, struct expo *e, uint64_t start_ns);
struct json_object *render_snapshot(const struct model *m);
struct json_object *render_jobs(const struct model *m);
/*
 * The ports' rate history (render_history.c): points after since (Unix
 * seconds, 0 all) and within seconds of the newest sample.
 */
struct json_object *render_history(const struct model *m, double since, unsigned int seconds);
/* The event log, only events with seq > since. */
struct json_object *render_events(const struct model *m, uint64_t since);
/*
 * A job's timeline as Chrome trace JSON (render_trace.c): "trace" in fabteld
 * and fabtop means this export; NULL if no such job.
 */
struct json_object *render_trace(const struct model *m, const char *job_id);

#endif /* FABTEL_RENDER_H */
