/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fakeroce - a simulated RoCE NIC for testing fabtel.
 *
 * One fakeroce device is an RDMA ib_device "fakeroce<ID>" with one RoCE port
 * on top of an Ethernet netdev "fre<ID>" with DCB (IEEE PFC/ETS) ops.  Its
 * hw_counters carry the names of a real driver (the "personality"), their
 * values are set from debugfs.  There is no data path; its only verbs make
 * and list control-plane QPs (fakeroce_qp.c).
 */
#ifndef _FAKEROCE_H
#define _FAKEROCE_H

#include <linux/idr.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/types.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>
#include <net/dcbnl.h>

#define FAKEROCE_MAX_ID		63
#define FAKEROCE_PORT		1
#define FAKEROCE_NUM_PRIO	IEEE_8021QAZ_MAX_TCS
/* The longest counter table (bnxt_re, 67) must fit. */
#define FAKEROCE_MAX_COUNTERS	72
/* flap_coalesced refuses more flaps than this in one write. */
#define FAKEROCE_MAX_FLAPS	10000
/* QPs one device holds at most (debugfs qps), enough for a NIC under NCCL. */
#define FAKEROCE_MAX_QPS	4096
/* QP counter sets (debugfs counter_limit): the default and the largest limit */
#define FAKEROCE_COUNTER_LIMIT		16
#define FAKEROCE_MAX_COUNTER_LIMIT	1024

/*
 * A personality: the real driver whose identity and counter names a device
 * takes.  descs[i].priv points at the counter's width in bits (32 or 64).
 */
/* The Ethernet driver whose ethtool -S names the netdev takes (fakeroce_stats.c). */
enum fakeroce_stats_style {
	FAKEROCE_STATS_MLX5E,
	FAKEROCE_STATS_BNXT,
	FAKEROCE_STATS_ICE,
};

struct fakeroce_personality {
	const char *name;
	enum fakeroce_stats_style eth_stats;
	bool pma;		/* answers PerfMgmt MADs (process_mad), as mlx5_ib */
	bool fec_stats;		/* ethtool FEC statistics (mlx5e, bnxt_en; not ice) */
	bool qp_counters;	/* QP counter sets (counter_* ops), as mlx5_ib */
	enum rdma_driver_id driver_id;
	u32 vendor_id;
	u32 vendor_part_id;
	const struct rdma_stat_desc *descs;
	unsigned int num_counters;
	const struct attribute_group *ident;	/* the driver's device files, or NULL */
};

/*
 * DCB state as ieee_getpfc/ieee_getets report it.  requests[] (PFC pause
 * frames sent) is req_base + req_rate * (now - req_since): a non-zero rate
 * makes it rise without anyone writing to it.
 */
struct fakeroce_dcb {
	u8 pfc_cap;
	u8 pfc_en;
	u8 dcbx;
	u64 req_base[FAKEROCE_NUM_PRIO];
	u64 req_rate[FAKEROCE_NUM_PRIO];	/* pause frames per second */
	ktime_t req_since[FAKEROCE_NUM_PRIO];
	u64 indications[FAKEROCE_NUM_PRIO];
	u64 pause_us[2][FAKEROCE_NUM_PRIO];	/* [FAKEROCE_RX/TX]: paused, microseconds */
	u8 prio_tc[FAKEROCE_NUM_PRIO];
	u8 tc_bw[FAKEROCE_NUM_PRIO];
	u8 tc_tsa[FAKEROCE_NUM_PRIO];
};

#define FAKEROCE_RX	0
#define FAKEROCE_TX	1

/* PHY error totals of the driver statistics (fakeroce_stats.c) */
enum fakeroce_phy_err {
	FAKEROCE_PHY_SYMBOL_ERRORS,
	FAKEROCE_PHY_CRC_ERRORS,
	FAKEROCE_PHY_DISCARDS,
	FAKEROCE_NR_PHY_ERR
};

