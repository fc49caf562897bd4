/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probe_doc.h - the endpoint document each fabteld serves at
 * /api/v1/probe/endpoints and reads from its peers (Documentation/probes.rst
 * "Finding peers"): which UD QP answers probes on each of its RoCE ports.
 *
 *   {"fabtel_probe": 1, "host": "gpu17",
 *    "endpoints": [{"device": "mlx5_0", "port": 1, "netdev": "ens1np0",
 *                   "gid": "::ffff:10.0.0.17", "qpn": 1234, "qkey": 268435455}]}
 *
 * A peer's document is data from the network: bounded (PROBE_DOC_MAX bytes,
 * PROBE_DOC_MAX_EPS endpoints), names from a small alphabet, a GID that
 * parses and is a unicast address (probe_gid_unicast), a QPN that can be a
 * UD QP's; anything else refuses the document.
 */
#ifndef FABTEL_PROBE_DOC_H
#define FABTEL_PROBE_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROBE_DOC_MAX		65536
#define PROBE_DOC_MAX_EPS	64
#define PROBE_NAME_LEN		64

struct probe_endpoint {
	char host[PROBE_NAME_LEN];
	char device[PROBE_NAME_LEN];
	uint32_t port;
	char netdev[16];
	uint8_t gid[16];
	uint32_t qpn, qkey;
};

struct json_object;

/* true if s (a host, device or netdev name) is 1..max-1 of [A-Za-z0-9._:-] */
int probe_name_ok(const char *s, size_t max);

/*
 * Parse a peer's document (len bytes, not NUL-terminated) into eps (room
 * for max): the number of endpoints, or -1 with *why saying what was wrong.
 */
int probe_doc_parse(const char *text, size_t len, struct probe_endpoint *eps,
		    unsigned int max, const char **why);

/* This host's document (the caller puts the object). */
struct json_object *probe_doc_build(const char *host, const struct probe_endpoint *eps,
				    unsigned int n);

/* true if addr is HOST:PORT or [V6]:PORT (a peer fabteld's address) */
int probe_addr_ok(const char *addr);

/*
 * false for a GID no probe may go to: unspecified (::, 0.0.0.0/8), loopback
 * (::1, 127/8), multicast (ff00::/8, 224/4), IPv4 link-local (169.254/16),
 * IPv4 reserved 240/4 with the limited broadcast 255.255.255.255.
 */
bool probe_gid_unicast(const uint8_t gid[16]);

/* "::ffff:10.0.0.1" for a GID (out: at least 46 bytes). */
void probe_gid_str(const uint8_t gid[16], char *out, size_t len);

#endif /* FABTEL_PROBE_DOC_H */
