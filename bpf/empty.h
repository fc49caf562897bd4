/* SPDX-License-Identifier: GPL-2.0 */
/* empty.h - nothing shared: empty.bpf.c is make bench's baseline TC program. */
#ifndef FABTEL_EMPTY_H
#define FABTEL_EMPTY_H
#endif /* FABTEL_EMPTY_H */
