// SPDX-License-Identifier: GPL-2.0
/*
 * schema_dump - userspace's view of the counter schema (schema.h), one
 * line per fact, for selftests/host/test_schema.sh to hold against
 * Documentation/counters.rst and the lab's expectations:
 *
 *	counter <name> <width> <unit> <error 0|1>
 *	map <vendor> <driver counter> <normalized counter> <width>
 *	hw <driver counter> <normalized counter>   (what plain sysfs maps)
 */
#include <stdio.h>

#include "schema.h"

int main(void)
{
	const char *hw;
	unsigned int v, i, width;
	int c;

	for (c = 0; c < FABTEL_NR_COUNTERS; c++)
		printf("counter %s %u %s %d\n", schema_ctr_name(c), schema_ctr_width(c),
		       schema_ctr_unit(c), schema_ctr_is_error(c));
	for (v = 0; v < schema_vendor_count(); v++)
		for (i = 0; (c = schema_vendor_entry(v, i, &hw, &width)) >= 0; i++) {
			printf("map %s %s %s %u\n", schema_vendor_name(v), hw,
			       schema_ctr_name(c), width);
			printf("hw %s %s\n", hw, schema_ctr_name(schema_hw_find(NULL, hw)));
		}
	return 0;
}
