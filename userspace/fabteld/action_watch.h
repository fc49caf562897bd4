/* SPDX-License-Identifier: GPL-2.0 */
/*
 * action_watch.h - the shared parts of actions.h's files: a target's
 * level, the evidence (action_evidence.c), the runner (action_run.c).
 */
#ifndef FABTELD_ACTION_WATCH_H
#define FABTELD_ACTION_WATCH_H

#include "action_job.h"
#include "health.h"

struct model;
struct model_port;

/* The level of a port, or of the node (its worst port's) */
struct act_level {
	enum health_verdict level;
	const char *reason;		/* the fault or job reason behind it; "" none */
	uint64_t at_ns;			/* when it was seen; 0 unknown */
	const struct model_port *port;	/* the port (node: the worst); NULL none */
	const char *gone_device;	/* no port: the one that went while failing, or NULL */
	uint32_t gone_port;
};

/*
 * j's FABTEL_* variables and its JSON (j->evidence) from the model
 * (m->lock held); all: every port's level (the node's evidence lists the
 * ones not healthy).
 */
void action_evidence(struct action_job *j, const struct model *m, const char *node,
		     const struct act_level *lv, const struct act_level *all, unsigned int nr_all);

/* a reason's severity as a level: "failing", "degraded"; anything else healthy */
enum health_verdict action_severity(const char *s);

struct action_runner;
struct action_runner *action_runner_start(const struct action_cfg *cfg, int log_fd, char *err,
					  size_t errlen);
/* Hand j to the runner (it frees j); queue full: audited as dropped. */
void action_runner_queue(struct action_runner *r, struct action_job *j);
/* An audit line for j, not run (deferred); j stays the caller's. */
void action_runner_audit(struct action_runner *r, const struct action_job *j,
			 enum action_outcome o);
void action_runner_stop(struct action_runner *r);
/* free j and its evidence */
void action_job_free(struct action_job *j);

#endif /* FABTELD_ACTION_WATCH_H */
