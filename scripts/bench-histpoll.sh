#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-histpoll.sh HISTORY OUT - runs in a lab guest for make bench's flap
# stage: every 5 ms, read fabtel.ko's link/history and append its newest
# line to OUT (a file in the lab folder, which the host watches) when it
# changes.  Builtins only in the loop: no fork per look.
H=$1 O=$2
fifo=$(mktemp -u /tmp/histpoll.XXXXXX)
mkfifo "$fifo" || exit 1
exec 9<>"$fifo"		# read -t on it is a sleep without a fork
rm -f "$fifo"
last=
echo "# polling $H" >>"$O"	# the host waits for this line
while :; do
	mapfile -t L <"$H" || exit 1
	if ((${#L[@]})) && [[ ${L[-1]} != "$last" ]]; then
		last=${L[-1]}
		printf '%s\n' "$last" >>"$O"
	fi
	read -r -t 0.005 -u 9 _
done
