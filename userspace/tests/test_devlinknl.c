// SPDX-License-Identifier: GPL-2.0
/*
 * test_devlinknl - the devlink health reporter parser (lib/devlinknl.c)
 * over messages built as the kernel's devlink_nl_health_reporter_fill()
 * builds them: a device's handle, then the reporter nested.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include <libmnl/libmnl.h>
#include <linux/devlink.h>
#include <linux/genetlink.h>

#include "devlinknl.h"

static _Alignas(8) char buf[4096];

/* a reply: handle, port index if port >= 0, the reporter (state as a u8 or, bad, u32) */
static struct nlmsghdr *reply(const char *name, int port, bool bad_state)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	struct nlattr *nest;

	nlh->nlmsg_type = 0x1f;
	g->cmd = DEVLINK_CMD_HEALTH_REPORTER_GET;
	mnl_attr_put_strz(nlh, DEVLINK_ATTR_BUS_NAME, "pci");
	mnl_attr_put_strz(nlh, DEVLINK_ATTR_DEV_NAME, "0000:03:00.0");
	if (port >= 0)
		mnl_attr_put_u32(nlh, DEVLINK_ATTR_PORT_INDEX, (uint32_t)port);
	nest = mnl_attr_nest_start(nlh, DEVLINK_ATTR_HEALTH_REPORTER);
	if (name)
		mnl_attr_put_strz(nlh, DEVLINK_ATTR_HEALTH_REPORTER_NAME, name);
	if (bad_state)
		mnl_attr_put_u32(nlh, DEVLINK_ATTR_HEALTH_REPORTER_STATE, 1);
	else
		mnl_attr_put_u8(nlh, DEVLINK_ATTR_HEALTH_REPORTER_STATE, 1);
	mnl_attr_put_u64(nlh, DEVLINK_ATTR_HEALTH_REPORTER_ERR_COUNT, 3);
	mnl_attr_put_u64(nlh, DEVLINK_ATTR_HEALTH_REPORTER_RECOVER_COUNT, 2);
	mnl_attr_put_u64(nlh, DEVLINK_ATTR_HEALTH_REPORTER_GRACEFUL_PERIOD, 500);
	mnl_attr_put_u8(nlh, DEVLINK_ATTR_HEALTH_REPORTER_AUTO_RECOVER, 1);
	mnl_attr_put_u64(nlh, DEVLINK_ATTR_HEALTH_REPORTER_DUMP_TS, 77);	/* not read */
	mnl_attr_nest_end(nlh, nest);
	return nlh;
}

static void device_reporter(void **state)
{
	struct devlinknl_reporter r;
	struct nlmsghdr *nlh = reply("fw_fatal", -1, false);

	(void)state;
	assert_int_equal(devlinknl_parse_reporter(nlh, nlh->nlmsg_len, &r), 0);
	assert_string_equal(r.bus, "pci");
	assert_string_equal(r.dev, "0000:03:00.0");
	assert_false(r.has_port);
	assert_string_equal(r.name, "fw_fatal");
	assert_true(r.error);
	assert_int_equal(r.errors, 3);
	assert_int_equal(r.recovers, 2);
	assert_int_equal(r.graceful_ms, 500);
	assert_true(r.has_auto_recover && r.auto_recover);
}

static void port_reporter(void **state)
{
	struct devlinknl_reporter r;
	struct nlmsghdr *nlh = reply("tx", 65535, false);

	(void)state;
	assert_int_equal(devlinknl_parse_reporter(nlh, nlh->nlmsg_len, &r), 0);
	assert_true(r.has_port);
	assert_int_equal(r.port, 65535);
}

static void malformed(void **state)
{
	struct devlinknl_reporter r;
	struct nlmsghdr *nlh;

	(void)state;
	nlh = reply(NULL, -1, false);		/* no name */
	assert_int_equal(devlinknl_parse_reporter(nlh, nlh->nlmsg_len, &r), -EINVAL);
	nlh = reply("fw", -1, true);		/* a state of the wrong size */
	assert_int_equal(devlinknl_parse_reporter(nlh, nlh->nlmsg_len, &r), -EINVAL);
	nlh = reply("fw", -1, false);		/* cut short */
	assert_int_equal(devlinknl_parse_reporter(nlh, nlh->nlmsg_len - 8, &r), -EINVAL);
	assert_int_equal(devlinknl_parse_reporter(nlh, 4, &r), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(device_reporter),
		cmocka_unit_test(port_reporter),
		cmocka_unit_test(malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
