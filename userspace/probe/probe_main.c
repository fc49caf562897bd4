// SPDX-License-Identifier: GPL-2.0
/*
 * probe_main.c - the prober's life (prober.h): settings, threads, the
 * schedule of the prober thread, and what it tells the collector's model.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "clock.h"
#include "model.h"
#include "prober.h"

#define EXPIRE_NS	(NS_PER_S / 10)	/* timeouts found within 100 ms */
#define MATCH_NS	NS_PER_S
#define RETRY_NS	(5 * NS_PER_S)

/* flows by flow label on mlx5 (auto), where the address handle sets the UDP port */
static bool flows_by_label(const struct prober *pr, const struct probe_port *pp)
{
	if (pr->cfg.flow_mode != PROBE_FLOWS_AUTO)
		return pr->cfg.flow_mode == PROBE_FLOWS_LABEL;
	return !strncmp(pp->driver, "mlx5", 4);
}

/* the port's QP made with the lock dropped (probe_port.c); published up if it is */
static void port_open(struct prober *pr, struct probe_port *pp, uint64_t now)
{
	char why[sizeof(pp->why)];
	int err;

	pp->flow_label = flows_by_label(pr, pp);
	pp->nr_flows = pr->cfg.flows >= 1 && pr->cfg.flows <= PROBE_MAX_FLOWS ? pr->cfg.flows : 1;
	pp->busy = true;
	pthread_mutex_unlock(&pr->lock);
	err = probe_port_open(pr, pp, why, sizeof(why));
	pthread_mutex_lock(&pr->lock);
	pp->busy = false;
	if (err) {
		snprintf(pp->why, sizeof(pp->why), "%s", why);
		pp->retry_ns = now + RETRY_NS;
		return;
	}
	pp->up = true;		/* pp->qpn: make_qp's */
	pp->why[0] = '\0';
	pp->restarts++;
	pp->next_send_ns = clock_ns(CLOCK_MONOTONIC);
	pr->src_seen_gen = pr->src_gen - 1;	/* match its peers now */
}

/* open what should be open, close what should not (lock held, dropped meanwhile) */
static void ports_tend(struct prober *pr, uint64_t now)
{
	unsigned int i;

	for (i = 0; i < PROBE_MAX_PORTS && !pr->stop; i++) {
		struct probe_port *pp = &pr->ports[i];
		bool want = pp->present && pp->active;

		if (!want && pp->up) {
			probe_port_close(pr, pp);
			snprintf(pp->why, sizeof(pp->why), "%s",
				 pp->present ? "the port is not ACTIVE" : "the port is gone");
		}
		if (want && !pp->up && now >= pp->retry_ns)
			port_open(pr, pp, now);
	}
}

static void expire_all(struct prober *pr, uint64_t now)
{
	uint64_t timeout = (uint64_t)pr->cfg.timeout_ms * (NS_PER_S / 1000);
	unsigned int i, k;

	for (i = 0; i < PROBE_MAX_PORTS; i++) {
		struct probe_port *pp = &pr->ports[i];

		for (k = 0; pp->up && k < PROBE_MAX_PEERS; k++) {
			struct probe_pair *p = &pp->pairs[k];

			if (p->present && probe_stats_expire(&p->st, now, timeout) &&
			    p->st.consec_timeouts >= 3) {
				/* the peer may have a new QP (it restarted): read it again */
				pr->refetch = true;
				pthread_cond_signal(&pr->fetch_cond);
			}
		}
	}
}

/* the sends due now; how long until the next one (ns) */
static uint64_t sends_due(struct prober *pr, uint64_t now)
{
	uint64_t gap = NS_PER_S / pr->cfg.rate, next = EXPIRE_NS;
	unsigned int i;

	for (i = 0; i < PROBE_MAX_PORTS; i++) {
		struct probe_port *pp = &pr->ports[i];

		if (!pp->up)
			continue;
		if (now >= pp->next_send_ns) {
			probe_send_one(pr, pp, now);
			/* +-10% at random: hosts and ports never probe in lockstep */
			pp->next_send_ns += gap - gap / 10 + (uint64_t)rand_r(&pr->seed) % (gap / 5 + 1);
			if (pp->next_send_ns <= now)	/* fell behind: no burst to catch up */
				pp->next_send_ns = now + gap;
		}
		if (pp->next_send_ns - now < next)
			next = pp->next_send_ns - now;
	}
	return next;
}

