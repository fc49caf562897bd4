/* SPDX-License-Identifier: GPL-2.0 */
/*
 * config_probe.h - the prober's settings that are not whole numbers
 * (config_probe.c); config.c hands them the keys it does not know.
 */
#ifndef FABTELD_CONFIG_PROBE_H
#define FABTELD_CONFIG_PROBE_H

#include <stddef.h>

#include "prober.h"

/*
 * A probe_* key that is not a number, or host_name: 0, -1 with err if the
 * value is bad, 1 if key is not one of them.
 */
int config_probe_set(struct probe_cfg *p, const char *key, const char *value, char *err,
		     size_t errlen);

/*
 * The prober's settings that go together (probe_auth_user with
 * probe_auth_password_file): 0, or -1 with err.
 */
int config_probe_check(const struct probe_cfg *p, char *err, size_t errlen);

#endif /* FABTELD_CONFIG_PROBE_H */
