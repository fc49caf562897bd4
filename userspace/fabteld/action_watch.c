// SPDX-License-Identifier: GPL-2.0
/*
 * action_watch.c - when to act (actions.h, Documentation/fabteld.rst
 * "Actions").
 *
 * A port's level: failing while it is faulty or recent_fault (sticky.c:
 * link down, a flap, probe loss, a wedged driver, NIC firmware in error),
 * else the worst failing or degraded reason a job has on it.  The node's:
 * its worst port's.  A target (the node, each port) counts as failing at
 * the level action_on names; when that turns, the command of the new
 * state runs once.  Hysteresis is the holds under the levels: a port stays
 * recent_fault for recent_fault_s after its last fault, and a job's
 * failing reason holds for hold_s, so ten flaps in a row are one fault.
 * The rate limit: a target's commands run action_rate_s apart at least;
 * a turn inside that waits (audited once as deferred) and runs when the
 * limit allows if the target is still turned (with the holds longer than
 * the limit, only a fault within action_rate_s of a resume waits).  A
 * command that failed (not started, timed out, killed, non-zero exit,
 * dropped) is run again, 10 s on at the soonest.  At start a failing
 * node or port is acted on at once; a node found healthy is resumed once
 * it has stayed healthy 60 s (the probes and the jobs' rates have seen
 * it), a port found healthy is left as it is.  A node without any port
 * is not judged; a port that went while failing keeps the node failing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#include "actions.h"
#include "action_watch.h"
#include "model.h"

#define NS_PER_SEC	1000000000ull
/* a node found healthy at start is resumed once it stayed so this long */
#define START_SETTLE_NS	(60 * NS_PER_SEC)
/* a command that failed is run again this long after, at the soonest */
#define RETRY_NS	(10 * NS_PER_SEC)

enum { APPLIED_NONE = -1, APPLIED_REDO = -2 };

struct act_target {
	bool used;
	bool seen;			/* its port present this pass */
	enum action_scope scope;
	char device[64];
	uint32_t port;
	int applied;			/* the state last acted on: 1 failing, 0 healthy, APPLIED_* */
	uint64_t last_run_ns;		/* its last command (or dry run); 0 never */
	uint64_t turn_ns;		/* since when its state differs from applied; 0 it does not */
	uint64_t retry_ns;		/* a failed command: not again before then */
	bool deferred;			/* a turn waits for the rate limit (audited) */
	int failed;			/* set by the runner (__atomic): its last command failed */
};

struct actions {
	struct action_cfg cfg;
	char node[64];
	struct action_runner *runner;
	struct act_target node_t;
	struct act_target ports[MODEL_MAX_PORTS];
	struct act_level lv[MODEL_MAX_PORTS];	/* this pass's, by ports[] slot */
};

enum health_verdict action_severity(const char *s)
{
	if (!strcmp(s, "failing"))
		return VERDICT_FAILING;
	return strcmp(s, "degraded") ? VERDICT_HEALTHY : VERDICT_DEGRADED;
}

static void port_level(const struct model *m, const struct model_port *p, struct act_level *lv)
{
	*lv = (struct act_level){ .level = VERDICT_HEALTHY, .reason = "", .port = p };
	if (p->sticky.faulty || p->sticky.recent) {
		lv->level = VERDICT_FAILING;
		lv->reason = p->sticky.fault;
		lv->at_ns = p->sticky.fault_ns;
		return;
	}
	for (unsigned int i = 0; i < m->job_slots; i++) {
		const struct health_result *r = &m->jobs[i].result;

		for (unsigned int k = 0; m->jobs[i].present && k < r->nr_reasons; k++) {
			const struct health_reason *hr = &r->reasons[k];
			enum health_verdict l = action_severity(hr->severity);

			if (l > lv->level && hr->port == p->port && !strcmp(hr->device, p->device)) {
				lv->level = l;
				lv->reason = hr->reason;
				lv->at_ns = hr->at_ns;
			}
		}
	}
	if (lv->level == VERDICT_HEALTHY)
		lv->reason = p->sticky.fault;	/* the last fault, for "healthy again" */
}

