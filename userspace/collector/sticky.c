// SPDX-License-Identifier: GPL-2.0
/*
 * sticky.c - recent_fault (sticky.h, Documentation/fabteld.rst "Recent
 * faults"): a flap is over in 300 ms and a lost probe in a window, but the
 * operator who looks a minute later must still see that the port was in
 * trouble, which fault and when.
 *
 * A port's faults: its link down (carrier or IB state), a flap (its flap
 * count rose this pass), its probes losing (path_loss), its device's
 * driver wedged, a devlink health reporter of its device in error.  While
 * one holds the port is faulty; once none does it is recent_fault for
 * recent_fault_s (0: never), with the last fault and when it was seen,
 * unless acknowledged (sticky_ack: POST /api/v1/ack).  A flap seen while
 * the link is already up again is faulty and clean at once.  A restarted
 * fabteld takes the flaps fabtel.ko kept (past.c: sticky_restore), so a
 * port that flapped a minute before the restart is still recent_fault.
 */
#include <stdio.h>
#include <string.h>

#include "fold.h"
#include "model.h"
#include "sticky.h"

#define NS_PER_SEC	1000000000ull

/* the fault the port has now, "" none */
static const char *fault_now(const struct model *m, const struct model_port *p)
{
	const struct model_kmsg *k = model_kmsg_of(m, p->device);
	const struct model_health *h = model_health_of(m, p->device);
	unsigned int i;

	if (p->carrier == 0 || (p->state[0] && strcmp(p->state, "ACTIVE")))
		return "link_down";
	if (p->probe.have && p->probe.loss_bad)
		return "path_loss";
	if (k && k->wedged)
		return "driver_wedged";
	for (i = 0; h && i < h->nr; i++)
		if (h->rep[i].error)
			return "nic_firmware";
	return "";
}

static void port_fold(const struct model *m, struct model_port *p, uint64_t now)
{
	struct port_sticky *s = &p->sticky;
	const char *f = fault_now(m, p);
	bool flap = p->have_flaps && s->flaps_primed && p->flaps.total > s->flaps_seen;
	uint64_t hold = (uint64_t)m->opts.recent_fault_s * NS_PER_SEC;

	if (p->have_flaps) {
		s->flaps_seen = p->flaps.total;
		s->flaps_primed = true;
	}
	if (!f[0] && flap)
		f = "link_flap";
	if (f[0]) {
		snprintf(s->fault, sizeof(s->fault), "%s", f);
		s->fault_ns = now;
		s->faulty = !flap || strcmp(f, "link_flap");
		s->clean_ns = s->faulty ? 0 : now;
		s->recent = !s->faulty && hold;
		return;
	}
	if (s->faulty) {		/* clean again */
		s->faulty = false;
		s->clean_ns = now;
		s->recent = hold != 0;
	}
	if (s->recent && now - s->clean_ns >= hold)
		s->recent = false;
}

void sticky_restore(struct model *m, struct model_port *p, const char *fault, uint64_t at,
		    uint64_t now)
{
	struct port_sticky *s = &p->sticky;
	uint64_t hold = (uint64_t)m->opts.recent_fault_s * NS_PER_SEC;

	if (!hold || at + hold <= now || s->faulty || at <= s->fault_ns)
		return;
	snprintf(s->fault, sizeof(s->fault), "%s", fault);
	s->fault_ns = at;
	s->clean_ns = at;
	s->recent = true;
}

void sticky_fold(struct model *m, uint64_t now)
{
	unsigned int i;

	for (i = 0; i < m->port_slots; i++)
		if (m->ports[i].present)
			port_fold(m, &m->ports[i], now);
}

int sticky_ack(struct model *m, const char *device, uint32_t port, const char *who,
	       uint64_t now)
{
	int cleared = 0, found = 0;
	unsigned int i;

	for (i = 0; i < m->port_slots; i++) {
		struct model_port *p = &m->ports[i];

		if (!p->present || (device && strcmp(p->device, device)) ||
		    (device && port && p->port != port))
			continue;
		found++;
		if (!p->sticky.recent)
			continue;
		p->sticky.recent = false;
		p->sticky.acked_ns = now;
		snprintf(p->sticky.acked_by, sizeof(p->sticky.acked_by), "%s", who);
		cleared++;
	}
	return device && !found ? -1 : cleared;
}
