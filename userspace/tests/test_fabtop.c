// SPDX-License-Identifier: GPL-2.0
/*
 * fabtop's pure parts: column fitting and ordering (table.c), and the
 * panes over fabteld's answers (digest.c): its rates and events shown as
 * sent, nothing derived.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "digest.h"
#include "panes_int.h"
#include "probes_view.h"
#include "record_view.h"
#include "table.h"

/* ---- table ---------------------------------------------------------------- */

static const struct column cols[] = {
	{ "NAME", 4, 20, 100, false, false, false, false },
	{ "LOW", 3, 8, 10, true, false, true, false },
	{ "MID", 3, 8, 50, true, false, true, false },
	{ "WHY", 6, 40, 70, false, true, false, false },
	{ "HIGH", 4, 8, 90, false, false, false, false },
};
#define NCOLS (sizeof(cols) / sizeof(cols[0]))

static void fill(struct table *t)
{
	struct row *r;

	table_init(t, "T", cols, NCOLS, 0);
	r = table_add(t);
	row_set(r, 0, "mlx5_10/1");
	row_num(r, 1, true, 5, "5");
	row_num(r, 2, false, 0, "-");
	row_set(r, 3, "a reason that is rather long for the column");
	row_set(r, 4, "up");
	r = table_add(t);
	row_set(r, 0, "mlx5_2/1");
	row_num(r, 1, true, 50, "50");
	row_num(r, 2, true, 7, "7");
	row_set(r, 3, "short");
	row_set(r, 4, "DOWN\x01\xff");	/* not ASCII: shown as '?' */
}

/* At every width: no line is wider, and a column only goes after all lower ones. */
static void fit_every_width(void **state)
{
	unsigned int w[TABLE_MAX_COLS], width, c, k, got;
	char line[512];
	struct table t;

	(void)state;
	fill(&t);
	for (width = 1; width <= 200; width++) {
		got = table_fit(&t, width, w);
		assert_true(got <= width);
		table_line(&t, NULL, w, line, sizeof(line));
		assert_true(strlen(line) <= width);
		table_line(&t, &t.row[0], w, line, sizeof(line));
		assert_true(strlen(line) <= width);
		for (c = 0; c < NCOLS; c++)
			for (k = 0; k < NCOLS; k++)
				if (w[c] && cols[k].prio > cols[c].prio)
					assert_true(w[k] > 0);
	}
	table_fit(&t, 200, w);
	table_line(&t, &t.row[1], w, line, sizeof(line));
	/* WHY at its maximum (40), padded */
	assert_string_equal(line, "mlx5_2/1   50   7 short                                    DOWN??");
	table_free(&t);
}

static void fit_flex_first(void **state)
{
	unsigned int w[TABLE_MAX_COLS];
	char line[256];
	struct table t;

	(void)state;
	fill(&t);
	/* all fit at WHY's minimum, but WHY (70) is worth more than LOW and MID */
	assert_int_equal(table_fit(&t, 31, w), 31);
	assert_true(!w[1] && !w[2]);
	assert_int_equal(w[3], 14);
	table_line(&t, &t.row[0], w, line, sizeof(line));
	assert_string_equal(line, "mlx5_10/1 a reason that~ up");
	/* the header is whole whenever its column is there */
	table_line(&t, NULL, w, line, sizeof(line));
	assert_string_equal(line, "NAME      WHY            HIGH");
	/* no room for WHY at its minimum: it goes, HIGH (90) stays */
	table_fit(&t, 20, w);
	assert_true(w[0] && !w[3] && w[4]);
	/* room for all: WHY up to its maximum */
	table_fit(&t, 200, w);
	assert_int_equal(w[3], 40);
	table_free(&t);
}

static void view_order_and_filter(void **state)
{
	unsigned int idx[4], n;
	struct table t;

	(void)state;
	fill(&t);
	/* numbers descending by default; "-" (unknown) last both ways */
	n = table_view(&t, 2, false, NULL, idx);
	assert_int_equal(n, 2);
	assert_int_equal(idx[0], 1);
	n = table_view(&t, 2, true, NULL, idx);
	assert_int_equal(idx[0], 1);
	/* text in version order: mlx5_2 before mlx5_10 */
	table_view(&t, 0, false, NULL, idx);
	assert_int_equal(idx[0], 1);
	/* filter: case-insensitive substring of any cell */
	n = table_view(&t, 0, false, "RATHER", idx);
	assert_int_equal(n, 1);
	assert_int_equal(idx[0], 0);
	assert_int_equal(table_view(&t, 0, false, "nothing", idx), 0);
	table_free(&t);
}

