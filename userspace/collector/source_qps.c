// SPDX-License-Identifier: GPL-2.0
/*
 * source_qps.c - the QPs the kernel knows (RDMA netlink, what `rdma res show
 * qp` lists: lib/rdmanl.c) and their owners: each owning process's comm and
 * job, from /proc/<pid>/comm and /proc/<pid>/cgroup (jobs.h).  The
 * netlink socket stays open from one pass to the next; a kernel without
 * RDMA netlink (ib_core not loaded) is asked again every NL_ABSENT_RETRY
 * passes, its error reported in between.
 */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collector.h"
#include "fsread.h"

#define NL_ABSENT_RETRY	10

/* the collector's priv for this source */
struct source_qps {
	int nl_fd;			/* RDMA netlink's socket; -1 none yet */
	unsigned int nl_absent;		/* passes left before RDMA netlink is asked again */
};

static int qp_cb(const struct rdmanl_qp *qp, void *ctx)
{
	struct raw *r = ctx;

	if (r->nr_qps == MODEL_MAX_QPS) {
		r->qps_over++;
		return 0;
	}
	memset(&r->qps[r->nr_qps], 0, sizeof(r->qps[0]));
	r->qps[r->nr_qps++].nl = *qp;
	return 0;
}

/* The owner's user: the real uid of /proc/PID/status, by name if it has one. */
static void qp_user(const char *status, char *user, size_t len)
{
	const char *u = strstr(status, "\nUid:");
	struct passwd pw, *res = NULL;
	char buf[1024];
	unsigned long uid;
	char *end;

	user[0] = '\0';
	if (!u)
		return;
	uid = strtoul(u + 5, &end, 10);
	if (end == u + 5)
		return;
	if (!getpwuid_r((uid_t)uid, &pw, buf, sizeof(buf), &res) && res)
		snprintf(user, len, "%s", pw.pw_name);
	else
		snprintf(user, len, "%lu", uid);
}

/* Owner's comm, user and job, from /proc (the process may be gone: no job). */
static void qp_owner(const struct collect_opts *o, struct raw_qp *q)
{
	char path[400], text[8192];

	if (!q->nl.pid)
		return;
	snprintf(path, sizeof(path), "%s/proc/%u/comm", o->proc_root, q->nl.pid);
	if (fs_read_text(path, q->comm, sizeof(q->comm)) < 0)
		q->comm[0] = '\0';
	snprintf(path, sizeof(path), "%s/proc/%u/status", o->proc_root, q->nl.pid);
	if (fs_read_text(path, text, sizeof(text)) >= 0)
		qp_user(text, q->user, sizeof(q->user));
	snprintf(path, sizeof(path), "%s/proc/%u/cgroup", o->proc_root, q->nl.pid);
	if (fs_read_text(path, text, sizeof(text)) < 0)
		return;
	q->has_job = job_match_proc_cgroup(text, o->job_rules, o->nr_job_rules, &q->job);
}

/* the QPs of the devices left out (devices.h) dropped, as their ports are */
static void drop_excluded(struct collector *c, struct raw *r)
{
	const struct collect_opts *o = c->o;
	unsigned int i, n = 0;

	if (!devfilter_active(o->devfilter))
		return;
	for (i = 0; i < r->nr_qps; i++) {
		if (devices_excluded(&c->devs, r->qps[i].nl.dev_name))
			continue;
		if (n != i)
			r->qps[n].nl = r->qps[i].nl;
		n++;
	}
	r->nr_qps = n;
}

static void qps_open(struct collector *c, void *priv)
{
	struct source_qps *s = priv;

	(void)c;
	s->nl_fd = -1;
}

static bool qps_sample(struct collector *c, void *priv, struct raw *r)
{
	struct source_qps *s = priv;
	unsigned int i, k;
	bool asked = !s->nl_absent;

	r->nr_qps = 0;
	r->qps_over = 0;
	if (s->nl_absent) {
		s->nl_absent--;
		r->nl_err = -EPROTONOSUPPORT;	/* what the last asking said */
	} else {
		r->nl_err = rdmanl_for_each_qp(&s->nl_fd, qp_cb, r);
		if (r->nl_err == -EPROTONOSUPPORT)
			s->nl_absent = NL_ABSENT_RETRY - 1;
	}
	drop_excluded(c, r);
	for (i = 0; i < r->nr_qps; i++) {
		/* a process's QPs are listed together: read its /proc files once */
		for (k = i < 8 ? 0 : i - 8; k < i && r->qps[k].nl.pid != r->qps[i].nl.pid; k++)
			;
		if (k < i && r->qps[i].nl.pid) {
			memcpy(r->qps[i].comm, r->qps[k].comm, sizeof(r->qps[i].comm));
			memcpy(r->qps[i].user, r->qps[k].user, sizeof(r->qps[i].user));
			r->qps[i].job = r->qps[k].job;
			r->qps[i].has_job = r->qps[k].has_job;
		} else {
			qp_owner(c->o, &r->qps[i]);
		}
	}
	if (r->nl_err)
		raw_report(r, SRC_RDMA_NETLINK, SRC_STATE_UNAVAILABLE, "%s",
			   raw_strerror(r, -r->nl_err));
	else
		raw_report(r, SRC_RDMA_NETLINK, SRC_STATE_UP, "%s", "");
	return asked;
}

static void qps_close(struct collector *c, void *priv)
{
	struct source_qps *s = priv;

	(void)c;
	if (s->nl_fd >= 0)
		close(s->nl_fd);
	s->nl_fd = -1;
}

const struct source_ops source_qps = {
	.name = "rdma_netlink",
	.priv_size = sizeof(struct source_qps),
	.open = qps_open,
	.sample = qps_sample,
	.close = qps_close,
};
