// SPDX-License-Identifier: GPL-2.0
/*
 * test_probe - the prober's pure parts: the probe datagram (probe_pkt.h),
 * the sender GID from a UD receive's first 40 bytes, the endpoint document
 * a peer serves (probe_doc.h, every refusal, the GIDs no probe may go to),
 * and a pair's bookkeeping (probe_stats.h: RTT histogram and quantiles, loss
 * over the window, duplicates, late and unsolicited replies, a turnaround
 * past the round trip).
 */
#include <arpa/inet.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "probe_doc.h"
#include "probe_pkt.h"
#include "probe_stats.h"

#define MS 1000000ULL
#define SEC 1000000000ULL

static void pkt_round_trip(void **state)
{
	struct probe_pkt p = { .type = PROBE_REPLY, .seq = 0xdeadbeef, .session = 7,
			       .qpn = 0x123456, .t_sent = 1ULL << 40, .t_rx = 5, .t_tx = 9 }, q;
	uint8_t b[PROBE_PKT_LEN];

	(void)state;
	probe_pkt_encode(&p, b);
	assert_memory_equal(b, "FBTP\x01\x02", 6);
	assert_int_equal(probe_pkt_decode(b, sizeof(b), &q), 0);
	assert_int_equal(q.type, PROBE_REPLY);
	assert_int_equal(q.seq, 0xdeadbeef);
	assert_int_equal(q.session, 7);
	assert_int_equal(q.qpn, 0x123456);
	assert_true(q.t_sent == 1ULL << 40 && q.t_rx == 5 && q.t_tx == 9);
}

static void pkt_refusals(void **state)
{
	struct probe_pkt p = { .type = PROBE_REQUEST, .seq = 1, .qpn = 17, .t_sent = 3 }, q;
	uint8_t b[PROBE_PKT_LEN + 1], c[PROBE_PKT_LEN];
	unsigned int i;

	(void)state;
	probe_pkt_encode(&p, b);
	assert_int_equal(probe_pkt_decode(b, PROBE_PKT_LEN, &q), 0);
	assert_int_equal(probe_pkt_decode(b, PROBE_PKT_LEN - 1, &q), -1);	/* short */
	assert_int_equal(probe_pkt_decode(b, PROBE_PKT_LEN + 1, &q), -1);	/* long */
	/* each header byte changed alone makes it someone else's datagram */
	for (i = 0; i < 8; i++) {
		memcpy(c, b, sizeof(c));
		c[i] ^= (i == 5) ? 0x07 : 0x40;
		assert_int_equal(probe_pkt_decode(c, sizeof(c), &q), -1);
	}
	memcpy(c, b, sizeof(c));
	c[20] = 1;					/* reserved */
	assert_int_equal(probe_pkt_decode(c, sizeof(c), &q), -1);
	memcpy(c, b, sizeof(c));
	c[16] = 1;					/* a QPN over 24 bits */
	assert_int_equal(probe_pkt_decode(c, sizeof(c), &q), -1);
	p.t_rx = 1;					/* a request with responder times */
	probe_pkt_encode(&p, c);
	assert_int_equal(probe_pkt_decode(c, sizeof(c), &q), -1);
	p.type = PROBE_REPLY;				/* a reply that left before it came */
	p.t_rx = 10;
	p.t_tx = 9;
	probe_pkt_encode(&p, c);
	assert_int_equal(probe_pkt_decode(c, sizeof(c), &q), -1);
}

static void grh_sender(void **state)
{
	uint8_t grh[PROBE_GRH_LEN], gid[16];
	static const uint8_t v4[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 77, 0, 2 };

	(void)state;
	memset(grh, 0, sizeof(grh));
	grh[20] = 0x45;			/* RoCE v2 over IPv4: the IPv4 header at 20 */
	memcpy(grh + 32, v4 + 12, 4);
	assert_int_equal(probe_grh_sgid(grh, gid), 0);
	assert_memory_equal(gid, v4, 16);
	memset(grh, 0, sizeof(grh));
	grh[0] = 0x60;			/* a GRH / IPv6 header */
	grh[8] = 0xfe;
	grh[9] = 0x80;
	grh[23] = 1;
	assert_int_equal(probe_grh_sgid(grh, gid), 0);
	assert_int_equal(gid[0], 0xfe);
	assert_int_equal(gid[15], 1);
	memset(grh, 0, sizeof(grh));
	assert_int_equal(probe_grh_sgid(grh, gid), -1);
}

static const char good_doc[] =
	"{\"fabtel_probe\":1,\"host\":\"gpu-17\",\"endpoints\":[{\"device\":\"mlx5_0\",\"port\":1,"
	"\"netdev\":\"ens1np0\",\"gid\":\"::ffff:10.0.0.17\",\"qpn\":1234,\"qkey\":268435455}]}";

