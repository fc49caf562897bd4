/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ethstats.h - a netdev's driver statistics, what `ethtool -S` prints:
 * names (ETHTOOL_GSTRINGS of ETH_SS_STATS) and values (ETHTOOL_GSTATS)
 * through the SIOCETHTOOL ioctl, the only interface the kernel has for
 * them (ethtool netlink carries the standard statistics only).  Read
 * access: no capability needed.
 */
#ifndef FABTEL_ETHSTATS_H
#define FABTEL_ETHSTATS_H

#include <stdint.h>
#include <linux/ethtool.h>

typedef char ethstats_name[ETH_GSTRING_LEN + 1];	/* NUL-terminated */

/* An AF_INET datagram socket for the ioctls, or -errno. */
int ethstats_socket(void);

/*
 * The statistics' names, at most max of them: how many the driver has
 * (more than max: only max filled), or -errno (-EOPNOTSUPP: none).
 */
int ethstats_names(int fd, const char *ifname, ethstats_name *names, unsigned int max);

/*
 * Their values, n expected: 0, -ESTALE when the driver now has another
 * count (its names changed: read them again), or -errno.
 */
int ethstats_values(int fd, const char *ifname, uint64_t *vals, unsigned int n);

#endif /* FABTEL_ETHSTATS_H */
