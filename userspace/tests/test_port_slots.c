// SPDX-License-Identifier: GPL-2.0
/*
 * test_port_slots - the model's port slots as fold_ports keeps them
 * (model.h port_slots): a new port takes the lowest free slot, the passes'
 * loops end one past the highest present one, and every present port is
 * found by model_find_port (through the slots' keys) whatever slots came
 * free below it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>

#include "fold.h"
#include "readings.h"

static struct model m;
static struct raw r;
static uint64_t t;	/* seconds */
static struct fold f = { .sock = -1 };

/* fold_ports alone: the slots are its business; each slot's lookup key
 * is its port's (model_port_key), 0 for a free slot */
static void pass_ports(void)
{
	unsigned int i;

	t++;
	r.ports_mono = t * NS_PER_S;
	fold_ports(&f, &m, &r, (1790000000 + t) * NS_PER_S);
	m.samples++;
	for (i = 0; i < MODEL_MAX_PORTS; i++)
		assert_int_equal(m.port_key[i], m.ports[i].present ?
				 model_port_key(m.ports[i].device, m.ports[i].port) : 0);
}

static int setup(void **state)
{
	(void)state;
	readings_rxa_job7(&m, &r);
	t = 0;
	return 0;
}

/*
 * Port slots: a new port takes the lowest free one; the passes' loops end
 * one past the highest present (port_slots), which falls when the top port
 * goes and not when a middle one does; every present port is still found.
 */
static void port_slots(void **state)
{
	static const char *const names[] = { "p0", "p1", "p2", "p3" };
	struct raw_port tmpl = r.ports[0];
	unsigned int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		r.ports[i] = tmpl;
		snprintf(r.ports[i].device, sizeof(r.ports[i].device), "%s", names[i]);
	}
	r.nr_ports = 3;
	pass_ports();
	assert_int_equal(m.port_slots, 3);
	r.ports[1] = r.ports[2];		/* p1 goes: p0, p2 */
	r.nr_ports = 2;
	pass_ports();
	assert_int_equal(m.port_slots, 3);
	assert_false(m.ports[1].present);
	assert_int_equal(readings_events(&m, EV_PORT_REMOVED), 1);
	r.ports[2] = tmpl;			/* p3 comes: slot 1 */
	snprintf(r.ports[2].device, sizeof(r.ports[2].device), "%s", names[3]);
	r.nr_ports = 3;
	pass_ports();
	assert_int_equal(m.port_slots, 3);
	assert_ptr_equal(model_find_port(&m, "p3", tmpl.port), &m.ports[1]);
	r.nr_ports = 1;				/* p2 and p3 go: p0 alone */
	pass_ports();
	assert_int_equal(m.port_slots, 1);
	assert_int_equal(readings_events(&m, EV_PORT_REMOVED), 3);
	assert_ptr_equal(model_find_port(&m, "p0", tmpl.port), &m.ports[0]);
	assert_null(model_find_port(&m, "p2", tmpl.port));
	r.nr_ports = 0;
	pass_ports();
	assert_int_equal(m.port_slots, 0);
	r.ports[0] = tmpl;			/* back, in slot 0 */
	snprintf(r.ports[0].device, sizeof(r.ports[0].device), "%s", names[2]);
	r.nr_ports = 1;
	pass_ports();
	assert_int_equal(m.port_slots, 1);
	assert_ptr_equal(model_find_port(&m, "p2", tmpl.port), &m.ports[0]);
	r.ports[1] = r.ports[0];		/* p2's other port: its own slot */
	r.ports[1].port = tmpl.port + 1;
	r.nr_ports = 2;
	pass_ports();
	assert_ptr_equal(model_find_port(&m, "p2", tmpl.port), &m.ports[0]);
	assert_ptr_equal(model_find_port(&m, "p2", tmpl.port + 1), &m.ports[1]);
	assert_null(model_find_port(&m, "p2", tmpl.port + 2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(port_slots, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
