// SPDX-License-Identifier: GPL-2.0
/*
 * collect.c - the collector's pass (collect.h): every source in the order
 * of the table below, then the folds under the model's lock.
 */
#include <stdio.h>
#include <string.h>

#include "collect.h"
#include "devices.h"
#include "fold.h"
#include "fsread.h"
#include "past.h"
#include "source.h"
#include "sysfs_plan.h"

/* In pass order: the sysfs source stands by when fabtel.ko's ports were read,
 * ethtool adds to the ports either read, the BPF source prunes by the QP
 * source's list. */
static const struct source_ops *const sources[] = {
	&source_ko,
	&source_sysfs,
	&source_ethtool,
	&source_config,
	&source_ethstats,
	&source_qps,
	&source_bpf,
};

#define NR_SOURCES	(sizeof(sources) / sizeof(sources[0]))
_Static_assert(NR_SOURCES <= MODEL_PASS_SOURCES, "model.h: MODEL_PASS_SOURCES");

static struct raw raw;		/* only the collector thread uses it */

int collect_init(struct model *m, const struct collect_opts *o)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	pthread_mutex_init(&m->lock, NULL);
	m->opts = *o;
	m->ports_ko = -1;
	m->started_ns = clock_ns(CLOCK_REALTIME);
	for (i = 0; i < NR_SOURCES; i++)
		m->source_name[i] = sources[i]->name;
	fs_kept_root(o->sysfs_root, o->keep_files);
	for (i = 0; i < NR_SOURCES; i++)
		if (sources[i]->open)
			sources[i]->open(m);
	return 0;
}

void collect_attach_wire(struct model *m)
{
	source_bpf_attach_wire(m);
}

void collect_detach_wire(struct model *m)
{
	source_bpf_detach_wire(m);
}

void collect_start_events(struct model *m)
{
	source_bpf_start_events(m);
}

void collect_wait(struct model *m, int ms, int wake_fd)
{
	source_bpf_wait(m, ms, wake_fd);
}

void collect_fini(struct model *m)
{
	unsigned int i;

	for (i = NR_SOURCES; i-- > 0;)
		if (sources[i]->close)
			sources[i]->close(m);
	sysfs_plan_close_all();
	port_reads_forget_all();
	devices_reset();
	fs_kept_close_all();
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
static void sources_sample(struct model *m, struct raw *r, uint64_t *spent)
{
	uint64_t cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID), now;
	unsigned int i;

	for (i = 0; i < NR_SOURCES; i++) {
		spent[i] = 0;
		if (!sources[i]->sample(m, r))
			continue;
		now = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		spent[i] = now - cpu;
		cpu = now;
	}
}

void collect_sample(struct model *m)
{
	static struct fold_prev prev;	/* collector thread only */
	uint64_t t0 = clock_ns(CLOCK_MONOTONIC), now;
	uint64_t spent[NR_SOURCES];
	struct raw *r = &raw;
	unsigned int i;

	memset(r->reported, 0, sizeof(r->reported));
	r->ko = false;
	r->nr_ports = r->ports_over = 0;
	sources_sample(m, r, spent);
	now = clock_ns(CLOCK_REALTIME);

	pthread_mutex_lock(&m->lock);
	publish_states(m, r);
	fold_prev_take(m, &prev);
	fold_ports(m, r, now);
	devices_fold(m);
	fold_qps(m, r, now);
	fold_bpf(m, r, now);
	fold_jobs(m, now, &prev);
	m->bpf_pruned[0] = source_bpf_pruned(m, 0);
	m->bpf_pruned[1] = source_bpf_pruned(m, 1);
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
	m->kept_files = fs_kept_count();
	pthread_mutex_unlock(&m->lock);
	if (m->samples == 1 && r->ko)
		past_restore(m, r);	/* what happened before this fabteld */
	fs_kept_pass();
	sysfs_plan_pass();
	port_reads_pass();
}