/* The PMA counters (fakeroce_mad.c), in the order ib_core lists them. */
enum fakeroce_pma_ctr {
	FAKEROCE_PMA_SYMBOL_ERROR,
	FAKEROCE_PMA_LINK_ERROR_RECOVERY,
	FAKEROCE_PMA_LINK_DOWNED,
	FAKEROCE_PMA_RCV_ERRORS,
	FAKEROCE_PMA_RCV_REMPHYS_ERRORS,
	FAKEROCE_PMA_RCV_SWITCH_RELAY_ERRORS,
	FAKEROCE_PMA_XMIT_DISCARDS,
	FAKEROCE_PMA_XMIT_CONSTRAINT_ERRORS,
	FAKEROCE_PMA_RCV_CONSTRAINT_ERRORS,
	FAKEROCE_PMA_LOCAL_LINK_INTEGRITY_ERRORS,
	FAKEROCE_PMA_EXCESSIVE_BUFFER_OVERRUN_ERRORS,
	FAKEROCE_PMA_VL15_DROPPED,
	FAKEROCE_PMA_XMIT_WAIT,
	FAKEROCE_PMA_XMIT_DATA,
	FAKEROCE_PMA_RCV_DATA,
	FAKEROCE_PMA_XMIT_PACKETS,
	FAKEROCE_PMA_RCV_PACKETS,
	FAKEROCE_PMA_UNICAST_XMIT_PACKETS,
	FAKEROCE_PMA_UNICAST_RCV_PACKETS,
	FAKEROCE_PMA_MULTICAST_XMIT_PACKETS,
	FAKEROCE_PMA_MULTICAST_RCV_PACKETS,
	FAKEROCE_NR_PMA
};

/* The standard FEC statistics (fakeroce_phy.c), totals. */
enum fakeroce_fec_ctr {
	FAKEROCE_FEC_CORRECTED_BLOCKS,
	FAKEROCE_FEC_UNCORRECTABLE_BLOCKS,
	FAKEROCE_FEC_CORRECTED_BITS,
	FAKEROCE_NR_FEC
};

/* The plugged optical module (fakeroce_optics.c), in its own units. */
#define FAKEROCE_OPTICS_LANES	8	/* SFF-8636 uses the first 4 */
#define FAKEROCE_OPTICS_QSFP28	0x11	/* SFF-8024 identifiers */
#define FAKEROCE_OPTICS_QSFP_DD	0x18	/* laid out as CMIS */

struct fakeroce_optics {
	u8 id;				/* 0: no module */
	s16 temp;			/* 1/256 degree C */
	u16 vcc;			/* 100 uV */
	u16 rx_power[FAKEROCE_OPTICS_LANES];	/* 0.1 uW */
	u16 tx_power[FAKEROCE_OPTICS_LANES];	/* 0.1 uW */
	u16 bias[FAKEROCE_OPTICS_LANES];	/* 2 uA */
};

struct fakeroce_knob;

/* Driver calls that are firmware commands on hardware (fakeroce_fw.c). */
enum fakeroce_fw_kind {
	FAKEROCE_FW_MAD,		/* process_mad */
	FAKEROCE_FW_HW_STATS,		/* get_hw_stats */
	FAKEROCE_FW_ETHTOOL_STATS,	/* get_ethtool_stats (ethtool -S) */
	FAKEROCE_FW_FEC_STATS,		/* get_fec_stats */
	FAKEROCE_FW_FECPARAM,		/* get_fecparam */
	FAKEROCE_FW_KSETTINGS,		/* get_link_ksettings */
	FAKEROCE_FW_MODULE_EEPROM,		/* get_module_eeprom_by_page */
	FAKEROCE_FW_DCB,		/* ieee_getpfc, ieee_getets */
	FAKEROCE_FW_Q_COUNTER,		/* counter_update_stats (mlx5: QUERY_Q_COUNTER) */
	FAKEROCE_FW_NR
};

struct fakeroce_fw_knob;

