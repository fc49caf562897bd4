/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wire_frame.h - RoCEv2 frames built byte by byte for test_wire: Ethernet,
 * up to three VLAN tags, IPv4 or IPv6, UDP, BTH (and AETH), a payload and
 * an ICRC, every field settable through struct spec (zero: the usual value).
 */
#ifndef FABTEL_WIRE_FRAME_H
#define FABTEL_WIRE_FRAME_H

#include <stdint.h>
#include <string.h>

#include "wire.h"

#define FRAME_MAX	2048
#define ICRC_LEN	4
#define ETH_P_IP	0x0800
#define ETH_P_IPV6	0x86dd
#define ETH_P_ARP	0x0806
#define ETH_P_8021Q	0x8100
#define ETH_P_8021AD	0x88a8

/* RC opcodes (IBTA vol. 1 table 38) */
enum {
	SEND_ONLY = 0x04, WRITE_FIRST = 0x06, WRITE_MIDDLE = 0x07,
	WRITE_LAST = 0x08, WRITE_ONLY = 0x0a, READ_REQ = 0x0c,
	READ_RESP_ONLY = 0x10, ACK = 0x11, ATOMIC_ACK = 0x12,
	UC = 0x20, UD = 0x60, CNP = 0x81,
};

struct frame {
	uint8_t b[FRAME_MAX];
	size_t len;
	size_t hdr_end;		/* just past the BTH (and AETH) */
};

/* what to build; zero fields take the usual value of a RoCEv2 frame */
struct spec {
	uint16_t tpid[3];	/* VLAN tags, outer first; 0 ends */
	int ipv6;
	uint8_t ipver;		/* 0: 4 or 6 */
	uint8_t ihl;		/* 0: 5 */
	uint8_t ecn;
	uint16_t frag;		/* IPv4 flags and fragment offset */
	uint8_t l4;		/* 0: UDP */
	uint16_t dport;		/* 0: 4791 */
	uint16_t udp_len;	/* 0: the true length */
	uint8_t opcode, tver;
	uint32_t qpn, psn;
	int aeth;
	uint8_t syndrome;
	size_t payload;		/* bytes between the headers and the ICRC */
};

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static void put24(uint8_t *p, uint32_t v)
{
	p[0] = (v >> 16) & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = v & 0xff;
}

static size_t build_ipv4(uint8_t *p, const struct spec *s, size_t l4len)
{
	uint8_t ihl = s->ihl ? s->ihl : 5;
	size_t hlen = (ihl < 5 ? 5 : ihl) * 4;

	p[0] = (s->ipver ? s->ipver : 4) << 4 | ihl;
	p[1] = s->ecn & 3;
	put16(p + 2, hlen + l4len);
	put16(p + 6, s->frag);
	p[8] = 64;
	p[9] = s->l4 ? s->l4 : 17;
	p[12] = 10; p[13] = 77; p[14] = 0; p[15] = 1;
	p[16] = 10; p[17] = 77; p[18] = 0; p[19] = 2;
	memset(p + 20, 1, hlen - 20);		/* options: NOPs */
	return hlen;
}

static size_t build_ipv6(uint8_t *p, const struct spec *s, size_t l4len)
{
	uint8_t tc = s->ecn & 3;		/* DSCP 0 */

	p[0] = (s->ipver ? s->ipver : 6) << 4 | tc >> 4;
	p[1] = (tc & 0x0f) << 4;
	put16(p + 4, l4len);
	p[6] = s->l4 ? s->l4 : 17;
	p[7] = 64;
	p[8] = 0xfe; p[9] = 0x80; p[23] = 1;	/* fe80::1 */
	p[24] = 0xfe; p[25] = 0x80; p[39] = 2;	/* fe80::2 */
	return 40;
}

static size_t build_bth(uint8_t *p, const struct spec *s)
{
	p[0] = s->opcode;
	p[1] = s->tver & 0x0f;
	put16(p + 2, 0xffff);			/* default P_Key */
	put24(p + 5, s->qpn);
	p[8] = 0x80;				/* AckReq */
	put24(p + 9, s->psn);
	if (!s->aeth)
		return 12;
	p[12] = s->syndrome;
	put24(p + 13, 1);			/* MSN */
	return 16;
}

static struct frame build(const struct spec *s)
{
	size_t off = 12, bth = s->aeth ? 16 : 12, udp;
	struct frame f;
	int i;

	memset(&f, 0, sizeof(f));
	memset(f.b, 0x02, 6);			/* dst MAC */
	memset(f.b + 6, 0x04, 6);		/* src MAC */
	for (i = 0; i < 3 && s->tpid[i]; i++, off += 4) {
		put16(f.b + off, s->tpid[i]);
		put16(f.b + off + 2, 100 + i);	/* VID */
	}
	put16(f.b + off, s->ipv6 ? ETH_P_IPV6 : ETH_P_IP);
	off += 2;
	udp = 8 + bth + s->payload + ICRC_LEN;
	off += s->ipv6 ? build_ipv6(f.b + off, s, udp) : build_ipv4(f.b + off, s, udp);
	put16(f.b + off, 0xc000 | (s->qpn & 0x3fff));	/* like rxe */
	put16(f.b + off + 2, s->dport ? s->dport : WIRE_ROCEV2_PORT);
	put16(f.b + off + 4, s->udp_len ? s->udp_len : udp);
	off += 8;
	off += build_bth(f.b + off, s);
	f.hdr_end = off;
	for (i = 0; i < (int)s->payload; i++)
		f.b[off++] = i & 0xff;
	memcpy(f.b + off, "\xde\xad\xbe\xef", ICRC_LEN);
	f.len = off + ICRC_LEN;
	return f;
}

static struct frame arp_frame(void)
{
	struct frame f;

	memset(&f, 0, sizeof(f));
	memset(f.b, 0xff, 6);
	memset(f.b + 6, 0x04, 6);
	put16(f.b + 12, ETH_P_ARP);
	put16(f.b + 14, 1);			/* Ethernet */
	put16(f.b + 16, ETH_P_IP);
	f.b[18] = 6;
	f.b[19] = 4;
	put16(f.b + 20, 1);			/* request */
	f.len = f.hdr_end = 14 + 28;
	return f;
}

#endif /* FABTEL_WIRE_FRAME_H */
