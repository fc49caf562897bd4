// SPDX-License-Identifier: GPL-2.0
/*
 * fakeroce - the PHY as ethtool shows it: the active FEC mode and the
 * standard FEC statistics (IEEE 802.3 30.5.1.1.17/18 and the corrected
 * bits), totals only, as mlx5e reports RS-FEC (its lanes are summed by the
 * hardware).  irdma's ice in 6.1 has no get_fec_stats: that personality
 * reports none, and ethtool shows no statistics.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ethtool.h>
#include <linux/netdevice.h>

#include "fakeroce.h"

static const char * const fakeroce_fec_names[FAKEROCE_NR_FEC] = {
	[FAKEROCE_FEC_CORRECTED_BLOCKS] = "corrected_blocks",
	[FAKEROCE_FEC_UNCORRECTABLE_BLOCKS] = "uncorrectable_blocks",
	[FAKEROCE_FEC_CORRECTED_BITS] = "corrected_bits",
};

const char *fakeroce_fec_name(unsigned int idx)
{
	return idx < FAKEROCE_NR_FEC ? fakeroce_fec_names[idx] : NULL;
}

void fakeroce_fec_set(struct fakeroce_dev *fdev, unsigned int idx, u64 val,
		      bool add)
{
	spin_lock(&fdev->lock);
	fdev->fec[idx] = add ? fdev->fec[idx] + val : val;
	spin_unlock(&fdev->lock);
}

int fakeroce_get_fecparam(struct net_device *netdev,
			  struct ethtool_fecparam *fec)
{
	struct fakeroce_netdev_priv *priv = netdev_priv(netdev);

	if (fakeroce_fw_call(priv->fdev, FAKEROCE_FW_FECPARAM))
		return -EIO;
	fec->fec = ETHTOOL_FEC_AUTO | ETHTOOL_FEC_RS;
	fec->active_fec = ETHTOOL_FEC_RS;
	return 0;
}

void fakeroce_get_fec_stats(struct net_device *netdev,
			    struct ethtool_fec_stats *st)
{
	struct fakeroce_netdev_priv *priv = netdev_priv(netdev);
	struct fakeroce_dev *fdev = priv->fdev;

	if (!fdev->pers->fec_stats)
		return;		/* left at ETHTOOL_STAT_NOT_SET: none */
	if (fakeroce_fw_call(fdev, FAKEROCE_FW_FEC_STATS))
		return;		/* a void op: a failure reports nothing */
	spin_lock(&fdev->lock);
	st->corrected_blocks.total = fdev->fec[FAKEROCE_FEC_CORRECTED_BLOCKS];
	st->uncorrectable_blocks.total =
		fdev->fec[FAKEROCE_FEC_UNCORRECTABLE_BLOCKS];
	st->corrected_bits.total = fdev->fec[FAKEROCE_FEC_CORRECTED_BITS];
	spin_unlock(&fdev->lock);
}