struct fakeroce_fw {
	atomic64_t calls[FAKEROCE_FW_NR];
	atomic64_t failed[FAKEROCE_FW_NR];
	unsigned int fail_next[FAKEROCE_FW_NR];	/* under fakeroce_dev.lock */
	struct fakeroce_fw_knob *knobs;
};

/* the devlink health reporters (fakeroce_devlink.c) */
enum fakeroce_health {
	FAKEROCE_HEALTH_FW,
	FAKEROCE_HEALTH_FW_FATAL,
	FAKEROCE_NR_HEALTH,
};

struct platform_device;
struct devlink;
struct devlink_health_reporter;

/* A counter rising at a rate (fakeroce_ramp.c); group 0: a free slot. */
#define FAKEROCE_NR_RAMPS	4
enum { FAKEROCE_RAMP_FEC = 1, FAKEROCE_RAMP_PMA = 2 };
struct fakeroce_ramp {
	u8 group, idx;		/* fdev->fec[idx] or fdev->pma[idx] */
	u32 rate;		/* a second */
	u64 began_ns;		/* CLOCK_BOOTTIME */
	u64 added;
};

struct fakeroce_dev {
	struct ib_device ibdev;		/* first: ib_alloc_device() wants it */
	unsigned int id;
	const struct fakeroce_personality *pers;
	struct net_device *netdev;

	/*
	 * lock protects everything below: counters, the get_hw_stats fault
	 * knob, the port state last reported to ib_core and the DCB state.
	 * Taken from process context only (sysfs, debugfs, netdev notifier,
	 * dcbnl with RTNL held, ib_core's sysfs and work items).
	 */
	spinlock_t lock;
	u64 values[FAKEROCE_MAX_COUNTERS];
	u64 pma[FAKEROCE_NR_PMA];	/* PMA totals, saturated when reported */
	struct fakeroce_fw fw;		/* fail_next[] under the lock */
	u64 fec[FAKEROCE_NR_FEC];
	u64 phy_err[FAKEROCE_NR_PHY_ERR];
	u8 stats_prios;		/* the ethtool -S layout, fixed at its count (RTNL) */
	/*
	 * QP counter sets (fakeroce_counter.c): their values by counter id,
	 * taken, erased and read under the lock; the ids in [1, counter_limit].
	 */
	struct xarray counter_sets;
	unsigned int counter_limit;
	unsigned int nr_counter_sets;
	struct fakeroce_optics optics;
	bool ib_live;		/* registered with ib_core: events allowed */
	bool port_active;	/* last state dispatched to ib_core */
	u8 lanes;		/* 1, 2, 4 (default) or 8 lanes ... */
	u8 lane_gbps;		/* ... of 25 (EDR, default), 50 (HDR) or 100 (NDR) Gb/s */
	struct fakeroce_dcb dcb;

	/* qp_lock (a mutex: ib_core sleeps) protects the QP list (fakeroce_qp.c) */
	struct mutex qp_lock;
	struct list_head qps;
	unsigned int nr_qps;
	struct ida qpn_ida;
	struct ib_pd pd;		/* the one PD of those QPs */

	/* devlink (fakeroce_devlink.c): the instance's device, its reporters */
	struct platform_device *pdev;
	struct devlink *devlink;
	struct devlink_health_reporter *reporter[FAKEROCE_NR_HEALTH];
	unsigned int fail_recover;	/* fw_fatal's next recover fails (xchg) */

	/* counters rising at a rate (fakeroce_ramp.c), under the lock */
	struct fakeroce_ramp ramp[FAKEROCE_NR_RAMPS];
	struct delayed_work ramp_work;

	struct dentry *debugfs_dir;
	struct fakeroce_knob *knobs;	/* the debugfs files' (fakeroce_knob.c) */
	unsigned int nr_knobs;
	unsigned int max_knobs;
};

/* netdev_priv() of fre<ID>. */
struct fakeroce_netdev_priv {
	struct fakeroce_dev *fdev;
};