static int parse(const char *s, const char **why)
{
	struct probe_endpoint eps[4];

	return probe_doc_parse(s, strlen(s), eps, 4, why);
}

static void doc_round_trip(void **state)
{
	struct probe_endpoint eps[4], in = { .host = "a", .device = "rxa", .port = 1,
					     .netdev = "eth0", .qpn = 17, .qkey = 0x0fab7e11 };
	struct json_object *o;
	const char *why = NULL, *s;
	char gid[64];

	(void)state;
	assert_int_equal(probe_doc_parse(good_doc, strlen(good_doc), eps, 4, &why), 1);
	assert_string_equal(eps[0].host, "gpu-17");
	assert_string_equal(eps[0].device, "mlx5_0");
	assert_int_equal(eps[0].qpn, 1234);
	probe_gid_str(eps[0].gid, gid, sizeof(gid));
	assert_string_equal(gid, "::ffff:10.0.0.17");
	/* what we build, a peer parses back */
	memcpy(in.gid, eps[0].gid, 16);
	o = probe_doc_build("fablab-a", &in, 1);
	s = json_object_to_json_string(o);
	assert_int_equal(probe_doc_parse(s, strlen(s), eps, 4, &why), 1);
	assert_string_equal(eps[0].host, "fablab-a");
	assert_int_equal(eps[0].qkey, 0x0fab7e11);
	json_object_put(o);
}

static void doc_refusals(void **state)
{
	static const char *const bad[] = {
		"",
		"[]",
		"{\"fabtel_probe\":2,\"host\":\"a\",\"endpoints\":[]}",
		"{\"fabtel_probe\":1,\"host\":\"a b\",\"endpoints\":[]}",
		"{\"fabtel_probe\":1,\"host\":\"a\"}",
		"{\"fabtel_probe\":1,\"host\":\"a\",\"endpoints\":[{}]}",
		"{\"fabtel_probe\":1,\"host\":\"a\",\"endpoints\":[{\"device\":\"x\",\"port\":1,\"netdev\":\"e\",\"gid\":\"nope\",\"qpn\":5,\"qkey\":1}]}",
		"{\"fabtel_probe\":1,\"host\":\"a\",\"endpoints\":[{\"device\":\"x\",\"port\":1,\"netdev\":\"e\",\"gid\":\"::ffff:10.0.0.1\",\"qpn\":1,\"qkey\":1}]}",
		"{\"fabtel_probe\":1,\"host\":\"a\",\"endpoints\":[{\"device\":\"x\",\"port\":1,\"netdev\":\"e\",\"gid\":\"::ffff:10.0.0.1\",\"qpn\":16777216,\"qkey\":1}]}",
		"{\"fabtel_probe\":1,\"host\":\"a\",\"endpoints\":[{\"device\":\"x\",\"port\":0,\"netdev\":\"e\",\"gid\":\"::ffff:10.0.0.1\",\"qpn\":5,\"qkey\":1}]}",
		"{\"fabtel_probe\":1,\"host\":\"a\",\"endpoints\":[{\"device\":\"$(reboot)\",\"port\":1,\"netdev\":\"e\",\"gid\":\"::ffff:10.0.0.1\",\"qpn\":5,\"qkey\":1}]}",
		"{\"fabtel_probe\":1,\"host\":\"a\",\"endpoints\":[]} trailing",
		"{\"a\":[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]}",
	};
	const char *why;
	char *big;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		assert_int_equal(parse(bad[i], &why), -1);
		assert_non_null(why);
	}
	/* more endpoints than room */
	big = malloc(PROBE_DOC_MAX + 2);
	assert_non_null(big);
	strcpy(big, "{\"fabtel_probe\":1,\"host\":\"a\",\"endpoints\":[");
	for (i = 0; i < 5; i++)
		strcat(big, i ? ",{\"device\":\"x\",\"port\":1,\"netdev\":\"e\",\"gid\":\"::ffff:10.0.0.1\",\"qpn\":5,\"qkey\":1}" :
				"{\"device\":\"x\",\"port\":1,\"netdev\":\"e\",\"gid\":\"::ffff:10.0.0.1\",\"qpn\":5,\"qkey\":1}");
	strcat(big, "]}");
	assert_int_equal(parse(big, &why), -1);
	assert_string_equal(why, "too many endpoints");
	/* a NUL inside, and a document over the size bound */
	assert_int_equal(probe_doc_parse("{\"a\"\0}", 6, NULL, 0, &why), -1);
	memset(big, ' ', PROBE_DOC_MAX + 1);
	assert_int_equal(probe_doc_parse(big, PROBE_DOC_MAX + 1, NULL, 0, &why), -1);
	assert_string_equal(why, "document too large");
	free(big);
}

