/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysfs_plan.h - the files of a port's counter directories the plain sysfs
 * source reads, listed once per port (sysfs_plan.c).
 */
#ifndef FABTEL_SYSFS_PLAN_H
#define FABTEL_SYSFS_PLAN_H

#include <stdbool.h>
#include <stdint.h>
#include <net/if.h>

#include "fskept.h"
#include "model.h"

#define PLAN_BASE_LEN	384
#define PLAN_HW_MAX	128	/* mapped hw_counters files of one port */
#define PLAN_ND_FILES	5

struct port_plan {
	char base[PLAN_BASE_LEN];	/* .../ports/<n>; "" a free plan */
	unsigned int used;		/* the pass it was last used in */
	bool stale;			/* a read failed: list again at next use */
	bool kernel;			/* on sysfs: listed once (else at every use) */
	bool hw_listed, pma_listed;
	bool soft_roce;			/* the hw_counters are rxe's */
	unsigned int nr_hw, nr_pma;
	struct {
		int k;			/* the schema's counter */
		uint8_t width;		/* the driver's counter width, bits */
		int fd;			/* held open (fs_held_read_u64); -1 none */
		uint16_t still;		/* reads in a row that found last again */
		bool known;		/* read once: last is a reading */
		uint64_t last;		/* the last value read */
		char file[68];		/* hw_counters/<name> */
	} hw[PLAN_HW_MAX];
	unsigned int tick;		/* samples of the hw_counters (quiet_every's phase) */
	struct {
		unsigned int c;		/* enum fabtel_pma */
		int fd;
		char file[72];		/* counters/<f> or counters_ext/<f>_64 */
	} pma[FABTEL_NR_PMA];
	/*
	 * Plain sysfs, on the kernel's tree (source_sysfs.c): what is read
	 * only when it can have moved.  The link files (link_layer once;
	 * state, the netdev's name and speed) at link_age 0; the IB port
	 * counters every pma_s seconds, their last values given in between.
	 */
	bool link_read, ethernet;
	unsigned int link_age;		/* samples since the link files were read */
	char state[24];
	char netdev[IF_NAMESIZE];
	char nd_dir[PLAN_BASE_LEN];	/* <root>/sys/class/net/<nd_name> */
	char nd_name[IF_NAMESIZE];
	int nd_fd[PLAN_ND_FILES];	/* carrier, carrier_down_count, bytes, carrier_changes */
	uint64_t nd_speed_mbps;
	bool have_nd_speed;
	int carrier;			/* the last sample's carrier and flaps */
	uint64_t flaps;
	bool have_flaps;
	uint64_t changes;		/* carrier_changes when carrier was read */
	bool have_changes;		/* false: carrier and flaps read each sample */
	int ifindex;			/* the netdev's, read with the link files; 0 none */
	uint64_t pma_ns;		/* when counters/ was read (monotonic); 0 never */
	uint64_t pma_val[FABTEL_NR_PMA];
	bool have_pma[FABTEL_NR_PMA];
};

#define PLAN_MAX	(MODEL_MAX_PORTS + 16)	/* a few going while others come */
#define HW_LIST_MAX	256	/* hw_counters files of one port looked at */

/* a port's hw_counters/ listing (scratch of list_hw) */
struct sysfs_hw_names {
	char name[HW_LIST_MAX][64];
	const char *ptr[HW_LIST_MAX];
	unsigned int n;
};

/* the collector's plans */
struct sysfs_plans {
	struct port_plan plans[PLAN_MAX];
	unsigned int pass;
	/*
	 * Where the next lookup looks first: the plan after the last one
	 * found.  The walk goes over the ports in the same order each pass
	 * and their plans were made in it, so a lookup is one compare, not
	 * one per plan before it (each in a page of its own: a plan is 13 KiB).
	 */
	unsigned int hint;
	struct fs_kept *kept;		/* the collector's: the plans' held files */
	struct sysfs_hw_names hw_names;
};

/* no plans yet; their files held through kept */
void sysfs_plan_init(struct sysfs_plans *ps, struct fs_kept *kept);
/* base's plan, its hw_counters listed if hw and not yet; NULL if base is too long */
struct port_plan *sysfs_plan_get(struct sysfs_plans *ps, const char *base, bool hw);
/* list its counters/ and counters_ext/ if not yet */
void sysfs_plan_pma(struct sysfs_plans *ps, struct port_plan *pl);
/* the port's netdev is now netdev (under root): its held files closed if it changed */
void sysfs_plan_netdev(struct sysfs_plans *ps, struct port_plan *pl, const char *root,
		       const char *netdev);
/* after each collector pass: plans not used for a while let go */
void sysfs_plan_pass(struct sysfs_plans *ps);
/* every plan let go, its files closed (the collector's end, tests) */
void sysfs_plan_fini(struct sysfs_plans *ps);

#endif /* FABTEL_SYSFS_PLAN_H */
