/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ethnl.h - the kernel's ethtool netlink interface (generic netlink family
 * "ethtool", Linux 5.6+), through libmnl: what fabteld reads of a netdev's
 * PHY.  One handle, used by one thread.
 */
#ifndef FABTEL_ETHNL_H
#define FABTEL_ETHNL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/ethtool.h>

struct ethnl;

/* 0 and a handle, or -errno (-ENOENT: the kernel has no ethtool family). */
int ethnl_open(struct ethnl **out);
void ethnl_close(struct ethnl *e);

/*
 * The standard FEC statistics (IEEE 802.3 30.5.1.1.17/18, and the bits
 * corrected), totals; a statistic the driver does not report is not "have".
 */
enum ethnl_fec_stat { ETHNL_FEC_CORRECTED, ETHNL_FEC_UNCORR, ETHNL_FEC_CORR_BITS, ETHNL_FEC_NR };

struct ethnl_fec {
	uint32_t active;		/* ETHTOOL_LINK_MODE_FEC_*_BIT; 0 unknown */
	uint64_t stat[ETHNL_FEC_NR];
	bool have[ETHNL_FEC_NR];
};

/*
 * FEC mode and statistics of ifname: 0, or -errno (-EOPNOTSUPP: the driver
 * has no FEC ops; -ENODEV: no such netdev).
 */
int ethnl_fec_get(struct ethnl *e, const char *ifname, struct ethnl_fec *out);

/* ethtool's name of an active FEC mode, lower case; NULL if unknown */
static inline const char *ethnl_fec_mode_name(uint32_t active)
{
	switch (active) {
	case ETHTOOL_LINK_MODE_FEC_NONE_BIT:
		return "off";
	case ETHTOOL_LINK_MODE_FEC_RS_BIT:
		return "rs";
	case ETHTOOL_LINK_MODE_FEC_BASER_BIT:
		return "baser";
	case ETHTOOL_LINK_MODE_FEC_LLRS_BIT:
		return "llrs";
	default:
		return NULL;
	}
}

/*
 * The fastest link mode the netdev supports, advertises, and its link
 * partner advertises (autonegotiation only), in Mb/s; 0 when none or not
 * told.  0, or -errno (-EOPNOTSUPP: no link settings, e.g. some virtual
 * netdevs; -ENODEV: no such netdev).
 */
struct ethnl_linkmodes {
	uint32_t supported_mbps, advertised_mbps, peer_mbps;
	bool autoneg;
};

int ethnl_linkmodes_get(struct ethnl *e, const char *ifname, struct ethnl_linkmodes *out);

/*
 * Read len (<= 128) bytes of a plug-in module's EEPROM at I2C address 0x50:
 * offset < 128 the lower page, 128..255 the upper page @page (bank 0).
 * The bytes read, or -errno (-EOPNOTSUPP: no module interface; -ENODEV,
 * -EIO: no module or it did not answer).
 */
int ethnl_module_read(struct ethnl *e, const char *ifname, uint8_t page, uint32_t offset,
		      uint8_t *buf, uint32_t len);

#endif /* FABTEL_ETHNL_H */
