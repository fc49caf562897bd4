// SPDX-License-Identifier: GPL-2.0
/*
 * probe_pkt.c - the probe datagram's encoding (probe_pkt.h), kept apart from
 * the verbs so that tests and the fuzzer can feed it any bytes.
 */
#include <string.h>

#include "probe_pkt.h"

static const char *const drop_names[PROBE_DROP_NR] = {
	[PROBE_DROP_MALFORMED] = "malformed",
	[PROBE_DROP_UNKNOWN] = "unknown_peer",
	[PROBE_DROP_SESSION] = "other_session",
	[PROBE_DROP_DUPLICATE] = "duplicate",
	[PROBE_DROP_LATE] = "late",
	[PROBE_DROP_UNSOLICITED] = "unsolicited",
	[PROBE_DROP_RATE] = "rate_limited",
	[PROBE_DROP_ERROR] = "completion_error",
	[PROBE_DROP_RATE_SOURCE] = "rate_limited_source",
	[PROBE_DROP_UNRESOLVED] = "unresolved",
};

const char *probe_drop_name(enum probe_drop d)
{
	return d < PROBE_DROP_NR ? drop_names[d] : "?";
}

static void put32(uint8_t *b, uint32_t v)
{
	b[0] = v >> 24;
	b[1] = v >> 16;
	b[2] = v >> 8;
	b[3] = v;
}

static void put64(uint8_t *b, uint64_t v)
{
	put32(b, v >> 32);
	put32(b + 4, (uint32_t)v);
}

static uint32_t get32(const uint8_t *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static uint64_t get64(const uint8_t *b)
{
	return (uint64_t)get32(b) << 32 | get32(b + 4);
}

void probe_pkt_encode(const struct probe_pkt *p, uint8_t *buf)
{
	memset(buf, 0, PROBE_PKT_LEN);
	put32(buf, PROBE_PKT_MAGIC);
	buf[4] = PROBE_PKT_VERSION;
	buf[5] = p->type;
	put32(buf + 8, p->seq);
	put32(buf + 12, p->session);
	put32(buf + 16, p->qpn & 0xffffff);
	put64(buf + 24, p->t_sent);
	put64(buf + 32, p->t_rx);
	put64(buf + 40, p->t_tx);
}

int probe_pkt_decode(const uint8_t *buf, size_t len, struct probe_pkt *p)
{
	/* exactly one probe: a longer datagram is someone else's */
	if (len != PROBE_PKT_LEN || get32(buf) != PROBE_PKT_MAGIC ||
	    buf[4] != PROBE_PKT_VERSION || buf[6] || buf[7] || get32(buf + 20))
		return -1;
	if (buf[5] != PROBE_REQUEST && buf[5] != PROBE_REPLY)
		return -1;
	p->type = buf[5];
	p->seq = get32(buf + 8);
	p->session = get32(buf + 12);
	p->qpn = get32(buf + 16);
	if (p->qpn > 0xffffff)
		return -1;
	p->t_sent = get64(buf + 24);
	p->t_rx = get64(buf + 32);
	p->t_tx = get64(buf + 40);
	/* a request carries no responder times; a reply's are in order */
	if (p->type == PROBE_REQUEST ? p->t_rx || p->t_tx : p->t_tx < p->t_rx)
		return -1;
	return 0;
}

int probe_grh_sgid(const uint8_t *grh, uint8_t gid[16])
{
	/* RoCE v2 over IPv4: an IPv4 header (version 4, IHL 5) in bytes 20..39 */
	if (grh[20] == 0x45) {
		memset(gid, 0, 10);
		gid[10] = 0xff;
		gid[11] = 0xff;
		memcpy(gid + 12, grh + 20 + 12, 4);
		return 0;
	}
	/* a GRH or an IPv6 header: version 6, source address at byte 8 */
	if ((grh[0] >> 4) == 6) {
		memcpy(gid, grh + 8, 16);
		return 0;
	}
	return -1;
}
