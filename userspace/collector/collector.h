/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collector.h - the collector's state: everything a collector keeps from
 * one pass to the next, in one struct collector (collect.h makes, runs
 * and ends one).  The parts its sources share are members of their own
 * types; each source's own state is priv[i], allocated by the collector
 * as its ops ask (source.h).  Only the collector thread touches it, but
 * for the BPF source's own thread and its detach_wire (source_bpf.c).
 */
#ifndef FABTEL_COLLECTOR_H
#define FABTEL_COLLECTOR_H

#include "devices.h"
#include "fold.h"
#include "fskept.h"
#include "fswalk.h"
#include "ko_events.h"
#include "model.h"
#include "netdev_bytes.h"
#include "port_rate.h"
#include "port_reads.h"
#include "records.h"
#include "source.h"
#include "sysfs_plan.h"

struct collector {
	struct model *m;
	const struct collect_opts *o;		/* &m->opts (without m, the caller's) */
	struct fs_kept kept;			/* the files kept open */
	struct fs_walk walk;			/* the port walk's listings */
	struct devices devs;			/* the devices listed, their fates */
	struct sysfs_plans plans;		/* plain sysfs: which files a port has */
	struct port_backoffs backoffs;		/* fabteld's back-offs of its reads */
	struct port_rates rates;		/* the ports' last rate readings */
	struct ko_events ko_events;		/* fabtel.ko's events read so far */
	struct records recs;			/* flight records read this pass */
	struct netdev_bytes nd;			/* /proc/net/dev this sample */
	struct fold fold;			/* the folds' memory between passes */
	/* the sources, in pass order (collect.c), and their own states */
	const struct source_ops *const *sources;
	unsigned int nr_sources;
	void *priv[MODEL_PASS_SOURCES];
	struct raw raw;				/* this pass's readings */
};

/*
 * A collector for model m (its options o copied there first), with no
 * source yet: the shared parts set up.  collect_init adds the sources;
 * tests and fuzzers call their parts on one as it is (m may be NULL for
 * the parts that do not fold: o is then the caller's, read as it is at
 * each call, and must outlive c).  NULL: no memory.
 */
struct collector *collector_new(struct model *m, const struct collect_opts *o);
/* the shared parts' files closed, c freed (the sources closed before) */
void collector_free(struct collector *c);

#endif /* FABTEL_COLLECTOR_H */
