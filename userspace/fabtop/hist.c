// SPDX-License-Identifier: GPL-2.0
/*
 * hist.c - the ports' rate history fabtop draws (see hist.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "fjson.h"
#include "hist.h"

static const char *const series_names[HSER_NR] = {
	"rx_gbps", "tx_gbps", "out_of_sequence", "nak_seq_err_rcvd", "local_ack_timeout",
	"retry_exceeded", "cnp_handled", "ecn_marked_rx", "pause_tx", "pause_rx",
};

struct hist *hist_new(void)
{
	struct hist *h = calloc(1, sizeof(*h));

	if (h && !(h->port = calloc(HIST_PORTS, sizeof(*h->port)))) {
		free(h);
		return NULL;
	}
	if (h)
		h->cap = HIST_PORTS;
	return h;
}

struct hist *hist_copy(const struct hist *h)
{
	struct hist *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	*c = *h;
	c->cap = h->n;
	c->port = h->n ? malloc(h->n * sizeof(*c->port)) : NULL;
	if (h->n && !c->port) {
		free(c);
		return NULL;
	}
	if (h->n)
		memcpy(c->port, h->port, h->n * sizeof(*c->port));
	return c;
}

void hist_free(struct hist *h)
{
	if (h)
		free(h->port);
	free(h);
}

static struct hist_port *port_slot(struct hist *h, const char *key)
{
	unsigned int i;

	for (i = 0; i < h->n; i++)
		if (!strcmp(h->port[i].key, key))
			return &h->port[i];
	if (h->n == h->cap)
		return NULL;
	memset(&h->port[h->n], 0, sizeof(h->port[0]));
	snprintf(h->port[h->n].key, sizeof(h->port[0].key), "%s", key);
	return &h->port[h->n++];
}

/* where each of the answer's series goes: col[k] the slot of its k-th value, -1 none */
static void series_cols(struct json_object *names, int *col, size_t n)
{
	size_t k;
	int s;

	for (k = 0; k < n; k++) {
		const char *name = json_object_get_string(json_object_array_get_idx(names, k));

		col[k] = -1;
		for (s = 0; name && s < HSER_NR; s++)
			if (!strcmp(name, series_names[s]))
				col[k] = s;
	}
}

static void take_point(struct hist *h, struct hist_port *p, struct json_object *pt,
		       const int *col, size_t ncol)
{
	double t = json_object_get_double(json_object_array_get_idx(pt, 0));
	size_t k;
	int s;

	if (p->count && t <= p->t[(p->head + HIST_KEEP - 1) % HIST_KEEP])
		return;		/* not newer than what is kept */
	for (s = 0; s < HSER_NR; s++)
		p->v[p->head][s] = NAN;
	for (k = 0; k < ncol && k + 1 < json_object_array_length(pt); k++) {
		struct json_object *v = json_object_array_get_idx(pt, k + 1);

		if (col[k] >= 0 && v && (json_object_is_type(v, json_type_double) ||
					 json_object_is_type(v, json_type_int)))
			p->v[p->head][col[k]] = (float)json_object_get_double(v);
	}
	p->t[p->head] = t;
	p->head = (p->head + 1) % HIST_KEEP;
	if (p->count < HIST_KEEP)
		p->count++;
	if (t > h->last_t)
		h->last_t = t;
}

void hist_take(struct hist *h, struct json_object *resp)
{
	struct json_object *names = fj_get(resp, "series"), *ports = fj_get(resp, "ports");
	struct json_object *o, *pts, *pt;
	int col[32];
	size_t i, k, ncol = fj_len(names) < 32 ? fj_len(names) : 32;
	char key[96];
	struct hist_port *p;

	fj_num(resp, "interval_seconds", &h->interval);
	series_cols(names, col, ncol);
	for (i = 0; i < fj_len(ports); i++) {
		o = json_object_array_get_idx(ports, i);
		fj_port_key(key, sizeof(key), o);
		pts = fj_get(o, "points");
		if (!fj_len(pts) || !(p = port_slot(h, key)))
			continue;
		for (k = 0; k < fj_len(pts); k++) {
			pt = json_object_array_get_idx(pts, k);
			if (fj_len(pt) >= 1)
				take_point(h, p, pt, col, ncol);
		}
	}
}

const struct hist_port *hist_find(const struct hist *h, const char *key)
{
	unsigned int i;

	for (i = 0; h && i < h->n; i++)
		if (!strcmp(h->port[i].key, key))
			return &h->port[i];
	return NULL;
}

double hist_sum(const struct hist_port *p, unsigned int i, unsigned int mask)
{
	const float *v;
	double sum = 0;
	bool any = false;
	int s;

	if (!p || i >= p->count)
		return NAN;
	v = p->v[(p->head + HIST_KEEP - 1 - i) % HIST_KEEP];
	for (s = 0; s < HSER_NR; s++) {
		if (!(mask & (1u << s)) || isnan(v[s]))
			continue;
		sum += v[s];
		any = true;
	}
	return any ? sum : NAN;
}

void hist_spark(char *buf, size_t width, const struct hist_port *p, unsigned int mask,
		double *last)
{
	static const char ramp[] = ".,:-=+*#@";	/* 9 levels above nothing */
	double top = 0, v;
	size_t i, n = p && p->count < width ? p->count : width;

	for (i = 0; i < n; i++) {
		v = hist_sum(p, (unsigned int)i, mask);
		if (!isnan(v) && v > top)
			top = v;
	}
	memset(buf, ' ', width);	/* no point yet: blank */
	buf[width] = '\0';
	for (i = 0; i < n; i++) {
		v = hist_sum(p, (unsigned int)i, mask);
		if (isnan(v))
			continue;
		buf[width - 1 - i] = v <= 0 || top <= 0 ? '_' :
				     ramp[(int)ceil(v / top * 9) - 1 < 0 ? 0 :
					  (int)ceil(v / top * 9) - 1 > 8 ? 8 :
					  (int)ceil(v / top * 9) - 1];
	}
	*last = hist_sum(p, 0, mask);
}
