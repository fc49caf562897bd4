// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_http - libFuzzer target: fabteld's HTTP request path.
 *
 * The input is the bytes a client sends.  They go over a loopback TCP
 * connection to fabteld's own HTTP side (libmicrohttpd with fabteld's
 * handler, http.c), serving a model with a port, a job and events, so the
 * routes, query arguments (since, wait), the trace export and the long poll
 * all see hostile input.  A long poll left parked is woken by logging an
 * event, as the collector would.
 *
 * A reply must be an HTTP/1.x status line; fabteld's handler never answers
 * 500 (it has no internal error but out of memory).  ASan/UBSan watch the
 * server threads too.  Whether a long poll answers in time is not judged
 * here (selftests/host/test_fabteld_sources.sh times it).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "collect.h"
#include "config.h"
#include "http.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct config cfg;
static struct collect_opts copts;
static struct model model;
static struct collector *col;
static struct http *http;
static struct sockaddr_in addr;

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void wake_polls(void)
{
	pthread_mutex_lock(&model.lock);
	model_log_event(&model, EV_LINK_FLAP, "rxa", 1, realtime_ns());
	pthread_mutex_unlock(&model.lock);
}

static void setup(void)
{
	struct model_job *j = &model.jobs[0];
	socklen_t len = sizeof(addr);
	char err[256];
	uint64_t now;
	int s;

	/* a free loopback port */
	s = socket(AF_INET, SOCK_STREAM, 0);
	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s < 0 || bind(s, (struct sockaddr *)&addr, sizeof(addr)) ||
	    getsockname(s, (struct sockaddr *)&addr, &len))
		abort();
	close(s);

	config_defaults(&cfg);
	cfg.bpf = CONFIG_OFF;
	cfg.wire = CONFIG_OFF;
	snprintf(cfg.sysfs_root, sizeof(cfg.sysfs_root), "/nonexistent");
	cfg.listen_port = ntohs(addr.sin_port);
	cfg.max_connections = 4096;	/* unfinished requests linger 10 s */
	snprintf(cfg.listen_addr, sizeof(cfg.listen_addr), "127.0.0.1");
	config_collect_opts(&cfg, &copts);
	col = collect_init(&model, &copts);
	if (!col)
		abort();
	collect_sample(col);

	/* a job on rxa/1 with a flap and a storm in its window */
	now = realtime_ns();
	pthread_mutex_lock(&model.lock);
	j->present = true;
	if (model.job_slots < 1)
		model.job_slots = 1;
	snprintf(j->id.id, sizeof(j->id.id), "4242");
	j->first_ns = now - 5000000000ULL;
	j->nr_ports = 1;
	snprintf(j->ports[0].device, sizeof(j->ports[0].device), "rxa");
	j->ports[0].port = 1;
	j->ports[0].key = model_port_key("rxa", 1);
	j->result.culprit = -1;	/* healthy: what health_eval gives an idle job */
	model_log_event(&model, EV_LINK_DOWN, "rxa", 1, now - 3000000000ULL);
	model_log_event(&model, EV_LINK_UP, "rxa", 1, now - 2000000000ULL);
	model_log_event(&model, EV_PAUSE_STORM, "rxa", 1, now - 1000000000ULL)->priority = 3;
	model.sample_ns = now;
	pthread_mutex_unlock(&model.lock);

	http = http_start(&model, &cfg, NULL, NULL, err, sizeof(err));
	if (!http) {
		fprintf(stderr, "fuzz_http: %s\n", err);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char reply[64], sink[4096];
	size_t got = 0;
	struct pollfd p;
	ssize_t n;
	int s, quiet = 0;

	if (!http)
		setup();
	s = socket(AF_INET, SOCK_STREAM, 0);
	if (s < 0 || connect(s, (struct sockaddr *)&addr, sizeof(addr)))
		abort();
	/*
	 * The input, then an empty line: most mutations then still end their
	 * header (MHD waits out a half-closed, unfinished request until its
	 * idle timeout, 10 s, which would stall the fuzzer).
	 */
	if ((size && send(s, data, size, MSG_NOSIGNAL) < 0) ||
	    send(s, "\r\n\r\n", 4, MSG_NOSIGNAL) < 0) {
		close(s);		/* the server closed early: fine */
		return 0;
	}
	shutdown(s, SHUT_WR);
	p.fd = s;
	p.events = POLLIN;
	for (;;) {
		if (poll(&p, 1, quiet ? 200 : 20) == 0) {
			/* answered and kept alive, or still unfinished: done */
			if (got || quiet++)
				break;
			/* perhaps a parked long poll: an event wakes it */
			wake_polls();
			continue;
		}
		if (got < sizeof(reply))
			n = recv(s, reply + got, sizeof(reply) - got, 0);
		else
			n = recv(s, sink, sizeof(sink), 0);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(s);
	/* MHD closes without a word on some garbage; when it speaks, HTTP */
	if (got && (got < 12 || memcmp(reply, "HTTP/1.", 7)))
		abort();
	if (got >= 12 && !memcmp(reply + 9, "500", 3))
		abort();
	return 0;
}