/* a GID no probe may go to refuses the document; the unicast ones pass */
static void doc_gids(void **state)
{
	static const char *const refused[] = {
		"::", "::1", "ff02::1", "ff0e::1:2",
		"::ffff:0.0.0.0", "::ffff:0.1.2.3", "::ffff:127.0.0.1", "::ffff:169.254.7.1",
		"::ffff:224.0.0.1", "::ffff:239.255.255.250", "::ffff:240.0.0.1",
		"::ffff:255.255.255.255",
	};
	static const char *const taken[] = {
		"::ffff:10.0.0.17", "::ffff:10.0.0.255", "::ffff:192.168.1.0", "::ffff:169.253.0.1",
		"::ffff:223.255.255.254", "fe80::1", "fd00::2", "2001:db8::1",
	};
	char doc[512];
	const char *why;
	uint8_t gid[16];
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		snprintf(doc, sizeof(doc), "{\"fabtel_probe\":1,\"host\":\"a\",\"endpoints\":[{\"device\":"
			 "\"x\",\"port\":1,\"netdev\":\"e\",\"gid\":\"%s\",\"qpn\":5,\"qkey\":1}]}",
			 refused[i]);
		why = NULL;
		assert_int_equal(parse(doc, &why), -1);
		assert_string_equal(why, "endpoint GID not a unicast address");
		assert_int_equal(inet_pton(AF_INET6, refused[i], gid), 1);
		assert_false(probe_gid_unicast(gid));
	}
	for (i = 0; i < sizeof(taken) / sizeof(taken[0]); i++) {
		snprintf(doc, sizeof(doc), "{\"fabtel_probe\":1,\"host\":\"a\",\"endpoints\":[{\"device\":"
			 "\"x\",\"port\":1,\"netdev\":\"e\",\"gid\":\"%s\",\"qpn\":5,\"qkey\":1}]}",
			 taken[i]);
		assert_int_equal(parse(doc, &why), 1);
	}
}

static void addresses(void **state)
{
	(void)state;
	assert_true(probe_addr_ok("10.77.0.2:9465"));
	assert_true(probe_addr_ok("gpu-17.cluster:9465"));
	assert_true(probe_addr_ok("[fd00::2]:9465"));
	assert_false(probe_addr_ok("10.77.0.2"));
	assert_false(probe_addr_ok("10.77.0.2:0"));
	assert_false(probe_addr_ok("10.77.0.2:65536"));
	assert_false(probe_addr_ok(":9465"));
	assert_false(probe_addr_ok("a/b:9465"));
	assert_false(probe_addr_ok("host:94x"));
	assert_false(probe_addr_ok("[]:1"));
}

static void stats_rtt_and_replies(void **state)
{
	static struct probe_stats s;
	uint64_t t = 100 * SEC, sent;
	uint32_t seq;
	unsigned int i;

	(void)state;
	probe_stats_init(&s, 0xfffffffe);	/* the sequence wraps on the way */
	for (i = 0; i < 10; i++) {
		sent = t + i * 100 * MS;
		seq = probe_stats_send(&s, 0, sent);
		/* 300 us round trips, one of 2 ms */
		assert_int_equal(probe_stats_reply(&s, seq, sent, sent + MS,
						   i == 9 ? 2 * MS : 300000, 42), PROBE_DROP_NR);
	}
	assert_int_equal(s.sent, 10);
	assert_int_equal(s.replies, 10);
	assert_int_equal(s.last_ok_ns, 42);
	/* 0.0005 bucket holds the nine, 0.0025 the one */
	assert_int_equal(s.bucket[4], 9);
	assert_int_equal(s.bucket[6], 1);
	assert_true(probe_stats_rtt_q(&s, t + SEC, 10, 0.5) > 0.00029 &&
		    probe_stats_rtt_q(&s, t + SEC, 10, 0.5) < 0.00031);
	assert_true(probe_stats_rtt_q(&s, t + SEC, 10, 0.99) > 0.0019);
	assert_true(probe_stats_rtt_q(&s, t + 30 * SEC, 10, 0.5) < 0);	/* out of the window */
	assert_true(probe_stats_loss(&s, t + SEC, 10, NULL) == 0);
	/* the same reply again, a reply naming another send time, one never sent */
	seq = s.next_seq - 1;
	assert_int_equal(probe_stats_reply(&s, seq, t + 900 * MS, t + SEC, 1, 1),
			 PROBE_DROP_DUPLICATE);
	assert_int_equal(probe_stats_reply(&s, seq, t + 901 * MS, t + SEC, 1, 1),
			 PROBE_DROP_UNSOLICITED);
	assert_int_equal(probe_stats_reply(&s, seq + 5, t, t + SEC, 1, 1),
			 PROBE_DROP_UNSOLICITED);
	assert_int_equal(s.replies, 10);
}

