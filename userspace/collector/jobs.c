// SPDX-License-Identifier: GPL-2.0
/*
 * jobs.c - cgroup path -> job (see jobs.h).
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "jobs.h"

const char *job_kind_name(enum job_kind kind)
{
	switch (kind) {
	case JOB_SLURM:
		return "slurm";
	case JOB_K8S:
		return "k8s";
	case JOB_CONFIG:
		return "config";
	default:
		return "none";
	}
}

static bool match_rules(const char *path, const struct job_rule *rules, size_t nrules,
			struct job_match *out)
{
	size_t i;

	for (i = 0; i < nrules; i++) {
		if (!fnmatch(rules[i].glob, path, 0)) {
			out->kind = JOB_CONFIG;
			snprintf(out->id, sizeof(out->id), "%s", rules[i].name);
			return true;
		}
	}
	return false;
}

/* A path component [prefix]job_<digits>: Slurm's job cgroup. */
static bool match_slurm(const char *path, struct job_match *out)
{
	const char *c = path, *d;
	size_t n;

	while ((c = strstr(c, "job_"))) {
		if (c == path || c[-1] == '/') {
			d = c + 4;
			for (n = 0; isdigit((unsigned char)d[n]); n++)
				;
			if (n && n < sizeof(out->id) && (d[n] == '/' || d[n] == '\0')) {
				out->kind = JOB_SLURM;
				memcpy(out->id, d, n);
				out->id[n] = '\0';
				return true;
			}
		}
		c += 4;
	}
	return false;
}

/*
 * "pod" followed by a UUID (36 chars, '-' or '_' at 8, 13, 18, 23), then
 * '/', '.', or the end.  The systemd driver writes '_' for '-'.
 */
static bool match_k8s(const char *path, struct job_match *out)
{
	const char *c = path, *u;
	int i;

	while ((c = strstr(c, "pod"))) {
		u = c + 3;
		for (i = 0; i < 36; i++) {
			bool dash = i == 8 || i == 13 || i == 18 || i == 23;

			if (dash ? (u[i] != '-' && u[i] != '_') : !isxdigit((unsigned char)u[i]))
				break;
		}
		if (i == 36 && (u[36] == '/' || u[36] == '.' || u[36] == '\0') &&
		    (c == path || c[-1] == '/' || c[-1] == '-')) {
			out->kind = JOB_K8S;
			for (i = 0; i < 36; i++)
				out->id[i] = u[i] == '_' ? '-' : (char)tolower((unsigned char)u[i]);
			out->id[36] = '\0';
			return true;
		}
		c += 3;
	}
	return false;
}

bool job_match_path(const char *path, const struct job_rule *rules, size_t nrules,
		    struct job_match *out)
{
	memset(out, 0, sizeof(*out));
	if (match_rules(path, rules, nrules, out))
		return true;
	if (match_slurm(path, out) || match_k8s(path, out))
		return true;
	memset(out, 0, sizeof(*out));
	return false;
}

/* Call fn on each line's path; stop at the first true. */
static bool each_path(const char *text, bool (*fn)(const char *, const void *, size_t,
						   struct job_match *),
		      const void *rules, size_t nrules, struct job_match *out)
{
	char path[4096];
	const char *line = text, *end, *p;
	size_t n;

	while (line && *line) {
		end = strchr(line, '\n');
		n = end ? (size_t)(end - line) : strlen(line);
		/* ID:CONTROLLERS:PATH; the path may itself hold ':' */
		p = memchr(line, ':', n);
		if (p)
			p = memchr(p + 1, ':', n - (size_t)(p + 1 - line));
		if (p && (size_t)(line + n - p - 1) < sizeof(path)) {
			memcpy(path, p + 1, line + n - p - 1);
			path[line + n - p - 1] = '\0';
			if (fn(path, rules, nrules, out))
				return true;
		}
		line = end ? end + 1 : NULL;
	}
	return false;
}

static bool rules_fn(const char *path, const void *rules, size_t nrules, struct job_match *out)
{
	return match_rules(path, rules, nrules, out);
}

static bool builtin_fn(const char *path, const void *rules, size_t nrules,
		       struct job_match *out)
{
	(void)rules;
	(void)nrules;
	return match_slurm(path, out) || match_k8s(path, out);
}

bool job_match_proc_cgroup(const char *text, const struct job_rule *rules, size_t nrules,
			   struct job_match *out)
{
	memset(out, 0, sizeof(*out));
	if (each_path(text, rules_fn, rules, nrules, out) ||
	    each_path(text, builtin_fn, NULL, 0, out))
		return true;
	memset(out, 0, sizeof(*out));
	return false;
}

int job_rule_parse(const char *arg, struct job_rule *rule)
{
	const char *eq = strchr(arg, '=');
	size_t n;

	if (!eq || eq == arg)
		return -EINVAL;
	n = (size_t)(eq - arg);
	if (n >= sizeof(rule->name) || strlen(eq + 1) >= sizeof(rule->glob) || !eq[1])
		return -EINVAL;
	/*
	 * the name becomes a label value and a path segment
	 * (/api/v1/jobs/<job_id>/trace): printable, no spaces, no '/'
	 */
	for (size_t i = 0; i < n; i++)
		if (!isgraph((unsigned char)arg[i]) || arg[i] == '"' || arg[i] == '\\' ||
		    arg[i] == '/')
			return -EINVAL;
	memcpy(rule->name, arg, n);
	rule->name[n] = '\0';
	snprintf(rule->glob, sizeof(rule->glob), "%s", eq + 1);
	return 0;
}
