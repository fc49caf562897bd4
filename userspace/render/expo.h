/* SPDX-License-Identifier: GPL-2.0 */
/*
 * expo.h - write the Prometheus text exposition format, version 0.0.4.
 *
 * A metric family is opened with expo_family() (its # HELP and # TYPE
 * lines), then its samples follow.  Label values and HELP text are escaped
 * as the format wants (backslash, double quote in label values, newline).
 * Writing a sample whose name or label name is not a valid Prometheus name
 * is refused and counted in ->bad, so a bug cannot emit a line a scraper
 * rejects.  Out of memory sets ->oom; the text is then unusable.
 */
#ifndef FABTEL_EXPO_H
#define FABTEL_EXPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct expo {
	char *buf;
	size_t len, cap;
	unsigned int bad;	/* refused samples or families */
	bool oom;
};

/* A label: name and value.  Arrays of them end with a { NULL, NULL }. */
struct expo_label {
	const char *name;
	const char *value;
};

void expo_init(struct expo *e);
void expo_free(struct expo *e);

/* type: "counter", "gauge", "histogram" (samples NAME_bucket, _sum, _count), "untyped" */
void expo_family(struct expo *e, const char *name, const char *type, const char *help);
void expo_u64(struct expo *e, const char *name, const struct expo_label *labels, uint64_t v);
void expo_double(struct expo *e, const char *name, const struct expo_label *labels, double v);

/* Valid metric name ([a-zA-Z_:][a-zA-Z0-9_:]*) / label name (no ':', no "__" prefix). */
bool expo_valid_metric_name(const char *s);
bool expo_valid_label_name(const char *s);

#endif /* FABTEL_EXPO_H */
