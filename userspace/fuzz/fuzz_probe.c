// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_probe - libFuzzer target: what the prober takes from the network.
 *
 * The first byte picks the reader: an endpoint document (probe_doc_parse:
 * -1 with a reason, or endpoints whose names, port and QPN are in range
 * and whose GID is unicast), a probe datagram (probe_pkt_decode: a decoded
 * probe encodes back to the same bytes), or a UD receive's GRH
 * (probe_grh_sgid).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe_doc.h"
#include "probe_pkt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void doc(const uint8_t *data, size_t size)
{
	struct probe_endpoint eps[4];
	const char *why = NULL;
	int n, i;

	n = probe_doc_parse((const char *)data, size, eps, 4, &why);
	if (n < 0 ? !why : n > 4)
		abort();
	for (i = 0; i < n; i++)
		if (!probe_name_ok(eps[i].host, sizeof(eps[i].host)) ||
		    !probe_name_ok(eps[i].device, sizeof(eps[i].device)) ||
		    eps[i].port < 1 || eps[i].port > 255 || eps[i].qpn < 2 || eps[i].qpn > 0xffffff ||
		    !probe_gid_unicast(eps[i].gid))
			abort();
}

static void pkt(const uint8_t *data, size_t size)
{
	uint8_t again[PROBE_PKT_LEN];
	struct probe_pkt p;

	if (probe_pkt_decode(data, size, &p))
		return;
	probe_pkt_encode(&p, again);
	if (memcmp(again, data, PROBE_PKT_LEN))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t gid[16];

	if (!size)
		return 0;
	switch (data[0] % 3) {
	case 0:
		doc(data + 1, size - 1);
		break;
	case 1:
		pkt(data + 1, size - 1);
		break;
	default:
		if (size - 1 >= PROBE_GRH_LEN)
			probe_grh_sgid(data + 1, gid);
	}
	return 0;
}
