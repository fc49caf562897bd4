// SPDX-License-Identifier: GPL-2.0
/*
 * fabtel-traffic - the summary: one line of KEY=VALUE pairs, or with --json
 * one JSON object (built with json-c), on stdout; and the exit status.
 */
#include <stdio.h>
#include <unistd.h>

#include <json-c/json.h>

#include "traffic.h"

static double mb_per_s(const struct tr_result *r)
{
	return r->seconds > 0 ? (double)r->bytes / r->seconds / 1e6 : 0.0;
}

int tr_exit_status(const struct tr_result *r)
{
	if (r->failed || r->peer_gone || r->post_error || r->drain_timeout)
		return 1;
	return 0;
}

/* A double printed with a fixed number of decimals. */
static struct json_object *jfixed(double v, int decimals)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	return json_object_new_double_s(v, buf);
}

static void jadd(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

static struct json_object *qp_json(const struct tr_qp_attrs *a)
{
	struct json_object *q = json_object_new_object();

	jadd(q, "retry_cnt", json_object_new_int(a->retry_cnt));
	jadd(q, "rnr_retry", json_object_new_int(a->rnr_retry));
	jadd(q, "timeout", json_object_new_int(a->timeout));
	jadd(q, "traffic_class", json_object_new_int(a->traffic_class));
	jadd(q, "path_mtu", json_object_new_int(a->path_mtu));
	return q;
}

static void report_json(const struct tr_opts *o, const struct tr_result *r)
{
	struct json_object *j = json_object_new_object();

	jadd(j, "role", json_object_new_string(r->role));
	jadd(j, "pid", json_object_new_int((int)getpid()));
	jadd(j, "peer", json_object_new_string(r->peer));
	if (o->cgroup)
		jadd(j, "cgroup", json_object_new_string(o->cgroup));
	jadd(j, "local_qpn", json_object_new_uint64(r->local_qpn));
	jadd(j, "remote_qpn", json_object_new_uint64(r->remote_qpn));
	if (!o->server)
		jadd(j, "size", json_object_new_uint64(o->size));
	jadd(j, "messages", json_object_new_uint64(r->messages));
	jadd(j, "posted", json_object_new_uint64(r->posted));
	jadd(j, "bytes", json_object_new_uint64(r->bytes));
	jadd(j, "seconds", jfixed(r->seconds, 6));
	jadd(j, "mb_per_s", jfixed(mb_per_s(r), 3));
	jadd(j, "stop", json_object_new_string(r->stop ? r->stop : "?"));
	jadd(j, "status", json_object_new_string(tr_exit_status(r) ? "failed" : "ok"));
	if (r->qp.valid)
		jadd(j, "qp", qp_json(&r->qp));
	if (r->failed) {
		jadd(j, "wc_status", json_object_new_int(r->wc_status));
		jadd(j, "wc_status_str",
		     json_object_new_string(ibv_wc_status_str(r->wc_status)));
		jadd(j, "wc_qpn", json_object_new_uint64(r->wc_qpn));
		jadd(j, "wc_wr_id", json_object_new_uint64(r->wc_wr_id));
		jadd(j, "stall_seconds", jfixed(r->stall, 6));
		if (!o->server)
			jadd(j, "wr_age_seconds", jfixed(r->wr_age, 6));
	}
	if (r->abandoned)
		jadd(j, "abandoned", json_object_new_uint64(r->abandoned));
	puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(j);
}

static void report_text(const struct tr_opts *o, const struct tr_result *r)
{
	printf("role=%s peer=%s local_qpn=%u remote_qpn=%u messages=%llu "
	       "bytes=%llu seconds=%.3f MB/s=%.2f stop=%s status=%s",
	       r->role, r->peer, r->local_qpn, r->remote_qpn,
	       (unsigned long long)r->messages, (unsigned long long)r->bytes,
	       r->seconds, mb_per_s(r), r->stop ? r->stop : "?",
	       tr_exit_status(r) ? "failed" : "ok");
	if (r->qp.valid)
		printf(" retry_cnt=%d rnr_retry=%d timeout=%d tclass=%d mtu=%d",
		       r->qp.retry_cnt, r->qp.rnr_retry, r->qp.timeout,
		       r->qp.traffic_class, r->qp.path_mtu);
	if (o->cgroup)
		printf(" cgroup=%s", o->cgroup);
	if (r->failed)
		printf(" wc_status=%d wc_status_str=\"%s\" wc_qpn=%u stall_seconds=%.6f",
		       r->wc_status, ibv_wc_status_str(r->wc_status), r->wc_qpn,
		       r->stall);
	if (r->failed && !o->server)
		printf(" wr_age_seconds=%.6f", r->wr_age);
	if (r->abandoned)
		printf(" abandoned=%llu", (unsigned long long)r->abandoned);
	putchar('\n');
}

void tr_report(const struct tr_opts *o, const struct tr_result *r)
{
	if (o->json)
		report_json(o, r);
	else
		report_text(o, r);
	fflush(stdout);
}
