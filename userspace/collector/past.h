/* SPDX-License-Identifier: GPL-2.0 */
/*
 * past.h - what happened before fabteld started, read back from fabtel.ko
 * (past.c).
 */
#ifndef FABTEL_PAST_H
#define FABTEL_PAST_H

#include "model.h"
#include "source.h"

/*
 * Once, after the first pass, if its ports were fabtel.ko's: log each port's
 * flaps (link/history) and error bursts (events) as events marked restored,
 * and give the jobs on a port that flapped within hold_s their link_flap
 * signal.  Call without m->lock; reads files, then takes the lock.
 */
void past_restore(struct model *m, const struct raw *r);

#endif /* FABTEL_PAST_H */
