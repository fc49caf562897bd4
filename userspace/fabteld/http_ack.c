// SPDX-License-Identifier: GPL-2.0
/*
 * http_ack.c - POST /api/v1/ack[?device=D[&port=N]] (Documentation/
 * fabteld.rst "Recent faults"): an operator says a port's recent fault is
 * seen to, and its recent_fault clears at once (a fault still there does
 * not).  It changes state, so it needs more than reading does: a
 * configured user's basic auth (checked before this, as for every path,
 * when basic_auth_user is set), or, without users, a request from this
 * host (loopback).  No body; the arguments are the query's.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "clock.h"
#include "http_reply.h"
#include "model.h"

static bool from_loopback(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const struct sockaddr *sa = ci ? ci->client_addr : NULL;
	const struct sockaddr_in6 *s6;

	if (!sa)
		return false;
	if (sa->sa_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr) >> 24) == 127;
	if (sa->sa_family != AF_INET6)
		return false;
	s6 = (const struct sockaddr_in6 *)sa;
	return IN6_IS_ADDR_LOOPBACK(&s6->sin6_addr) ||
	       (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr) && s6->sin6_addr.s6_addr[12] == 127);
}

enum MHD_Result http_ack(struct model *m, struct replier *r, struct MHD_Connection *c,
			 const char *method, const char *user)
{
	const char *dev = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "device");
	unsigned long long port = 0;
	struct json_object *o;
	int n;

	if (strcmp(method, MHD_HTTP_METHOD_POST))
		return reply_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "POST /api/v1/ack\n");
	if (!user && !from_loopback(c))
		return reply_text(c, MHD_HTTP_FORBIDDEN,
				  "acknowledging needs basic auth (basic_auth_user) or a request "
				  "from this host\n");
	if (reply_arg_u64(c, "port", UINT32_MAX, &port) || (port && !dev) ||
	    (dev && (!dev[0] || strlen(dev) >= 64)))
		return reply_text(c, MHD_HTTP_BAD_REQUEST,
				  "want POST /api/v1/ack[?device=DEV[&port=N]]\n");
	pthread_mutex_lock(&m->lock);
	n = sticky_ack(m, dev, (uint32_t)port, user ? user : "localhost",
		       clock_ns(CLOCK_REALTIME));
	pthread_mutex_unlock(&m->lock);
	if (n < 0)
		return reply_text(c, MHD_HTTP_NOT_FOUND, "no such port\n");
	o = json_object_new_object();
	json_object_object_add(o, "cleared", json_object_new_int(n));
	return reply_json(r, c, o);
}