static void rate_format(void **state)
{
	static const struct { double v; const char *s; } cases[] = {
		{ 0, "0" }, { 0.25, "0.2" }, { 9.96, "10.0" }, { 12.4, "12" }, { 999, "999" },
		{ 1234, "1.2k" }, { 12345, "12k" }, { 999999, "1.0M" }, { 2.5e9, "2.5G" },
	};
	char buf[16];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fmt_rate(buf, sizeof(buf), cases[i].v);
		assert_string_equal(buf, cases[i].s);
	}
}

/* ---- digest ------------------------------------------------------------------- */

static struct json_object *parse(const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	struct json_object *o;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	o = json_tokener_parse(buf);
	assert_non_null(o);
	return o;
}

/* one port (and maybe a QP) as fabteld's snapshot has it */
static struct json_object *snap(double t, unsigned int samples, unsigned long long oos,
				unsigned long long flaps, bool carrier, bool storm, int qp_state)
{
	return parse("{\"sample_time\": %.3f, \"samples\": %u, \"sources\": {\"fabtel_ko\": {\"state\": \"up\"}},"
		     " \"ports\": [{\"device\": \"mlx5_0\", \"port\": 1, \"netdev\": \"eth0\","
		     " \"state\": \"ACTIVE\", \"carrier\": %s, \"link_flaps\": %llu,"
		     " \"counters\": {\"out_of_sequence\": %llu, \"rx_bytes\": %llu},"
		     " \"pfc\": [{\"priority\": 3, \"enabled\": true, \"pause_tx\": %llu, \"pause_rx\": 0,"
		     " \"storm\": %s, \"storms\": 0}]}],"
		     " \"qps\": [{\"device\": \"mlx5_0\", \"port\": 1, \"qpn\": 17, \"dest_qpn\": 18,"
		     " \"pid\": 1, \"comm\": \"x\", \"state\": %d, \"job_id\": \"j1\"}]}",
		     t, samples, carrier ? "true" : "false", flaps, oos, oos * 1000, oos * 2,
		     storm ? "true" : "false", qp_state);
}

static struct json_object *nic0(struct frame *f)
{
	return json_object_array_get_idx(json_object_object_get(f->rows, "nics"), 0);
}

static double rate_of(struct frame *f, const char *name)
{
	struct json_object *r = json_object_object_get(json_object_object_get(nic0(f), "rates"),
						       name);

	return r ? json_object_get_double(r) : NAN;
}

/* rates are the collector's: none in the JSON is unknown, however many samples */
static void digest_rates(void **state)
{
	struct digest d;
	struct frame *f;

	(void)state;
	digest_init(&d);
	f = digest_frame(&d, snap(100.0, 1, 10, 0, true, false, 3), NULL, NULL);
	assert_null(f->rates_from);
	assert_true(isnan(rate_of(f, "out_of_sequence")));
	assert_string_equal(f->tab[TAB_NICS].row[0].cell[7], "-");
	frame_free(f);

	/* the counter moved, but fabteld sent no rate: still unknown, never computed */
	f = digest_frame(&d, snap(100.5, 2, 1010, 0, true, false, 3), NULL, NULL);
	assert_null(f->rates_from);
	assert_true(isnan(rate_of(f, "out_of_sequence")));
	assert_string_equal(f->tab[TAB_NICS].row[0].cell[7], "-");
	/* absent counters are not rates of 0 */
	assert_null(json_object_object_get(json_object_object_get(nic0(f), "rates"),
					   "local_ack_timeout"));
	frame_free(f);
	digest_fini(&d);
}

static void digest_shows_fabteld_rates(void **state)
{
	struct json_object *s = snap(100.0, 1, 10, 0, true, false, 3), *port, *prio;
	struct digest d;
	struct frame *f;

	(void)state;
	port = json_object_array_get_idx(json_object_object_get(s, "ports"), 0);
	json_object_object_add(port, "rates", parse("{\"out_of_sequence\": 2000, \"rx_bytes\": null}"));
	json_object_object_add(port, "last_flap", json_object_new_double(99.0));
	prio = json_object_array_get_idx(json_object_object_get(port, "pfc"), 0);
	json_object_object_add(prio, "pause_tx_rate", json_object_new_double(1234));
	json_object_object_add(prio, "pause_rx_rate", NULL);
	digest_init(&d);
	f = digest_frame(&d, s, NULL, NULL);
	assert_string_equal(f->rates_from, "fabteld");
	assert_true(rate_of(f, "out_of_sequence") == 2000);
	assert_string_equal(f->tab[TAB_NICS].row[0].cell[7], "2.0k");
	assert_true(isnan(rate_of(f, "rx_bytes")));
	assert_true(json_object_get_double(json_object_object_get(nic0(f), "last_flap")) == 99.0);
	assert_non_null(strstr(f->tab[TAB_NICS].row[0].cell[13], "3:1.2k/-"));
	frame_free(f);
	digest_fini(&d);
}

