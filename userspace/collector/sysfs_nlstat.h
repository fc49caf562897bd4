/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysfs_nlstat.h - plain sysfs: a port's hw_counters in one RDMA netlink
 * STAT_GET (what `rdma statistic show link D/P` reads) where the kernel
 * offers it, instead of one hw_counters file per counter (port_stats,
 * opts.h; sysfs_nlstat.c).
 */
#ifndef FABTEL_SYSFS_NLSTAT_H
#define FABTEL_SYSFS_NLSTAT_H

#include <stdbool.h>
#include <stdint.h>

#include "opts.h"
#include "port_reads.h"
#include "rdmastat.h"

struct raw_port;

#define NLSTAT_DEVS	64		/* devices whose netlink index is kept */
#define NLSTAT_RETRY_MS	60000		/* port_stats auto: netlink tried again after a failure */

struct sysfs_nlstat {
	struct rdmastat st;		/* its socket; st.requests: STAT_GETs and device lists sent */
	bool listed;			/* devs holds the kernel's last list */
	unsigned int nr_devs;
	struct {
		uint32_t index;
		char name[RDMASTAT_NAME_LEN];
	} devs[NLSTAT_DEVS];
	struct rdmastat_port reply;	/* the last STAT_GET's */
	/*
	 * Each port's names -> schema map, made again only when the reply's
	 * names change (a pass maps by index: no name compared)
	 */
	struct nlstat_map {
		uint32_t key;		/* the port: fnv1a of device name and number */
		uint32_t names;		/* fnv1a of the reply's names in order */
		unsigned int nr;
		bool soft_roce;
		int8_t k[RDMASTAT_MAX_ENTRIES];		/* schema counter, -1 none */
		uint8_t width[RDMASTAT_MAX_ENTRIES];
	} maps[NLSTAT_DEVS];
	unsigned int nr_maps;
};

/*
 * Whether o lets plain sysfs ask netlink: port_stats not files, and the
 * root the kernel's ("" or "/") with no test backend: a fixture's devices
 * are not the kernel's.
 */
bool sysfs_nlstat_wanted(const struct collect_opts *o);
void sysfs_nlstat_init(struct sysfs_nlstat *n);
/* its socket closed */
void sysfs_nlstat_fini(struct sysfs_nlstat *n);

/*
 * The hw_counters of one STAT_GET reply into p: each through the schema's
 * vendor maps (schema.h) as the files are, the vendor guessed from the
 * reply's names; none held (all fresh).
 */
void sysfs_nlstat_map(const struct rdmastat_port *sp, struct raw_port *p);

/*
 * The port's hw_counters over netlink, as via says (not PORT_STATS_FILES),
 * its fate noted as the port's read PR_HW_NETLINK.  True if netlink
 * answered for the port (*err 0, p's counters set) or netlink alone is
 * asked (*err its failure); false: read the files (auto, after a failure,
 * until NLSTAT_RETRY_MS and its back-off are over).
 */
bool sysfs_nlstat_read(struct sysfs_nlstat *n, struct port_backoffs *pb, enum port_stats_via via,
		       struct raw_port *p, uint64_t now, int *err);

#endif /* FABTEL_SYSFS_NLSTAT_H */
