/* SPDX-License-Identifier: GPL-2.0 */
/*
 * config_action.h - the commands fabteld runs when the node or a port
 * turns failing or healthy again (Documentation/fabteld.rst, "Actions"),
 * and how: the level that counts, the rate limit, the timeout, dry run,
 * the audit log.  config.c hands these keys here (config_action.c).
 */
#ifndef FABTELD_CONFIG_ACTION_H
#define FABTELD_CONFIG_ACTION_H

#include <stdbool.h>
#include <stddef.h>

#define ACTION_CMD_LEN		512
#define ACTION_MAX_ARGS		16	/* words of a command, its path included */

enum action_scope { ACT_NODE, ACT_PORT, ACT_SCOPES };
enum action_event { ACT_FAILING, ACT_HEALTHY, ACT_EVENTS };

struct action_cfg {
	/* "PROGRAM ARG...": words split at blanks, run without a shell; "" none */
	char cmd[ACT_SCOPES][ACT_EVENTS][ACTION_CMD_LEN];
	bool on_degraded;		/* action_on = degraded: that level counts as failing */
	unsigned int rate_s;		/* the same target's commands this far apart at least */
	unsigned int timeout_s;		/* a command still running then is killed */
	unsigned int dry_run;		/* 1: audit what would run, run nothing */
	char log[256];			/* the audit log (JSON lines); "" none */
};

/* "failing", "healthy"; "node", "port"; the keys' names */
const char *action_event_name(enum action_event e);
const char *action_scope_name(enum action_scope s);

/*
 * An action_* key that is not a number: 0, -1 with err if the value is
 * bad, 1 if key is not one of them.
 */
int config_action_set(struct action_cfg *a, const char *key, const char *value, char *err,
		      size_t errlen);

/*
 * Each command's program is there and executable (a bare name: on PATH):
 * 0, or -1 with err naming the key.
 */
int config_action_check(const struct action_cfg *a, char *err, size_t errlen);

/*
 * Split a command into argv (pointers into buf, a copy of cmd; NULL
 * after the last).  How many words it has, 0 for an empty command; past
 * ACTION_MAX_ARGS only the first ACTION_MAX_ARGS are in argv.
 */
unsigned int action_split(const char *cmd, char *buf, size_t len, char *argv[ACTION_MAX_ARGS + 1]);

/* Any command configured. */
bool action_any(const struct action_cfg *a);

#endif /* FABTELD_CONFIG_ACTION_H */
