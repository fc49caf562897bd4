// SPDX-License-Identifier: GPL-2.0
/*
 * test_fold_devlink - devlink health reporters in the folds
 * (fold_devlink.c, Documentation/nic_health.rst) over readings made by
 * hand: job 7 on rxa/1, rxa's instance pci/0000:03:00.0 with the reporters
 * fw and fw_fatal.  A reporter in error fails the job's verdict and names
 * itself; errors counted and recovered between two reads degrade it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "collector.h"
#include "fold.h"
#include "readings.h"

static struct model m;
static struct raw r;
static uint64_t t;

static int setup(void **state)
{
	struct raw_health *h = &r.health[0];

	(void)state;
	readings_rxa_job7(&m, &r);
	t = 0;
	m.src[SRC_DEVLINK] = SRC_STATE_UP;
	r.health_read = true;
	r.nr_health = 1;
	snprintf(h->device, sizeof(h->device), "rxa");
	h->has_handle = true;
	snprintf(h->bus, sizeof(h->bus), "pci");
	snprintf(h->dev, sizeof(h->dev), "0000:03:00.0");
	h->nr = 2;
	snprintf(h->rep[0].name, sizeof(h->rep[0].name), "fw");
	snprintf(h->rep[1].name, sizeof(h->rep[1].name), "fw_fatal");
	return 0;
}

static const struct health_reason *reason(const char *what)
{
	return readings_reason(&m, 0, what);
}

static void pass(void)
{
	readings_pass(&m, &r, ++t);
}

static void reporter_in_error_fails(void **state)
{
	const struct health_reason *x;

	(void)state;
	pass();
	assert_null(reason("nic_firmware"));
	assert_string_equal(model_health_of(&m, "rxa")->handle, "pci/0000:03:00.0");
	r.health[0].rep[0].error = true;
	r.health[0].rep[0].errors = 1;
	pass();
	x = reason("nic_firmware");
	assert_non_null(x);
	assert_string_equal(x->severity, "failing");
	assert_string_equal(x->detail, "devlink pci/0000:03:00.0: fw in error (1 errors)");
	assert_int_equal(m.jobs[0].result.verdict, VERDICT_FAILING);
	r.health[0].rep[0].error = false;	/* cleared */
	pass();
	x = reason("nic_firmware");		/* its error still counts in the window */
	assert_non_null(x);
	assert_string_equal(x->severity, "degraded");
}

static void recovered_errors_degrade(void **state)
{
	const struct health_reason *x;

	(void)state;
	pass();
	r.health[0].rep[1].errors = 2;		/* two errors, both recovered */
	r.health[0].rep[1].recovers = 2;
	pass();
	x = reason("nic_firmware");
	assert_non_null(x);
	assert_string_equal(x->severity, "degraded");
	assert_int_equal(x->count, 2);
	assert_int_equal(m.jobs[0].result.verdict, VERDICT_DEGRADED);
}

static void unread_keeps_the_last(void **state)
{
	(void)state;
	r.health[0].rep[0].error = true;
	pass();
	r.health_read = false;			/* not read this pass */
	pass();
	assert_true(model_health_of(&m, "rxa")->rep[0].error);
	m.src[SRC_DEVLINK] = SRC_STATE_UNAVAILABLE;	/* the source went */
	pass();
	assert_null(model_health_of(&m, "rxa"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(reporter_in_error_fails, setup),
		cmocka_unit_test_setup(recovered_errors_degrade, setup),
		cmocka_unit_test_setup(unread_keeps_the_last, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
