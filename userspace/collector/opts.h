/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opts.h - what the collector is told (fabteld's config, fabtop's options)
 * and the defaults of its settings.  fabteld's settings table
 * (fabteld/settings.c) takes these same constants as the defaults of the
 * keys that set them, so each is written once.
 */
#ifndef FABTEL_OPTS_H
#define FABTEL_OPTS_H

#include <stdbool.h>
#include <stddef.h>

#include "devfilter.h"
#include "fskept.h"
#include "health.h"
#include "jobs.h"

#define COLLECT_INTERVAL_MS	1000	/* interval_ms */
#define COLLECT_JOB_LINGER_S	300	/* job_linger_s */
#define COLLECT_MODULE_S	10	/* module_s */
#define COLLECT_FEC_S		10	/* fec_s */
#define COLLECT_PMA_S		10	/* pma_s */
#define COLLECT_QUIET_EVERY	4	/* quiet_every */
#define COLLECT_INFO_EVERY	2	/* info_every */
#define COLLECT_QP_COUNTERS_S	5	/* qp_counters_s */
#define COLLECT_QP_COUNTERS_SETS	8	/* qp_counters_sets */
#define COLLECT_PCIE_S		10	/* pcie_s */
#define COLLECT_KMSG_WEDGED_S	600	/* kmsg_wedged_s */
#define COLLECT_RECENT_FAULT_S	300	/* recent_fault_s */

/* qp_counters: whether the NIC's own per-QP counter sets are read (qp_counters.rst) */
enum qp_counters_policy {
	QPC_OFF,		/* never asked */
	QPC_READ,		/* the counters that exist are read */
	QPC_AUTO,		/* read, and auto mode by PID turned on where a port has none */
	QPC_PEER,		/* read, and each job's QPs bound by peer where a port has none */
};

/* port_stats: how plain sysfs reads a port's hw_counters */
enum port_stats_via {
	PORT_STATS_AUTO,	/* one RDMA netlink STAT_GET, the files where it fails */
	PORT_STATS_FILES,	/* one file per counter */
	PORT_STATS_NETLINK,	/* STAT_GET only: the port is unread when it fails */
};

struct collect_opts {
	char sysfs_root[256];		/* "" = "/"; fixture trees in tests */
	char record_dir[256];		/* flight records kept here; "" not kept */
	char proc_root[256];
	char host_name[64];		/* this host's name (host_name): build_info's host label */
	bool bpf;			/* false: never load BPF (bpf = off) */
	bool wire;			/* false: no wire program (wire = off) */
	bool want_ko;			/* false: fabtel.ko not expected (fabtel_ko = off) */
	enum fs_keep keep_files;	/* which files stay open between samples */
	unsigned int interval_ms;	/* the caller's sampling period, reported */
	unsigned int job_linger_s;	/* a job without QPs stays this long */
	unsigned int module_s;		/* module EEPROM and RoCE config read period; 0 off */
	unsigned int pma_s;		/* plain sysfs: IB port counters' period; 0 each sample */
	unsigned int fec_s;		/* without fabtel.ko: FEC statistics' period; 0 each sample */
	unsigned int quiet_every;	/* plain sysfs: a quiet hw_counters file's period, samples */
	unsigned int info_every;	/* plain sysfs: a moving one that counts no error: period */
	enum qp_counters_policy qp_counters;
	unsigned int qp_counters_s;	/* counter sets' read period; 0 each sample */
	unsigned int qp_counters_sets;	/* peer: sets fabteld makes per port, at most */
	unsigned int pcie_s;		/* PCIe link and AER read period; 0 never */
	bool kmsg;			/* follow the kernel log (kmsg = off: never) */
	unsigned int kmsg_wedged_s;	/* a TX timeout this recent, then a lockup: wedged */
	unsigned int recent_fault_s;	/* a port clean again stays recent_fault this long */
	enum port_stats_via port_stats;
	int roce_tos;			/* the ToS RoCE jobs use (NCCL_IB_TC); -1 unset */
	struct health_cfg health;
	const struct job_rule *job_rules;	/* owned by the caller */
	size_t nr_job_rules;
	const struct devfilter *devfilter;	/* devices left out (owned by the caller); NULL none */
};

/* The defaults (the constants above, health_cfg_defaults(); no job rules). */
void collect_opts_default(struct collect_opts *o);

#endif /* FABTEL_OPTS_H */
