/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fabtel - fabric-health telemetry for RoCE NICs: private structures.
 *
 * One struct fabtel_dev per RDMA device that has at least one port with an
 * Ethernet link layer; one struct fabtel_port per such port.  A per-device
 * delayed work (the sampler) reads the driver's hardware counters, the
 * carrier counts and the DCB state every sample_ms; a netdevice notifier and
 * an IB event handler add link transitions as they happen.  Everything the
 * sysfs files show is copied under fabtel_port.lock.
 */
#ifndef FABTEL_H
#define FABTEL_H

#include <linux/kobject.h>
#include <linux/list.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>

#include "fabtel_record.h"
#include "fabtel_schema.h"

#define FABTEL_SCHEMA_VERSION	1
#define FABTEL_HISTORY_LEN	64	/* link transitions kept per port */
#define FABTEL_EVENTS_LEN	48	/* error-burst events kept per port */
#define FABTEL_NR_PRIO		8

/*
 * The vendor-neutral counters, enum fabtel_counter (FABTEL_*), and the
 * vendor maps: include/fabtel_schema.h, shared with userspace
 * (Documentation/counters.rst).
 */

enum fabtel_link_source {
	FABTEL_SRC_CARRIER,	/* a carrier transition seen on its own */
	FABTEL_SRC_IB_EVENT,	/* an IB port event the carrier did not explain */
	FABTEL_SRC_COALESCED,	/* only the carrier counts revealed it */
	FABTEL_SRC_SLAVE,	/* a link of the port's bond (RoCE LAG), named */
};

/* One normalized counter fed by one driver counter. */
struct fabtel_map_entry {
	enum fabtel_counter ctr;
	const char *src;
};

struct fabtel_vendor {
	const char *name;
	enum rdma_driver_id driver_id;
	const struct fabtel_map_entry *map;
	unsigned int map_len;
};

struct fabtel_link_entry {
	u64 boot_ns;
	u64 real_ns;
	s64 down_ns;		/* on "up": time spent down; -1 unknown */
	u8 up;
	u8 source;		/* enum fabtel_link_source */
	char slave[IFNAMSIZ];	/* FABTEL_SRC_SLAVE: the bond's link that moved */
};

/*
 * A link of the port's netdev when that is a bond (RoCE LAG: mlx5_bond_0
 * over bond0), known by ifindex and network namespace (fabtel_lag.c).
 */
#define FABTEL_LAG_SLAVES	4
struct fabtel_slave {
	int ifindex;		/* 0: a free slot */
	u64 net_cookie;
	char name[IFNAMSIZ];
	unsigned int seen_up, seen_down;
	bool up;
	bool seen;		/* found by the sampler's last walk */
	u64 down_since_ns;	/* boot clock; 0 unknown */
	u64 flaps;
};

struct fabtel_event {
	u64 seq;
	u64 boot_ns;
	u64 delta;
	u8 ctr;			/* enum fabtel_counter */
};

struct fabtel_prio {
	u64 pause_tx;		/* ieee_pfc.requests[]: PFC frames sent */
	u64 pause_rx;		/* ieee_pfc.indications[]: PFC frames received */
	u64 rising_since_ns;	/* 0: pause_tx not rising */
	u64 storm_events;
	u64 storm_last_ns;
	bool storm;
};

struct fabtel_dcb {
	bool pfc_supported;
	bool ets_supported;
	bool sampled;		/* at least one successful read */
	u8 pfc_cap;
	u8 pfc_en;
	u8 dcbx;
	u8 prio_tc[FABTEL_NR_PRIO];
	u8 tc_bw[FABTEL_NR_PRIO];
	u8 tc_tsa[FABTEL_NR_PRIO];
	struct fabtel_prio prio[FABTEL_NR_PRIO];
	u64 busy_skips;		/* samples skipped: RTNL was busy */
	u8 dscp_prio[64];	/* the APP table: DSCP -> priority bit mask */
	bool dscp_read;		/* dscp_prio holds a read */
	u64 config_next_ns;	/* ETS and DCBX mode read again (sampler's) */
};

/*
 * The IB port counters from the PMA (fabtel_pma.c); NULL on a port whose
 * device has none.  The MAD buffers are the sampler's; the rest is under
 * fabtel_port.lock.
 */
struct fabtel_pma_state {
	struct ib_mad in, out;
	bool ext;			/* PortCountersExtended for the totals */
	bool valid;			/* the last sample was answered */
	u64 val[FABTEL_NR_PMA];		/* as the PMA reports them */
	u64 errors;			/* samples the PMA did not answer */
};

/* The PHY through ethtool ops (fabtel_phy.c), under fabtel_port.lock. */
#define FABTEL_NR_FEC	3	/* corrected, uncorrectable blocks; corrected bits */
struct fabtel_phy {
	bool sampled;			/* read at least once */
	bool fec_supported;		/* the driver has get_fec_stats */
	bool have_fec[FABTEL_NR_FEC];	/* reported by the driver */
	u64 fec[FABTEL_NR_FEC];
	u32 speed_mbps;			/* 0: unknown (down, no ksettings) */
	const char *fec_mode;		/* active FEC: "rs", ...; NULL unknown */
	u64 busy_skips;			/* samples skipped: RTNL was busy */
};

