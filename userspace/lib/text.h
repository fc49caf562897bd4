/* SPDX-License-Identifier: GPL-2.0 */
/*
 * text.h - small helpers for the text fabteld reads: its config file, the
 * prober's peers file, the counters of sysfs and procfs, and addresses.
 */
#ifndef FABTEL_TEXT_H
#define FABTEL_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* s without its leading and trailing white space (trailing cut in place) */
char *text_trim(char *s);

/*
 * The decimal digits at s as a number (no sign, no white space, no other
 * base): where they end, or NULL when s holds none or they pass 2^64 - 1.
 * A counter's file read each second parsed without strtoull's locale and
 * base work (a fifth of the instructions).
 */
const char *text_dec_u64(const char *s, uint64_t *v);

/*
 * src into dst of len bytes, cut to fit and always ended (what
 * snprintf(dst, len, "%s", src) does, without its format work: the
 * collector copies a port's names several times a sample).
 */
void text_copy(char *dst, size_t len, const char *src);

/*
 * A GID as an address: an IPv4-mapped one (RoCEv2's for an IPv4 address)
 * in dotted form, any other as IPv6.  len: at least 46 (INET6_ADDRSTRLEN).
 */
void text_gid(char *dst, size_t len, const uint8_t gid[16]);

#endif /* FABTEL_TEXT_H */