/*
 * the port's target; NULL when all 64 are taken (a target goes once its
 * port is gone and it is not failing)
 */
static struct act_target *port_target(struct actions *a, const struct model_port *p)
{
	struct act_target *free_t = NULL;

	for (unsigned int i = 0; i < MODEL_MAX_PORTS; i++) {
		struct act_target *t = &a->ports[i];

		if (t->used && t->port == p->port && !strcmp(t->device, p->device))
			return t;
		if (!t->used && !free_t)
			free_t = t;
	}
	if (free_t) {
		*free_t = (struct act_target){ .used = true, .scope = ACT_PORT, .port = p->port,
					       .applied = APPLIED_NONE };
		snprintf(free_t->device, sizeof(free_t->device), "%s", p->device);
	}
	return free_t;
}

static struct action_job *make_job(struct actions *a, const struct model *m,
				   const struct act_target *t, enum action_event ev,
				   const struct act_level *lv, unsigned int nr, uint64_t now)
{
	struct action_job *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->scope = t->scope;
	j->event = ev;
	j->at_ns = t->turn_ns ? t->turn_ns : now;	/* the turn's time, deferred or not */
	j->dry_run = a->cfg.dry_run;
	j->failed = (int *)&t->failed;
	if (t->scope == ACT_NODE)
		snprintf(j->target, sizeof(j->target), "node");
	else
		snprintf(j->target, sizeof(j->target), "%s/%u", t->device, t->port);
	action_split(a->cfg.cmd[t->scope][ev], j->argbuf, sizeof(j->argbuf), j->argv);
	action_evidence(j, m, a->node, lv, a->lv, nr);
	return j;
}

/* a turn's command is due now: not inside the rate limit, nor a retry's wait */
static bool due(const struct actions *a, const struct act_target *t, uint64_t now)
{
	uint64_t gap = (uint64_t)a->cfg.rate_s * NS_PER_SEC;

	return now >= t->retry_ns && !(t->last_run_ns && now - t->last_run_ns < gap);
}

/* the target's state now against the one last acted on */
static void turn(struct actions *a, const struct model *m, struct act_target *t,
		 const struct act_level *lv, unsigned int nr, uint64_t now)
{
	enum health_verdict at = a->cfg.on_degraded ? VERDICT_DEGRADED : VERDICT_FAILING;
	int bad = lv->level >= at;
	enum action_event ev = bad ? ACT_FAILING : ACT_HEALTHY;
	struct action_job *j;

	if (__atomic_exchange_n(&t->failed, 0, __ATOMIC_ACQ_REL)) {
		t->applied = APPLIED_REDO;	/* its command failed: run it again */
		t->retry_ns = now + RETRY_NS;
	}
	if (t->applied == bad) {
		t->deferred = false;
		t->turn_ns = 0;
		return;
	}
	if (!t->turn_ns)
		t->turn_ns = now;
	/* found healthy at start: a port as it is, the node once it stayed so */
	if (t->applied == APPLIED_NONE && !bad &&
	    (t->scope == ACT_PORT || now - t->turn_ns < START_SETTLE_NS)) {
		if (t->scope == ACT_PORT)
			t->applied = 0;
		return;
	}
	if (!a->cfg.cmd[t->scope][ev][0]) {
		t->applied = bad;
		t->turn_ns = 0;
		return;
	}
	if (!due(a, t, now)) {
		if (!t->deferred && (j = make_job(a, m, t, ev, lv, nr, now))) {
			action_runner_audit(a->runner, j, ACT_DEFERRED);
			action_job_free(j);
		}
		t->deferred = true;
		return;
	}
	j = make_job(a, m, t, ev, lv, nr, now);
	if (!j)
		return;		/* no memory: tried again next pass */
	action_runner_queue(a->runner, j);
	/* the state at start, run as found, does not count against the limit */
	if (t->applied != APPLIED_NONE)
		t->last_run_ns = now;
	t->applied = bad;
	t->deferred = false;
	t->turn_ns = 0;
}

