// SPDX-License-Identifier: GPL-2.0
/*
 * labels.c - a port's Prometheus labels (see labels.h).
 */
#include <stdio.h>

#include "labels.h"

const struct expo_label *port_labels(struct port_labels *pl, const struct model_port *p,
				     const char *extra, const char *extra_value)
{
	snprintf(pl->port, sizeof(pl->port), "%u", p->port);
	pl->l[0] = (struct expo_label){ "device", p->device };
	pl->l[1] = (struct expo_label){ "port", pl->port };
	pl->l[2] = (struct expo_label){ "netdev", p->netdev };
	pl->l[3] = (struct expo_label){ extra, extra_value };
	pl->l[4] = (struct expo_label){ NULL, NULL };
	return pl->l;
}
