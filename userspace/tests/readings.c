// SPDX-License-Identifier: GPL-2.0
/*
 * readings.c - a pass's readings made by hand (readings.h).
 */
#include <stdio.h>
#include <string.h>

#include "fold.h"
#include "readings.h"

void readings_rxa_job7(struct model *m, struct raw *r)
{
	memset(m, 0, sizeof(*m));
	memset(r, 0, sizeof(*r));
	collect_opts_default(&m->opts);
	m->ports_ko = -1;
	r->nr_ports = 1;
	snprintf(r->ports[0].device, sizeof(r->ports[0].device), "rxa");
	r->ports[0].port = 1;
	snprintf(r->ports[0].state, sizeof(r->ports[0].state), "ACTIVE");
	r->ports[0].carrier = 1;
	r->nr_qps = 1;
	r->qps[0].nl = (struct rdmanl_qp){ .dev_index = 1, .dev_name = "rxa", .port = 1,
					   .type = 2, .qpn = 17, .pid = 4242, .rqpn = 18,
					   .state = 3, .has_state = true };
	r->qps[0].has_job = true;
	r->qps[0].job.kind = JOB_SLURM;
	snprintf(r->qps[0].job.id, sizeof(r->qps[0].job.id), "7");
}

void readings_pass(struct model *m, struct raw *r, uint64_t t)
{
	static struct fold f = { .sock = -1 };
	uint64_t now = (1790000000 + t) * NS_PER_S;

	r->ports_mono = t * NS_PER_S;
	fold_prev_take(m, &f.prev);
	fold_ports(&f, m, r, now);
	fold_qps(m, r, now);
	fold_qpcnt(m, r, &f.prev);
	fold_pcie(&f, m, r, now);
	fold_devlink(&f, m, r, now);
	fold_bpf(&f, m, r, now);
	fold_jobs(m, now, &f.prev);
	sticky_fold(m, now);
	m->samples++;
}

const struct health_reason *readings_reason(const struct model *m, unsigned int ji,
					    const char *what)
{
	const struct health_result *res = &m->jobs[ji].result;
	unsigned int i;

	for (i = 0; i < res->nr_reasons; i++)
		if (!strcmp(res->reasons[i].reason, what))
			return &res->reasons[i];
	return NULL;
}

unsigned int readings_events(const struct model *m, enum model_event_kind kind)
{
	const struct model_event *ev;
	unsigned int n = 0;
	uint64_t s;

	for (s = 1; s < m->next_event_seq; s++)
		if ((ev = model_event_get(m, s)) && ev->kind == kind)
			n++;
	return n;
}
