// SPDX-License-Identifier: GPL-2.0
/*
 * render_trace(): the Chrome trace of a job, from a model filled by hand.
 * Spans are paired in one pass over the event ring; one that began before
 * the trace's window but ends in it is kept whole; one still open is drawn
 * to the last sample with args.open.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "collect.h"
#include "render.h"

#define S(x)	((uint64_t)(x) * 1000000000ULL)
#define T0	S(1790000000)	/* a wall-clock second */


static void add_event(struct model *m, enum model_event_kind kind, const char *dev,
		      uint32_t port, int prio, uint64_t at_ns)
{
	uint64_t seq = m->next_event_seq++;
	struct model_event *ev = &m->events[(seq - 1) % MODEL_MAX_EVENTS];

	memset(ev, 0, sizeof(*ev));
	ev->seq = seq;
	ev->at_ns = at_ns;
	ev->kind = kind;
	snprintf(ev->device, sizeof(ev->device), "%s", dev);
	ev->port = port;
	ev->priority = prio;
	ev->qpn = -1;
	ev->count = 1;
}

/* A job 77 on rxa/1 that began at T0+100 s; the window is 20 s. */
static int setup(void **state)
{
	struct model *m = calloc(1, sizeof(*m));

	if (!m)
		return -1;
	collect_opts_default(&m->opts);
	m->opts.health.window_s = 20;
	m->next_event_seq = 1;
	m->sample_ns = T0 + S(200);
	m->jobs[0].present = true;
	m->job_slots = 1;
	snprintf(m->jobs[0].id.id, sizeof(m->jobs[0].id.id), "77");
	m->jobs[0].first_ns = T0 + S(100);
	m->jobs[0].nr_ports = 1;
	snprintf(m->jobs[0].ports[0].device, sizeof(m->jobs[0].ports[0].device), "rxa");
	m->jobs[0].ports[0].port = 1;
	m->jobs[0].ports[0].key = model_port_key("rxa", 1);
	*state = m;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

/* The "X" events named name, in trace order, into out (at most n). */
static int spans(struct json_object *trace, const char *name, struct json_object **out, int n)
{
	struct json_object *evs, *e, *v;
	int i, found = 0;

	assert_true(json_object_object_get_ex(trace, "traceEvents", &evs));
	for (i = 0; i < (int)json_object_array_length(evs); i++) {
		e = json_object_array_get_idx(evs, i);
		assert_true(json_object_object_get_ex(e, "ph", &v));
		if (strcmp(json_object_get_string(v), "X"))
			continue;
		assert_true(json_object_object_get_ex(e, "name", &v));
		if (strcmp(json_object_get_string(v), name))
			continue;
		if (found < n)
			out[found] = e;
		found++;
	}
	return found;
}

static int64_t field(struct json_object *e, const char *key)
{
	struct json_object *v;

	assert_true(json_object_object_get_ex(e, key, &v));
	return json_object_get_int64(v);
}

static bool is_open(struct json_object *e)
{
	struct json_object *a, *v;

	assert_true(json_object_object_get_ex(e, "args", &a));
	assert_true(json_object_object_get_ex(a, "open", &v));
	return json_object_get_boolean(v);
}

static void span_begun_before_window_kept(void **state)
{
	struct model *m = *state;
	struct json_object *tr, *x[4];

	/* down 30 s before the job (10 s before the window), up inside it */
	add_event(m, EV_LINK_DOWN, "rxa", 1, -1, T0 + S(70));
	add_event(m, EV_LINK_UP, "rxa", 1, -1, T0 + S(85));
	/* a flap wholly before the window: not the job's business */
	add_event(m, EV_LINK_DOWN, "rxa", 1, -1, T0 + S(10));
	add_event(m, EV_LINK_UP, "rxa", 1, -1, T0 + S(12));
	tr = render_trace(m, "77");
	assert_non_null(tr);
	assert_int_equal(spans(tr, "link down", x, 4), 1);
	assert_int_equal(field(x[0], "ts"), (int64_t)((T0 + S(70)) / 1000));
	assert_int_equal(field(x[0], "dur"), 15000000);
	assert_false(is_open(x[0]));
	json_object_put(tr);
}

static void open_span_reaches_last_sample(void **state)
{
	struct model *m = *state;
	struct json_object *tr, *x[4];

	add_event(m, EV_LINK_DOWN, "rxa", 1, -1, T0 + S(150));
	/* a second down while down: the same outage */
	add_event(m, EV_LINK_DOWN, "rxa", 1, -1, T0 + S(151));
	tr = render_trace(m, "77");
	assert_int_equal(spans(tr, "link down", x, 4), 1);
	assert_int_equal(field(x[0], "ts"), (int64_t)((T0 + S(150)) / 1000));
	assert_int_equal(field(x[0], "dur"), 50000000);
	assert_true(is_open(x[0]));
	json_object_put(tr);
}

static void spans_paired_per_port_and_priority(void **state)
{
	struct model *m = *state;
	struct json_object *tr, *x[4];

	add_event(m, EV_PAUSE_STORM, "fakeroce0", 1, 3, T0 + S(110));
	add_event(m, EV_PAUSE_STORM, "fakeroce0", 1, 5, T0 + S(111));
	add_event(m, EV_LINK_DOWN, "rxa", 1, -1, T0 + S(112));
	add_event(m, EV_PAUSE_STORM_END, "fakeroce0", 1, 5, T0 + S(113));
	add_event(m, EV_LINK_UP, "rxb", 1, -1, T0 + S(114));	/* another port */
	add_event(m, EV_PAUSE_STORM_END, "fakeroce0", 1, 3, T0 + S(120));
	add_event(m, EV_LINK_UP, "rxa", 1, -1, T0 + S(112) + 300000000ULL);
	tr = render_trace(m, "77");
	/* sorted by ts: priority 3 first */
	assert_int_equal(spans(tr, "pause storm", x, 4), 2);
	assert_int_equal(field(x[0], "dur"), 10000000);
	assert_int_equal(field(x[1], "dur"), 2000000);
	assert_int_equal(spans(tr, "link down", x, 4), 1);
	assert_int_equal(field(x[0], "dur"), 300000);
	assert_false(is_open(x[0]));
	json_object_put(tr);
}

/* The ring has wrapped: pairs across the wrap still meet, ts stay sorted. */
static void wrapped_ring_sorted(void **state)
{
	struct model *m = *state;
	struct json_object *tr, *evs, *e, *v, *x[1];
	int64_t prev = 0, ts;
	unsigned int i;

	for (i = 0; i < MODEL_MAX_EVENTS + 40; i++)
		add_event(m, i % 2 ? EV_LINK_UP : EV_LINK_DOWN, "rxa", 1, -1,
			  T0 + S(100) + i * 100000000ULL);
	tr = render_trace(m, "77");
	/* the ring keeps the last 256 events, from a down: 128 pairs */
	assert_int_equal(spans(tr, "link down", x, 1), MODEL_MAX_EVENTS / 2);
	assert_true(json_object_object_get_ex(tr, "traceEvents", &evs));
	for (i = 0; i < json_object_array_length(evs); i++) {
		e = json_object_array_get_idx(evs, i);
		json_object_object_get_ex(e, "ph", &v);
		if (!strcmp(json_object_get_string(v), "M"))
			continue;
		ts = field(e, "ts");
		assert_true(ts >= prev);
		prev = ts;
	}
	json_object_put(tr);
}

static void unknown_job(void **state)
{
	assert_null(render_trace(*state, "78"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(span_begun_before_window_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(open_span_reaches_last_sample, setup, teardown),
		cmocka_unit_test_setup_teardown(spans_paired_per_port_and_priority, setup, teardown),
		cmocka_unit_test_setup_teardown(wrapped_ring_sorted, setup, teardown),
		cmocka_unit_test_setup_teardown(unknown_job, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
