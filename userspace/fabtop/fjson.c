// SPDX-License-Identifier: GPL-2.0
/*
 * fjson.c - typed fields of fabteld's JSON (see fjson.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "fjson.h"

/* fabteld's normalized counter names (Documentation/counters.rst) */
const char *const fj_ctr_names[] = {
	"out_of_sequence", "nak_seq_err_rcvd", "implied_nak_seq_err", "local_ack_timeout",
	"retry_exceeded", "rnr_nak_rcvd", "rnr_nak_sent", "rnr_retry_exceeded",
	"duplicate_request", "out_of_buffer", "cnp_sent", "cnp_handled", "cnp_ignored",
	"ecn_marked_rx", "icrc_err", "req_cqe_err", "resp_cqe_err", "link_downed",
	"rx_packets", "tx_packets", "rx_bytes", "tx_bytes",
};

/* netdev_stats: the netdev's byte counters */
const char *const fj_nd_names[] = { "rx_bytes", "tx_bytes" };

struct json_object *fj_get(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, k, &v))
		return NULL;
	return v;
}

const char *fj_str(struct json_object *o, const char *k)
{
	struct json_object *v = fj_get(o, k);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

bool fj_num(struct json_object *o, const char *k, double *out)
{
	struct json_object *v = fj_get(o, k);

	if (!v || !(json_object_is_type(v, json_type_double) ||
		    json_object_is_type(v, json_type_int)))
		return false;
	*out = json_object_get_double(v);
	return isfinite(*out);
}

bool fj_u64(struct json_object *o, const char *k, uint64_t *out)
{
	struct json_object *v = fj_get(o, k);

	if (!v || !json_object_is_type(v, json_type_int))
		return false;
	*out = json_object_get_uint64(v);
	return true;
}

bool fj_int(struct json_object *o, const char *k, long long *out)
{
	struct json_object *v = fj_get(o, k);

	if (!v || !json_object_is_type(v, json_type_int))
		return false;
	*out = (long long)json_object_get_int64(v);
	return true;
}

/* a tri-state: -1 null/absent, 0, 1 */
int fj_bool(struct json_object *o, const char *k)
{
	struct json_object *v = fj_get(o, k);

	if (!v || !json_object_is_type(v, json_type_boolean))
		return -1;
	return json_object_get_boolean(v);
}

size_t fj_len(struct json_object *a)
{
	return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

void fj_port_key(char *buf, size_t len, struct json_object *p)
{
	long long port = -1;
	const char *dev = fj_str(p, "device");

	fj_int(p, "port", &port);
	snprintf(buf, len, "%s/%lld", dev ? dev : "?", port);
}

struct json_object *fj_double_or_null(bool valid, double v)
{
	return valid ? json_object_new_double(v) : NULL;
}