static inline struct fakeroce_dev *fakeroce_from_ib(struct ib_device *ibdev)
{
	return container_of(ibdev, struct fakeroce_dev, ibdev);
}

/* The lanes the port runs on now (debugfs lanes), read under the lock. */
static inline unsigned int fakeroce_lanes(struct fakeroce_dev *fdev)
{
	unsigned int lanes;

	spin_lock(&fdev->lock);
	lanes = fdev->lanes;
	spin_unlock(&fdev->lock);
	return lanes;
}

/* The speed of one lane in Gb/s (debugfs lane_gbps), read under the lock. */
static inline unsigned int fakeroce_lane_gbps(struct fakeroce_dev *fdev)
{
	unsigned int gbps;

	spin_lock(&fdev->lock);
	gbps = fdev->lane_gbps;
	spin_unlock(&fdev->lock);
	return gbps;
}

/* fakeroce_ib.c */
const struct fakeroce_personality *fakeroce_personality_find(const char *name);

/* fakeroce_ident.c */
extern const struct attribute_group fakeroce_mlx5_ident;
extern const struct attribute_group fakeroce_bnxt_re_ident;
struct fakeroce_dev *fakeroce_ib_alloc(unsigned int id,
				       const struct fakeroce_personality *pers);
int fakeroce_ib_register(struct fakeroce_dev *fdev);
void fakeroce_ib_unregister(struct fakeroce_dev *fdev);
void fakeroce_ib_port_update(struct fakeroce_dev *fdev);
void fakeroce_counter_set(struct fakeroce_dev *fdev, unsigned int idx,
			  u64 val, bool add);
u64 fakeroce_counter_mask(const struct fakeroce_dev *fdev, unsigned int idx);

/* fakeroce_devlink.c */
int fakeroce_devlink_init(void);
void fakeroce_devlink_exit(void);
int fakeroce_devlink_parent(struct fakeroce_dev *fdev);
void fakeroce_devlink_parent_del(struct platform_device *pdev);
int fakeroce_devlink_add(struct fakeroce_dev *fdev);
void fakeroce_devlink_del(struct fakeroce_dev *fdev);
void fakeroce_devlink_debugfs_add(struct fakeroce_dev *fdev);
/* <ID>/ramp: counters rising at a rate (fakeroce_ramp.c) */
void fakeroce_ramp_init(struct fakeroce_dev *fdev);
void fakeroce_ramp_debugfs_add(struct fakeroce_dev *fdev);
void fakeroce_ramp_stop(struct fakeroce_dev *fdev);
/* <ID>/kmsg: kernel log lines in a driver's shapes (fakeroce_kmsg.c) */
void fakeroce_kmsg_debugfs_add(struct fakeroce_dev *fdev);

/* fakeroce_stats.c */
int fakeroce_get_sset_count(struct net_device *netdev, int sset);
void fakeroce_get_strings(struct net_device *netdev, u32 sset, u8 *data);
void fakeroce_get_ethtool_stats(struct net_device *netdev,
				struct ethtool_stats *stats, u64 *data);

/* fakeroce_qp.c */
extern const struct ib_device_ops fakeroce_qp_ops;
void fakeroce_qps_init(struct fakeroce_dev *fdev);
int fakeroce_qps_set(struct fakeroce_dev *fdev, unsigned int n);
unsigned int fakeroce_qps_count(struct fakeroce_dev *fdev);
void fakeroce_qps_destroy(struct fakeroce_dev *fdev);
int fakeroce_qp_peer_set(struct fakeroce_dev *fdev, u32 qpn, const union ib_gid *dgid);
int fakeroce_qp_errors_add(struct fakeroce_dev *fdev, u32 qpn,
			   unsigned int idx, u64 delta);

