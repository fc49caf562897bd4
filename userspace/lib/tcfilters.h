/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcfilters.h - whether an interface's clsact hooks hold tc filters
 * (rtnetlink RTM_GETTFILTER dump through libmnl).  The wire loader asks it
 * before it removes a clsact qdisc it created: once others' filters use
 * it, the qdisc is theirs too and stays.
 */
#ifndef FABTEL_TCFILTERS_H
#define FABTEL_TCFILTERS_H

#include <stdbool.h>

/* Filters on @ifindex's clsact ingress (or egress) hook: >= 0, or -errno. */
int tc_filters_count(int ifindex, bool egress);

#endif
