/* SPDX-License-Identifier: GPL-2.0 */
/*
 * labels.h - the labels every port's Prometheus sample carries: device,
 * port, netdev, and at most one extra pair a family adds (priority, lane,
 * source, ...).  Shared by the metric families of render_*.c.
 */
#ifndef FABTEL_RENDER_LABELS_H
#define FABTEL_RENDER_LABELS_H

#include "expo.h"
#include "model.h"

/* the labels of one port, with room for what a family adds after them */
struct port_labels {
	char port[16];
	struct expo_label l[7];
};

/*
 * Fill pl with p's labels plus one extra pair (extra NULL: none) and return
 * its { NULL, NULL }-terminated array; l[4] on is free for the caller.
 */
const struct expo_label *port_labels(struct port_labels *pl, const struct model_port *p,
				     const char *extra, const char *extra_value);

#endif /* FABTEL_RENDER_LABELS_H */