/* without fabteld's events the log stays as it is: no second detector */
static void digest_derives_nothing(void **state)
{
	struct digest d;
	struct frame *f;

	(void)state;
	digest_init(&d);
	frame_free(digest_frame(&d, snap(100.0, 1, 10, 2, true, false, 3), NULL, NULL));
	/* a flap, carrier lost, a storm, a burst and a QP in error, all in the counters */
	f = digest_frame(&d, snap(101.0, 2, 15, 3, false, true, 6), NULL, NULL);
	assert_int_equal(json_object_array_length(f->events), 0);
	assert_int_equal(f->tab[TAB_EVENTS].nrows, 0);
	assert_string_equal(f->tab[TAB_EVENTS].empty, "no events (fabteld sends none)");
	frame_free(f);
	digest_fini(&d);
}

static void digest_takes_fabteld_events(void **state)
{
	struct digest d;
	struct frame *f;

	(void)state;
	digest_init(&d);
	f = digest_frame(&d, snap(100.0, 1, 10, 2, true, false, 3), NULL,
			 parse("{\"next_seq\": 3, \"events\": [{\"seq\": 1, \"time\": 99, \"kind\": \"link_flap\","
			       " \"device\": \"mlx5_0\", \"port\": 1, \"job_id\": null, \"count\": 1},"
			       " {\"seq\": 2, \"time\": 99.5, \"kind\": \"qp_error\", \"device\": \"mlx5_0\","
			       " \"port\": 1, \"qpn\": 17, \"job_id\": \"j1\"}]}"));
	assert_int_equal(json_object_array_length(f->events), 2);
	assert_int_equal(digest_events_since(&d), 2);
	frame_free(f);
	/* seen ones are not added twice; no deriving while fabteld has events */
	f = digest_frame(&d, snap(101.0, 2, 10, 3, true, false, 3), NULL,
			 parse("{\"next_seq\": 3, \"events\": [{\"seq\": 2, \"time\": 99.5, \"kind\": \"qp_error\"}]}"));
	assert_int_equal(json_object_array_length(f->events), 2);
	frame_free(f);
	/* fabteld restarted: its numbers start over */
	f = digest_frame(&d, snap(102.0, 3, 10, 3, true, false, 3), NULL,
			 parse("{\"next_seq\": 1, \"events\": []}"));
	assert_int_equal(digest_events_since(&d), 0);
	frame_free(f);
	digest_fini(&d);
}

/* the Events pane row whose DETAIL starts with text; NULL none */
static const struct row *event_with(const struct frame *f, const char *text)
{
	const struct table *t = &f->tab[TAB_EVENTS];
	unsigned int i;

	for (i = 0; i < t->nrows; i++)
		if (!strncmp(t->row[i].cell[3], text, strlen(text)))
			return &t->row[i];
	return NULL;
}

/*
 * fabteld's evidence in words and numbers; identical events in a row fold
 * into one head row (the sum of their bursts) whose members stay hidden
 * until their group is open.
 */
