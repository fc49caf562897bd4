// SPDX-License-Identifier: GPL-2.0
/*
 * config_probe.c - the prober's settings that are not whole numbers (those
 * are in config.c's table): peers, the peers file, ToS rules, matching,
 * host_name (Documentation/probes.rst "Settings"); and their defaults.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

/* "TOS" (every port) or "DEVICE/PORT=TOS" */
static int set_tos(struct probe_cfg *p, const char *v, char *err, size_t errlen)
{
	const char *eq = strchr(v, '='), *slash = strchr(v, '/');
	unsigned int tos, port;
	char dev[PROBE_NAME_LEN], num[16];
	size_t n;

	if (!eq) {
		if (config_parse_uint(v, 0, 255, true, &tos))
			goto bad;
		p->tos = (int)tos;
		return 0;
	}
	if (!slash || slash > eq || (size_t)(slash - v) >= sizeof(dev) ||
	    (size_t)(eq - slash - 1) >= sizeof(num) || config_parse_uint(eq + 1, 0, 255, true, &tos))
		goto bad;
	n = (size_t)(slash - v);
	memcpy(dev, v, n);
	dev[n] = '\0';
	n = (size_t)(eq - slash - 1);
	memcpy(num, slash + 1, n);
	num[n] = '\0';
	if (!probe_name_ok(dev, sizeof(dev)) || config_parse_uint(num, 1, 255, true, &port))
		goto bad;
	if (p->nr_tos_rules == PROBE_MAX_TOS_RULES) {
		snprintf(err, errlen, "more than %d probe_tos rules", PROBE_MAX_TOS_RULES);
		return -1;
	}
	snprintf(p->tos_rules[p->nr_tos_rules].device, PROBE_NAME_LEN, "%s", dev);
	p->tos_rules[p->nr_tos_rules].port = port;
	p->tos_rules[p->nr_tos_rules++].tos = tos;
	return 0;
bad:
	snprintf(err, errlen, "probe_tos wants TOS or DEVICE/PORT=TOS (TOS 0..255), not '%s'", v);
	return -1;
}

int config_probe_set(struct probe_cfg *p, const char *key, const char *v, char *err,
		     size_t errlen)
{
	if (!strcmp(key, "probe_peer")) {
		if (!probe_addr_ok(v)) {
			snprintf(err, errlen, "probe_peer wants HOST:PORT of a peer fabteld, not '%s'", v);
			return -1;
		}
		if (p->nr_peers == PROBE_MAX_SOURCES) {
			snprintf(err, errlen, "more than %d probe_peer settings", PROBE_MAX_SOURCES);
			return -1;
		}
		snprintf(p->peers[p->nr_peers++], PROBE_ADDR_LEN, "%s", v);
	} else if (!strcmp(key, "probe_peers_file")) {
		if (v[0] != '/' || strlen(v) >= sizeof(p->peers_file)) {
			snprintf(err, errlen, "probe_peers_file wants an absolute path under %zu bytes",
				 sizeof(p->peers_file));
			return -1;
		}
		snprintf(p->peers_file, sizeof(p->peers_file), "%s", v);
	} else if (!strcmp(key, "probe_match")) {
		if (strcmp(v, "subnet") && strcmp(v, "all")) {
			snprintf(err, errlen, "probe_match wants subnet or all, not '%s'", v);
			return -1;
		}
		p->match_all = !strcmp(v, "all");
	} else if (!strcmp(key, "host_name")) {
		if (!probe_name_ok(v, sizeof(p->host))) {
			snprintf(err, errlen, "host_name wants 1..%zu of A-Z a-z 0-9 . _ : -, not '%s'",
				 sizeof(p->host) - 1, v);
			return -1;
		}
		snprintf(p->host, sizeof(p->host), "%s", v);
	} else if (!strcmp(key, "probe_tos")) {
		return set_tos(p, v, err, errlen);
	} else {
		return 1;
	}
	return 0;
}

void probe_cfg_defaults(struct probe_cfg *c)
{
	memset(c, 0, sizeof(*c));
	if (gethostname(c->host, sizeof(c->host)) || !probe_name_ok(c->host, sizeof(c->host)))
		snprintf(c->host, sizeof(c->host), "localhost");
	c->rate = 10;
	c->timeout_ms = 500;
	c->window_s = 10;
	c->max_peers = PROBE_MAX_PEERS;
	c->refresh_s = 10;
	c->peer_ttl_s = 60;
	c->reply_rate = 1000;
	c->qkey = 0x0fab7e11;
	c->tos = -1;
	c->loss_pct = 2;
	c->rtt_us = 1000;
}