/*
 * The node's level: its worst port's; a port that went while failing
 * (its target's last command was failing) still counts, as port_gone,
 * until it is back and clean.  false: no port at all, nothing to judge.
 */
static bool node_level(struct actions *a, unsigned int nr, struct act_level *node)
{
	bool any = false;
	unsigned int i;

	*node = (struct act_level){ .level = VERDICT_HEALTHY, .reason = "" };
	for (i = 0; i < nr; i++) {
		if (!a->lv[i].port)
			continue;
		any = true;
		if (a->lv[i].level > node->level || (!node->port && a->lv[i].reason[0]))
			*node = a->lv[i];
	}
	for (i = 0; i < MODEL_MAX_PORTS; i++) {
		struct act_target *t = &a->ports[i];

		if (!t->used || t->seen)
			continue;
		if (t->applied != 1) {
			t->used = false;	/* gone and not failing: its slot is free */
			continue;
		}
		any = true;
		if (node->level < VERDICT_FAILING)
			*node = (struct act_level){ .level = VERDICT_FAILING, .reason = "port_gone",
						    .gone_device = t->device, .gone_port = t->port };
	}
	if (node->level == VERDICT_HEALTHY)
		node->at_ns = 0;
	return any;
}

void actions_pass(struct actions *a, struct model *m, uint64_t now)
{
	struct act_target *tgt[MODEL_MAX_PORTS];
	struct act_level node;
	unsigned int i, nr;

	if (!a)
		return;
	pthread_mutex_lock(&m->lock);
	/* the first pass primes the flap counts sticky.c compares */
	if (m->samples < 2)
		goto unlock_model;
	nr = m->port_slots;
	for (i = 0; i < MODEL_MAX_PORTS; i++)
		a->ports[i].seen = false;
	for (i = 0; i < nr; i++) {
		a->lv[i] = (struct act_level){ .level = VERDICT_HEALTHY, .reason = "" };
		tgt[i] = NULL;
		if (!m->ports[i].present)
			continue;
		port_level(m, &m->ports[i], &a->lv[i]);
		if ((tgt[i] = port_target(a, &m->ports[i])))
			tgt[i]->seen = true;
	}
	/* the node first: its command never waits behind the ports' */
	if (node_level(a, nr, &node))
		turn(a, m, &a->node_t, &node, nr, now);
	for (i = 0; i < nr; i++)
		if (tgt[i])
			turn(a, m, tgt[i], &a->lv[i], nr, now);
unlock_model:
	pthread_mutex_unlock(&m->lock);
}

struct actions *actions_start(const struct action_cfg *cfg, const char *node, int log_fd,
			      char *err, size_t errlen)
{
	struct actions *a;

	err[0] = '\0';
	if (!action_any(cfg))
		return NULL;
	a = calloc(1, sizeof(*a));
	if (!a) {
		snprintf(err, errlen, "actions: out of memory");
		if (log_fd >= 0)
			close(log_fd);
		return NULL;
	}
	a->cfg = *cfg;
	snprintf(a->node, sizeof(a->node), "%s", node);
	a->node_t = (struct act_target){ .used = true, .seen = true, .scope = ACT_NODE,
					 .applied = APPLIED_NONE };
	a->runner = action_runner_start(cfg, log_fd, err, errlen);
	if (!a->runner) {
		if (log_fd >= 0)
			close(log_fd);
		free(a);
		return NULL;
	}
	return a;
}

void actions_stop(struct actions *a)
{
	if (!a)
		return;
	action_runner_stop(a->runner);
	free(a);
}
