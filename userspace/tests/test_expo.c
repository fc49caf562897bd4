// SPDX-License-Identifier: GPL-2.0
/*
 * The Prometheus text writer (render/expo.c): families, samples, escaping,
 * names it refuses.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "expo.h"

/* The text written so far ("" if nothing was). */
static const char *text(const struct expo *e)
{
	return e->buf ? e->buf : "";
}

static void label_value_escaping(void **state)
{
	const struct expo_label l[] = { { "a", "x\\\"y" }, { NULL, NULL } };
	struct expo e;

	(void)state;
	expo_init(&e);
	expo_u64(&e, "m", l, 3);
	assert_string_equal(text(&e), "m{a=\"x\\\\\\\"y\"} 3\n");
	assert_int_equal(e.bad, 0);
	assert_false(e.oom);
	expo_free(&e);
}

static void label_value_newline(void **state)
{
	const struct expo_label l[] = {
		{ "a", "one\ntwo" }, { "b", "" }, { "c", "back\\slash" }, { NULL, NULL },
	};
	struct expo e;

	(void)state;
	expo_init(&e);
	expo_u64(&e, "m", l, 1);
	assert_string_equal(text(&e),
			    "m{a=\"one\\ntwo\",b=\"\",c=\"back\\\\slash\"} 1\n");
	expo_free(&e);
}

static void help_escaping(void **state)
{
	struct expo e;

	(void)state;
	expo_init(&e);
	expo_family(&e, "fab_x_total", "counter", "say \"hi\" a\\b\nc");
	assert_string_equal(text(&e),
			    "# HELP fab_x_total say \"hi\" a\\\\b\\nc\n"
			    "# TYPE fab_x_total counter\n");
	assert_int_equal(e.bad, 0);
	expo_free(&e);
}

static void family_headers(void **state)
{
	struct expo e;

	(void)state;
	expo_init(&e);
	expo_family(&e, "a", "gauge", "A gauge.");
	expo_family(&e, "b:c", "untyped", "");
	assert_string_equal(text(&e),
			    "# HELP a A gauge.\n# TYPE a gauge\n"
			    "# HELP b:c \n# TYPE b:c untyped\n");
	assert_int_equal(e.bad, 0);
	expo_free(&e);
}

static void family_refused(void **state)
{
	struct expo e;

	(void)state;
	expo_init(&e);
	expo_family(&e, "1abc", "gauge", "x");
	expo_family(&e, "ok", "summary", "x");	/* a type fabteld never writes */
	expo_family(&e, "a-b", "counter", "x");
	expo_family(&e, "", "counter", "x");
	assert_string_equal(text(&e), "");
	assert_int_equal(e.len, 0);
	assert_int_equal(e.bad, 4);
	expo_free(&e);
	expo_init(&e);
	expo_family(&e, "h_seconds", "histogram", "x");
	assert_int_equal(e.bad, 0);
	assert_non_null(strstr(text(&e), "# TYPE h_seconds histogram\n"));
	expo_free(&e);
}

static void u64_extremes(void **state)
{
	struct expo e;

	(void)state;
	expo_init(&e);
	expo_u64(&e, "z", NULL, 0);
	expo_u64(&e, "m", NULL, UINT64_MAX);
	assert_string_equal(text(&e), "z 0\nm 18446744073709551615\n");
	expo_free(&e);
}

static void labels_less_samples(void **state)
{
	const struct expo_label none[] = { { NULL, NULL } };
	struct expo e;

	(void)state;
	expo_init(&e);
	expo_u64(&e, "a", NULL, 1);
	expo_u64(&e, "b", none, 2);
	expo_double(&e, "c", NULL, 0.5);
	assert_string_equal(text(&e), "a 1\nb 2\nc 0.5\n");
	expo_free(&e);
}

static void doubles_special(void **state)
{
	struct expo e;

	(void)state;
	expo_init(&e);
	expo_double(&e, "n", NULL, NAN);
	expo_double(&e, "p", NULL, INFINITY);
	expo_double(&e, "m", NULL, -INFINITY);
	expo_double(&e, "z", NULL, 0.0);
	expo_double(&e, "o", NULL, 1.0);
	expo_double(&e, "h", NULL, -2.5);
	assert_string_equal(text(&e),
			    "n NaN\np +Inf\nm -Inf\nz 0\no 1\nh -2.5\n");
	expo_free(&e);
}

/* Every double must read back exactly. */
static void doubles_round_trip(void **state)
{
	const double v[] = {
		0.1, 1.0 / 3.0, 2.0 / 3.0, 1e300, -1e-300, 1.7976931348623157e308,
		4.9e-324, 123456789012345678.0, 0.30000000000000004, 9007199254740993.0,
	};
	struct expo e;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		char *sp, *end;
		double back;

		expo_init(&e);
		expo_double(&e, "x", NULL, v[i]);
		assert_non_null(e.buf);
		assert_true(strncmp(e.buf, "x ", 2) == 0);
		assert_int_equal(e.buf[e.len - 1], '\n');
		sp = e.buf + 2;
		back = strtod(sp, &end);
		assert_true(*end == '\n');
		assert_true(back == v[i]);
		expo_free(&e);
	}
	expo_init(&e);
	expo_double(&e, "x", NULL, 0.1);
	assert_string_equal(text(&e), "x 0.1\n");
	expo_free(&e);
	expo_init(&e);
	expo_double(&e, "x", NULL, 1e300);
	assert_string_equal(text(&e), "x 1e+300\n");
	expo_free(&e);
}