static void *prober_thread(void *arg)
{
	struct prober *pr = arg;
	struct epoll_event ev[16];
	uint64_t now, next_expire = 0, next_match = 0, wait, v;
	int n, i;

	pthread_mutex_lock(&pr->lock);
	while (!pr->stop) {
		now = clock_ns(CLOCK_MONOTONIC);
		ports_tend(pr, now);
		if (pr->src_seen_gen != pr->src_gen || now >= next_match) {
			probe_match_all(pr, now);
			next_match = now + MATCH_NS;
		}
		if (now >= next_expire) {
			expire_all(pr, now);
			next_expire = now + EXPIRE_NS;
		}
		wait = sends_due(pr, now);
		pr->cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		pthread_mutex_unlock(&pr->lock);
		n = epoll_wait(pr->epfd, ev, 16, (int)(wait / 1000000) + 1);
		pthread_mutex_lock(&pr->lock);
		probe_answer_held(pr);
		for (i = 0; i < n; i++) {
			if (ev[i].data.u32 == PROBE_MAX_PORTS) {
				if (read(pr->wake_fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
					break;
				continue;
			}
			if (ev[i].data.u32 < PROBE_MAX_PORTS)
				probe_drain(pr, &pr->ports[ev[i].data.u32]);
		}
	}
	for (i = 0; i < PROBE_MAX_PORTS; i++)
		probe_port_close(pr, &pr->ports[i]);
	pthread_mutex_unlock(&pr->lock);
	return NULL;
}

void probe_wake(struct prober *pr)
{
	uint64_t one = 1;

	if (write(pr->wake_fd, &one, sizeof(one)) < 0)
		return;	/* the counter is full: it is awake anyway */
}

struct prober *prober_start(const struct probe_cfg *cfg, char *err, size_t errlen)
{
	struct prober *pr = calloc(1, sizeof(*pr));
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = PROBE_MAX_PORTS };
	pthread_attr_t attr;
	char why[160];
	unsigned int i;

	if (!pr) {
		snprintf(err, errlen, "prober: out of memory");
		return NULL;
	}
	pr->cfg = *cfg;
	pr->seed = (unsigned int)clock_ns(CLOCK_MONOTONIC) ^ (unsigned int)getpid();
	pr->epfd = epoll_create1(EPOLL_CLOEXEC);
	pr->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (pr->epfd < 0 || pr->wake_fd < 0 ||
	    epoll_ctl(pr->epfd, EPOLL_CTL_ADD, pr->wake_fd, &ev)) {
		snprintf(err, errlen, "prober: %s", strerror(errno));
		goto close_fds;
	}
	for (i = 0; i < cfg->nr_peers; i++) {
		snprintf(pr->src[i].addr, sizeof(pr->src[i].addr), "%s", cfg->peers[i]);
		pr->nr_src++;
	}
	pthread_mutex_init(&pr->lock, NULL);
	pthread_cond_init(&pr->fetch_cond, NULL);
	pthread_cond_init(&pr->ah_cond, NULL);
	if (probe_fetch_init(why, sizeof(why))) {
		snprintf(err, errlen, "prober: libcurl would not start: %s", why);
		goto close_fds;
	}
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	if (pthread_create(&pr->thread, &attr, prober_thread, pr)) {
		snprintf(err, errlen, "prober: no thread");
		pthread_attr_destroy(&attr);
		goto curl_cleanup;
	}
	for (i = 0; i < PROBE_RESOLVERS; i++)
		if (!pthread_create(&pr->resolver[i], &attr, probe_ah_thread, pr))
			pr->nr_resolvers++;
	if (!pr->nr_resolvers) {
		snprintf(err, errlen, "prober: no resolver thread");
		goto stop_prober;
	}
	if (pthread_create(&pr->fetcher, &attr, probe_fetch_thread, pr)) {
		snprintf(err, errlen, "prober: no fetcher thread");
		goto stop_resolver;
	}
	pthread_attr_destroy(&attr);
	pr->threads = true;
	return pr;
stop_resolver:
	pthread_mutex_lock(&pr->lock);
	pr->stop = true;
	pthread_cond_broadcast(&pr->ah_cond);
	pthread_mutex_unlock(&pr->lock);
	for (i = 0; i < pr->nr_resolvers; i++)
		pthread_join(pr->resolver[i], NULL);
stop_prober:
	pthread_mutex_lock(&pr->lock);
	pr->stop = true;
	pthread_mutex_unlock(&pr->lock);
	probe_wake(pr);
	pthread_join(pr->thread, NULL);
	pthread_attr_destroy(&attr);
curl_cleanup:
	probe_fetch_exit();
close_fds:
	if (pr->epfd >= 0)
		close(pr->epfd);
	if (pr->wake_fd >= 0)
		close(pr->wake_fd);
	free(pr);
	return NULL;
}

void prober_stop(struct prober *pr)
{
	unsigned int i;

	if (!pr)
		return;
	pthread_mutex_lock(&pr->lock);
	pr->stop = true;
	pthread_cond_signal(&pr->fetch_cond);
	pthread_cond_broadcast(&pr->ah_cond);
	pthread_mutex_unlock(&pr->lock);
	probe_wake(pr);
	probe_fetch_wake(pr);
	pthread_join(pr->thread, NULL);
	for (i = 0; i < pr->nr_resolvers; i++)
		pthread_join(pr->resolver[i], NULL);
	pthread_join(pr->fetcher, NULL);
	probe_fetch_exit();
	for (i = 0; i < PROBE_MAX_PORTS; i++)
		free(pr->ports[i].pairs);
	close(pr->epfd);
	close(pr->wake_fd);
	free(pr);
}
