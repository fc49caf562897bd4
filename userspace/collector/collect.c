// SPDX-License-Identifier: GPL-2.0
/*
 * collect.c - the collector's pass (collect.h): every source in the order
 * of the table below, then the folds under the model's lock.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect.h"
#include "collector.h"
#include "past.h"

/* In pass order: the sysfs source stands by when fabtel.ko's ports were read,
 * ethtool adds to the ports either read, the BPF source prunes by the QP
 * source's list and gives its QPs their peers, which the counter sets' source
 * binds by. */
static const struct source_ops *const sources[] = {
	&source_ko,
	&source_sysfs,
	&source_ethtool,
	&source_config,
	&source_ethstats,
	&source_qps,
	&source_bpf,
	&source_qpcnt,
	&source_pcie,
	&source_devlink,
	&source_kmsg,
};

#define NR_SOURCES	(sizeof(sources) / sizeof(sources[0]))
_Static_assert(NR_SOURCES <= MODEL_PASS_SOURCES, "model.h: MODEL_PASS_SOURCES");

struct collector *collect_init(struct model *m, const struct collect_opts *o)
{
	struct collector *c;
	unsigned int i;

	memset(m, 0, sizeof(*m));
	pthread_mutex_init(&m->lock, NULL);
	m->opts = *o;
	m->ports_ko = -1;
	m->started_ns = clock_ns(CLOCK_REALTIME);
	c = collector_new(m, &m->opts);
	if (!c)
		goto oom;
	c->sources = sources;
	c->nr_sources = NR_SOURCES;
	records_fold(&c->recs, &m->records);	/* those record_dir held */
	for (i = 0; i < NR_SOURCES; i++) {
		m->source_name[i] = sources[i]->name;
		if (sources[i]->priv_size && !(c->priv[i] = calloc(1, sources[i]->priv_size)))
			goto oom;
	}
	for (i = 0; i < NR_SOURCES; i++)
		if (sources[i]->open)
			sources[i]->open(c, c->priv[i]);
	return c;
oom:
	if (c)
		for (i = 0; i < NR_SOURCES; i++)
			free(c->priv[i]);
	collector_free(c);
	pthread_mutex_destroy(&m->lock);
	return NULL;
}

/* the BPF source's extra ops, for the one source that has them */
#define EACH_EXTRA(c, op, ...)						\
	do {								\
		unsigned int i_;					\
		for (i_ = 0; (c) && i_ < (c)->nr_sources; i_++)		\
			if ((c)->sources[i_]->op)			\
				(c)->sources[i_]->op(__VA_ARGS__);	\
	} while (0)

void collect_attach_wire(struct collector *c)
{
	EACH_EXTRA(c, attach_wire, c, c->priv[i_]);
}

void collect_detach_wire(struct collector *c)
{
	EACH_EXTRA(c, detach_wire, c->priv[i_]);
}

void collect_start_events(struct collector *c)
{
	EACH_EXTRA(c, start_events, c->priv[i_]);
}

void collect_wait(struct collector *c, int ms, int wake_fd)
{
	unsigned int i;

	for (i = 0; i < c->nr_sources; i++)
		if (c->sources[i]->wait) {
			c->sources[i]->wait(c->priv[i], ms, wake_fd);
			return;
		}
	if (ms > 0)
		poll(&(struct pollfd){ .fd = wake_fd, .events = POLLIN }, wake_fd >= 0, ms);
}

void collect_fini(struct collector *c)
{
	struct model *m;
	unsigned int i;

	if (!c)
		return;
	m = c->m;
	for (i = c->nr_sources; i-- > 0;) {
		if (c->sources[i]->close)
			c->sources[i]->close(c, c->priv[i]);
		free(c->priv[i]);
	}
	fold_fini(&c->fold);
	collector_free(c);
	model_records_free(&m->records);
	pthread_mutex_destroy(&m->lock);
}