/* fakeroce_counter.c */
extern const struct ib_device_ops fakeroce_counter_ops;
void fakeroce_counters_init(struct fakeroce_dev *fdev);
void fakeroce_counters_destroy(struct fakeroce_dev *fdev);
void fakeroce_counter_qp_add(struct fakeroce_dev *fdev, struct ib_qp *qp,
			     unsigned int idx, u64 delta);
unsigned int fakeroce_counter_debugfs_knobs(struct fakeroce_dev *fdev);
void fakeroce_counter_debugfs_add(struct fakeroce_dev *fdev);

/*
 * ib_core exports these for uverbs (EXPORT_SYMBOL in verbs.c) but declares
 * them in its private core_priv.h: the same declarations, 6.1 through 6.12.
 */
struct ib_uqp_object;
struct ib_qp *ib_create_qp_user(struct ib_device *dev, struct ib_pd *pd,
				struct ib_qp_init_attr *attr,
				struct ib_udata *udata,
				struct ib_uqp_object *uobj, const char *caller);

/* fakeroce_mad.c */
const char *fakeroce_pma_name(unsigned int idx);
void fakeroce_pma_set(struct fakeroce_dev *fdev, unsigned int idx, u64 val,
		      bool add);
int fakeroce_process_mad(struct ib_device *ibdev, int mad_flags, u32 port_num,
			 const struct ib_wc *in_wc, const struct ib_grh *in_grh,
			 const struct ib_mad *in, struct ib_mad *out,
			 size_t *out_mad_size, u16 *out_mad_pkey_index);

/* fakeroce_phy.c */
const char *fakeroce_fec_name(unsigned int idx);
void fakeroce_fec_set(struct fakeroce_dev *fdev, unsigned int idx, u64 val,
		      bool add);
int fakeroce_get_fecparam(struct net_device *netdev,
			  struct ethtool_fecparam *fec);
void fakeroce_get_fec_stats(struct net_device *netdev,
			    struct ethtool_fec_stats *st);

/* fakeroce_optics.c */
void fakeroce_optics_init(struct fakeroce_optics *m);
int fakeroce_get_module_eeprom_by_page(struct net_device *netdev,
				       const struct ethtool_module_eeprom *req,
				       struct netlink_ext_ack *extack);

/* fakeroce_netdev.c */
int fakeroce_netdev_init(void);
void fakeroce_netdev_exit(void);
int fakeroce_netdev_create(struct fakeroce_dev *fdev);
void fakeroce_netdev_destroy(struct fakeroce_dev *fdev);
bool fakeroce_netdev_link_up(struct fakeroce_dev *fdev);
void fakeroce_netdev_set_carrier(struct fakeroce_dev *fdev, bool on);
void fakeroce_netdev_flap(struct fakeroce_dev *fdev, unsigned int count);
void fakeroce_dcb_init(struct fakeroce_dcb *dcb);
u64 fakeroce_dcb_requests(struct fakeroce_dcb *dcb, unsigned int prio);
void fakeroce_dcb_set_requests(struct fakeroce_dcb *dcb, unsigned int prio,
			       u64 val, bool add);
void fakeroce_dcb_set_rate(struct fakeroce_dcb *dcb, unsigned int prio,
			   u64 rate);
bool fakeroce_dcb_tc_bw_valid(const u8 *tc_bw);
bool fakeroce_dcb_tc_tsa_valid(const u8 *tc_tsa);

/* fakeroce_fw.c */
bool fakeroce_fw_call(struct fakeroce_dev *fdev, enum fakeroce_fw_kind kind);
int fakeroce_fw_debugfs_add(struct fakeroce_dev *fdev);
void fakeroce_fw_debugfs_del(struct fakeroce_dev *fdev);

/* fakeroce_debugfs.c */
int fakeroce_debugfs_init(void);
void fakeroce_debugfs_exit(void);
int fakeroce_debugfs_add(struct fakeroce_dev *fdev);
void fakeroce_debugfs_del(struct fakeroce_dev *fdev);

#endif /* _FAKEROCE_H */
