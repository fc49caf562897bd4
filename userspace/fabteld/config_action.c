// SPDX-License-Identifier: GPL-2.0
/*
 * config_action.c - the action_* settings that are not whole numbers
 * (config_action.h): the four commands, action_on and action_log.
 *
 * A command is its program's path (or a bare name looked up on PATH, as
 * the shell would) and up to 15 arguments, split at blanks and taken as
 * they are: no quotes, no variables, no shell.  The evidence reaches the
 * program in its environment and on its standard input, never in a
 * command line (Documentation/fabteld.rst, "Actions").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_action.h"

static const char *const scope_names[ACT_SCOPES] = { "node", "port" };
static const char *const event_names[ACT_EVENTS] = { "failing", "healthy" };

const char *action_event_name(enum action_event e)
{
	return event_names[e];
}

const char *action_scope_name(enum action_scope s)
{
	return scope_names[s];
}

unsigned int action_split(const char *cmd, char *buf, size_t len, char *argv[ACTION_MAX_ARGS + 1])
{
	unsigned int n = 0;
	char *save = NULL, *w;

	snprintf(buf, len, "%s", cmd);
	for (w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (n < ACTION_MAX_ARGS)
			argv[n] = w;
		n++;
	}
	argv[n < ACTION_MAX_ARGS ? n : ACTION_MAX_ARGS] = NULL;
	return n;
}

bool action_any(const struct action_cfg *a)
{
	for (int s = 0; s < ACT_SCOPES; s++)
		for (int e = 0; e < ACT_EVENTS; e++)
			if (a->cmd[s][e][0])
				return true;
	return false;
}

/* "action_node_failing" ... into its slot; NULL: not one of them */
static char *cmd_slot(struct action_cfg *a, const char *key)
{
	char name[64];

	for (int s = 0; s < ACT_SCOPES; s++)
		for (int e = 0; e < ACT_EVENTS; e++) {
			snprintf(name, sizeof(name), "action_%s_%s", scope_names[s], event_names[e]);
			if (!strcmp(key, name))
				return a->cmd[s][e];
		}
	return NULL;
}

static int set_cmd(char *slot, const char *key, const char *v, char *err, size_t errlen)
{
	char buf[ACTION_CMD_LEN], *argv[ACTION_MAX_ARGS + 1];
	unsigned int n;

	if (!strcmp(v, "none")) {
		slot[0] = '\0';
		return 0;
	}
	if (strlen(v) >= ACTION_CMD_LEN) {
		snprintf(err, errlen, "%s: a command longer than %d bytes", key, ACTION_CMD_LEN - 1);
		return -1;
	}
	n = action_split(v, buf, sizeof(buf), argv);
	if (n > ACTION_MAX_ARGS) {
		snprintf(err, errlen, "%s: more than %d words (PROGRAM and %d arguments)", key,
			 ACTION_MAX_ARGS, ACTION_MAX_ARGS - 1);
		return -1;
	}
	if (!n || (strchr(argv[0], '/') && argv[0][0] != '/')) {
		snprintf(err, errlen, "%s wants PROGRAM [ARG...] (an absolute path or a name on PATH; "
			 "run without a shell), or none, not '%s'", key, v);
		return -1;
	}
	snprintf(slot, ACTION_CMD_LEN, "%s", v);
	return 0;
}

int config_action_set(struct action_cfg *a, const char *key, const char *v, char *err,
		      size_t errlen)
{
	char *slot = cmd_slot(a, key);

	if (slot)
		return set_cmd(slot, key, v, err, errlen);
	if (!strcmp(key, "action_on")) {
		if (strcmp(v, "failing") && strcmp(v, "degraded")) {
			snprintf(err, errlen, "action_on wants failing or degraded, not '%s'", v);
			return -1;
		}
		a->on_degraded = !strcmp(v, "degraded");
		return 0;
	}
	if (!strcmp(key, "action_log")) {
		if (!strcmp(v, "off")) {
			a->log[0] = '\0';
			return 0;
		}
		if (v[0] != '/' || strlen(v) >= sizeof(a->log)) {
			snprintf(err, errlen, "action_log wants an absolute path (shorter than %zu "
				 "bytes) or off, not '%s'", sizeof(a->log), v);
			return -1;
		}
		snprintf(a->log, sizeof(a->log), "%s", v);
		return 0;
	}
	return 1;
}

/* the program a bare name runs, as execvp finds it; 0 found */
static int on_path(const char *name)
{
	const char *path = getenv("PATH");
	char dir[4096], file[4352];

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		snprintf(dir, sizeof(dir), "%.*s", (int)n, path);
		snprintf(file, sizeof(file), "%s/%s", n ? dir : ".", name);
		if (!access(file, X_OK))
			return 0;
		path += n + (path[n] == ':');
	}
	return -1;
}

int config_action_check(const struct action_cfg *a, char *err, size_t errlen)
{
	char buf[ACTION_CMD_LEN], *argv[ACTION_MAX_ARGS + 1];
	struct stat st;

	for (int s = 0; s < ACT_SCOPES; s++)
		for (int e = 0; e < ACT_EVENTS; e++) {
			const char *c = a->cmd[s][e];

			if (!c[0] || !action_split(c, buf, sizeof(buf), argv))
				continue;
			if (argv[0][0] == '/' ? stat(argv[0], &st) || !S_ISREG(st.st_mode) ||
						access(argv[0], X_OK) :
						on_path(argv[0])) {
				snprintf(err, errlen, "action_%s_%s: '%s' is not an executable file%s",
					 scope_names[s], event_names[e], argv[0],
					 argv[0][0] == '/' ? "" : " on PATH");
				return -1;
			}
		}
	return 0;
}
