/* SPDX-License-Identifier: GPL-2.0 */
/*
 * actions.h - commands run on verdict transitions (Documentation/fabteld.rst,
 * "Actions"): when the node or one of its ports turns failing, and when it
 * is healthy again, fabteld runs the configured command with the evidence
 * in FABTEL_* variables and as JSON on its standard input, one command at
 * a time in a thread of its own, never through a shell; each run (or dry
 * run, deferral, timeout) is one line of the audit log.
 *
 * action_watch.c decides (the levels, the transitions, the rate limit),
 * action_evidence.c says what happened (environment, JSON), action_run.c
 * runs and audits.
 */
#ifndef FABTELD_ACTIONS_H
#define FABTELD_ACTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "config_action.h"

struct actions;
struct model;

/*
 * action_log opened for appending (0640), before fabteld gives up root:
 * its fd; -1 with err "" when there is none to open (no log, or no
 * command), -1 with err when it cannot be opened.
 */
int actions_log_open(const struct action_cfg *cfg, char *err, size_t errlen);
/*
 * Start the runner for cfg (node: this host's name, FABTEL_NODE; log_fd:
 * actions_log_open's, the runner's from then on); NULL with err when it
 * cannot start, NULL without (err "") when cfg has no command.
 */
struct actions *actions_start(const struct action_cfg *cfg, const char *node, int log_fd,
			      char *err, size_t errlen);
/* After a sample: the node's and ports' levels, and what turns (takes m->lock). */
void actions_pass(struct actions *a, struct model *m, uint64_t now_ns);
/* Stop: a command running is killed, those queued are audited as not run. */
void actions_stop(struct actions *a);

#endif /* FABTELD_ACTIONS_H */
