#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# stress.sh - make stress: selftests/lab_fabtel_stress.sh at full size in a
# lab of its own: CYCLES (default 1000) rxe add/delete + fakeroce
# new/del rounds under 4 sysfs readers, then CHURN_CYCLES (default 1000)
# more under a concurrent rmmod/insmod loop of fabtel.ko, then rmmod with
# the readers running.  Both guests' kernel logs must be clean after.
# Under TCG a round takes about 1 s: the default ran 35 minutes here.
# The KTAP log is kept in build/stress/log.
#
#   CYCLES=300 CHURN_CYCLES=300 scripts/stress.sh
set -uo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
FABLAB=$REPO/scripts/fablab
OUT=$REPO/build/stress
CYCLES=${CYCLES:-1000}
CHURN_CYCLES=${CHURN_CYCLES:-1000}

[[ $CYCLES =~ ^[0-9]+$ && $CHURN_CYCLES =~ ^[0-9]+$ ]] ||
	{ echo "stress: CYCLES and CHURN_CYCLES are whole numbers" >&2; exit 2; }
for f in "$REPO/kmod/fabtel.ko" "$REPO/kmod/fakeroce.ko"; do
	[[ -e $f ]] || { echo "stress: $f missing: run make first" >&2; exit 1; }
done
mkdir -p "$OUT"
trap '"$FABLAB" down >/dev/null 2>&1' EXIT
trap 'exit 130' INT TERM

echo "stress: booting the lab"
"$FABLAB" down >/dev/null 2>&1
"$FABLAB" up >"$OUT/fablab-up.log" 2>&1 || { cat "$OUT/fablab-up.log" >&2; exit 1; }
start=$SECONDS
# a round is ~1.5 s under TCG; allow 4 s
limit=$(((CYCLES + CHURN_CYCLES) * 4 + 300))
"$FABLAB" run --timeout "$limit" a -- \
	"CYCLES=$CYCLES CHURN_CYCLES=$CHURN_CYCLES bash $(printf %q "$REPO/selftests/lab_fabtel_stress.sh")" \
	2>&1 | tee "$OUT/log"
rc=${PIPESTATUS[0]}
took=$((SECONDS - start))
trouble=$(for h in a b; do
	"$FABLAB" trouble "$h" 2>&1 | sed "s/^/$h: /"
done)
{
	echo "fabtel stress: $CYCLES + $CHURN_CYCLES rounds in ${took} s (TCG), test exit $rc"
	grep -E '^(not )?ok ' "$OUT/log" | sed 's/^/  /'
	if [[ -n $trouble ]]; then
		echo "kernel logs: TROUBLE"
		echo "$trouble" | head -20
	else
		echo "kernel logs of both guests: clean"
	fi
} | tee "$OUT/summary.txt"
((rc == 0)) && [[ -z $trouble ]]
