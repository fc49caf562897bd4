// SPDX-License-Identifier: GPL-2.0
/*
 * fold_devlink.c - the RDMA devices' devlink health reporters
 * (source_devlink.c) into the model: each reporter's state, its error and
 * recover counts, the rise of its errors at this read and since when it
 * is in error (Documentation/nic_health.rst).
 */
#include <stdio.h>
#include <string.h>

#include "fold.h"
#include "text.h"

_Static_assert(RAW_REPORTERS == sizeof(((struct model_health *)0)->rep) /
				sizeof(((struct model_health *)0)->rep[0]),
	       "one model reporter per raw one");

static const struct model_health *old_of(const struct model *m, const char *device)
{
	unsigned int i;

	for (i = 0; i < m->nr_health; i++)
		if (!strcmp(m->health[i].device, device))
			return &m->health[i];
	return NULL;
}

/* reporter name (port) of o, or -1 */
static int old_rep(const struct model_health *o, const char *name, bool has_port, uint32_t port)
{
	unsigned int k;

	for (k = 0; o && k < o->nr; k++)
		if (!strcmp(o->rep[k].name, name) && o->rep[k].has_port == has_port &&
		    o->rep[k].port == port)
			return (int)k;
	return -1;
}

static void take(struct model_health *h, const struct raw_health *rh,
		 const struct model_health *o, uint64_t now)
{
	unsigned int k;
	int ok;

	memset(h, 0, sizeof(*h));
	text_copy(h->device, sizeof(h->device), rh->device);
	if (rh->has_handle)
		snprintf(h->handle, sizeof(h->handle), "%s/%s", rh->bus, rh->dev);
	if (o && strcmp(o->handle, h->handle))
		o = NULL;	/* another device under the name */
	h->nr = rh->nr;
	h->over = rh->over;
	for (k = 0; k < rh->nr; k++) {
		text_copy(h->rep[k].name, sizeof(h->rep[0].name), rh->rep[k].name);
		h->rep[k].has_port = rh->rep[k].has_port;
		h->rep[k].port = rh->rep[k].port;
		h->rep[k].error = rh->rep[k].error;
		h->rep[k].errors = rh->rep[k].errors;
		h->rep[k].recovers = rh->rep[k].recovers;
		ok = old_rep(o, h->rep[k].name, h->rep[k].has_port, h->rep[k].port);
		if (ok >= 0 && h->rep[k].errors > o->rep[ok].errors)
			h->rep[k].rise = h->rep[k].errors - o->rep[ok].errors;
		if (h->rep[k].error)
			h->rep[k].error_ns = ok >= 0 && o->rep[ok].error_ns ? o->rep[ok].error_ns :
					     now;
	}
}

void fold_devlink(struct fold *f, struct model *m, const struct raw *r, uint64_t now)
{
	struct model_health *next = f->health_next;
	unsigned int i;

	m->health_fresh = r->health_read;
	if (m->src[SRC_DEVLINK] != SRC_STATE_UP) {
		m->nr_health = 0;
		return;
	}
	if (!r->health_read)
		return;
	for (i = 0; i < r->nr_health; i++)
		take(&next[i], &r->health[i], old_of(m, r->health[i].device), now);
	memcpy(m->health, next, r->nr_health * sizeof(next[0]));
	m->nr_health = r->nr_health;
}

const struct model_health *model_health_of(const struct model *m, const char *device)
{
	return old_of(m, device);
}
