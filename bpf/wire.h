/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wire.h - shared between wire.bpf.c and its loaders: RoCEv2 frame counters
 * kept by the TC classifier.  __u* types only.
 */
#ifndef FABTEL_WIRE_H
#define FABTEL_WIRE_H

#define FABTEL_ROCEV2_PORT 4791

enum wire_stat {
	WIRE_ROCEV2,		/* UDP/4791 frames with a whole BTH */
	WIRE_OTHER,		/* parsed, not RoCEv2 */
	WIRE_TRUNCATED,		/* ended inside a header we needed */
	WIRE_NR_STATS,
};

#endif /* FABTEL_WIRE_H */
