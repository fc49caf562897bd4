// SPDX-License-Identifier: GPL-2.0
/*
 * test_past - a restarted fabteld's first pass (past.c): the flaps and
 * error bursts fabtel.ko kept for a port come back into the event log,
 * marked restored, oldest first, each burst naming its counter; what is not
 * a flap (an ib_event up) or not yet (a burst from the future) does not;
 * the job on the port gets its link_flap reason back.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "clock.h"
#include "fold.h"
#include "memfs.h"
#include "past.h"
#include "readings.h"

#define PORT	"/sys/kernel/fabtel/rxa/ports/1"
#define MS	1000000ULL

static struct model m;
static struct raw r;

static void pass(void)
{
	static struct fold f = { .sock = -1 };
	uint64_t now = clock_ns(CLOCK_REALTIME);

	r.ports_mono = clock_ns(CLOCK_MONOTONIC);
	fold_prev_take(&m, &f.prev);
	fold_ports(&f, &m, &r, now);
	fold_qps(&m, &r, now);
	fold_jobs(&m, now, &f.prev);
	m.samples++;
}

/* rxa port 1 read from fabtel.ko, job 7 with a QP on it */
static void setup(void)
{
	readings_rxa_job7(&m, &r);
	r.ko = true;
}

static bool job_has_flap(void)
{
	const struct model_job *j = &m.jobs[0];
	unsigned int i;

	for (i = 0; j->present && i < j->result.nr_reasons; i++)
		if (!strcmp(j->result.reasons[i].reason, health_sig_name(HS_LINK_FLAP)))
			return true;
	return false;
}

/* |a - b| within 50 ms: the boot clock's times are moved to the wall clock's */
static void assert_near(uint64_t a, uint64_t b)
{
	assert_true(a > b ? a - b < 50 * MS : b - a < 50 * MS);
}

static void restored_in_order(void **state)
{
	uint64_t boot = clock_ns(CLOCK_BOOTTIME), real = clock_ns(CLOCK_REALTIME);
	const struct model_event *ev[3];
	struct memfs fs;
	char text[512];
	uint64_t s, first;

	(void)state;
	setup();
	memfs_init(&fs);
	fs_set_backend(&fs.be);
	snprintf(text, sizeof(text),
		 "5 %llu out_of_sequence 40\n6 %llu nak_seq_err_rcvd 7\n7 %llu future 1\n",
		 (unsigned long long)(boot - 3000 * MS), (unsigned long long)(boot - 1000 * MS),
		 (unsigned long long)(boot + 100000 * MS));
	memfs_put(&fs, PORT "/events", text);
	snprintf(text, sizeof(text),
		 "1 %llu down carrier -\n2 %llu up carrier 300000000\n"
		 "3 %llu down ib_event -\n4 %llu up ib_event 100000000\n",
		 (unsigned long long)(real - 2000 * MS), (unsigned long long)(real - 1700 * MS),
		 (unsigned long long)(real - 1500 * MS), (unsigned long long)(real - 1400 * MS));
	memfs_put(&fs, PORT "/link/history", text);
	pass();
	assert_false(job_has_flap());
	first = m.next_event_seq ? m.next_event_seq : 1;
	past_restore(&m, &r);
	assert_int_equal(m.next_event_seq - first, 3);
	for (s = 0; s < 3; s++) {
		ev[s] = model_event_get(&m, first + s);
		assert_non_null(ev[s]);
		assert_true(ev[s]->restored);
		assert_string_equal(ev[s]->device, "rxa");
		assert_int_equal(ev[s]->port, 1);
	}
	assert_int_equal(ev[0]->kind, EV_ERROR_BURST);
	assert_string_equal(ev[0]->counter, "out_of_sequence");
	assert_near(ev[0]->at_ns, real - 3000 * MS);
	assert_int_equal(ev[1]->kind, EV_LINK_FLAP);
	assert_string_equal(ev[1]->counter, "");
	assert_near(ev[1]->at_ns, real - 1700 * MS);
	assert_int_equal(ev[2]->kind, EV_ERROR_BURST);
	assert_string_equal(ev[2]->counter, "nak_seq_err_rcvd");
	assert_near(ev[2]->at_ns, real - 1000 * MS);
	/* the newest flap (its up at -1.7 s) makes the port recent_fault again */
	assert_true(model_find_port(&m, "rxa", 1)->sticky.recent);
	assert_string_equal(model_find_port(&m, "rxa", 1)->sticky.fault, "link_flap");
	assert_near(model_find_port(&m, "rxa", 1)->sticky.fault_ns, real - 1700 * MS);
	pass();
	assert_true(job_has_flap());
	fs_set_backend(NULL);
}

/* a flap older than recent_fault_s: logged, the port not recent */
static void old_flap_not_recent(void **state)
{
	uint64_t real = clock_ns(CLOCK_REALTIME);
	struct memfs fs;
	char text[256];

	(void)state;
	setup();
	m.opts.recent_fault_s = 1;
	memfs_init(&fs);
	fs_set_backend(&fs.be);
	snprintf(text, sizeof(text), "1 %llu down carrier -\n2 %llu up carrier 300000000\n",
		 (unsigned long long)(real - 2300 * MS), (unsigned long long)(real - 2000 * MS));
	memfs_put(&fs, PORT "/link/history", text);
	pass();
	past_restore(&m, &r);
	assert_int_equal(readings_events(&m, EV_LINK_FLAP), 1);
	assert_false(model_find_port(&m, "rxa", 1)->sticky.recent);
	fs_set_backend(NULL);
}

/* no files kept (fabtel.ko of another fabteld's making, or none): nothing logged */
static void nothing_kept(void **state)
{
	struct memfs fs;
	uint64_t before;

	(void)state;
	setup();
	memfs_init(&fs);
	fs_set_backend(&fs.be);
	pass();
	before = m.next_event_seq;
	past_restore(&m, &r);
	assert_int_equal(m.next_event_seq, before);
	pass();
	assert_false(job_has_flap());
	fs_set_backend(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(restored_in_order),
		cmocka_unit_test(old_flap_not_recent),
		cmocka_unit_test(nothing_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
