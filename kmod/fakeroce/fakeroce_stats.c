// SPDX-License-Identifier: GPL-2.0
/*
 * fakeroce - the netdev's driver statistics (ethtool -S), named as the
 * personality's Ethernet driver names them in 6.1:
 *
 *   mlx5e (en_stats.c): rx_prio<N>_pause, rx_prio<N>_pause_duration,
 *     tx_prio<N>_pause, tx_prio<N>_pause_duration for each priority with
 *     PFC enabled (as mlx5e lists them), rx_symbol_err_phy,
 *     rx_crc_errors_phy, rx_discards_phy;
 *   bnxt_en (bnxt_ethtool.c): rx_pfc_ena_frames_pri<N>,
 *     tx_pfc_ena_frames_pri<N>, pfc_pri<N>_rx_duration_us,
 *     pfc_pri<N>_tx_duration_us for all eight, rx_fcs_err_frames;
 *   ice (ice_ethtool.c): tx_priority_<N>_xoff.nic, rx_priority_<N>_xoff.nic
 *     for all eight, rx_crc_errors.nic.
 *
 * Pause frames are the DCB state's (requests sent, indications received:
 * what ieee_getpfc reports), durations (microseconds) and PHY errors are
 * debugfs knobs.  ethtool core calls get_sset_count, get_strings and
 * get_ethtool_stats under RTNL; the priorities listed are fixed by the
 * count call and kept for the other two (a knob write in between, which
 * takes no RTNL, cannot change the layout under them).
 */
#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

#include "fakeroce.h"

/* per-priority names, in the order of the values below */
static const char *const fakeroce_prio_fmt[][4] = {
	[FAKEROCE_STATS_MLX5E] = {
		"rx_prio%u_pause", "rx_prio%u_pause_duration",
		"tx_prio%u_pause", "tx_prio%u_pause_duration",
	},
	[FAKEROCE_STATS_BNXT] = {
		"rx_pfc_ena_frames_pri%u", "pfc_pri%u_rx_duration_us",
		"tx_pfc_ena_frames_pri%u", "pfc_pri%u_tx_duration_us",
	},
	[FAKEROCE_STATS_ICE] = {
		"rx_priority_%u_xoff.nic", NULL, "tx_priority_%u_xoff.nic", NULL,
	},
};

/* port-wide names: symbol errors, CRC errors, discards (NULL: none) */
static const char *const fakeroce_phy_names[][FAKEROCE_NR_PHY_ERR] = {
	[FAKEROCE_STATS_MLX5E] = {
		"rx_symbol_err_phy", "rx_crc_errors_phy", "rx_discards_phy",
	},
	[FAKEROCE_STATS_BNXT] = { NULL, "rx_fcs_err_frames", NULL },
	[FAKEROCE_STATS_ICE] = { NULL, "rx_crc_errors.nic", NULL },
};

static struct fakeroce_dev *fakeroce_stats_dev(struct net_device *netdev)
{
	struct fakeroce_netdev_priv *priv = netdev_priv(netdev);

	return priv->fdev;
}

/* the priorities listed: mlx5e only those with PFC on, the others all */
static u8 fakeroce_stats_prios(struct fakeroce_dev *fdev)
{
	u8 mask;

	if (fdev->pers->eth_stats != FAKEROCE_STATS_MLX5E)
		return 0xff;
	spin_lock(&fdev->lock);
	mask = fdev->dcb.pfc_en;
	spin_unlock(&fdev->lock);
	return mask;
}

static unsigned int fakeroce_stats_count(struct fakeroce_dev *fdev, u8 prios)
{
	unsigned int style = fdev->pers->eth_stats, n = 0, i;

	for (i = 0; i < 4; i++)
		n += fakeroce_prio_fmt[style][i] ? hweight8(prios) : 0;
	for (i = 0; i < FAKEROCE_NR_PHY_ERR; i++)
		n += fakeroce_phy_names[style][i] != NULL;
	return n;
}

int fakeroce_get_sset_count(struct net_device *netdev, int sset)
{
	struct fakeroce_dev *fdev = fakeroce_stats_dev(netdev);

	ASSERT_RTNL();
	if (sset != ETH_SS_STATS)
		return -EOPNOTSUPP;
	fdev->stats_prios = fakeroce_stats_prios(fdev);
	return fakeroce_stats_count(fdev, fdev->stats_prios);
}

void fakeroce_get_strings(struct net_device *netdev, u32 sset, u8 *data)
{
	struct fakeroce_dev *fdev = fakeroce_stats_dev(netdev);
	unsigned int style = fdev->pers->eth_stats, p, i;

	if (sset != ETH_SS_STATS)
		return;
	for (p = 0; p < FAKEROCE_NUM_PRIO; p++) {
		if (!(fdev->stats_prios & BIT(p)))
			continue;
		for (i = 0; i < 4; i++)
			if (fakeroce_prio_fmt[style][i])
				ethtool_sprintf(&data, fakeroce_prio_fmt[style][i], p);
	}
	for (i = 0; i < FAKEROCE_NR_PHY_ERR; i++)
		if (fakeroce_phy_names[style][i])
			ethtool_sprintf(&data, "%s", fakeroce_phy_names[style][i]);
}

void fakeroce_get_ethtool_stats(struct net_device *netdev,
				struct ethtool_stats *stats, u64 *data)
{
	struct fakeroce_dev *fdev = fakeroce_stats_dev(netdev);
	struct fakeroce_dcb *dcb = &fdev->dcb;
	unsigned int style = fdev->pers->eth_stats, p, i, n = 0;
	u64 v[4];

	/* a void op: a failing firmware leaves the caller's zeroed buffer */
	if (fakeroce_fw_call(fdev, FAKEROCE_FW_ETHTOOL_STATS))
		return;
	spin_lock(&fdev->lock);
	for (p = 0; p < FAKEROCE_NUM_PRIO; p++) {
		if (!(fdev->stats_prios & BIT(p)))
			continue;
		v[0] = dcb->indications[p];
		v[1] = dcb->pause_us[FAKEROCE_RX][p];
		v[2] = fakeroce_dcb_requests(dcb, p);
		v[3] = dcb->pause_us[FAKEROCE_TX][p];
		for (i = 0; i < 4; i++)
			if (fakeroce_prio_fmt[style][i])
				data[n++] = v[i];
	}
	for (i = 0; i < FAKEROCE_NR_PHY_ERR; i++)
		if (fakeroce_phy_names[style][i])
			data[n++] = fdev->phy_err[i];
	spin_unlock(&fdev->lock);
	WARN_ON_ONCE(n != stats->n_stats);
}
