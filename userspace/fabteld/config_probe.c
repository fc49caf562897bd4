// SPDX-License-Identifier: GPL-2.0
/*
 * config_probe.c - the prober's settings that are not whole numbers (those
 * are in settings.c's table): peers, the peers file, ToS rules, matching,
 * host_name, how the peers' documents are fetched (HTTPS, basic auth)
 * (Documentation/probes.rst "Settings").  It knows no other key: config.c
 * hands it the keys it is given.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_probe.h"
#include "config_value.h"

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

/*
 * Up to len - 1 bytes of a regular file at the start of buf, NUL-terminated:
 * the byte count, or -1 with err naming key and path.  Opened without
 * blocking and refused unless a regular file, so a FIFO or a device named
 * by mistake fails at once instead of hanging the start.
 */
static ssize_t read_head(const char *key, const char *path, char *buf, size_t len,
			 char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	size_t n = 0;
	ssize_t got = 1;
	struct stat st;

	if (fd < 0 || fstat(fd, &st)) {
		snprintf(err, errlen, "%s %s: %s", key, path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s %s: not a regular file", key, path);
		close(fd);
		return -1;
	}
	while (n < len - 1 && (got = read(fd, buf + n, len - 1 - n)) > 0)
		n += (size_t)got;
	if (got < 0)
		snprintf(err, errlen, "%s %s: %s", key, path, strerror(errno));
	close(fd);
	buf[n] = '\0';
	return got < 0 ? -1 : (ssize_t)n;
}

/* probe_auth_password_file: its first line (without the newline) is the password */
static int set_password_file(struct probe_cfg *p, const char *v, char *err, size_t errlen)
{
	static const char key[] = "probe_auth_password_file";
	char buf[sizeof(p->auth_password) + 2], *nl;
	ssize_t n;
	int ret = -1;

	if (v[0] != '/' || strlen(v) >= sizeof(p->auth_password_file)) {
		snprintf(err, errlen, "%s wants an absolute path under %zu bytes, not '%s'", key,
			 sizeof(p->auth_password_file), v);
		return -1;
	}
	n = read_head(key, v, buf, sizeof(buf), err, errlen);
	if (n < 0)
		return -1;
	nl = memchr(buf, '\n', (size_t)n);
	if (nl)
		*nl = '\0';
	else
		nl = buf + n;
	if (nl > buf && nl[-1] == '\r')
		*--nl = '\0';
	/* the errors name the file, never its bytes */
	if (memchr(buf, '\0', (size_t)(nl - buf)))
		snprintf(err, errlen, "%s %s: a NUL byte in the first line", key, v);
	else if (nl == buf)
		snprintf(err, errlen, "%s %s: the first line (the password) is empty", key, v);
	else if ((size_t)(nl - buf) >= sizeof(p->auth_password))
		snprintf(err, errlen, "%s %s: the first line is over %zu bytes", key, v,
			 sizeof(p->auth_password) - 1);
	else {
		snprintf(p->auth_password, sizeof(p->auth_password), "%s", buf);
		snprintf(p->auth_password_file, sizeof(p->auth_password_file), "%s", v);
		ret = 0;
	}
	explicit_bzero(buf, sizeof(buf));
	return ret;
}

/* probe_tls_ca_file: a PEM file with a certificate, read now to fail early */
static int set_ca_file(struct probe_cfg *p, const char *v, char *err, size_t errlen)
{
	static const char key[] = "probe_tls_ca_file";
	char buf[16384];

	if (v[0] != '/' || strlen(v) >= sizeof(p->tls_ca_file)) {
		snprintf(err, errlen, "%s wants an absolute path (PEM) under %zu bytes, not '%s'",
			 key, sizeof(p->tls_ca_file), v);
		return -1;
	}
	if (read_head(key, v, buf, sizeof(buf), err, errlen) < 0)
		return -1;
	if (!strstr(buf, "-----BEGIN CERTIFICATE-----")) {
		snprintf(err, errlen, "%s %s: no PEM certificate in it", key, v);
		return -1;
	}
	snprintf(p->tls_ca_file, sizeof(p->tls_ca_file), "%s", v);
	return 0;
}

/* how the fetcher reaches the peers: 0, -1 with err, 1 if key is not one of these */
static int set_fetch(struct probe_cfg *p, const char *key, const char *v, char *err,
		     size_t errlen)
{
	const char *c;

	if (!strcmp(key, "probe_tls_ca_file"))
		return set_ca_file(p, v, err, errlen);
	if (!strcmp(key, "probe_auth_password_file"))
		return set_password_file(p, v, err, errlen);
	if (!strcmp(key, "probe_tls_verify_host")) {
		if (strcmp(v, "on") && strcmp(v, "off")) {
			snprintf(err, errlen, "probe_tls_verify_host wants on or off, not '%s'", v);
			return -1;
		}
		p->tls_verify_host = !strcmp(v, "on");
		return 0;
	}
	if (strcmp(key, "probe_auth_user"))
		return 1;
	/* RFC 7617: the user-id has no colon; no control characters */
	for (c = v; *c && *c != ':' && (unsigned char)*c >= 0x20 && *c != 0x7f; c++)
		;
	if (!*v || *c || strlen(v) >= sizeof(p->auth_user)) {
		snprintf(err, errlen,
			 "probe_auth_user wants a user name of 1..%zu bytes without ':' or control characters, not '%s'",
			 sizeof(p->auth_user) - 1, v);
		return -1;
	}
	snprintf(p->auth_user, sizeof(p->auth_user), "%s", v);
	return 0;
}

int config_probe_check(const struct probe_cfg *p, char *err, size_t errlen)
{
	if (p->auth_user[0] && !p->auth_password[0]) {
		snprintf(err, errlen, "probe_auth_user is set without probe_auth_password_file");
		return -1;
	}
	if (!p->auth_user[0] && p->auth_password[0]) {
		snprintf(err, errlen, "probe_auth_password_file is set without probe_auth_user");
		return -1;
	}
	return 0;
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
	} else if (!strcmp(key, "probe_flow_mode")) {
		if (!strcmp(v, "auto"))
			p->flow_mode = PROBE_FLOWS_AUTO;
		else if (!strcmp(v, "label"))
			p->flow_mode = PROBE_FLOWS_LABEL;
		else if (!strcmp(v, "qp"))
			p->flow_mode = PROBE_FLOWS_QP;
		else {
			snprintf(err, errlen, "probe_flow_mode wants auto, label or qp, not '%s'", v);
			return -1;
		}
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
		return set_fetch(p, key, v, err, errlen);
	}
	return 0;
}

/*
 * What no key's default gives: the host's name (host_name) and the ToS
 * unset (probe_tos).  config_defaults() sets each key's default from
 * settings.c's table after this.
 */
void probe_cfg_defaults(struct probe_cfg *c)
{
	memset(c, 0, sizeof(*c));
	if (gethostname(c->host, sizeof(c->host)) || !probe_name_ok(c->host, sizeof(c->host)))
		snprintf(c->host, sizeof(c->host), "localhost");
	c->tos = -1;
}
