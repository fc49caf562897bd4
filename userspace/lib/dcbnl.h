/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcbnl.h - a netdev's IEEE 802.1Qaz DCB state over rtnetlink (RTM_GETDCB,
 * DCB_CMD_IEEE_GET: what `dcb pfc show` and `dcb app show` print), through
 * libmnl.  One handle, one thread.
 */
#ifndef FABTEL_DCBNL_H
#define FABTEL_DCBNL_H

#include <stdbool.h>
#include <stdint.h>

#define DCBNL_MAX_APP	64

struct dcbnl;

struct dcbnl_app {
	uint8_t selector;		/* IEEE_8021QAZ_APP_SEL_*: 5 is DSCP */
	uint8_t priority;
	uint16_t protocol;		/* the DSCP value for selector 5 */
};

struct dcbnl_cfg {
	bool have_pfc;			/* the driver reports PFC (ieee_getpfc) */
	uint8_t pfc_cap, pfc_en;
	unsigned int nr_app;		/* entries beyond DCBNL_MAX_APP are dropped */
	bool app_truncated;
	struct dcbnl_app app[DCBNL_MAX_APP];
};

int dcbnl_open(struct dcbnl **out);
void dcbnl_close(struct dcbnl *d);
/* 0, or -errno (-EOPNOTSUPP: the netdev has no DCB; -ENODEV: no netdev). */
int dcbnl_get(struct dcbnl *d, const char *ifname, struct dcbnl_cfg *out);

#endif /* FABTEL_DCBNL_H */
