// SPDX-License-Identifier: GPL-2.0
/*
 * fabtel - PFC/ETS state through the netdev's DCB ops, and the pause-storm
 * detector.
 *
 * dcbnl ops are called under RTNL from the sampler's work.  The sampler only
 * ever *tries* RTNL: if it is busy the DCB part of that sample is skipped and
 * counted, so no teardown path that holds RTNL can wait on us.
 *
 * A priority is in a pause storm while its pause_tx (PFC frames sent,
 * ieee_pfc.requests[]) has risen at every sample for at least storm_ms.
 * Detection only: fabtel never changes the NIC's configuration.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/rtnetlink.h>
#include <net/dcbnl.h>

#include "fabtel.h"

/* Which DCB views the port's netdev offers; fixed when the port is created. */
void fabtel_dcb_probe(struct fabtel_port *p, struct net_device *ndev)
{
	const struct dcbnl_rtnl_ops *ops = ndev ? ndev->dcbnl_ops : NULL;

	p->dcb.pfc_supported = ops && ops->ieee_getpfc;
	p->dcb.ets_supported = ops && ops->ieee_getets;
}

static void fabtel_storm_update(struct fabtel_prio *pr, u64 pause_tx, u64 now,
				u64 storm_ns)
{
	if (pause_tx <= pr->pause_tx) {
		pr->rising_since_ns = 0;
		pr->storm = false;
		return;
	}
	if (!pr->rising_since_ns)
		pr->rising_since_ns = now;
	if (!pr->storm && now - pr->rising_since_ns >= storm_ns) {
		pr->storm = true;
		pr->storm_events++;
		pr->storm_last_ns = now;
	}
}

/* Fold one read of the DCB state into the port (p->lock held). */
static void fabtel_dcb_update(struct fabtel_port *p, const struct ieee_pfc *pfc,
			      const struct ieee_ets *ets, u8 dcbx, u64 now)
{
	struct fabtel_dcb *d = &p->dcb;
	u64 storm_ns = (u64)fabtel_storm_ms_get() * NSEC_PER_MSEC;
	unsigned int i;

	if (pfc) {
		d->pfc_cap = pfc->pfc_cap;
		d->pfc_en = pfc->pfc_en;
		for (i = 0; i < FABTEL_NR_PRIO; i++) {
			if (d->sampled)
				fabtel_storm_update(&d->prio[i], pfc->requests[i],
						    now, storm_ns);
			d->prio[i].pause_tx = pfc->requests[i];
			d->prio[i].pause_rx = pfc->indications[i];
		}
	}
	if (ets) {
		memcpy(d->prio_tc, ets->prio_tc, sizeof(d->prio_tc));
		memcpy(d->tc_bw, ets->tc_tx_bw, sizeof(d->tc_bw));
		memcpy(d->tc_tsa, ets->tc_tsa, sizeof(d->tc_tsa));
	}
	d->dcbx = dcbx;
	d->sampled = true;
}

/*
 * The driver's ops, RTNL held, on a netdev still registered: PFC each
 * sample, ETS and the DCBX mode (configuration) every slow_ms.  0 or the
 * first op's error.
 */
static int fabtel_dcb_read(struct fabtel_port *p, struct net_device *ndev,
			   struct ieee_pfc *pfc, struct ieee_ets *ets,
			   bool *have_pfc, bool *have_ets, u8 *dcbx, u64 now)
{
	const struct dcbnl_rtnl_ops *ops = ndev->dcbnl_ops;
	int err = 0, ret;

	if (!netif_device_present(ndev) || ndev->reg_state != NETREG_REGISTERED)
		return -ENODEV;
	if (ops && ops->ieee_getpfc && p->dcb.pfc_supported) {
		ret = ops->ieee_getpfc(ndev, pfc);
		*have_pfc = !ret;
		err = err ?: ret;
	}
	if (now < p->dcb.config_next_ns && p->dcb.sampled)
		return err;
	p->dcb.config_next_ns = now + (u64)fabtel_slow_ms_get() * NSEC_PER_MSEC;
	if (ops && ops->ieee_getets && p->dcb.ets_supported) {
		ret = ops->ieee_getets(ndev, ets);
		*have_ets = !ret;
		err = err ?: ret;
	}
	if (ops && ops->getdcbx)
		*dcbx = ops->getdcbx(ndev);
	return err;
}

void fabtel_dcb_sample(struct fabtel_port *p)
{
	struct ieee_pfc pfc = {};
	struct ieee_ets ets = {};
	struct dcb_ieee_app_dscp_map dscp;
	bool have_pfc = false, have_ets = false;
	struct net_device *ndev;
	u64 now = ktime_get_ns();
	u8 dcbx = p->dcb.dcbx;
	int err;

	if (!p->dcb.pfc_supported && !p->dcb.ets_supported)
		return;
	if (!fabtel_rd_due(p, FABTEL_RD_DCB, now))
		return;
	ndev = fabtel_port_netdev_get(p);
	if (!ndev)
		return;
	if (!rtnl_trylock()) {
		spin_lock(&p->lock);
		p->dcb.busy_skips++;
		spin_unlock(&p->lock);
		goto out_put;
	}
	err = fabtel_dcb_read(p, ndev, &pfc, &ets, &have_pfc, &have_ets, &dcbx,
			      now);
	rtnl_unlock();
	/* the kernel's APP table (dcb_lock), as dcbnl reports it */
	dcb_ieee_getapp_dscp_prio_mask_map(ndev, &dscp);

	spin_lock(&p->lock);
	memcpy(p->dcb.dscp_prio, dscp.map, sizeof(p->dcb.dscp_prio));
	p->dcb.dscp_read = true;
	if (have_pfc || have_ets)
		fabtel_dcb_update(p, have_pfc ? &pfc : NULL,
				  have_ets ? &ets : NULL, dcbx,
				  fabtel_now_boot());
	spin_unlock(&p->lock);
	if (err != -ENODEV)
		fabtel_rd_done(p, FABTEL_RD_DCB, err, now, 0);
out_put:
	dev_put(ndev);
}
