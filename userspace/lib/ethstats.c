// SPDX-License-Identifier: GPL-2.0
/*
 * ethstats.c - driver statistics through SIOCETHTOOL (ethstats.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/sockios.h>

#include "ethstats.h"

/*
 * The kernel writes as many names or values as the driver has at the time
 * of the call, whatever the count asked for: a driver reconfigured in
 * between (more queues) writes more.  Room for this many more than asked.
 */
#define ETHSTATS_SLACK	4096

int ethstats_socket(void)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	return fd < 0 ? -errno : fd;
}

static int ethstats_ioctl(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	if (strlen(ifname) >= sizeof(ifr.ifr_name))
		return -ENAMETOOLONG;
	memcpy(ifr.ifr_name, ifname, strlen(ifname));
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr) < 0 ? -errno : 0;
}

/* how many statistics the driver has now */
static int ethstats_count(int fd, const char *ifname)
{
	struct ethtool_sset_info *info;
	uint32_t len;
	int err;

	info = calloc(1, sizeof(*info) + sizeof(uint32_t));
	if (!info)
		return -ENOMEM;
	info->cmd = ETHTOOL_GSSET_INFO;
	info->sset_mask = 1ULL << ETH_SS_STATS;
	err = ethstats_ioctl(fd, ifname, info);
	len = info->data[0];
	if (!err && !(info->sset_mask & (1ULL << ETH_SS_STATS)))
		err = -EOPNOTSUPP;
	free(info);
	if (err)
		return err;
	return len > 65536 ? -E2BIG : (int)len;
}

int ethstats_names(int fd, const char *ifname, ethstats_name *names, unsigned int max)
{
	struct ethtool_gstrings *gs;
	unsigned int i, n;
	int count, err;

	count = ethstats_count(fd, ifname);
	if (count <= 0)
		return count ? count : -EOPNOTSUPP;
	n = (unsigned int)count;
	gs = calloc(1, sizeof(*gs) + ((size_t)n + ETHSTATS_SLACK) * ETH_GSTRING_LEN);
	if (!gs)
		return -ENOMEM;
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = n;
	err = ethstats_ioctl(fd, ifname, gs);
	if (!err && gs->len != n) /* changed since the count: ask again */
		err = -ESTALE;
	for (i = 0; !err && i < n && i < max; i++) {
		memcpy(names[i], gs->data + (size_t)i * ETH_GSTRING_LEN, ETH_GSTRING_LEN);
		names[i][ETH_GSTRING_LEN] = '\0';
	}
	free(gs);
	return err ? err : count;
}

int ethstats_values(int fd, const char *ifname, uint64_t *vals, unsigned int n)
{
	struct ethtool_stats *st;
	int err;

	st = calloc(1, sizeof(*st) + ((size_t)n + ETHSTATS_SLACK) * sizeof(uint64_t));
	if (!st)
		return -ENOMEM;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = n;
	err = ethstats_ioctl(fd, ifname, st);
	if (!err && st->n_stats != n)
		err = -ESTALE;
	if (!err)
		memcpy(vals, st->data, (size_t)n * sizeof(uint64_t));
	free(st);
	return err;
}
