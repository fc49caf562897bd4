/* SPDX-License-Identifier: GPL-2.0 */
/*
 * config.h - fabteld's settings: defaults, the config file, then the
 * command line (which wins).  The file format is in Documentation/fabteld.rst:
 * "key = value" lines, '#' comments, "job = NAME=GLOB" repeatable.  The keys,
 * their ranges and their defaults are settings.c's table.
 */
#ifndef FABTELD_CONFIG_H
#define FABTELD_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "config_action.h"
#include "config_probe.h"
#include "config_value.h"
#include "health.h"
#include "jobs.h"
#include "opts.h"
#include "prober.h"

#define CONFIG_MAX_JOB_RULES	64
#define CONFIG_MAX_WIRE_IFACES	16
#define CONFIG_MAX_USERS	16	/* basic_auth_user lines */
#define CONFIG_MAX_LINE		1022	/* bytes of one line of the file, newline not counted */
#define CONFIG_TOS_UNSET	256	/* roce_tos not set */

/* Each key's default and meaning: settings.c. */
struct config {
	char listen_addr[64];
	unsigned int listen_port;
	unsigned int interval_ms;	/* sampling period */
	char user[64];			/* drop to this user after loading BPF */
	enum config_tristate bpf;	/* auto: if root */
	enum config_tristate wire;	/* auto: with bpf, on RoCE netdevs */
	enum config_tristate fabtel_ko;	/* off: not expected on this host */
	enum config_tristate keep_files;	/* sysfs files kept open: auto, on (any), off */
	enum qp_counters_policy qp_counters;	/* the NIC's counter sets: off, read, auto */
	enum port_stats_via port_stats;		/* plain sysfs hw_counters: auto, files, netlink */
	unsigned int max_connections;
	unsigned int response_timeout_s;	/* HTTP: an answer not sent whole by then is cut off */
	unsigned int job_linger_s;	/* a job without QPs stays this long */
	unsigned int module_s;		/* module EEPROM read period, s; 0 off */
	unsigned int fec_s;		/* FEC statistics read period (no fabtel.ko), s; 0 each pass */
	unsigned int quiet_every;	/* plain sysfs: quiet hw_counters read every N samples */
	unsigned int info_every;	/* plain sysfs: counters of no error, moving, every N */
	unsigned int qp_counters_s;	/* counter sets read period, s */
	unsigned int qp_counters_sets;	/* peer: sets made per port, at most */
	unsigned int pcie_s;		/* PCIe link and AER read period, s */
	enum config_tristate kmsg;	/* the kernel log's driver messages: auto, on (required), off */
	unsigned int kmsg_wedged_s;	/* a TX timeout this recent, then a lockup: wedged */
	unsigned int recent_fault_s;	/* a port clean again stays recent_fault this long */
	unsigned int pma_s;		/* plain sysfs: IB port counters period, s; 0 each sample */
	unsigned int roce_tos;		/* 0..255; CONFIG_TOS_UNSET: unset */
	char sysfs_root[256];		/* "" = "/"; for tests */
	char proc_root[256];
	char record_dir[256];		/* flight records kept here; "" (off) not kept */
	struct health_cfg health;
	enum config_tristate probe;	/* auto: on when a peer source is set */
	struct probe_cfg probe_cfg;	/* probe_* keys, host_name (config_probe.c) */
	struct job_rule job_rules[CONFIG_MAX_JOB_RULES];
	size_t nr_job_rules;
	struct action_cfg action;	/* action_* keys (config_action.c) */
	struct devfilter devfilter;	/* include_devices, exclude_drivers, ... (devfilter.h) */
	/* HTTPS and basic auth, as Prometheus exporters' web config (http_web.c) */
	char tls_cert_file[256], tls_key_file[256];
	struct config_user {
		char name[64];
		char hash[128];		/* bcrypt: $2y$, $2b$ or $2a$ */
	} users[CONFIG_MAX_USERS];
	size_t nr_users;
	/* where listen and user were set ("FILE:LINE", "command line", "") */
	char listen_from[300], user_from[300];
};

/* Every key at its default (settings.c), host_name this host's name. */
void config_defaults(struct config *c);
/* The collector's part of the settings (points into c: keep c alive). */
void config_collect_opts(const struct config *c, struct collect_opts *o);

/*
 * Read FILE into c.  On error returns -1 and writes "FILE:LINE: what" into
 * err (size errlen); the settings already read stay, the rest are defaults.
 */
int config_load(struct config *c, const char *file, char *err, size_t errlen);

/*
 * One "key = value" setting (the file's and the command line's common path).
 * -1 and a message in err if the key is unknown or the value bad.
 */
int config_set(struct config *c, const char *key, const char *value, char *err, size_t errlen);

/*
 * What start needs of the host, checked as start checks it: the listen
 * address numeric (IPv4 or IPv6, no name lookup), the user known (unless
 * root), the prober's settings that go together set together
 * (config_probe_check).  0, or -1 with err naming where the setting came
 * from.
 */
int config_check_host(const struct config *c, char *err, size_t errlen);

/* "ADDR:PORT", "[V6]:PORT" or ":PORT" into c; -1 if bad. */
int config_set_listen(struct config *c, const char *v);

#endif /* FABTELD_CONFIG_H */
