// SPDX-License-Identifier: GPL-2.0
/*
 * config.c - fabteld's config file (see config.h, Documentation/fabteld.rst).
 */
#include <errno.h>
#include <netdb.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "settings.h"
#include "text.h"

/*
 * What no key's default gives (roce_tos unset, host_name the host's name:
 * probe_cfg_defaults), then each key's default from the table: the
 * collector's own for the numbers it takes as they are, the table's for
 * the rest.  A default the parser refuses is settings.c's bug: abort
 * (test_config finds it).
 */
void config_defaults(struct config *c)
{
	struct collect_opts o;
	char err[512];
	size_t i;

	memset(c, 0, sizeof(*c));
	c->roce_tos = CONFIG_TOS_UNSET;
	probe_cfg_defaults(&c->probe_cfg);
	collect_opts_default(&o);
	for (i = 0; i < settings_count; i++) {
		const struct setting *s = &settings[i];

		if (s->to_opts)
			memcpy((char *)c + s->off, (const char *)&o + s->opts_off,
			       sizeof(unsigned int));
		else if (s->def && config_set(c, s->key, s->def, err, sizeof(err)))
			abort();
	}
}

void config_collect_opts(const struct config *c, struct collect_opts *o)
{
	size_t i;

	collect_opts_default(o);
	snprintf(o->sysfs_root, sizeof(o->sysfs_root), "%s", c->sysfs_root);
	snprintf(o->proc_root, sizeof(o->proc_root), "%s", c->proc_root);
	snprintf(o->record_dir, sizeof(o->record_dir), "%s", c->record_dir);
	snprintf(o->host_name, sizeof(o->host_name), "%s", c->probe_cfg.host);
	o->bpf = c->bpf != CONFIG_OFF;
	o->wire = c->wire != CONFIG_OFF;
	o->want_ko = c->fabtel_ko != CONFIG_OFF;
	o->kmsg = c->kmsg != CONFIG_OFF;
	o->keep_files = c->keep_files == CONFIG_ON ? FS_KEEP_ALL :
			c->keep_files == CONFIG_OFF ? FS_KEEP_NONE : FS_KEEP_AUTO;
	o->roce_tos = c->roce_tos != CONFIG_TOS_UNSET ? (int)c->roce_tos : -1;
	o->qp_counters = c->qp_counters;
	o->port_stats = c->port_stats;
	/* the numbers it takes as they are: the table says which */
	for (i = 0; i < settings_count; i++)
		if (settings[i].to_opts)
			memcpy((char *)o + settings[i].opts_off, (const char *)c + settings[i].off,
			       sizeof(unsigned int));
	o->job_rules = c->job_rules;
	o->nr_job_rules = c->nr_job_rules;
	o->devfilter = &c->devfilter;
}

int config_set_listen(struct config *c, const char *v)
{
	const char *colon = strrchr(v, ':');
	char addr[64];
	unsigned int port;
	size_t n;

	if (!colon || config_parse_uint(colon + 1, 1, 65535, false, &port))
		return -1;
	n = (size_t)(colon - v);
	if (n >= sizeof(addr))
		return -1;
	memcpy(addr, v, n);
	addr[n] = '\0';
	if (n >= 2 && addr[0] == '[' && addr[n - 1] == ']') {
		memmove(addr, addr + 1, n - 2);
		addr[n - 2] = '\0';
	}
	if (!addr[0])
		snprintf(addr, sizeof(addr), "0.0.0.0");
	snprintf(c->listen_addr, sizeof(c->listen_addr), "%s", addr);
	c->listen_port = port;
	return 0;
}

/* basic_auth_user = NAME:BCRYPT_HASH (htpasswd -nbB NAME PASSWORD gives it) */
static int config_add_user(struct config *c, const char *value, char *err, size_t errlen)
{
	const char *colon = strchr(value, ':');
	struct config_user *u;
	size_t n = colon ? (size_t)(colon - value) : 0;

	if (!n || n >= sizeof(u->name) || strlen(colon + 1) >= sizeof(u->hash) ||
	    (strncmp(colon + 1, "$2y$", 4) && strncmp(colon + 1, "$2b$", 4) &&
	     strncmp(colon + 1, "$2a$", 4)) || strlen(colon + 1) != 60) {
		snprintf(err, errlen,
			 "basic_auth_user wants NAME:BCRYPT_HASH (htpasswd -nbB NAME PASSWORD), not '%s'",
			 value);
		return -1;
	}
	if (c->nr_users == CONFIG_MAX_USERS) {
		snprintf(err, errlen, "more than %d basic_auth_user lines", CONFIG_MAX_USERS);
		return -1;
	}
	u = &c->users[c->nr_users++];
	snprintf(u->name, sizeof(u->name), "%.*s", (int)n, value);
	snprintf(u->hash, sizeof(u->hash), "%s", colon + 1);
	return 0;
}