/*
 * A peer's turnaround is its word: one of the whole round trip or more
 * (it would leave an RTT of zero or less) gives no RTT sample, but the
 * reply still counts, so the pair shows neither loss nor a false RTT.
 */
static void stats_turnaround(void **state)
{
	static struct probe_stats s;
	uint64_t t = 50 * SEC;
	uint32_t seq;

	(void)state;
	assert_true(probe_stats_rtt(100 * MS, 5, 5 + 30 * MS) == 70 * MS);
	assert_true(probe_stats_rtt(100 * MS, 5, 5 + 100 * MS - 1) == 1);
	assert_true(probe_stats_rtt(100 * MS, 5, 5 + 100 * MS) == PROBE_RTT_NONE);
	assert_true(probe_stats_rtt(100 * MS, 5, 5 + SEC) == PROBE_RTT_NONE);
	assert_true(probe_stats_rtt(100 * MS, 10, 9) == PROBE_RTT_NONE);	/* left before it came */
	assert_true(probe_stats_rtt(0, 7, 7) == PROBE_RTT_NONE);

	probe_stats_init(&s, 1);
	seq = probe_stats_send(&s, 0, t);
	assert_int_equal(probe_stats_reply(&s, seq, t, t + MS,
					   probe_stats_rtt(MS, 100, 100 + 2 * MS), 42),
			 PROBE_DROP_NR);
	probe_stats_expire(&s, t + SEC, 500 * MS);
	assert_int_equal(s.replies, 1);
	assert_int_equal(s.timeouts, 0);
	assert_int_equal(s.inflight, 0);
	assert_int_equal(s.last_ok_ns, 42);
	assert_true(probe_stats_loss(&s, t + SEC, 10, NULL) == 0);	/* not lost */
	assert_int_equal(s.rtt_count, 0);				/* no sample */
	assert_true(s.rtt_sum == 0);
	assert_true(probe_stats_rtt_q(&s, t + SEC, 10, 0.5) < 0);
	/* the second time, a duplicate as any reply */
	assert_int_equal(probe_stats_reply(&s, seq, t, t + MS, PROBE_RTT_NONE, 43),
			 PROBE_DROP_DUPLICATE);
}

static void stats_loss(void **state)
{
	static struct probe_stats s;
	uint64_t t = 1000 * SEC, at;
	uint32_t seq;
	unsigned int i, ended;

	(void)state;
	probe_stats_init(&s, 1);
	/* 100 probes over 10 s; every 20th unanswered */
	for (i = 0; i < 100; i++) {
		at = t + i * 100 * MS;
		seq = probe_stats_send(&s, 0, at);
		if (i % 20)
			probe_stats_reply(&s, seq, at, at + MS, MS, 1);
		probe_stats_expire(&s, at + MS, 500 * MS);
	}
	probe_stats_expire(&s, t + 11 * SEC, 500 * MS);
	assert_int_equal(s.timeouts, 5);
	assert_int_equal(s.inflight, 0);
	assert_true(probe_stats_loss(&s, t + 11 * SEC, 60, &ended) == 0.05);
	assert_int_equal(ended, 100);
	/* a reply after its timeout is late, not a reply */
	seq = probe_stats_send(&s, 0, t + 12 * SEC);
	probe_stats_expire(&s, t + 13 * SEC, 500 * MS);
	assert_int_equal(probe_stats_reply(&s, seq, t + 12 * SEC, t + 13 * SEC, MS, 1),
			 PROBE_DROP_LATE);
	assert_int_equal(s.timeouts, 6);
	/* a slot reused while its probe still waits: that probe is lost */
	for (i = 0; i < PROBE_OUTSTANDING + 1; i++)
		probe_stats_send(&s, 0, t + 20 * SEC);
	assert_int_equal(s.timeouts, 7);
	/* and the window forgets */
	assert_true(probe_stats_loss(&s, t + 200 * SEC, 10, NULL) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pkt_round_trip),
		cmocka_unit_test(pkt_refusals),
		cmocka_unit_test(grh_sender),
		cmocka_unit_test(doc_round_trip),
		cmocka_unit_test(doc_refusals),
		cmocka_unit_test(doc_gids),
		cmocka_unit_test(addresses),
		cmocka_unit_test(stats_rtt_and_replies),
		cmocka_unit_test(stats_turnaround),
		cmocka_unit_test(stats_loss),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