/*
 * The optical module's EEPROM pages last read (fabtel_optics.c); replaced
 * whole, under fabtel_port.lock.
 */
#define FABTEL_OPTICS_PAGE	128
struct fabtel_optics {
	int err;			/* 0, or -errno of the read */
	u64 read_ns;			/* ktime_get_ns() of the read */
	u8 lower[FABTEL_OPTICS_PAGE];
	u8 up[3][FABTEL_OPTICS_PAGE];	/* upper halves of ... */
	u8 up_page[3];			/* ... these pages */
	unsigned int nr_up;
};

/* A port's reads of the driver, each with its period and back-off (fabtel_backoff.c). */
enum fabtel_rd {
	FABTEL_RD_HW_COUNTERS,
	FABTEL_RD_PMA,
	FABTEL_RD_DCB,
	FABTEL_RD_PHY,
	FABTEL_RD_OPTICS,
	FABTEL_NR_RD
};

struct fabtel_rd_state {
	u64 next_ns;		/* ktime_get_ns(): not asked before */
	u32 delay_ms;		/* the back-off; 0 while the reads succeed */
	int err;		/* the last failure's -errno */
	u64 failures;		/* failed reads since the port was added */
	bool failing;		/* the last read failed */
	bool logged;		/* this run of failures was logged */
};

struct fabtel_dev;
struct fabtel_ctr_attr;

struct fabtel_port {
	struct kobject kobj;		/* ports/<n>; its release frees us */
	struct fabtel_dev *fdev;
	u32 num;
	struct list_head node;		/* on fabtel_ports, for the notifier */

	/* driver counters; stats and sampling state only touched by the sampler */
	struct rdma_hw_stats *stats;
	u32 *last32;			/* previous raw value of 32-bit counters */
	unsigned long *is_wrap32;
	unsigned long *disabled;	/* driver's is_disabled at last sample */

	spinlock_t lock;		/* protects everything below */
	struct net_device *ndev;	/* held reference, or NULL */
	char ndev_name[IFNAMSIZ];
	bool sampled;			/* counters hold a first sample */
	u64 *raw;			/* driver values as the driver reports them */
	u64 *ext;			/* same, 32-bit ones extended to 64 bits */
	int src[FABTEL_NR_COUNTERS];	/* driver index feeding each, or -1 */
	u64 norm[FABTEL_NR_COUNTERS];
	u64 samples, sample_errors, last_sample_ns;

	/* link */
	bool link_up;			/* last recorded carrier transition */
	bool ib_down;			/* down recorded from an IB event */
	unsigned int seen_up, seen_down;
	enum ib_port_state ib_state;
	u64 flaps, down_since_ns;
	struct fabtel_link_entry history[FABTEL_HISTORY_LEN];
	struct fabtel_slave slaves[FABTEL_LAG_SLAVES];
	unsigned int hist_len, hist_head;

	/* error bursts */
	struct fabtel_event events[FABTEL_EVENTS_LEN];
	unsigned int ev_len, ev_head;
	u64 ev_seq, ev_dropped;

	struct fabtel_dcb dcb;
	struct fabtel_pma_state *pma;
	struct fabtel_phy phy;
	struct fabtel_optics *optics;	/* NULL: never read */
	struct fabtel_rd_state rd[FABTEL_NR_RD];
	u64 rd_logged_ns;		/* a failed read last logged; 0 never */

	struct fabtel_rec *rec;		/* the flight recorder (fabtel_rec.c) */

	/* sysfs */
	struct kobject *counters_kobj, *pfc_kobj, *rec_kobj;
	struct attribute_group norm_group, raw_group;
	struct fabtel_ctr_attr *attr_mem;
	struct attribute **attr_ptrs;
};

struct fabtel_dev {
	struct kobject kobj;		/* <ibdev>; its release frees us */
	struct ib_device *ibdev;
	const struct fabtel_vendor *vendor;
	struct kobject *ports_kobj;
	struct workqueue_struct *wq;
	struct delayed_work sample_work;
	struct ib_event_handler event_handler;
	bool event_handler_registered;
	unsigned int nports;
	struct fabtel_port *ports[];
};

/* fabtel_main.c */
extern struct kobject *fabtel_root;
unsigned int fabtel_sample_ms_get(void);
unsigned int fabtel_storm_ms_get(void);
unsigned int fabtel_slow_ms_get(void);

/* fabtel_rec.c: the flight recorder */
#define FABTEL_REC_AFTER_MS_MAX	60000
struct fabtel_rec;
int fabtel_rec_init(struct fabtel_port *p);
void fabtel_rec_exit(struct fabtel_port *p);
void fabtel_rec_sample(struct fabtel_port *p);
/* the snapshot's recorder line (p->lock held) */
int fabtel_rec_snapshot(struct fabtel_port *p, char *buf, int n);
int fabtel_rec_sysfs_add(struct fabtel_port *p);
void fabtel_rec_sysfs_del(struct fabtel_port *p);

