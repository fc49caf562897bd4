/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netdev_bytes.h - the ports' netdevs' byte totals from /proc/net/dev, one
 * read a sample while that is cheaper than their files (netdev_bytes.c).
 */
#ifndef FABTEL_NETDEV_BYTES_H
#define FABTEL_NETDEV_BYTES_H

#include <stdbool.h>
#include <stdint.h>
#include <net/if.h>

#include "fskept.h"
#include "model.h"

#define ND_MAX		512	/* netdevs the list is parsed for */

struct nd_line {
	char name[IF_NAMESIZE];
	uint64_t rx, tx;
};

/* the collector's: this sample's list */
struct netdev_bytes {
	struct nd_line lines[ND_MAX];
	unsigned int nr_lines;	/* parsed this sample; 0: use the files */
	bool use_list;		/* the last count found it worth reading */
	unsigned int age;	/* samples since the last count */
	const struct collect_opts *o;
	struct fs_kept *kept;
	char buf[ND_MAX * 160];	/* the list's text: a line is about 110 characters */
};

void netdev_bytes_init(struct netdev_bytes *nd, const struct collect_opts *o,
		       struct fs_kept *kept);
/* at the start of a sample: read the list if it is worth it for this many ports */
void netdev_bytes_sample(struct netdev_bytes *nd, unsigned int ports);
/* netdev's totals from this sample's list; false: read its files */
bool netdev_bytes_get(const struct netdev_bytes *nd, const char *netdev, uint64_t *rx,
		      uint64_t *tx);

#endif