/* value's index in words (NULL-ended), or -1 */
static int config_pick(const char *value, const char *const *words)
{
	int i;

	for (i = 0; words[i]; i++)
		if (!strcmp(value, words[i]))
			return i;
	return -1;
}

/* record_dir: an absolute path, or off ("": not kept) */
static int set_record_dir(struct config *c, const char *value, char *err, size_t errlen)
{
	if (!strcmp(value, "off")) {
		c->record_dir[0] = '\0';
		return 0;
	}
	if (value[0] != '/' || strlen(value) >= sizeof(c->record_dir)) {
		snprintf(err, errlen, "record_dir wants an absolute path (shorter than %zu bytes) "
			 "or off, not '%s'", sizeof(c->record_dir), value);
		return -1;
	}
	snprintf(c->record_dir, sizeof(c->record_dir), "%s", value);
	return 0;
}

/* A key of the table's SETTING_TEXT (settings.c): 0, or -1 with err. */
static int set_text(struct config *c, const char *key, const char *value, char *err,
		    size_t errlen)
{
	int r;

	r = config_probe_set(&c->probe_cfg, key, value, err, errlen);
	if (r <= 0)
		return r;
	r = devfilter_set(&c->devfilter, key, value, err, errlen);
	if (r <= 0)
		return r;
	r = config_action_set(&c->action, key, value, err, errlen);
	if (r <= 0)
		return r;
	if (!strcmp(key, "listen")) {
		if (config_set_listen(c, value)) {
			snprintf(err, errlen, "listen wants ADDRESS:PORT, not '%s'", value);
			return -1;
		}
	} else if (!strcmp(key, "tls_cert_file") || !strcmp(key, "tls_key_file")) {
		char *dst = !strcmp(key, "tls_cert_file") ? c->tls_cert_file : c->tls_key_file;

		if (value[0] != '/' || strlen(value) >= sizeof(c->tls_cert_file)) {
			snprintf(err, errlen, "%s wants an absolute path (PEM), not '%s'", key, value);
			return -1;
		}
		snprintf(dst, sizeof(c->tls_cert_file), "%s", value);
	} else if (!strcmp(key, "basic_auth_user")) {
		return config_add_user(c, value, err, errlen);
	} else if (!strcmp(key, "user")) {
		if (!value[0] || strlen(value) >= sizeof(c->user)) {
			snprintf(err, errlen, "user wants a user name");
			return -1;
		}
		snprintf(c->user, sizeof(c->user), "%s", value);
	} else if (!strcmp(key, "job")) {
		if (c->nr_job_rules == CONFIG_MAX_JOB_RULES) {
			snprintf(err, errlen, "more than %d job rules", CONFIG_MAX_JOB_RULES);
			return -1;
		}
		if (job_rule_parse(value, &c->job_rules[c->nr_job_rules])) {
			snprintf(err, errlen, "job wants NAME=CGROUP_GLOB (NAME printable, no quotes), not '%s'",
				 value);
			return -1;
		}
		c->nr_job_rules++;
	} else if (!strcmp(key, "qp_counters")) {
		r = config_pick(value, (const char *[]){ "off", "read", "auto", "peer", NULL });
		if (r < 0) {
			snprintf(err, errlen, "qp_counters wants off, read, auto or peer, not '%s'",
				 value);
			return -1;
		}
		c->qp_counters = (enum qp_counters_policy)r;
	} else if (!strcmp(key, "port_stats")) {
		r = config_pick(value, (const char *[]){ "auto", "files", "netlink", NULL });
		if (r < 0) {
			snprintf(err, errlen, "port_stats wants auto, files or netlink, not '%s'", value);
			return -1;
		}
		c->port_stats = (enum port_stats_via)r;
	} else if (!strcmp(key, "record_dir")) {
		return set_record_dir(c, value, err, errlen);
	} else if (!strcmp(key, "sysfs_root") || !strcmp(key, "proc_root")) {
		char *dst = !strcmp(key, "sysfs_root") ? c->sysfs_root : c->proc_root;

		if (value[0] != '/') {
			snprintf(err, errlen, "%s wants an absolute path", key);
			return -1;
		}
		if (strlen(value) >= sizeof(c->sysfs_root)) {
			snprintf(err, errlen, "%s: path longer than %zu bytes", key,
				 sizeof(c->sysfs_root) - 1);
			return -1;
		}
		snprintf(dst, sizeof(c->sysfs_root), "%s", strcmp(value, "/") ? value : "");
	} else {
		snprintf(err, errlen, "unknown key '%s'", key);
		return -1;
	}
	return 0;
}

