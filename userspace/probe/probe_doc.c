// SPDX-License-Identifier: GPL-2.0
/*
 * probe_doc.c - the endpoint document (probe_doc.h): built with json-c,
 * parsed with a bounded tokener and checked field by field.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "probe_doc.h"

int probe_name_ok(const char *s, size_t max)
{
	size_t i, n = strnlen(s, max);

	if (!n || n == max)
		return 0;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' || c == ':' || c == '-'))
			return 0;
	}
	return 1;
}

void probe_gid_str(const uint8_t gid[16], char *out, size_t len)
{
	if (!inet_ntop(AF_INET6, gid, out, (socklen_t)len))
		snprintf(out, len, "?");
}

/*
 * What a GID says of itself.  IPv4 inside is the mapped form (::ffff:a.b.c.d)
 * RoCE v2 uses; the subnet's own network and broadcast addresses need the
 * port's netmask and are probe_match.c's.
 */
bool probe_gid_unicast(const uint8_t gid[16])
{
	static const uint8_t zero[16], v4pfx[12] = { [10] = 0xff, [11] = 0xff };
	uint8_t a = gid[12], b = gid[13];

	if (gid[0] == 0xff)			/* ff00::/8 multicast */
		return false;
	if (!memcmp(gid, zero, 15))		/* ::/120: ::, ::1 */
		return false;
	if (memcmp(gid, v4pfx, 12))
		return true;
	/* 0/8 this network, 127/8 loopback, 169.254/16 link-local, 224/4
	 * multicast, 240/4 reserved (and 255.255.255.255 limited broadcast) */
	return a != 0 && a != 127 && !(a == 169 && b == 254) && a < 224;
}

static int str_field(struct json_object *o, const char *key, char *out, size_t len)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return -1;
	if (!probe_name_ok(json_object_get_string(v), len))
		return -1;
	snprintf(out, len, "%s", json_object_get_string(v));
	return 0;
}

static int int_field(struct json_object *o, const char *key, int64_t lo, int64_t hi, uint32_t *out)
{
	struct json_object *v;
	int64_t x;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
		return -1;
	x = json_object_get_int64(v);
	if (x < lo || x > hi)
		return -1;
	*out = (uint32_t)x;
	return 0;
}

static int endpoint(struct json_object *o, const char *host, struct probe_endpoint *ep)
{
	struct json_object *v;

	memset(ep, 0, sizeof(*ep));
	snprintf(ep->host, sizeof(ep->host), "%s", host);
	if (!json_object_is_type(o, json_type_object) ||
	    str_field(o, "device", ep->device, sizeof(ep->device)) ||
	    str_field(o, "netdev", ep->netdev, sizeof(ep->netdev)) ||
	    int_field(o, "port", 1, 255, &ep->port) ||
	    /* QP 0 and 1 are the SMI and GSI QPs, never a prober's */
	    int_field(o, "qpn", 2, 0xffffff, &ep->qpn) ||
	    int_field(o, "qkey", 0, 0xffffffffLL, &ep->qkey))
		return -1;
	if (!json_object_object_get_ex(o, "gid", &v) || !json_object_is_type(v, json_type_string) ||
	    inet_pton(AF_INET6, json_object_get_string(v), ep->gid) != 1)
		return -1;
	/* no fabteld publishes one of these for a port it probes from */
	if (!probe_gid_unicast(ep->gid))
		return -2;
	return 0;
}

static int doc_fields(struct json_object *root, struct probe_endpoint *eps, unsigned int max,
		      const char **why)
{
	struct json_object *v, *arr;
	char host[PROBE_NAME_LEN];
	size_t i, n;

	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "fabtel_probe", &v) ||
	    !json_object_is_type(v, json_type_int) || json_object_get_int64(v) != 1) {
		*why = "not a fabtel probe document (version 1)";
		return -1;
	}
	if (str_field(root, "host", host, sizeof(host))) {
		*why = "bad host name";
		return -1;
	}
	if (!json_object_object_get_ex(root, "endpoints", &arr) ||
	    !json_object_is_type(arr, json_type_array)) {
		*why = "no endpoints array";
		return -1;
	}
	n = json_object_array_length(arr);
	if (n > max || n > PROBE_DOC_MAX_EPS) {
		*why = "too many endpoints";
		return -1;
	}
	for (i = 0; i < n; i++) {
		int e = endpoint(json_object_array_get_idx(arr, i), host, &eps[i]);

		if (e) {
			*why = e == -2 ? "endpoint GID not a unicast address" : "bad endpoint";
			return -1;
		}
	}
	return (int)n;
}

int probe_doc_parse(const char *text, size_t len, struct probe_endpoint *eps,
		    unsigned int max, const char **why)
{
	struct json_tokener *tok;
	struct json_object *root;
	int n;

	if (len > PROBE_DOC_MAX) {
		*why = "document too large";
		return -1;
	}
	if (memchr(text, '\0', len)) {
		*why = "NUL byte in document";
		return -1;
	}
	tok = json_tokener_new_ex(8);
	if (!tok) {
		*why = "out of memory";
		return -1;
	}
	root = json_tokener_parse_ex(tok, text, (int)len);
	if (!root || json_tokener_get_error(tok) != json_tokener_success ||
	    json_tokener_get_parse_end(tok) != len) {
		json_object_put(root);
		json_tokener_free(tok);
		*why = "not JSON (or trailing bytes, or nested too deep)";
		return -1;
	}
	json_tokener_free(tok);
	n = doc_fields(root, eps, max, why);
	json_object_put(root);
	return n;
}

struct json_object *probe_doc_build(const char *host, const struct probe_endpoint *eps,
				    unsigned int n)
{
	struct json_object *root = json_object_new_object(), *arr = json_object_new_array();
	char gid[64];
	unsigned int i;

	json_object_object_add(root, "fabtel_probe", json_object_new_int(1));
	json_object_object_add(root, "host", json_object_new_string(host));
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_new_object();

		probe_gid_str(eps[i].gid, gid, sizeof(gid));
		json_object_object_add(e, "device", json_object_new_string(eps[i].device));
		json_object_object_add(e, "port", json_object_new_int((int)eps[i].port));
		json_object_object_add(e, "netdev", json_object_new_string(eps[i].netdev));
		json_object_object_add(e, "gid", json_object_new_string(gid));
		json_object_object_add(e, "qpn", json_object_new_int64(eps[i].qpn));
		json_object_object_add(e, "qkey", json_object_new_int64(eps[i].qkey));
		json_object_array_add(arr, e);
	}
	json_object_object_add(root, "endpoints", arr);
	return root;
}

/* HOST:PORT or [V6]:PORT, HOST a name or address of [A-Za-z0-9.-] */
int probe_addr_ok(const char *addr)
{
	const char *colon = strrchr(addr, ':'), *h = addr, *e;
	char *end;
	unsigned long port;

	if (!colon || strlen(addr) >= 128)
		return 0;
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (!isdigit((unsigned char)colon[1]) || *end || errno || !port || port > 65535)
		return 0;
	e = colon;
	if (*h == '[') {
		if (e - h < 3 || e[-1] != ']')
			return 0;
		for (h++, e--; h < e; h++)
			if (!isxdigit((unsigned char)*h) && *h != ':' && *h != '.')
				return 0;
		return 1;
	}
	if (e == h)
		return 0;
	for (; h < e; h++)
		if (!isalnum((unsigned char)*h) && *h != '.' && *h != '-')
			return 0;
	return 1;
}