static void events_evidence_and_folds(void **state)
{
	const struct table *t;
	const struct row *head, *r;
	unsigned int idx[32], n, i, members = 0;
	struct digest d;
	struct frame *f;
	char evs[4096];
	uint64_t g;

	(void)state;
	snprintf(evs, sizeof(evs), "{\"next_seq\": 8, \"events\": ["
		 "{\"seq\": 1, \"time\": 100, \"kind\": \"error_burst\", \"device\": \"mlx5_0\", \"port\": 1,"
		 " \"count\": 1, \"counter\": \"nak_seq_err_rcvd\", \"amount\": 100, \"span_seconds\": 0.1,"
		 " \"jobs\": [\"1001\"]},"
		 "{\"seq\": 2, \"time\": 101, \"kind\": \"error_burst\", \"device\": \"mlx5_0\", \"port\": 1,"
		 " \"count\": 1, \"counter\": \"nak_seq_err_rcvd\", \"amount\": 200, \"span_seconds\": 0.1,"
		 " \"jobs\": [\"1001\"]},"
		 "{\"seq\": 3, \"time\": 117, \"kind\": \"error_burst\", \"device\": \"mlx5_0\", \"port\": 1,"
		 " \"count\": 1, \"counter\": \"nak_seq_err_rcvd\", \"amount\": 300, \"span_seconds\": 0.1,"
		 " \"jobs\": [\"1001\"]},"
		 "{\"seq\": 4, \"time\": 118, \"kind\": \"link_flap\", \"device\": \"mlx5_0\", \"port\": 1,"
		 " \"count\": 1, \"down_seconds\": 0.3, \"jobs\": [\"1001\", \"1002\"], \"jobs_more\": 2},"
		 "{\"seq\": 5, \"time\": 120, \"kind\": \"pause_storm\", \"device\": \"mlx5_0\", \"port\": 1,"
		 " \"priority\": 3, \"count\": 1, \"jobs\": []},"
		 "{\"seq\": 6, \"time\": 122.1, \"kind\": \"pause_storm_end\", \"device\": \"mlx5_0\","
		 " \"port\": 1, \"priority\": 3, \"count\": 1, \"jobs\": []},"
		 "{\"seq\": 7, \"time\": 123, \"kind\": \"error_burst\", \"device\": \"mlx5_0\", \"port\": 1,"
		 " \"count\": 3, \"jobs\": []}]}");
	digest_init(&d);
	f = digest_frame(&d, snap(130.0, 1, 10, 2, true, false, 3), NULL, parse(evs));
	head = event_with(f, "x3 over 17 s: nak_seq_err_rcvd +600");
	assert_non_null(head);
	assert_false(head->member);
	assert_string_equal(head->cell[4], "1001");
	r = event_with(f, "  | nak_seq_err_rcvd +200 in 100 ms");
	assert_non_null(r);
	assert_true(r->member);
	assert_true(r->group == head->group && head->group);
	r = event_with(f, "down 300 ms");
	assert_non_null(r);
	assert_string_equal(r->cell[4], "1001,1002,+2");
	assert_false(r->group);
	assert_non_null(event_with(f, "prio 3 paused 2.1 s"));
	assert_non_null(event_with(f, "3 bursts, counter not known"));
	/* folded: 7 events, 1 head, 3 members hidden -> 5 rows; open: 8 */
	t = &f->tab[TAB_EVENTS];
	assert_int_equal(t->nrows, 8);
	n = table_view(t, E_TIME, false, NULL, idx);
	assert_int_equal(table_fold(t, idx, n, NULL, 0), 5);
	g = head->group;
	n = table_view(t, E_TIME, false, NULL, idx);
	n = table_fold(t, idx, n, &g, 1);
	assert_int_equal(n, 8);
	for (i = 0; i < n; i++)
		members += t->row[idx[i]].member;
	assert_int_equal(members, 3);
	frame_free(f);
	digest_fini(&d);

	/* under loss two counters burst in turn: still one run, a sum for each */
	snprintf(evs, sizeof(evs), "{\"next_seq\": 5, \"events\": ["
		 "{\"seq\": 1, \"time\": 100, \"kind\": \"error_burst\", \"device\": \"rxa\", \"port\": 1,"
		 " \"count\": 1, \"counter\": \"out_of_sequence\", \"amount\": 10, \"span_seconds\": 1},"
		 "{\"seq\": 2, \"time\": 100, \"kind\": \"error_burst\", \"device\": \"rxa\", \"port\": 1,"
		 " \"count\": 1, \"counter\": \"nak_seq_err_rcvd\", \"amount\": 2, \"span_seconds\": 1},"
		 "{\"seq\": 3, \"time\": 101, \"kind\": \"error_burst\", \"device\": \"rxa\", \"port\": 1,"
		 " \"count\": 1, \"counter\": \"out_of_sequence\", \"amount\": 5, \"span_seconds\": 1},"
		 "{\"seq\": 4, \"time\": 102, \"kind\": \"error_burst\", \"device\": \"rxa\", \"port\": 1,"
		 " \"count\": 2}]}");
	digest_init(&d);
	f = digest_frame(&d, snap(130.0, 1, 10, 2, true, false, 3), NULL, parse(evs));
	assert_non_null(event_with(f, "x5 over 2.0 s: out_of_sequence +15, nak_seq_err_rcvd +2, "
				   "2 not detailed"));
	frame_free(f);
	digest_fini(&d);
}

