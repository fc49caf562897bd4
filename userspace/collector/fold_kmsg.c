// SPDX-License-Identifier: GPL-2.0
/*
 * fold_kmsg.c - the kernel log's driver messages (source_kmsg.c) into the
 * model: per device the lines of each pattern, the rise of its error lines
 * at this read, whether its driver is wedged; the pass's (device, pattern)
 * pairs as events (Documentation/driver_messages.rst).
 */
#include <string.h>

#include "fold.h"
#include "text.h"

_Static_assert(RAW_KMSG_DEVS == MODEL_KMSG_DEVS, "one model row per raw one");

static const struct model_kmsg *old_of(const struct model *m, const char *device)
{
	unsigned int i;

	for (i = 0; i < m->nr_kmsg; i++)
		if (!strcmp(m->kmsg[i].device, device))
			return &m->kmsg[i];
	return NULL;
}

static void take(struct model_kmsg *k, const struct raw_kmsg_dev *rk, const struct model_kmsg *o,
		 uint64_t now)
{
	unsigned int i;

	memset(k, 0, sizeof(*k));
	text_copy(k->device, sizeof(k->device), rk->device);
	memcpy(k->n, rk->n, sizeof(k->n));
	for (i = 0; i < kmsg_nr_patterns; i++)
		if (kmsg_patterns[i].error && k->n[i] > (o ? o->n[i] : 0))
			k->rise += k->n[i] - (o ? o->n[i] : 0);
	k->rise_ns = k->rise ? now : o ? o->rise_ns : 0;
	k->wedged = rk->wedged;
	k->wedged_ns = rk->wedged_ns;
	text_copy(k->wedged_why, sizeof(k->wedged_why), rk->wedged_why);
	k->last_seq = rk->last_seq;
	text_copy(k->last_text, sizeof(k->last_text), rk->last_text);
}

static void events(struct model *m, const struct raw *r)
{
	const struct raw_kmsg_event *e;
	struct model_event *ev;
	unsigned int i;

	for (i = 0; i < r->nr_kmsg_ev; i++) {
		e = &r->kmsg_ev[i];
		ev = model_log_event(m, e->wedged ? EV_DRIVER_WEDGED : EV_DRIVER_MESSAGE,
				     e->device, 0, e->at_ns);
		text_copy(ev->counter, sizeof(ev->counter), kmsg_patterns[e->pattern].id);
		ev->count = e->n;
	}
	m->kmsg_events_over += r->kmsg_ev_over;
}

void fold_kmsg(struct fold *f, struct model *m, const struct raw *r, uint64_t now)
{
	struct model_kmsg *next = f->kmsg_next;
	unsigned int i;

	m->kmsg_fresh = r->kmsg_read;
	if (m->src[SRC_KMSG] != SRC_STATE_UP) {
		m->nr_kmsg = 0;
		return;
	}
	if (!r->kmsg_read)
		return;
	for (i = 0; i < r->nr_kmsg; i++)
		take(&next[i], &r->kmsg[i], old_of(m, r->kmsg[i].device), now);
	memcpy(m->kmsg, next, r->nr_kmsg * sizeof(next[0]));
	m->nr_kmsg = r->nr_kmsg;
	m->kmsg_records = r->kmsg_records;
	m->kmsg_lost = r->kmsg_lost;
	m->kmsg_user = r->kmsg_user;
	events(m, r);
}

const struct model_kmsg *model_kmsg_of(const struct model *m, const char *device)
{
	return old_of(m, device);
}
