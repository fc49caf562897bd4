// SPDX-License-Identifier: GPL-2.0
/*
 * test_probe_fetch - the fetcher's parts that need no network
 * (probe/probe_xfer.h): a document's URL over HTTP and HTTPS, its body
 * bounded at PROBE_DOC_MAX, the verdict on a finished transfer (a body cut
 * short before libcurl's words, an HTTP status, a bad document), and the
 * verdict written back into a prober's source table as the renderers read
 * it: counts by reason, the source's error, its endpoints, ok_ns and
 * src_gen only when the endpoints changed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "probe_xfer.h"

static const char doc[] =
	"{\"fabtel_probe\": 1, \"host\": \"gpu-17\", \"endpoints\": [{\"device\": \"mlx5_0\","
	" \"port\": 1, \"netdev\": \"ens1np0\", \"gid\": \"::ffff:10.0.0.17\", \"qpn\": 1234,"
	" \"qkey\": 268431889}]}";

static void body_of(struct probe_body *b, const char *s)
{
	memset(b, 0, sizeof(*b));
	assert_true(probe_body_add(b, s, strlen(s)));
}

static void url_forms(void **state)
{
	char url[PROBE_ADDR_LEN + 64], small[40];

	(void)state;
	assert_int_equal(probe_xfer_url(url, sizeof(url), "10.0.0.2:9465", false), 0);
	assert_string_equal(url, "http://10.0.0.2:9465/api/v1/probe/endpoints");
	assert_int_equal(probe_xfer_url(url, sizeof(url), "[fd00::3]:9465", true), 0);
	assert_string_equal(url, "https://[fd00::3]:9465/api/v1/probe/endpoints");
	/* never a URL cut short: it would name another resource */
	assert_int_equal(probe_xfer_url(small, sizeof(small), "gpu-17.example:9465", true), -1);
}

/* grown as it comes, to PROBE_DOC_MAX and not a byte over */
static void body_bounds(void **state)
{
	static char chunk[5000];
	struct probe_body b = { 0 };
	size_t total = 0;

	(void)state;
	memset(chunk, 'x', sizeof(chunk));
	assert_true(probe_body_add(&b, chunk, 0));
	assert_int_equal(b.len, 0);
	while (total + sizeof(chunk) <= PROBE_DOC_MAX) {
		assert_true(probe_body_add(&b, chunk, sizeof(chunk)));
		total += sizeof(chunk);
	}
	assert_int_equal(b.len, total);
	assert_true(b.cap >= b.len && b.cap <= PROBE_DOC_MAX);
	assert_true(probe_body_add(&b, chunk, PROBE_DOC_MAX - total));	/* exactly full */
	assert_int_equal(b.len, PROBE_DOC_MAX);
	assert_false(b.too_big);
	assert_false(probe_body_add(&b, chunk, 1));
	assert_true(b.too_big);
	assert_int_equal(b.len, PROBE_DOC_MAX);
	probe_body_free(&b);
	assert_null(b.data);
	assert_int_equal(b.len, 0);
	assert_false(b.too_big);
}

