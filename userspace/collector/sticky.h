/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sticky.h - a port that was in trouble stays marked for a while after it
 * is clean again (sticky.c): recent_fault, with the fault and its time,
 * until recent_fault_s have passed or someone acknowledges it.
 */
#ifndef FABTEL_STICKY_H
#define FABTEL_STICKY_H

#include <stdbool.h>
#include <stdint.h>

#define STICKY_FAULT_LEN	24
#define STICKY_WHO_LEN		48

struct port_sticky {
	bool faulty;				/* a fault now (down, probe loss, wedged, firmware) */
	bool recent;				/* clean again within recent_fault_s, not acknowledged */
	char fault[STICKY_FAULT_LEN];		/* the last fault: link_flap, link_down, ...; "" none */
	uint64_t fault_ns;			/* CLOCK_REALTIME it was last seen */
	uint64_t clean_ns;			/* ... and the port clean again; 0 while faulty */
	uint64_t flaps_seen;			/* the port's flap count at the last fold */
	bool flaps_primed;
	uint64_t acked_ns;			/* the last acknowledgement, 0 none */
	char acked_by[STICKY_WHO_LEN];
};

struct model;
struct model_port;
/* every present port's sticky state after this pass's folds (m->lock held) */
void sticky_fold(struct model *m, uint64_t now);
/*
 * A fault seen before this fabteld started (past.c: a flap fabtel.ko
 * kept) at CLOCK_REALTIME at, over by then: the port is recent_fault if
 * that is within recent_fault_s of now and newer than what it has.
 */
void sticky_restore(struct model *m, struct model_port *p, const char *fault, uint64_t at,
		    uint64_t now);
/*
 * Acknowledge the recent faults of device/port (device NULL: of every
 * port; port 0: of each of the device's): they clear now; a fault still
 * there is not cleared.  How many were cleared; -1: no such port.
 */
int sticky_ack(struct model *m, const char *device, uint32_t port, const char *who,
	       uint64_t now);

#endif /* FABTEL_STICKY_H */
