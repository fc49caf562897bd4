// SPDX-License-Identifier: GPL-2.0
/*
 * fabtel - the port's PHY through its netdev's ethtool ops: the standard
 * FEC statistics (get_fec_stats: corrected and uncorrectable blocks,
 * corrected bits; the lanes summed where the driver gives only those, as
 * ethtool's netlink code does) and the negotiated speed.  Like the DCB
 * reads (fabtel_dcb.c) they need RTNL, which the sampler only tries: a busy
 * RTNL skips this part of the sample and counts it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ethtool.h>
#include <linux/pm_runtime.h>
#include <linux/rtnetlink.h>

#include "fabtel.h"

static const char * const fabtel_fec_names[FABTEL_NR_FEC] = {
	"corrected_blocks", "uncorrectable_blocks", "corrected_bits",
};

/* A statistic's total, from its lanes if the driver set only those. */
static bool fabtel_fec_total(const struct ethtool_fec_stat *st, u64 *out)
{
	unsigned int i;
	bool any = false;

	if (st->total != ETHTOOL_STAT_NOT_SET) {
		*out = st->total;
		return true;
	}
	*out = 0;
	for (i = 0; i < ETHTOOL_MAX_LANES; i++) {
		if (st->lanes[i] == ETHTOOL_STAT_NOT_SET)
			continue;
		*out += st->lanes[i];
		any = true;
	}
	return any;
}

/* The active FEC's name, as ethtool prints it lowercased; NULL unknown. */
static const char *fabtel_fec_mode(u32 active)
{
	if (active & ETHTOOL_FEC_RS)
		return "rs";
	if (active & ETHTOOL_FEC_BASER)
		return "baser";
	if (active & ETHTOOL_FEC_LLRS)
		return "llrs";
	if (active & ETHTOOL_FEC_OFF)
		return "off";
	return NULL;
}

/*
 * Before a driver's ethtool ops, RTNL held, as ethtool's netlink code does:
 * the device awake, present and registered, the driver's begin hook.  0, or
 * -errno and nothing to undo.
 */
int fabtel_ethtool_begin(struct net_device *ndev)
{
	struct device *parent = ndev->dev.parent;
	int err = -ENODEV;

	if (parent)
		pm_runtime_get_sync(parent);
	if (!netif_device_present(ndev) || ndev->reg_state != NETREG_REGISTERED)
		goto err_put_parent;
	err = 0;
	if (ndev->ethtool_ops && ndev->ethtool_ops->begin)
		err = ndev->ethtool_ops->begin(ndev);
	if (err)
		goto err_put_parent;
	return 0;

err_put_parent:
	if (parent)
		pm_runtime_put(parent);
	return err;
}

void fabtel_ethtool_complete(struct net_device *ndev)
{
	if (ndev->ethtool_ops && ndev->ethtool_ops->complete)
		ndev->ethtool_ops->complete(ndev);
	if (ndev->dev.parent)
		pm_runtime_put(ndev->dev.parent);
}

/* The FEC statistics, FEC mode and speed (RTNL held, begun); 0 or -errno. */
static int fabtel_phy_read(struct net_device *ndev, struct ethtool_fec_stats *st,
			   bool *fec, struct ethtool_fecparam *fp,
			   struct ethtool_link_ksettings *ks, bool *speed)
{
	const struct ethtool_ops *ops = ndev->ethtool_ops;
	int err = 0, ret;

	if (ops && ops->get_fec_stats) {
		ethtool_stats_init((u64 *)st, sizeof(*st) / sizeof(u64));
		ops->get_fec_stats(ndev, st);
		*fec = true;
	}
	if (ops && ops->get_fecparam) {
		ret = ops->get_fecparam(ndev, fp);
		if (ret)
			fp->active_fec = 0;
		if (ret && ret != -EOPNOTSUPP)
			err = ret;
	}
	ret = __ethtool_get_link_ksettings(ndev, ks);
	*speed = !ret && ks->base.speed != (u32)SPEED_UNKNOWN && ks->base.speed;
	if (ret && ret != -EOPNOTSUPP)
		err = err ?: ret;
	return err;
}

void fabtel_phy_sample(struct fabtel_port *p)
{
	struct ethtool_fecparam fp = {};
	struct ethtool_link_ksettings ks = {};
	struct ethtool_fec_stats st;
	const struct ethtool_fec_stat *s[FABTEL_NR_FEC] = {
		&st.corrected_blocks, &st.uncorrectable_blocks, &st.corrected_bits,
	};
	struct net_device *ndev;
	u64 v[FABTEL_NR_FEC];
	bool have[FABTEL_NR_FEC] = {}, fec = false, speed = false;
	u64 now = ktime_get_ns();
	unsigned int i;
	int err;

	if (!fabtel_rd_due(p, FABTEL_RD_PHY, now))
		return;
	ndev = fabtel_port_netdev_get(p);
	if (!ndev)
		return;
	if (!rtnl_trylock()) {
		spin_lock(&p->lock);
		p->phy.busy_skips++;
		spin_unlock(&p->lock);
		goto out_put;
	}
	err = fabtel_ethtool_begin(ndev);
	if (!err) {
		err = fabtel_phy_read(ndev, &st, &fec, &fp, &ks, &speed);
		fabtel_ethtool_complete(ndev);
	}
	rtnl_unlock();
	if (err == -ENODEV)
		goto out_put;	/* going away: nothing asked */
	fabtel_rd_done(p, FABTEL_RD_PHY, err, now, fabtel_slow_ms_get());

	for (i = 0; fec && i < FABTEL_NR_FEC; i++)
		have[i] = fabtel_fec_total(s[i], &v[i]);
	spin_lock(&p->lock);
	p->phy.fec_supported = fec;
	for (i = 0; i < FABTEL_NR_FEC; i++) {
		p->phy.have_fec[i] = have[i];
		if (have[i])
			p->phy.fec[i] = v[i];
	}
	p->phy.speed_mbps = speed ? ks.base.speed : 0;
	p->phy.fec_mode = fabtel_fec_mode(fp.active_fec);
	p->phy.sampled = true;
	spin_unlock(&p->lock);
out_put:
	dev_put(ndev);
}

/*
 * Snapshot lines (p->lock held): "fec", "fec_mode", "fec_stat"s,
 * "link_speed_mbps", "phy_busy_skips".
 */
int fabtel_phy_snapshot(struct fabtel_port *p, char *buf, int n)
{
	const struct fabtel_phy *ph = &p->phy;
	unsigned int i;

	if (!ph->sampled)
		return n + sysfs_emit_at(buf, n, "fec -\nlink_speed_mbps -\n");
	n += sysfs_emit_at(buf, n, "fec %s\nfec_mode %s\n",
			   ph->fec_supported ? "supported" : "unsupported",
			   ph->fec_mode ? ph->fec_mode : "-");
	for (i = 0; ph->fec_supported && i < FABTEL_NR_FEC; i++) {
		if (ph->have_fec[i])
			n += sysfs_emit_at(buf, n, "fec_stat %s %llu\n",
					   fabtel_fec_names[i], ph->fec[i]);
		else
			n += sysfs_emit_at(buf, n, "fec_stat %s -\n",
					   fabtel_fec_names[i]);
	}
	if (ph->speed_mbps)
		n += sysfs_emit_at(buf, n, "link_speed_mbps %u\n", ph->speed_mbps);
	else
		n += sysfs_emit_at(buf, n, "link_speed_mbps -\n");
	return n + sysfs_emit_at(buf, n, "phy_busy_skips %llu\n", ph->busy_skips);
}