int config_set(struct config *c, const char *key, const char *value, char *err, size_t errlen)
{
	const struct setting *st = settings_find(key);
	void *field;

	if (!st) {
		snprintf(err, errlen, "unknown key '%s'", key);
		return -1;
	}
	field = (char *)c + st->off;
	switch (st->type) {
	case SETTING_UINT:
		if (config_parse_uint(value, st->lo, st->hi, st->hex, field)) {
			snprintf(err, errlen, "%s wants a whole number %u..%u, not '%s'",
				 key, st->lo, st->hi, value);
			return -1;
		}
		return 0;
	case SETTING_TRISTATE:
		if (config_parse_tristate(value, field)) {
			snprintf(err, errlen, "%s wants auto, on or off, not '%s'", key, value);
			return -1;
		}
		return 0;
	case SETTING_TEXT:
		break;
	}
	return set_text(c, key, value, err, errlen);
}

/* Where a line's key was set, for the checks start makes later. */
static void note_where(struct config *c, const char *key, const char *where)
{
	if (!strcmp(key, "listen"))
		snprintf(c->listen_from, sizeof(c->listen_from), "%s", where);
	else if (!strcmp(key, "user"))
		snprintf(c->user_from, sizeof(c->user_from), "%s", where);
}

/* One line of the file (NUL-terminated, newline kept); 0, or -1 with err. */
static int check_line(const char *line, ssize_t n, char *err, size_t errlen)
{
	if ((size_t)n - (n > 0 && line[n - 1] == '\n') > CONFIG_MAX_LINE) {
		snprintf(err, errlen, "line longer than %d bytes", CONFIG_MAX_LINE);
		return -1;
	}
	if (strlen(line) != (size_t)n) {
		snprintf(err, errlen, "a NUL byte in the line");
		return -1;
	}
	if (strpbrk(line, "\r\v\f")) {
		snprintf(err, errlen, "control characters");
		return -1;
	}
	return 0;
}

/* One line's "key = value" into c; 0, or -1 with err. */
static int load_line(struct config *c, char *line, const char *where, char *err, size_t errlen)
{
	char *key, *value, *eq, *hash;

	hash = strchr(line, '#');
	if (hash)
		*hash = '\0';
	key = text_trim(line);
	if (!*key)
		return 0;
	eq = strchr(key, '=');
	if (!eq) {
		snprintf(err, errlen, "expected 'key = value', got '%.200s'", key);
		return -1;
	}
	*eq = '\0';
	value = text_trim(eq + 1);
	key = text_trim(key);
	if (!*key || !*value) {
		snprintf(err, errlen, "expected 'key = value'");
		return -1;
	}
	if (config_set(c, key, value, err, errlen))
		return -1;
	note_where(c, key, where);
	return 0;
}

int config_load(struct config *c, const char *file, char *err, size_t errlen)
{
	char *line = NULL, what[600], where[300];
	unsigned int lineno = 0;
	size_t cap = 0;
	ssize_t n;
	int ret = -1;
	FILE *f;

	f = fopen(file, "re");
	if (!f) {
		snprintf(err, errlen, "%s: %s", file, strerror(errno));
		return -1;
	}
	while ((n = getline(&line, &cap, f)) >= 0) {
		lineno++;
		snprintf(where, sizeof(where), "%s:%u", file, lineno);
		if (check_line(line, n, what, sizeof(what)) ||
		    load_line(c, line, where, what, sizeof(what))) {
			snprintf(err, errlen, "%s: %s", where, what);
			goto close_file;
		}
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error", file);
		goto close_file;
	}
	ret = 0;
close_file:
	free(line);
	fclose(f);
	return ret;
}

int config_check_host(const struct config *c, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_flags = AI_NUMERICHOST | AI_PASSIVE,
				  .ai_socktype = SOCK_STREAM };
	struct addrinfo *ai = NULL;
	int rc;

	rc = getaddrinfo(c->listen_addr, NULL, &hints, &ai);
	if (rc) {
		snprintf(err, errlen, "%s%slisten address '%s' is not a numeric IPv4 or IPv6 address (%s)",
			 c->listen_from, c->listen_from[0] ? ": " : "", c->listen_addr,
			 gai_strerror(rc));
		return -1;
	}
	freeaddrinfo(ai);
	if (config_probe_check(&c->probe_cfg, err, errlen) ||
	    config_action_check(&c->action, err, errlen))
		return -1;
	if (strcmp(c->user, "root") && !getpwnam(c->user)) {
		snprintf(err, errlen, "%s%suser '%s' does not exist on this host",
			 c->user_from, c->user_from[0] ? ": " : "", c->user);
		return -1;
	}
	return 0;
}
