/* SPDX-License-Identifier: GPL-2.0 */
/*
 * readings.h - a pass's readings made by hand, shared by the tests that
 * run the folds over them (test_fold, test_past, test_port_slots).
 */
#ifndef FABTEL_TEST_READINGS_H
#define FABTEL_TEST_READINGS_H

#include "model.h"
#include "source.h"

/*
 * A model with the default options and no port yet, and a pass that reads
 * port 1 of rxa, ACTIVE with carrier, and one QP (17) on it of Slurm job 7.
 */
void readings_rxa_job7(struct model *m, struct raw *r);

/* How many of the model's logged events are of this kind. */
unsigned int readings_events(const struct model *m, enum model_event_kind kind);

#endif
