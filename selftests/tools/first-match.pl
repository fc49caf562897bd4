#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# first-match.pl PATTERN: read stdin (a terminal's output, from tmux
# pipe-pane) and print the time (s since the epoch, us resolution) at which
# PATTERN first arrives; then keep draining stdin so the writer never blocks.
use strict;
use warnings;
use Time::HiRes qw(time);

my $pat = shift or die "usage: first-match.pl PATTERN\n";
my ($buf, $tail) = ('', '');
$| = 1;
while (sysread(STDIN, $buf, 65536)) {
	my $s = $tail . $buf;
	if ($s =~ /$pat/) {
		printf "%.6f\n", time;
		close STDOUT;
		1 while sysread(STDIN, $buf, 65536);
		exit 0;
	}
	$tail = substr($s, -256);
}
