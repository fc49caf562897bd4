/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fjson.h - typed fields of fabteld's JSON answers (Documentation/fabteld.rst).
 *
 * A field that is absent, null or of another type is "not there": the
 * getters say false (or NULL, or -1) and leave *out alone, so the caller
 * shows "-" rather than a made-up 0.
 */
#ifndef FABTOP_FJSON_H
#define FABTOP_FJSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FJ_NR_CTRS	22
#define FJ_QP_STATE_ERR	6	/* "state" of a QP: IB_QPS_ERR */

struct json_object;

/* the normalized counter names (Documentation/counters.rst), fabteld's order */
extern const char *const fj_ctr_names[FJ_NR_CTRS];
/* the byte counters of netdev_stats */
extern const char *const fj_nd_names[2];

struct json_object *fj_get(struct json_object *o, const char *k);
const char *fj_str(struct json_object *o, const char *k);
bool fj_num(struct json_object *o, const char *k, double *out);
bool fj_u64(struct json_object *o, const char *k, uint64_t *out);
bool fj_int(struct json_object *o, const char *k, long long *out);
/* -1 absent or null, else 0 or 1 */
int fj_bool(struct json_object *o, const char *k);
/* an array's length; 0 for anything else */
size_t fj_len(struct json_object *a);
struct json_object *fj_double_or_null(bool valid, double v);

/* "mlx5_0/1": how fabtop names a port (and a QP's port) */
void fj_port_key(char *buf, size_t len, struct json_object *p);

#endif /* FABTOP_FJSON_H */
