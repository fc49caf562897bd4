// SPDX-License-Identifier: GPL-2.0
/*
 * fakeroce - the Ethernet side: netdev fre<ID>, its ethtool and DCB (IEEE
 * 802.1Qaz PFC/ETS) ops, carrier control and the port-event notifier.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/sched.h>
#include <linux/skbuff.h>
#include <net/dcbnl.h>

#include "fakeroce.h"

#define FAKEROCE_MAX_MTU	9000

static struct fakeroce_dev *fakeroce_from_netdev(struct net_device *netdev)
{
	struct fakeroce_netdev_priv *priv = netdev_priv(netdev);

	return priv->fdev;
}

/* The port is ACTIVE when the netdev is administratively up with carrier. */
bool fakeroce_netdev_link_up(struct fakeroce_dev *fdev)
{
	return netif_running(fdev->netdev) && netif_carrier_ok(fdev->netdev);
}

void fakeroce_netdev_set_carrier(struct fakeroce_dev *fdev, bool on)
{
	if (on)
		netif_carrier_on(fdev->netdev);
	else
		netif_carrier_off(fdev->netdev);
}

/*
 * count carrier off/on pairs with no pause: each moves carrier_down_count
 * and carrier_up_count, linkwatch merges them into at most one event.
 */
void fakeroce_netdev_flap(struct fakeroce_dev *fdev, unsigned int count)
{
	unsigned int i;

	for (i = 0; i < count; i++) {
		netif_carrier_off(fdev->netdev);
		netif_carrier_on(fdev->netdev);
		cond_resched();
	}
}

/* ---- netdev and ethtool ops ---------------------------------------------- */

