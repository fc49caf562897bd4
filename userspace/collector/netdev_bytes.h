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

#include "model.h"

/* at the start of a sample: read the list if it is worth it for this many ports */
void netdev_bytes_sample(const struct collect_opts *o, unsigned int ports);
/* netdev's totals from this sample's list; false: read its files */
bool netdev_bytes_get(const char *netdev, uint64_t *rx, uint64_t *tx);

#endif
