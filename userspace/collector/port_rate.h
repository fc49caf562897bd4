/* SPDX-License-Identifier: GPL-2.0 */
/*
 * port_rate.h - a port's ports/<n>/rate, read again only when it can have
 * changed (port_rate.c).
 */
#ifndef FABTEL_PORT_RATE_H
#define FABTEL_PORT_RATE_H

#include "fskept.h"
#include "source.h"

#define PORT_RATE_SLOTS	(2 * MODEL_MAX_PORTS)

struct port_rate {
	char device[64];
	uint32_t port;
	char state[24];
	uint64_t nd_speed_mbps, flaps;
	bool have_nd_speed, have_flaps;
	unsigned int age;		/* samples since the file was read */
	uint64_t rate_mbps;
	unsigned int lanes;
	bool have_rate;
};

/* the collector's last readings */
struct port_rates {
	struct port_rate rates[PORT_RATE_SLOTS];
	unsigned int next_victim;
	unsigned int hint;	/* the slot after the last found: the walk's order */
	const struct collect_opts *o;
	struct fs_kept *kept;
};

void port_rate_init(struct port_rates *pr, const struct collect_opts *o, struct fs_kept *kept);
/*
 * port_rate_read: the port's /sys/class/infiniband/<dev>/ports/<n>/rate
 * into p, whose state, netdev speed and flap count are read already; the
 * last reading again while they are unchanged, up to 10 samples.
 */
void port_rate_read(struct port_rates *pr, struct raw_port *p);
/* "100 Gb/sec (4X EDR)" -> 100000 Mb/s and 4 lanes; 0, or -1 if not that shape */
int port_rate_parse(const char *s, uint64_t *mbps, unsigned int *width);

#endif /* FABTEL_PORT_RATE_H */
