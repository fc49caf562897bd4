// SPDX-License-Identifier: GPL-2.0
/*
 * fabteld - fabtel's collector.  Placeholder until issue 4: it only answers
 * --version and --help, and says plainly that collecting is not there yet.
 */
#include <stdio.h>
#include <string.h>

#ifndef FABTEL_VERSION
#define FABTEL_VERSION "0.0.0"
#endif

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--version")) {
		printf("fabteld %s\n", FABTEL_VERSION);
		return 0;
	}
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: fabteld [--version | --help]\n");
		return 0;
	}
	fprintf(stderr, "fabteld: the collector is not implemented yet\n");
	return 1;
}
