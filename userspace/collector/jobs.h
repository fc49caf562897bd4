/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jobs.h - which job a process belongs to, from its cgroup path.
 *
 * A job is a set of cgroups.  In order: the explicit rules (config file,
 * --job NAME=GLOB; the first whose glob matches the whole path wins, '*'
 * also crosses '/'), then Slurm (a path component "job_<digits>", cgroup v1
 * "/slurm/uid_U/job_J/..." and v2 ".../slurmstepd.scope/job_J/..."), then
 * Kubernetes (a pod UID: "pod<uid>" with the cgroupfs driver,
 * "kubepods-<qos>-pod<uid_with_underscores>.slice" with the systemd one).
 */
#ifndef FABTELD_JOBS_H
#define FABTELD_JOBS_H

#include <stdbool.h>
#include <stddef.h>

#define JOB_ID_LEN	128

enum job_kind {
	JOB_NONE,
	JOB_SLURM,
	JOB_K8S,
	JOB_CONFIG,
};

struct job_rule {
	char name[JOB_ID_LEN];
	char glob[256];
};

struct job_match {
	enum job_kind kind;
	char id[JOB_ID_LEN];	/* Slurm job id, pod UID, or the rule's name */
};

/* "slurm", "k8s", "config", "none" */
const char *job_kind_name(enum job_kind kind);

/* Match one cgroup path.  true and *out filled on a match. */
bool job_match_path(const char *path, const struct job_rule *rules, size_t nrules,
		    struct job_match *out);

/*
 * Match the text of /proc/PID/cgroup ("ID:CONTROLLERS:PATH" lines, v1 and
 * v2): the first line whose path matches, rules before built-ins over all
 * lines.  true and *out filled on a match.
 */
bool job_match_proc_cgroup(const char *text, const struct job_rule *rules, size_t nrules,
			   struct job_match *out);

/* "NAME=GLOB" (from --job or the config file) into *rule; -EINVAL if bad. */
int job_rule_parse(const char *arg, struct job_rule *rule);

#endif /* FABTELD_JOBS_H */