static void bad_names_refused(void **state)
{
	const struct expo_label colon[] = { { "a:b", "v" }, { NULL, NULL } };
	const struct expo_label reserved[] = { { "__name__", "v" }, { NULL, NULL } };
	const struct expo_label digit[] = { { "ok", "v" }, { "1x", "v" }, { NULL, NULL } };
	const struct expo_label dash[] = { { "a-b", "v" }, { NULL, NULL } };
	const struct expo_label empty[] = { { "", "v" }, { NULL, NULL } };
	const struct expo_label noval[] = { { "a", NULL }, { NULL, NULL } };
	struct expo e;

	(void)state;
	expo_init(&e);
	expo_u64(&e, "9m", NULL, 1);
	expo_u64(&e, "m m", NULL, 1);
	expo_u64(&e, "", NULL, 1);
	expo_u64(&e, "m\n", NULL, 1);
	expo_double(&e, "m{}", NULL, 1.0);
	expo_u64(&e, "m", colon, 1);
	expo_u64(&e, "m", reserved, 1);
	expo_u64(&e, "m", digit, 1);
	expo_u64(&e, "m", dash, 1);
	expo_double(&e, "m", empty, 1.0);
	expo_u64(&e, "m", noval, 1);
	assert_int_equal(e.bad, 11);
	assert_int_equal(e.len, 0);
	assert_string_equal(text(&e), "");
	/* a good one still goes through afterwards */
	expo_u64(&e, "m", NULL, 7);
	assert_string_equal(text(&e), "m 7\n");
	assert_int_equal(e.bad, 11);
	expo_free(&e);
}

static void name_validity(void **state)
{
	(void)state;
	assert_true(expo_valid_metric_name("a"));
	assert_true(expo_valid_metric_name("_a1"));
	assert_true(expo_valid_metric_name(":a:b_c"));
	assert_true(expo_valid_metric_name("ABC_z9"));
	assert_false(expo_valid_metric_name(NULL));
	assert_false(expo_valid_metric_name(""));
	assert_false(expo_valid_metric_name("0a"));
	assert_false(expo_valid_metric_name("a.b"));
	assert_false(expo_valid_metric_name("a\xc3\xa9"));

	assert_true(expo_valid_label_name("job"));
	assert_true(expo_valid_label_name("_x"));
	assert_false(expo_valid_label_name("a:b"));
	assert_false(expo_valid_label_name("__x"));
	assert_false(expo_valid_label_name("0x"));
	assert_false(expo_valid_label_name(""));
}

static void family_with_samples(void **state)
{
	const struct expo_label l0[] = {
		{ "device", "rxe0" }, { "port", "1" }, { NULL, NULL },
	};
	const struct expo_label l1[] = {
		{ "device", "mlx5_0" }, { "port", "2" }, { NULL, NULL },
	};
	struct expo e;

	(void)state;
	expo_init(&e);
	expo_family(&e, "fabtel_port_rx_packets_total", "counter", "Packets received.");
	expo_u64(&e, "fabtel_port_rx_packets_total", l0, 10);
	expo_u64(&e, "fabtel_port_rx_packets_total", l1, 0);
	expo_family(&e, "fabtel_up", "gauge", "1 if up.");
	expo_double(&e, "fabtel_up", NULL, 1);
	assert_string_equal(text(&e),
		"# HELP fabtel_port_rx_packets_total Packets received.\n"
		"# TYPE fabtel_port_rx_packets_total counter\n"
		"fabtel_port_rx_packets_total{device=\"rxe0\",port=\"1\"} 10\n"
		"fabtel_port_rx_packets_total{device=\"mlx5_0\",port=\"2\"} 0\n"
		"# HELP fabtel_up 1 if up.\n"
		"# TYPE fabtel_up gauge\n"
		"fabtel_up 1\n");
	assert_int_equal(e.len, strlen(e.buf));
	assert_int_equal(e.bad, 0);
	expo_free(&e);
	assert_null(e.buf);
	assert_int_equal(e.len, 0);
}

/* Enough text to make the buffer grow several times. */
static void grows(void **state)
{
	const struct expo_label l[] = { { "k", "a somewhat long label value" }, { NULL, NULL } };
	struct expo e;
	size_t one;
	int i;

	(void)state;
	expo_init(&e);
	expo_u64(&e, "grow", l, 12345);
	one = e.len;
	for (i = 1; i < 5000; i++)
		expo_u64(&e, "grow", l, 12345);
	assert_false(e.oom);
	assert_int_equal(e.len, one * 5000);
	assert_int_equal(strlen(e.buf), e.len);
	assert_string_equal(e.buf + e.len - one, "grow{k=\"a somewhat long label value\"} 12345\n");
	expo_free(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(label_value_escaping),
		cmocka_unit_test(label_value_newline),
		cmocka_unit_test(help_escaping),
		cmocka_unit_test(family_headers),
		cmocka_unit_test(family_refused),
		cmocka_unit_test(u64_extremes),
		cmocka_unit_test(labels_less_samples),
		cmocka_unit_test(doubles_special),
		cmocka_unit_test(doubles_round_trip),
		cmocka_unit_test(bad_names_refused),
		cmocka_unit_test(name_validity),
		cmocka_unit_test(family_with_samples),
		cmocka_unit_test(grows),
	};

	return cmocka_run_group_tests_name("expo", tests, NULL, NULL);
}
