/* SPDX-License-Identifier: GPL-2.0 */
/*
 * action_job.h - one command to run (or audit) and its evidence, as
 * action_watch.c hands it to the runner (action_run.c).
 */
#ifndef FABTELD_ACTION_JOB_H
#define FABTELD_ACTION_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "config_action.h"

#define ACTION_MAX_ENV		16	/* FABTEL_* variables */
#define ACTION_ENV_LEN		448	/* one "FABTEL_...=..." */
#define ACTION_QUEUE_MAX	64	/* jobs waiting at most; more are audited as dropped */

enum action_outcome {
	ACT_RAN,		/* it ran to its end (exit status or signal in the audit) */
	ACT_DRY_RUN,		/* action_dry_run: audited, not run */
	ACT_DEFERRED,		/* the rate limit holds it; run when it allows, if still due */
	ACT_NOT_STARTED,	/* the program could not be started */
	ACT_TIMEOUT,		/* still running after action_timeout_s: killed */
	ACT_DROPPED,		/* the queue was full */
	ACT_STOPPED,		/* fabteld stopped while it ran: killed */
	ACT_NOT_RUN,		/* fabteld stopped before it ran */
	ACT_OUTCOMES,
};

struct json_object;

struct action_job {
	struct action_job *next;
	enum action_scope scope;
	enum action_event event;
	uint64_t at_ns;			/* CLOCK_REALTIME of the transition */
	char target[96];		/* "node", or "DEVICE/PORT" */
	char argbuf[ACTION_CMD_LEN];
	char *argv[ACTION_MAX_ARGS + 1];
	char env[ACTION_MAX_ENV][ACTION_ENV_LEN];	/* "FABTEL_...=..." */
	unsigned int nr_env;
	struct json_object *evidence;	/* owned: its JSON goes to the command's stdin */
	bool dry_run;
	int *failed;			/* its target's flag: set (__atomic) when it fails */
};

const char *action_outcome_name(enum action_outcome o);

#endif /* FABTELD_ACTION_JOB_H */