/* the probe matrix's lines: the suspect port and the pairs in trouble marked */
static void probe_matrix_lines(void **state)
{
	static struct probe_line l[16];
	struct json_object *m = json_tokener_parse(
		"{\"enabled\":true,\"host\":\"h1\",\"window_s\":10,\"ports\":["
		"{\"device\":\"mlx5_0\",\"port\":1,\"netdev\":\"ens1\",\"up\":true,\"suspect\":\"local_port\",\"peers\":["
		"{\"host\":\"h2\",\"device\":\"mlx5_0\",\"port\":1,\"sent\":100,\"timeouts\":40,\"loss\":0.4,"
		"\"rtt_p50_us\":12.5,\"rtt_p99_us\":1500,\"trouble\":[\"loss\"]},"
		"{\"host\":\"h3\\u001b]0;x\",\"device\":\"mlx5_0\",\"port\":1,\"sent\":100,\"timeouts\":30,\"loss\":0.3,"
		"\"rtt_p50_us\":null,\"trouble\":[\"loss\"]}]},"
		"{\"device\":\"mlx5_1\",\"port\":1,\"netdev\":\"ens2\",\"up\":false,\"why\":\"the port is not ACTIVE\",\"peers\":[]}]}");
	unsigned int n;

	(void)state;
	assert_non_null(m);
	n = probes_lines(m, l, 16);
	assert_int_equal(n, 6);
	assert_int_equal(l[0].kind, PL_HEAD);
	assert_int_equal(l[2].kind, PL_CULPRIT);
	assert_non_null(strstr(l[2].text, "mlx5_0/1 (ens1)  2 peer(s)  << this port"));
	assert_int_equal(l[3].kind, PL_TROUBLE);
	assert_non_null(strstr(l[3].text, "h2/mlx5_0/1"));
	assert_non_null(strstr(l[3].text, " 12us"));
	assert_non_null(strstr(l[3].text, "1.50ms"));
	assert_non_null(strstr(l[3].text, "40.0%"));
	assert_null(strchr(l[4].text, '\033'));	/* a peer's name cannot drive the terminal */
	assert_int_equal(l[5].kind, PL_PLAIN);
	assert_non_null(strstr(l[5].text, "not probing: the port is not ACTIVE"));
	assert_int_equal(probes_lines(NULL, l, 16), 1);
	assert_non_null(strstr(l[0].text, "no probe matrix"));
	json_object_put(m);
}

/* a flight record's plot: carrier down at the trigger, each signal's rises in levels */
static void record_view_lines(void **state)
{
	static struct rec_line l[16];
	struct json_object *r = json_tokener_parse(
		"{\"device\":\"mlx5_0\",\"port\":1,\"seq\":3,\"trigger\":\"carrier\","
		"\"triggers\":[\"carrier\",\"pma\"],\"trigger_time\":1790000000.5,\"sample_ms\":100,"
		"\"trigger_index\":3,\"t_ms\":[-300,-200,-100,0,100],\"carrier\":[1,1,1,0,1],"
		"\"signals\":{\"fec_corrected\":[null,100,null,200,null],"
		"\"symbol_error\":[0,5,10,20,0]}}");
	unsigned int n;

	(void)state;
	assert_non_null(r);
	n = record_lines(r, NULL, 120, l, 16);
	assert_int_equal(n, 6);
	assert_int_equal(l[0].kind, RL_HEAD);
	assert_non_null(strstr(l[0].text, "Flight record 3 of mlx5_0/1: carrier at "));
	assert_non_null(strstr(l[0].text, "(carrier,pma), 5 samples x 100 ms, -0.3 s .. +0.1 s"));
	assert_int_equal(l[2].kind, RL_DOWN);
	assert_non_null(strstr(l[2].text, "up/down  ===_="));
	assert_non_null(strstr(l[3].text, "fec_corrected"));
	assert_non_null(strstr(l[3].text, "200   = # "));
	assert_non_null(strstr(l[4].text, "20  _:=#_"));
	assert_non_null(strstr(l[5].text, "   ^ "));
	/* narrower than the samples: a column holds several, the largest shown */
	n = record_lines(r, NULL, 22 + 12 + 4 + 10, l, 16);
	assert_int_equal(n, 6);
	assert_int_equal(record_lines(NULL, "fabteld no longer keeps it", 80, l, 16), 1);
	assert_non_null(strstr(l[0].text, "No flight record: fabteld no longer keeps it"));
	json_object_put(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fit_every_width),
		cmocka_unit_test(probe_matrix_lines),
		cmocka_unit_test(record_view_lines),
		cmocka_unit_test(fit_flex_first),
		cmocka_unit_test(view_order_and_filter),
		cmocka_unit_test(rate_format),
		cmocka_unit_test(digest_rates),
		cmocka_unit_test(digest_shows_fabteld_rates),
		cmocka_unit_test(digest_derives_nothing),
		cmocka_unit_test(digest_takes_fabteld_events),
		cmocka_unit_test(events_evidence_and_folds),
	};

	return cmocka_run_group_tests_name("fabtop", tests, NULL, NULL);
}
