/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cluster.h - fabtop's cluster view (--prometheus): the jobs of a cluster
 * and one job's page, built from the recording rules of
 * deploy/prometheus/rules.yml (Documentation/cluster.rst) through the
 * Prometheus HTTP API (promq.h).
 *
 * Every query is aggregated by job_id or selected by one job's id or its
 * hosts' names: a refresh costs 6 queries for the jobs list and 6 more for
 * a job's page (7 when more than CL_MAX_PAIRS of its probe pairs lose),
 * whatever the number of raw series behind them.
 */
#ifndef FABTOP_CLUSTER_H
#define FABTOP_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>

#include "promq.h"
#include "table.h"

#define CL_NAME_LEN	128
#define CL_MAX_JOBS	4096
#define CL_MAX_CULPRITS	8	/* ties named per job */
#define CL_MAX_PAIRS	500	/* losing probe pairs shown on a job's page */
#define CL_HIST		60	/* history points: 15 min, 15 s apart */

struct cl_port_ref {
	char instance[CL_NAME_LEN], host[CL_NAME_LEN], device[64], port[12], netdev[32];
	double evidence;
};

struct cl_job {
	char id[CL_NAME_LEN];
	int verdict;			/* -1 unknown */
	double hosts, failing, qps, upstream;	/* NAN unknown */
	unsigned int nculprits;		/* all of them, ties; at most CL_MAX_CULPRITS kept */
	struct cl_port_ref culprit[CL_MAX_CULPRITS];
};

struct cl_host {
	char instance[CL_NAME_LEN], host[CL_NAME_LEN];
	int verdict;
	double evidence;		/* its ports' most */
	bool culprit;
};

struct cl_port {
	struct cl_port_ref ref;
	bool culprit;
};

struct cl_pair {
	char host[CL_NAME_LEN], device[64], port[12];
	char peer_host[CL_NAME_LEN], peer_device[64], peer_port[12];
};

struct cl_page {
	char job[CL_NAME_LEN];
	struct cl_host *hosts;
	struct cl_port *ports;
	struct cl_pair *pairs;
	unsigned int nhosts, nports, npairs;
	bool pairs_capped;		/* more than CL_MAX_PAIRS lose: pairs_total of them */
	unsigned int pairs_total;
	double hist_failing[CL_HIST], hist_verdict[CL_HIST];	/* NAN: no point */
};

struct cl_frame {
	struct cl_job *jobs;		/* by severity: verdict, failing hosts, id */
	unsigned int njobs;
	bool jobs_capped;
	struct cl_page *page;		/* the job asked for, NULL none */
	unsigned int queries;		/* this refresh's queries and their time */
	double query_ms;
	double at;			/* Unix s of the refresh */
	struct table tab[4];		/* jobs, hosts, ports, pairs (cluster_tables.c) */
};

enum { CL_TAB_JOBS, CL_TAB_HOSTS, CL_TAB_PORTS, CL_TAB_PAIRS, CL_TAB_NR };

/*
 * One refresh: the jobs, and job's page when job is not NULL.  A frame, or
 * NULL with the reason in q->error (the caller keeps its last frame).
 */
struct cl_frame *cluster_fetch(struct promq *q, const char *job);
void cluster_frame_free(struct cl_frame *f);

/* Building from query results (tests feed these canned answers). */
int cluster_jobs_from(struct cl_frame *f, struct json_object *const res[6]);
int cluster_page_from(struct cl_page *p, struct json_object *hosts, struct json_object *ports,
		      struct json_object *netdevs, struct json_object *culprits);
/*
 * The query of the losing probe pairs between the page's hosts (their
 * names a regex, every character taken literally): the first CL_MAX_PAIRS,
 * or with count their number.  NULL when no host has a name (or out of
 * memory); the caller's to free.  The pairs from its answer: 0, or -1 out
 * of memory.
 */
char *cluster_pairs_query(const struct cl_page *p, bool count);
int cluster_pairs_from(struct cl_page *p, struct json_object *res);

/* The frame's tables (cluster_tables.c) and its JSON (--once --json). */
void cluster_tables(struct cl_frame *f);
struct json_object *cluster_json(const struct cl_frame *f, const char *url);
const char *cluster_verdict_name(int v);
/*
 * One history line of a job's page (the failing hosts, or the worst
 * verdict) cut to width (buf holds width + 1): its label, a sparkline as
 * the host view draws them, the newest value.
 */
void cluster_history_line(const struct cl_page *p, bool verdict, char *buf, size_t width);
/* culprit, evidence (some, not the most), affected (its verdict only), healthy */
const char *cluster_host_role(const struct cl_host *h);

#endif /* FABTOP_CLUSTER_H */
