// SPDX-License-Identifier: GPL-2.0
/*
 * action_evidence.c - what an action's command is told (actions.h,
 * Documentation/fabteld.rst "Actions"): FABTEL_* variables and a JSON
 * document on its standard input, from the model as the transition found
 * it (m->lock held).  The evidence is data: no part of it is ever a
 * command line or shell text.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "action_watch.h"
#include "model.h"
#include "render.h"

static void put_env(struct action_job *j, const char *name, const char *value)
{
	if (j->nr_env < ACTION_MAX_ENV)
		snprintf(j->env[j->nr_env++], sizeof(j->env[0]), "FABTEL_%s=%s", name, value);
}

/* "2026-11-28T17:01:02Z" */
static void utc(uint64_t ns, char *out, size_t len)
{
	time_t s = (time_t)(ns / 1000000000ull);
	struct tm tm;

	if (!gmtime_r(&s, &tm) || !strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(out, len, "%llu", (unsigned long long)(ns / 1000000000ull));
}

static bool reason_on(const struct health_reason *r, const struct model_port *p, bool node)
{
	if (action_severity(r->severity) == VERDICT_HEALTHY)
		return false;
	return node || (!strcmp(r->device, p->device) && r->port == p->port);
}

/*
 * The jobs with a failing or degraded reason on the port (node: on any),
 * with those reasons, into a; their names, space-separated, into names:
 * whole names only, then "+N more" for those that do not fit.
 */
static void add_jobs(const struct model *m, const struct model_port *p, bool node,
		     struct json_object *a, char *names, size_t len)
{
	size_t used = 0;
	unsigned int more = 0;

	names[0] = '\0';
	for (unsigned int i = 0; i < m->job_slots; i++) {
		const struct model_job *jb = &m->jobs[i];
		const struct health_result *r = &jb->result;
		struct json_object *j, *rs = NULL;

		if (!jb->present)
			continue;
		for (unsigned int k = 0; k < r->nr_reasons; k++) {
			if (!reason_on(&r->reasons[k], p, node))
				continue;
			if (!rs)
				rs = json_object_new_array();
			json_object_array_add(rs, render_reason(&r->reasons[k]));
		}
		if (!rs)
			continue;
		j = json_object_new_object();
		json_object_object_add(j, "job_id", json_object_new_string(jb->id.id));
		json_object_object_add(j, "kind", json_object_new_string(job_kind_name(jb->id.kind)));
		json_object_object_add(j, "verdict",
				       json_object_new_string(health_verdict_name(r->verdict)));
		json_object_object_add(j, "reasons", rs);
		json_object_array_add(a, j);
		if (!more && used + strlen(jb->id.id) + 12 < len)
			used += (size_t)snprintf(names + used, len - used, "%s%s", used ? " " : "",
						 jb->id.id);
		else
			more++;
	}
	if (more)
		snprintf(names + used, len - used, "%s+%u more", used ? " " : "", more);
}

static struct json_object *jport(const struct model *m, const struct act_level *lv)
{
	const struct model_port *p = lv->port;
	struct json_object *o = json_object_new_object(), *rf = render_sticky_port(m, p);

	json_object_object_add(o, "device", json_object_new_string(p->device));
	json_object_object_add(o, "port", json_object_new_int64(p->port));
	json_object_object_add(o, "netdev", json_object_new_string(p->netdev));
	json_object_object_add(o, "level", json_object_new_string(health_verdict_name(lv->level)));
	json_object_object_add(o, "reason", lv->reason[0] ? json_object_new_string(lv->reason) : NULL);
	json_object_object_add(o, "recent_fault", rf);
	return o;
}

/* the sentence: what, where, when (and the jobs it touches) */
static void summary(const struct action_job *j, const struct act_level *lv, const char *jobs,
		    char *out, size_t len)
{
	const struct model_port *p = lv->port;
	char when[32], where[128] = "";

	utc(lv->at_ns ? lv->at_ns : j->at_ns, when, sizeof(when));
	if (p)
		snprintf(where, sizeof(where), " on %s/%u%s%s%s", p->device, p->port,
			 p->netdev[0] ? " (" : "", p->netdev, p->netdev[0] ? ")" : "");
	else if (lv->gone_device)
		snprintf(where, sizeof(where), " on %s/%u", lv->gone_device, lv->gone_port);
	if (j->event == ACT_FAILING)
		snprintf(out, len, "fabtel: %s%s at %s%s%s", lv->reason[0] ? lv->reason : "failing",
			 where, when, jobs[0] ? "; jobs: " : "", jobs);
	else
		snprintf(out, len, "fabtel: %s healthy again%s%s%s", j->target,
			 lv->reason[0] ? " (last fault: " : "", lv->reason,
			 lv->reason[0] ? ")" : "");
}

void action_evidence(struct action_job *j, const struct model *m, const char *node,
		     const struct act_level *lv, const struct act_level *all, unsigned int nr_all)
{
	const struct model_port *p = lv->port;
	struct json_object *o = json_object_new_object(), *ports = json_object_new_array();
	struct json_object *jobs = json_object_new_array();
	char names[160], text[400], when[32], num[16];

	add_jobs(m, p, j->scope == ACT_NODE, jobs, names, sizeof(names));
	summary(j, lv, names, text, sizeof(text));
	utc(j->at_ns, when, sizeof(when));
	put_env(j, "EVENT", action_event_name(j->event));
	put_env(j, "SCOPE", action_scope_name(j->scope));
	put_env(j, "NODE", node);
	put_env(j, "LEVEL", health_verdict_name(lv->level));
	put_env(j, "REASON", lv->reason);
	put_env(j, "DEVICE", p ? p->device : lv->gone_device ? lv->gone_device : "");
	snprintf(num, sizeof(num), "%u", p ? p->port : lv->gone_port);
	put_env(j, "PORT", p || lv->gone_device ? num : "");
	put_env(j, "NETDEV", p ? p->netdev : "");
	put_env(j, "TIME", when);
	put_env(j, "JOBS", names);
	put_env(j, "SUMMARY", text);

	json_object_object_add(o, "event", json_object_new_string(action_event_name(j->event)));
	json_object_object_add(o, "scope", json_object_new_string(action_scope_name(j->scope)));
	json_object_object_add(o, "target", json_object_new_string(j->target));
	json_object_object_add(o, "node", json_object_new_string(node));
	json_object_object_add(o, "time", render_jtime(j->at_ns));
	json_object_object_add(o, "level", json_object_new_string(health_verdict_name(lv->level)));
	json_object_object_add(o, "reason", lv->reason[0] ? json_object_new_string(lv->reason) : NULL);
	json_object_object_add(o, "summary", json_object_new_string(text));
	json_object_object_add(o, "dry_run", json_object_new_boolean(j->dry_run));
	if (j->scope == ACT_PORT)
		json_object_array_add(ports, jport(m, lv));
	for (unsigned int i = 0; j->scope == ACT_NODE && i < nr_all; i++)
		if (all[i].level != VERDICT_HEALTHY)
			json_object_array_add(ports, jport(m, &all[i]));
	json_object_object_add(o, "ports", ports);
	json_object_object_add(o, "jobs", jobs);
	j->evidence = o;
}
