// SPDX-License-Identifier: GPL-2.0
/*
 * config_probe.c - the prober's settings (probe_* keys and host_name,
 * Documentation/probes.rst "Settings"), apart from config.c's own.
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

static const struct {
	const char *key;
	size_t off;
	unsigned int lo, hi;
} probe_uints[] = {
	{ "probe_rate", offsetof(struct probe_cfg, rate), 1, 1000 },
	{ "probe_timeout_ms", offsetof(struct probe_cfg, timeout_ms), 10, 10000 },
	{ "probe_window_s", offsetof(struct probe_cfg, window_s), 1, PROBE_WINDOW_MAX_S },
	{ "probe_max_peers", offsetof(struct probe_cfg, max_peers), 1, PROBE_MAX_PEERS },
	{ "probe_refresh_s", offsetof(struct probe_cfg, refresh_s), 2, 3600 },
	{ "probe_peer_ttl_s", offsetof(struct probe_cfg, peer_ttl_s), 5, 86400 },
	{ "probe_reply_rate", offsetof(struct probe_cfg, reply_rate), 1, 100000 },
	/* the high bit makes a controlled Q_Key, which unprivileged QPs may not use */
	{ "probe_qkey", offsetof(struct probe_cfg, qkey), 0, 0x7fffffff },
	{ "probe_sl", offsetof(struct probe_cfg, sl), 0, 15 },
	{ "probe_loss_pct", offsetof(struct probe_cfg, loss_pct), 1, 100 },
	{ "probe_rtt_us", offsetof(struct probe_cfg, rtt_us), 1, 10000000 },
};

static int uint_in(const char *v, unsigned long lo, unsigned long hi, unsigned long *out)
{
	char *end;

	if (!isdigit((unsigned char)*v))
		return -1;
	errno = 0;
	*out = strtoul(v, &end, *v == '0' && (v[1] == 'x' || v[1] == 'X') ? 16 : 10);
	return errno || *end || *out < lo || *out > hi ? -1 : 0;
}

/* "TOS" (every port) or "DEVICE/PORT=TOS" */
static int set_tos(struct probe_cfg *p, const char *v, char *err, size_t errlen)
{
	const char *eq = strchr(v, '='), *slash = strchr(v, '/');
	unsigned long tos, port;
	char dev[PROBE_NAME_LEN], num[16];
	size_t n;

	if (!eq) {
		if (uint_in(v, 0, 255, &tos))
			goto bad;
		p->tos = (int)tos;
		return 0;
	}
	if (!slash || slash > eq || (size_t)(slash - v) >= sizeof(dev) ||
	    (size_t)(eq - slash - 1) >= sizeof(num) || uint_in(eq + 1, 0, 255, &tos))
		goto bad;
	n = (size_t)(slash - v);
	memcpy(dev, v, n);
	dev[n] = '\0';
	n = (size_t)(eq - slash - 1);
	memcpy(num, slash + 1, n);
	num[n] = '\0';
	if (!probe_name_ok(dev, sizeof(dev)) || uint_in(num, 1, 255, &port))
		goto bad;
	if (p->nr_tos_rules == PROBE_MAX_TOS_RULES) {
		snprintf(err, errlen, "more than %d probe_tos rules", PROBE_MAX_TOS_RULES);
		return -1;
	}
	snprintf(p->tos_rules[p->nr_tos_rules].device, PROBE_NAME_LEN, "%s", dev);
	p->tos_rules[p->nr_tos_rules].port = (uint32_t)port;
	p->tos_rules[p->nr_tos_rules++].tos = (unsigned int)tos;
	return 0;
bad:
	snprintf(err, errlen, "probe_tos wants TOS or DEVICE/PORT=TOS (TOS 0..255), not '%s'", v);
	return -1;
}

static int set_text(struct probe_cfg *p, const char *key, const char *v, char *err,
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

int config_probe_set(struct probe_cfg *p, const char *key, const char *v, char *err,
		     size_t errlen)
{
	unsigned long x;
	size_t i;

	for (i = 0; i < sizeof(probe_uints) / sizeof(probe_uints[0]); i++) {
		if (strcmp(key, probe_uints[i].key))
			continue;
		if (uint_in(v, probe_uints[i].lo, probe_uints[i].hi, &x)) {
			snprintf(err, errlen, "%s wants a whole number %u..%u, not '%s'", key,
				 probe_uints[i].lo, probe_uints[i].hi, v);
			return -1;
		}
		*(unsigned int *)((char *)p + probe_uints[i].off) = (unsigned int)x;
		return 0;
	}
	return set_text(p, key, v, err, errlen);
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
