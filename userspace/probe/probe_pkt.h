/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe_pkt.h - the probe datagram fabteld's prober sends over a UD QP
 * (Documentation/probes.rst "The probe").  Fixed size, network byte order:
 *
 *   0  magic "FBTP"     4  version (1)   5  type (1 request, 2 reply)
 *   6  flags (0)        8  seq           12 session (the prober's, random)
 *   16 sender QPN       20 reserved      24 t_sent (sender's clock, ns)
 *   32 t_rx  (reply: the responder's clock when the request arrived, ns)
 *   40 t_tx  (reply: the responder's clock when the reply left, ns)
 *
 * A reply echoes the request's seq, session and t_sent.  Nothing in a probe
 * is trusted: the decoder checks size, magic, version and type, and the
 * prober checks a reply against what it sent (probe.c).
 */
#ifndef FABTEL_PROBE_PKT_H
#define FABTEL_PROBE_PKT_H

#include <stddef.h>
#include <stdint.h>

#define PROBE_PKT_LEN		48
#define PROBE_PKT_MAGIC		0x46425450u	/* "FBTP" */
#define PROBE_PKT_VERSION	1
#define PROBE_GRH_LEN		40	/* what a UD receive buffer starts with */

enum probe_pkt_type {
	PROBE_REQUEST = 1,
	PROBE_REPLY = 2,
};

struct probe_pkt {
	uint8_t type;
	uint32_t seq;
	uint32_t session;
	uint32_t qpn;
	uint64_t t_sent, t_rx, t_tx;
};

/* Why a received datagram was not taken (fabtel_probe_dropped_total{reason}). */
enum probe_drop {
	PROBE_DROP_MALFORMED,	/* size, magic, version, type or flags wrong */
	PROBE_DROP_UNKNOWN,	/* a reply from no peer of this port (spoofed or stale) */
	PROBE_DROP_SESSION,	/* a reply to another prober session (restart) */
	PROBE_DROP_DUPLICATE,	/* a reply already taken (replayed) */
	PROBE_DROP_LATE,	/* a reply after its probe timed out */
	PROBE_DROP_UNSOLICITED,	/* a reply to a seq never sent */
	PROBE_DROP_RATE,	/* a request not answered: over reply_rate */
	PROBE_DROP_ERROR,	/* a receive completion in error */
	PROBE_DROP_RATE_SOURCE,	/* a request not answered: over reply_rate_source */
	PROBE_DROP_UNRESOLVED,	/* a request not answered: its sender's address unresolved */
	PROBE_DROP_NR,
};

const char *probe_drop_name(enum probe_drop d);

/* Write p into buf (PROBE_PKT_LEN bytes). */
void probe_pkt_encode(const struct probe_pkt *p, uint8_t *buf);

/* Read len bytes of buf into p: 0, or -1 if it is not a well-formed probe. */
int probe_pkt_decode(const uint8_t *buf, size_t len, struct probe_pkt *p);

/*
 * The sender's GID from the 40 bytes a UD receive starts with: RoCE v2 over
 * IPv4 puts the IPv4 header in the last 20 (the GID is then ::ffff:a.b.c.d),
 * over IPv6 (and RoCE v1) the GRH's source GID.  0, or -1 if neither.
 */
int probe_grh_sgid(const uint8_t *grh, uint8_t gid[16]);

#endif /* FABTEL_PROBE_PKT_H */
