/* SPDX-License-Identifier: GPL-2.0 */
/*
 * collect.h - the collector: brings the model (model.h) up to date from
 * its sources (source.h), one pass at a time.
 *
 * collect_sample() is called by the caller's collector thread every
 * interval: it asks every source once, without the lock, then folds the
 * readings into the model under m->lock (fold.h).
 */
#ifndef FABTEL_COLLECT_H
#define FABTEL_COLLECT_H

#include "model.h"

/* Set up the model and open the sources (BPF if o allows and we may). */
int collect_init(struct model *m, const struct collect_opts *o);
/* Attach the wire program to the ports' netdevs (root only, before dropping). */
void collect_attach_wire(struct model *m);
/*
 * Remove the wire program's TC filters now, from any thread: for a stop
 * that cannot wait for the collector (fabteld's stop.c).
 */
void collect_detach_wire(struct model *m);
/* One pass over all sources; takes m->lock only to publish. */
void collect_sample(struct model *m);
/* Poll BPF events in a thread of their own from now on (fabteld's loop). */
void collect_start_events(struct model *m);
/* Wait up to ms for BPF events (handled), or until wake_fd is readable (-1: sleep). */
void collect_wait(struct model *m, int ms, int wake_fd);
void collect_fini(struct model *m);

#endif /* FABTEL_COLLECT_H */