/* the states the sources reported this pass, into the model (lock held) */
static void publish_states(struct model *m, const struct raw *r)
{
	unsigned int s;

	for (s = 0; s < SRC_NR; s++) {
		if (!r->reported[s])
			continue;
		m->src[s] = r->state[s];
		snprintf(m->why[s], sizeof(m->why[s]), "%s", r->why[s]);
	}
}

/*
 * Each source's sample, its CPU time into SPENT.  The thread's CPU clock is
 * a system call (no vDSO for it): it is read only after a source that asked
 * the kernel something.  One that did not (on standby, nothing due) is
 * charged nothing; its few instructions go to the next source that asked.
 * On a 2-port host this took 8 system calls of a pass's ~35 down to 2-3.
 */
static void sources_sample(struct collector *c, struct raw *r, uint64_t *spent)
{
	uint64_t cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID), now;
	unsigned int i;

	for (i = 0; i < NR_SOURCES; i++) {
		spent[i] = 0;
		if (!sources[i]->sample(c, c->priv[i], r))
			continue;
		now = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		spent[i] = now - cpu;
		cpu = now;
	}
}

/* the BPF source's count of map entries it pruned (which: 0 rxe, 1 wire) */
static uint64_t pruned(const struct collector *c, int which)
{
	unsigned int i;

	for (i = 0; i < c->nr_sources; i++)
		if (c->sources[i]->pruned)
			return c->sources[i]->pruned(c->priv[i], which);
	return 0;
}

void collect_sample(struct collector *c)
{
	struct model *m = c->m;
	uint64_t t0 = clock_ns(CLOCK_MONOTONIC), now;
	uint64_t spent[NR_SOURCES];
	struct raw *r = &c->raw;
	unsigned int i;

	memset(r->reported, 0, sizeof(r->reported));
	r->ko = false;
	r->nr_ports = r->ports_over = 0;
	sources_sample(c, r, spent);
	now = clock_ns(CLOCK_REALTIME);

	pthread_mutex_lock(&m->lock);
	publish_states(m, r);
	fold_prev_take(m, &c->fold.prev);
	fold_ports(&c->fold, m, r, now);
	devices_fold(&c->devs, m);
	fold_qps(m, r, now);
	fold_qpcnt(m, r, &c->fold.prev);
	fold_pcie(&c->fold, m, r, now);
	fold_devlink(&c->fold, m, r, now);
	fold_kmsg(&c->fold, m, r, now);
	fold_bpf(&c->fold, m, r, now);
	records_fold(&c->recs, &m->records);
	fold_jobs(m, now, &c->fold.prev);
	sticky_fold(m, now);
	m->bpf_pruned[0] = pruned(c, 0);
	m->bpf_pruned[1] = pruned(c, 1);
	m->have_ring_drops = r->have_ring_drops;
	memcpy(m->bpf_ring_drops, r->ring_drops, sizeof(m->bpf_ring_drops));
	m->have_wire_refused = r->have_wire_refused;
	memcpy(m->wire_refused, r->wire_refused, sizeof(m->wire_refused));
	m->ports_over = r->ports_over;
	m->bpf_read_errors[0] += r->rxe_err;
	m->bpf_read_errors[1] += r->wire_err;
	m->samples++;
	m->sample_ns = now;
	m->sample_seconds = (double)(clock_ns(CLOCK_MONOTONIC) - t0) / 1e9;
	for (i = 0; i < NR_SOURCES; i++)
		m->source_cpu_ns[i] += spent[i];
	m->kept_files = fs_kept_count(&c->kept);
	pthread_mutex_unlock(&m->lock);
	records_persist(&c->recs, &m->records);
	if (m->samples == 1 && r->ko)
		past_restore(m, r);	/* what happened before this fabteld */
	fs_kept_pass(&c->kept);
	sysfs_plan_pass(&c->plans);
	port_reads_pass(&c->backoffs);
}