/* fabtel_filter.c */
const char *fabtel_filter_reason(const char *name, const char *driver);
int fabtel_filter_check(void);

/* fabtel_backoff.c */
bool fabtel_rd_due(struct fabtel_port *p, enum fabtel_rd rd, u64 now);
void fabtel_rd_done(struct fabtel_port *p, enum fabtel_rd rd, int err, u64 now,
		    unsigned int period_ms);
int fabtel_rd_snapshot(struct fabtel_port *p, char *buf, int n);

/* fabtel_counters.c */
extern const char * const fabtel_counter_names[FABTEL_NR_COUNTERS];
const struct fabtel_vendor *fabtel_vendor_find(enum rdma_driver_id id);
int fabtel_counters_init(struct fabtel_port *p);
void fabtel_counters_exit(struct fabtel_port *p);
void fabtel_counters_sample(struct fabtel_port *p);

/* fabtel_link.c */
int fabtel_link_init(void);
void fabtel_link_exit(void);
void fabtel_link_port_add(struct fabtel_port *p, struct net_device *ndev);
void fabtel_link_port_del(struct fabtel_port *p);
void fabtel_link_sample(struct fabtel_port *p);
struct net_device *fabtel_netdev_lookup(struct ib_device *ibdev, u32 port);
void fabtel_link_ib_event(struct ib_event_handler *h, struct ib_event *ev);
struct net_device *fabtel_port_netdev_get(struct fabtel_port *p);
const char *fabtel_link_source_name(u8 source);
struct fabtel_link_entry *fabtel_link_entry_new(struct fabtel_port *p);

/* fabtel_lag.c */
void fabtel_lag_event(struct fabtel_port *p, struct net_device *slave);
void fabtel_lag_sample(struct fabtel_port *p);
int fabtel_lag_snapshot(struct fabtel_port *p, char *buf, int n);

/* fabtel_dcb.c */
void fabtel_dcb_probe(struct fabtel_port *p, struct net_device *ndev);
void fabtel_dcb_sample(struct fabtel_port *p);

/* fabtel_pma.c */
int fabtel_pma_init(struct fabtel_port *p);
void fabtel_pma_exit(struct fabtel_port *p);
void fabtel_pma_sample(struct fabtel_port *p);
int fabtel_pma_snapshot(struct fabtel_port *p, char *buf, int n);

/* fabtel_phy.c */
int fabtel_ethtool_begin(struct net_device *ndev);
void fabtel_ethtool_complete(struct net_device *ndev);
void fabtel_phy_sample(struct fabtel_port *p);
int fabtel_phy_snapshot(struct fabtel_port *p, char *buf, int n);

/* fabtel_sysfs_dcb.c */
int fabtel_dscp_emit(const struct fabtel_dcb *d, char *buf, int n);

/* fabtel_optics.c */
void fabtel_optics_sample(struct fabtel_port *p);
void fabtel_optics_free(struct fabtel_port *p);
unsigned int fabtel_optics_ms_get(void);
bool fabtel_optics_brief(const struct fabtel_optics *m, u32 *rx, s32 *temp, bool *alarm);
extern struct kobj_attribute fabtel_attr_optics;

/* fabtel_sysfs.c */
int fabtel_sysfs_port_add(struct fabtel_port *p);
void fabtel_sysfs_port_del(struct fabtel_port *p);

/* fabtel_sysfs_dcb.c: pfc/ and ets/ */
extern const struct attribute_group fabtel_pfc_group;
extern const struct attribute_group fabtel_ets_group;
extern const struct attribute_group *fabtel_prio_groups[];
/* Eight small numbers, space separated, and a newline, at buf + at. */
int fabtel_emit_u8s(char *buf, int at, const u8 *v);

static inline struct fabtel_port *kobj_to_port(struct kobject *kobj)
{
	return container_of(kobj, struct fabtel_port, kobj);
}

/* For files in the counters/ and pfc/ child directories. */
static inline struct fabtel_port *child_to_port(struct kobject *kobj)
{
	return kobj_to_port(kobj->parent);
}
extern const struct kobj_type fabtel_port_ktype;

/*
 * The next of *nup ups and *ndown downs seen at once in carrier counts,
 * taken from them: transitions alternate from the last state recorded
 * (@up), as far as the counts allow.
 */
static inline bool fabtel_next_transition(bool up, unsigned int *nup,
					  unsigned int *ndown)
{
	bool next_up = !up;

	if (next_up && !*nup)
		next_up = false;
	else if (!next_up && !*ndown)
		next_up = true;
	if (next_up)
		(*nup)--;
	else
		(*ndown)--;
	return next_up;
}

static inline u64 fabtel_now_boot(void)
{
	return ktime_get_boottime_ns();
}

#endif /* FABTEL_H */
