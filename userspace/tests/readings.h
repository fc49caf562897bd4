/* SPDX-License-Identifier: GPL-2.0 */
/*
 * readings.h - a pass's readings made by hand, shared by the tests that
 * run the folds over them (test_fold, test_past, test_port_slots,
 * test_job_ports).
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

/*
 * One collector pass's folds over r (fold_ports, fold_qps, fold_qpcnt,
 * fold_bpf, fold_jobs), the readings taken t seconds after 1790000000 (Unix time)
 * and at t seconds monotonic.
 */
void readings_pass(struct model *m, struct raw *r, uint64_t t);

/* the reason `what` of job slot ji's last verdict, NULL if it has none */
const struct health_reason *readings_reason(const struct model *m, unsigned int ji,
					    const char *what);
/* How many of the model's logged events are of this kind. */
unsigned int readings_events(const struct model *m, enum model_event_kind kind);

#endif
