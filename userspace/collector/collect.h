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

struct collector;

/*
 * A collector for model m (set up here) with the options o, its sources
 * open (BPF if o allows and we may); NULL: no memory.
 */
struct collector *collect_init(struct model *m, const struct collect_opts *o);
/* Attach the wire program to the ports' netdevs (root only, before dropping). */
void collect_attach_wire(struct collector *c);
/*
 * Remove the wire program's TC filters now, from any thread: for a stop
 * that cannot wait for the collector (fabteld's stop.c).  NULL: nothing.
 */
void collect_detach_wire(struct collector *c);
/* One pass over all sources; takes m->lock only to publish. */
void collect_sample(struct collector *c);
/* Poll BPF events in a thread of their own from now on (fabteld's loop). */
void collect_start_events(struct collector *c);
/* Wait up to ms for BPF events (handled), or until wake_fd is readable (-1: sleep). */
void collect_wait(struct collector *c, int ms, int wake_fd);
/* The sources closed, every file let go, c freed (the model stays). NULL: nothing. */
void collect_fini(struct collector *c);

#endif /* FABTEL_COLLECT_H */
