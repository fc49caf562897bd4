// SPDX-License-Identifier: GPL-2.0
/*
 * fold_pcie.c - the RDMA devices' PCI functions (source_pcie.c) into the
 * model: each function's link against what it should run at, and the
 * rise of its AER counters (Documentation/nic_health.rst).
 *
 * What it should run at: the lower of its own maximum and its slot's (the
 * upstream port's maximum: a x16 card in a x8 slot runs at x8, as built),
 * and never less than the best it ran at since fabteld started (a link
 * that retrained down after a reset or a reseat).  A NIC keeps its link
 * trained while idle; a GPU lowers its speed when idle, but fabtel reads
 * the RDMA devices' functions only.
 */
#include <stdio.h>
#include <string.h>

#include "fold.h"
#include "text.h"

static const struct model_pcie *old_of(const struct model *m, const char *device)
{
	unsigned int i;

	for (i = 0; i < m->nr_pcie; i++)
		if (!strcmp(m->pcie[i].device, device))
			return &m->pcie[i];
	return NULL;
}

static unsigned int lower(unsigned int a, unsigned int b)
{
	return !b || (a && a < b) ? a : b;
}

/* "8.0 GT/s" for MT/s 8000 */
static void speed_text(char *out, size_t len, unsigned int mts)
{
	snprintf(out, len, "%u.%u GT/s", mts / 1000, mts % 1000 / 100);
}

/* is q below what it should run at?  q->detail says how */
static bool below(struct model_pcie *q)
{
	unsigned int want_mts = lower(q->max_mts, q->slot_mts), want_w = lower(q->max_w, q->slot_w);
	char cur[16], want[16];
	size_t at = 0;

	q->detail[0] = '\0';
	if (q->best_mts > want_mts)
		want_mts = q->best_mts;
	if (q->best_w > want_w)
		want_w = q->best_w;
	if (q->cur_w && q->cur_w < want_w)
		at += (size_t)snprintf(q->detail, sizeof(q->detail), "x%u of x%u", q->cur_w,
				       want_w);
	if (q->cur_mts && q->cur_mts < want_mts) {
		speed_text(cur, sizeof(cur), q->cur_mts);
		speed_text(want, sizeof(want), want_mts);
		snprintf(q->detail + at, sizeof(q->detail) - at, "%s%s of %s", at ? ", " : "",
			 cur, want);
	}
	return q->detail[0] != '\0';
}

static void take(struct model_pcie *q, const struct raw_pcie *rq, const struct model_pcie *o,
		 uint64_t now)
{
	unsigned int s, k;

	memset(q, 0, sizeof(*q));
	text_copy(q->device, sizeof(q->device), rq->device);
	text_copy(q->bdf, sizeof(q->bdf), rq->bdf);
	text_copy(q->why, sizeof(q->why), rq->why);
	q->cur_mts = rq->cur_mts;
	q->max_mts = rq->max_mts;
	q->slot_mts = rq->slot_mts;
	q->cur_w = rq->cur_w;
	q->max_w = rq->max_w;
	q->slot_w = rq->slot_w;
	q->best_mts = q->cur_mts;
	q->best_w = q->cur_w;
	if (o && !strcmp(o->bdf, q->bdf)) {
		q->best_mts = o->best_mts > q->best_mts ? o->best_mts : q->best_mts;
		q->best_w = o->best_w > q->best_w ? o->best_w : q->best_w;
	}
	q->degraded = q->bdf[0] && below(q);
	q->degraded_ns = !q->degraded ? 0 : o && o->degraded ? o->degraded_ns : now;
	q->have_aer = rq->have_aer;
	memcpy(q->aer_total, rq->aer_total, sizeof(q->aer_total));
	if (o && strcmp(o->bdf, q->bdf))
		o = NULL;	/* another function under the name: nothing to rise from */
	q->aer_rise_ns = o ? o->aer_rise_ns : 0;
	for (s = 0; s < 3 && o && o->have_aer && q->have_aer; s++) {
		q->aer_rise[s] = q->aer_total[s] > o->aer_total[s] ?
				 q->aer_total[s] - o->aer_total[s] : 0;
		if (q->aer_rise[s])
			q->aer_rise_ns = now;
	}
	q->nr_aer = rq->nr_aer < MODEL_AER_KINDS ? rq->nr_aer : MODEL_AER_KINDS;
	for (k = 0; k < q->nr_aer; k++) {
		q->aer[k].sev = rq->aer[k].sev;
		text_copy(q->aer[k].name, sizeof(q->aer[0].name), rq->aer[k].name);
		q->aer[k].n = rq->aer[k].n;
	}
}

void fold_pcie(struct fold *f, struct model *m, const struct raw *r, uint64_t now)
{
	struct model_pcie *next = f->pcie_next;
	unsigned int i;

	m->pcie_fresh = r->pcie_read;
	if (m->src[SRC_PCIE] != SRC_STATE_UP) {
		m->nr_pcie = 0;
		return;
	}
	if (!r->pcie_read)
		return;
	for (i = 0; i < r->nr_pcie; i++)
		take(&next[i], &r->pcie[i], old_of(m, r->pcie[i].device), now);
	memcpy(m->pcie, next, r->nr_pcie * sizeof(next[0]));
	m->nr_pcie = r->nr_pcie;
}

const struct model_pcie *model_pcie_of(const struct model *m, const char *device)
{
	return old_of(m, device);
}