/* No wire: every frame is counted and consumed. */
static netdev_tx_t fakeroce_start_xmit(struct sk_buff *skb,
				       struct net_device *netdev)
{
	netdev->stats.tx_packets++;
	netdev->stats.tx_bytes += skb->len;
	dev_consume_skb_any(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops fakeroce_netdev_ops = {
	.ndo_start_xmit = fakeroce_start_xmit,
	.ndo_set_mac_address = eth_mac_addr,
	.ndo_validate_addr = eth_validate_addr,
};

static void fakeroce_get_drvinfo(struct net_device *netdev,
				 struct ethtool_drvinfo *info)
{
	struct fakeroce_dev *fdev = fakeroce_from_netdev(netdev);

	strscpy(info->driver, KBUILD_MODNAME, sizeof(info->driver));
	snprintf(info->bus_info, sizeof(info->bus_info), "fakeroce:%u",
		 fdev->id);
}

/*
 * lanes x lane_gbps, full duplex, like the IB port's lanes (4 EDR: 100 Gb/s).
 * The port supports and advertises the 4-lane copper modes up to 4 lanes of
 * lane_gbps (100G, 200G, 400G CR4), whatever the lanes it runs on now, and
 * autonegotiates with a link partner advertising the same (while carrier).
 */
static int fakeroce_get_link_ksettings(struct net_device *netdev,
				       struct ethtool_link_ksettings *cmd)
{
	struct fakeroce_netdev_priv *priv = netdev_priv(netdev);
	unsigned int gbps = fakeroce_lane_gbps(priv->fdev);

	if (fakeroce_fw_call(priv->fdev, FAKEROCE_FW_KSETTINGS))
		return -EIO;

	ethtool_link_ksettings_zero_link_mode(cmd, supported);
	ethtool_link_ksettings_add_link_mode(cmd, supported, 100000baseCR4_Full);
	if (gbps >= 50)
		ethtool_link_ksettings_add_link_mode(cmd, supported, 200000baseCR4_Full);
	if (gbps >= 100)
		ethtool_link_ksettings_add_link_mode(cmd, supported, 400000baseCR4_Full);
	ethtool_link_ksettings_add_link_mode(cmd, supported, Autoneg);
	bitmap_copy(cmd->link_modes.advertising, cmd->link_modes.supported,
		    __ETHTOOL_LINK_MODE_MASK_NBITS);
	cmd->base.port = PORT_DA;
	cmd->base.autoneg = AUTONEG_ENABLE;
	if (netif_carrier_ok(netdev)) {
		/* the switch port: the same modes (clause 73 on a DAC) */
		bitmap_copy(cmd->link_modes.lp_advertising, cmd->link_modes.advertising,
			    __ETHTOOL_LINK_MODE_MASK_NBITS);
		cmd->base.speed = gbps * 1000 * fakeroce_lanes(priv->fdev);
		cmd->base.duplex = DUPLEX_FULL;
	} else {
		cmd->base.speed = SPEED_UNKNOWN;
		cmd->base.duplex = DUPLEX_UNKNOWN;
	}
	return 0;
}

static const struct ethtool_ops fakeroce_ethtool_ops = {
	.get_drvinfo = fakeroce_get_drvinfo,
	.get_link = ethtool_op_get_link,
	.get_link_ksettings = fakeroce_get_link_ksettings,
	.get_fecparam = fakeroce_get_fecparam,
	.get_fec_stats = fakeroce_get_fec_stats,
	.get_module_eeprom_by_page = fakeroce_get_module_eeprom_by_page,
	.get_sset_count = fakeroce_get_sset_count,
	.get_strings = fakeroce_get_strings,
	.get_ethtool_stats = fakeroce_get_ethtool_stats,
};

/* ---- DCB state ----------------------------------------------------------- */

void fakeroce_dcb_init(struct fakeroce_dcb *dcb)
{
	unsigned int i;

	memset(dcb, 0, sizeof(*dcb));
	dcb->pfc_cap = FAKEROCE_NUM_PRIO;
	dcb->dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
	for (i = 0; i < FAKEROCE_NUM_PRIO; i++)
		dcb->tc_tsa[i] = IEEE_8021QAZ_TSA_ETS;
	dcb->tc_bw[0] = 100;
}

/*
 * requests[prio] now: req_base + req_rate * elapsed_ms / 1000 in u64
 * arithmetic (wrapping), computed without a 128-bit product.
 */
u64 fakeroce_dcb_requests(struct fakeroce_dcb *dcb, unsigned int prio)
{
	u64 rate = dcb->req_rate[prio];
	s64 ms;
	u64 secs;
	u32 rem;

	if (!rate)
		return dcb->req_base[prio];
	ms = ktime_ms_delta(ktime_get(), dcb->req_since[prio]);
	if (ms <= 0)
		return dcb->req_base[prio];
	secs = div_u64_rem(ms, MSEC_PER_SEC, &rem);
	return dcb->req_base[prio] + rate * secs +
	       div_u64(rate, MSEC_PER_SEC) * rem +
	       div_u64((rate % MSEC_PER_SEC) * rem, MSEC_PER_SEC);
}

/* Set or add to requests[prio]; it keeps rising from there at its rate. */
void fakeroce_dcb_set_requests(struct fakeroce_dcb *dcb, unsigned int prio,
			       u64 val, bool add)
{
	if (add)
		val += fakeroce_dcb_requests(dcb, prio);
	dcb->req_base[prio] = val;
	dcb->req_since[prio] = ktime_get();
}

/* A new rate starts from the current value; rate 0 freezes it. */
void fakeroce_dcb_set_rate(struct fakeroce_dcb *dcb, unsigned int prio,
			   u64 rate)
{
	dcb->req_base[prio] = fakeroce_dcb_requests(dcb, prio);
	dcb->req_since[prio] = ktime_get();
	dcb->req_rate[prio] = rate;
}

/* Each 0..100, summing to 100, or all 0. */
bool fakeroce_dcb_tc_bw_valid(const u8 *tc_bw)
{
	unsigned int i, sum = 0;

	for (i = 0; i < FAKEROCE_NUM_PRIO; i++) {
		if (tc_bw[i] > 100)
			return false;
		sum += tc_bw[i];
	}
	return sum == 100 || sum == 0;
}

bool fakeroce_dcb_tc_tsa_valid(const u8 *tc_tsa)
{
	unsigned int i;

	for (i = 0; i < FAKEROCE_NUM_PRIO; i++) {
		switch (tc_tsa[i]) {
		case IEEE_8021QAZ_TSA_STRICT:
		case IEEE_8021QAZ_TSA_CB_SHAPER:
		case IEEE_8021QAZ_TSA_ETS:
		case IEEE_8021QAZ_TSA_VENDOR:
			break;
		default:
			return false;
		}
	}
	return true;
}

/* ---- dcbnl ops (RTNL held; the state has its own lock) ------------------- */

static int fakeroce_ieee_getpfc(struct net_device *netdev,
				struct ieee_pfc *pfc)
{
	struct fakeroce_dev *fdev = fakeroce_from_netdev(netdev);
	struct fakeroce_dcb *dcb = &fdev->dcb;
	unsigned int i;

	if (fakeroce_fw_call(fdev, FAKEROCE_FW_DCB))
		return -EIO;
	memset(pfc, 0, sizeof(*pfc));
	spin_lock(&fdev->lock);
	pfc->pfc_cap = dcb->pfc_cap;
	pfc->pfc_en = dcb->pfc_en;
	for (i = 0; i < FAKEROCE_NUM_PRIO; i++) {
		pfc->requests[i] = fakeroce_dcb_requests(dcb, i);
		pfc->indications[i] = dcb->indications[i];
	}
	spin_unlock(&fdev->lock);
	return 0;
}

static int fakeroce_ieee_setpfc(struct net_device *netdev,
				struct ieee_pfc *pfc)
{
	struct fakeroce_dev *fdev = fakeroce_from_netdev(netdev);

	spin_lock(&fdev->lock);
	fdev->dcb.pfc_en = pfc->pfc_en;
	spin_unlock(&fdev->lock);
	return 0;
}

static int fakeroce_ieee_getets(struct net_device *netdev,
				struct ieee_ets *ets)
{
	struct fakeroce_dev *fdev = fakeroce_from_netdev(netdev);
	struct fakeroce_dcb *dcb = &fdev->dcb;

	if (fakeroce_fw_call(fdev, FAKEROCE_FW_DCB))
		return -EIO;
	memset(ets, 0, sizeof(*ets));
	ets->ets_cap = FAKEROCE_NUM_PRIO;
	spin_lock(&fdev->lock);
	memcpy(ets->tc_tx_bw, dcb->tc_bw, sizeof(ets->tc_tx_bw));
	memcpy(ets->tc_rx_bw, dcb->tc_bw, sizeof(ets->tc_rx_bw));
	memcpy(ets->tc_tsa, dcb->tc_tsa, sizeof(ets->tc_tsa));
	memcpy(ets->prio_tc, dcb->prio_tc, sizeof(ets->prio_tc));
	spin_unlock(&fdev->lock);
	return 0;
}

static int fakeroce_ieee_setets(struct net_device *netdev,
				struct ieee_ets *ets)
{
	struct fakeroce_dev *fdev = fakeroce_from_netdev(netdev);
	struct fakeroce_dcb *dcb = &fdev->dcb;
	unsigned int i;

	for (i = 0; i < FAKEROCE_NUM_PRIO; i++)
		if (ets->prio_tc[i] >= FAKEROCE_NUM_PRIO)
			return -EINVAL;
	if (!fakeroce_dcb_tc_bw_valid(ets->tc_tx_bw) ||
	    !fakeroce_dcb_tc_tsa_valid(ets->tc_tsa))
		return -EINVAL;

	spin_lock(&fdev->lock);
	memcpy(dcb->tc_bw, ets->tc_tx_bw, sizeof(dcb->tc_bw));
	memcpy(dcb->tc_tsa, ets->tc_tsa, sizeof(dcb->tc_tsa));
	memcpy(dcb->prio_tc, ets->prio_tc, sizeof(dcb->prio_tc));
	spin_unlock(&fdev->lock);
	return 0;
}

static u8 fakeroce_getdcbx(struct net_device *netdev)
{
	struct fakeroce_dev *fdev = fakeroce_from_netdev(netdev);
	u8 dcbx;

	spin_lock(&fdev->lock);
	dcbx = fdev->dcb.dcbx;
	spin_unlock(&fdev->lock);
	return dcbx;
}

static const struct dcbnl_rtnl_ops fakeroce_dcbnl_ops = {
	.ieee_getets = fakeroce_ieee_getets,
	.ieee_setets = fakeroce_ieee_setets,
	.ieee_getpfc = fakeroce_ieee_getpfc,
	.ieee_setpfc = fakeroce_ieee_setpfc,
	.getdcbx = fakeroce_getdcbx,
};

/* ---- create / destroy ---------------------------------------------------- */

int fakeroce_netdev_create(struct fakeroce_dev *fdev)
{
	struct fakeroce_netdev_priv *priv;
	struct net_device *netdev;
	int err;

	netdev = alloc_etherdev(sizeof(*priv));
	if (!netdev)
		return -ENOMEM;

	priv = netdev_priv(netdev);
	priv->fdev = fdev;
	snprintf(netdev->name, IFNAMSIZ, "fre%u", fdev->id);
	netdev->netdev_ops = &fakeroce_netdev_ops;
	netdev->ethtool_ops = &fakeroce_ethtool_ops;
	netdev->dcbnl_ops = &fakeroce_dcbnl_ops;
	netdev->max_mtu = FAKEROCE_MAX_MTU;
	eth_hw_addr_random(netdev);
	fdev->netdev = netdev;

	/* Link comes up after registration, as on a NIC: operstate follows. */
	netif_carrier_off(netdev);
	err = register_netdev(netdev);
	if (err)
		goto err_free_netdev;

	netif_carrier_on(netdev);
	return 0;

err_free_netdev:
	fdev->netdev = NULL;
	free_netdev(netdev);
	return err;
}

void fakeroce_netdev_destroy(struct fakeroce_dev *fdev)
{
	unregister_netdev(fdev->netdev);
	free_netdev(fdev->netdev);
	fdev->netdev = NULL;
}

/* ---- port events --------------------------------------------------------- */

static int fakeroce_netdev_event(struct notifier_block *nb,
				 unsigned long event, void *ptr)
{
	struct net_device *netdev = netdev_notifier_info_to_dev(ptr);

	if (netdev->netdev_ops != &fakeroce_netdev_ops)
		return NOTIFY_DONE;

	switch (event) {
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		fakeroce_ib_port_update(fakeroce_from_netdev(netdev));
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block fakeroce_netdev_nb = {
	.notifier_call = fakeroce_netdev_event,
};

int fakeroce_netdev_init(void)
{
	return register_netdevice_notifier(&fakeroce_netdev_nb);
}

void fakeroce_netdev_exit(void)
{
	unregister_netdevice_notifier(&fakeroce_netdev_nb);
}
