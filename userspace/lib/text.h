/* SPDX-License-Identifier: GPL-2.0 */
/*
 * text.h - small helpers for the line-oriented files fabteld reads
 * (its config file, the prober's peers file).
 */
#ifndef FABTEL_TEXT_H
#define FABTEL_TEXT_H

/* s without its leading and trailing white space (trailing cut in place) */
char *text_trim(char *s);

#endif /* FABTEL_TEXT_H */
