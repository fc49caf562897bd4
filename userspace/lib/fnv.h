/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fnv.h - FNV-1a, 32 bits: the collector's table keys (kept files and
 * listings by path, the model's ports by device name and number).  Not for
 * anything an outsider chooses to collide: the tables it indexes compare
 * the whole key after the hash.
 */
#ifndef FABTEL_FNV_H
#define FABTEL_FNV_H

#include <stdint.h>

#define FNV1A_INIT	2166136261u
#define FNV1A_PRIME	16777619u

/* H with the bytes of the string S folded in */
static inline uint32_t fnv1a_str(uint32_t h, const char *s)
{
	while (*s)
		h = (h ^ (uint8_t)*s++) * FNV1A_PRIME;
	return h;
}

/* H with the 32-bit value V folded in as one step */
static inline uint32_t fnv1a_u32(uint32_t h, uint32_t v)
{
	return (h ^ v) * FNV1A_PRIME;
}

#endif /* FABTEL_FNV_H */