static void judge_reasons(void **state)
{
	struct probe_verdict v;
	struct probe_body b;

	(void)state;
	body_of(&b, doc);
	probe_xfer_judge(&v, &b, NULL, 200);
	assert_int_equal(v.err, -1);
	assert_int_equal(v.nr_eps, 1);
	assert_string_equal(v.eps[0].host, "gpu-17");
	assert_int_equal(v.eps[0].qpn, 1234);

	/* basic auth refused, or a proxy's page: the status, not the body */
	probe_xfer_judge(&v, &b, NULL, 401);
	assert_int_equal(v.err, FETCH_HTTP);
	assert_string_equal(v.why, "HTTP status 401");
	assert_int_equal(v.nr_eps, 0);

	probe_xfer_judge(&v, &b, "SSL certificate problem: unable to get local issuer certificate", 0);
	assert_int_equal(v.err, FETCH_CONNECT);
	assert_string_equal(v.why, "SSL certificate problem: unable to get local issuer certificate");

	/* cut short by the bound: libcurl then says "write error", which is not why */
	b.too_big = true;
	probe_xfer_judge(&v, &b, "Failure writing output to destination", 200);
	assert_int_equal(v.err, FETCH_TOO_LARGE);
	assert_string_equal(v.why, "document over 65536 bytes");
	probe_body_free(&b);

	body_of(&b, "{\"fabtel_probe\": 2}");
	probe_xfer_judge(&v, &b, NULL, 200);
	assert_int_equal(v.err, FETCH_BAD_DOCUMENT);
	assert_non_null(strstr(v.why, "bad document: "));
	probe_body_free(&b);

	/* 200 with nothing at all: refused, and no NULL handed to the parser */
	memset(&b, 0, sizeof(b));
	probe_xfer_judge(&v, &b, NULL, 200);
	assert_int_equal(v.err, FETCH_BAD_DOCUMENT);
}

static struct prober *prober_with(const char *a, const char *b)
{
	struct prober *pr = calloc(1, sizeof(*pr));

	assert_non_null(pr);
	snprintf(pr->src[0].addr, PROBE_ADDR_LEN, "%s", a);
	snprintf(pr->src[1].addr, PROBE_ADDR_LEN, "%s", b);
	pr->nr_src = 2;
	return pr;
}

static void apply_writes_back(void **state)
{
	struct prober *pr = prober_with("10.0.0.2:9465", "10.0.0.3:9465");
	struct probe_verdict v;
	struct probe_body b;
	uint64_t gen;

	(void)state;
	body_of(&b, doc);
	probe_xfer_judge(&v, &b, NULL, 200);
	probe_body_free(&b);
	gen = pr->src_gen;
	probe_xfer_apply(pr, "10.0.0.3:9465", &v, 77);
	assert_int_equal(pr->fetches, 1);
	assert_int_equal(pr->src[1].nr_eps, 1);
	assert_int_equal(pr->src[1].ok_ns, 77);
	assert_true(pr->src_gen == gen + 1);	/* new endpoints: the prober matches again */
	assert_int_equal(pr->src[0].ok_ns, 0);

	probe_xfer_apply(pr, "10.0.0.3:9465", &v, 88);	/* the same document again */
	assert_int_equal(pr->fetches, 2);
	assert_int_equal(pr->src[1].ok_ns, 88);
	assert_true(pr->src_gen == gen + 1);

	/* a failure: counted by reason, said on the source, its endpoints kept until the TTL */
	v.err = FETCH_HTTP;
	snprintf(v.why, sizeof(v.why), "HTTP status 401");
	v.nr_eps = 0;
	probe_xfer_apply(pr, "10.0.0.3:9465", &v, 99);
	assert_int_equal(pr->fetch_err[FETCH_HTTP], 1);
	assert_string_equal(pr->src[1].err, "HTTP status 401");
	assert_int_equal(pr->src[1].nr_eps, 1);
	assert_int_equal(pr->src[1].ok_ns, 88);
	assert_int_equal(pr->fetches, 2);

	/* a source the peers file dropped while its transfer ran: counted, nothing written */
	probe_xfer_apply(pr, "10.0.0.9:9465", &v, 100);
	assert_int_equal(pr->fetch_err[FETCH_HTTP], 2);
	body_of(&b, doc);
	probe_xfer_judge(&v, &b, NULL, 200);
	probe_body_free(&b);
	probe_xfer_apply(pr, "10.0.0.9:9465", &v, 100);
	assert_int_equal(pr->fetches, 2);

	/* the failed source answers again: its error goes */
	probe_xfer_apply(pr, "10.0.0.3:9465", &v, 111);
	assert_string_equal(pr->src[1].err, "");
	assert_int_equal(pr->src[1].ok_ns, 111);
	free(pr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(url_forms),
		cmocka_unit_test(body_bounds),
		cmocka_unit_test(judge_reasons),
		cmocka_unit_test(apply_writes_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
