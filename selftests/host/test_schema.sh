#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_schema.sh - the one counter schema (include/fabtel_schema.h) and
# everything that must say the same: userspace's view of it (schema_dump,
# userspace/tests/schema_dump.c with userspace/collector/schema.c, compiled
# here with $CC), fabtel.ko's tables (kmod/fabtel/fabtel_counters.c builds them
# from the header's lists, names no driver counter itself),
# Documentation/counters.rst (the map table and one definition per
# counter) and the lab's expectations of the live module
# (selftests/lab_fabtel_fakeroce.sh).  A counter renamed in one place only
# fails here, naming the counter.
. "$(dirname "$0")/../lib.sh"

DOC=$REPO/Documentation/counters.rst
LAB=$REPO/selftests/lab_fabtel_fakeroce.sh
KO=$REPO/kmod/fabtel/fabtel_counters.c
VENDORS=(mlx5 bnxt_re irdma rxe)
CC=${CC:-cc}
command -v "$CC" >/dev/null || ktap_skip_all "no C compiler ($CC)"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# schema_dump built here from the sources as they are now, never a stale
# build/schema_dump: a header edited since the last make is what is tested
DUMP=$TMP/schema_dump
if ! "$CC" -std=c11 -Wall -Wextra -Werror -I"$REPO/include" \
	-I"$REPO/userspace/collector" "$REPO/userspace/tests/schema_dump.c" \
	"$REPO/userspace/collector/schema.c" -o "$DUMP" 2>"$TMP/cc.log"; then
	ktap_begin 1
	ktap_fail "schema_dump builds from include/fabtel_schema.h" "$(head -n 20 "$TMP/cc.log")"
	ktap_end
fi

ktap_begin $((6 + ${#VENDORS[@]}))

"$DUMP" >"$TMP/schema"
awk '$1 == "counter" { print $2 }' "$TMP/schema" | sort >"$TMP/counters"

# counters.rst's map table: "map VENDOR DRIVER-COUNTER COUNTER" and
# "row COUNTER"; a cell wrapped onto the next line is joined back.
sed 's/—/-/g' "$DOC" | awk '
	/^The map$/ { in_map = 1 }
	in_map && /^=+( +=+)+ *$/ {
		border++
		if (border == 1) {
			n = 0
			for (i = 1; i <= length($0); i++)
				if (substr($0, i, 1) == "=" && (i == 1 || substr($0, i - 1, 1) == " "))
					col[++n] = i
			col[n + 1] = 1000
		}
		if (border == 3) in_map = 0
		next
	}
	function cell(line, i,   s) {
		s = substr(line, col[i], col[i + 1] - col[i])
		gsub(/\[[0-9]+\]/, "", s); gsub(/^ +| +$/, "", s)
		return s
	}
	in_map && border == 1 { for (i = 1; i <= n; i++) { v[i] = cell($0, i); sub(/ .*/, "", v[i]) } }
	in_map && border == 2 && NF {
		if (cell($0, 1) != "") rows++
		for (i = 1; i <= n; i++) c[rows, i] = c[rows, i] cell($0, i)
	}
	END {
		for (r = 1; r <= rows; r++) {
			print "row", c[r, 1]
			for (i = 2; i <= n; i++)
				if (c[r, i] != "-" && c[r, i] != "")
					print "map", v[i], c[r, i], c[r, 1]
		}
	}' >"$TMP/doc"
# its definitions: "name" or "a / b / c" alone on a line, after the heading
awk '/^What each one means$/ { on = 1; next }
     on && /^[A-Z]/ && !/^[a-z]/ { on = 0 }
     on && /^[a-z_]+( \/ [a-z_]+)*$/ { n = split($0, w, " / "); for (i = 1; i <= n; i++) print w[i] }' \
	"$DOC" | sort >"$TMP/defined"

# what differs between two sorted lists, as "only in A: x" lines
differs() { comm -3 "$1" "$2" | sed "s/^\t/only in $4: /; t; s/^/only in $3: /"; }

awk '$1 == "row" { print $2 }' "$TMP/doc" | sort >"$TMP/rows"
d=$(differs "$TMP/counters" "$TMP/rows" schema counters.rst)
ktap_eq "counters.rst's map table has one row per normalized counter" "$d" ""
d=$(differs "$TMP/counters" "$TMP/defined" schema counters.rst)
ktap_eq "counters.rst defines each normalized counter" "$d" ""

for v in "${VENDORS[@]}"; do
	awk -v v="$v" '$1 == "map" && $2 == v { print $3, $4 }' "$TMP/schema" | sort >"$TMP/s.$v"
	awk -v v="$v" '$1 == "map" && $2 == v { print $3, $4 }' "$TMP/doc" | sort >"$TMP/d.$v"
	n=$(wc -l <"$TMP/s.$v")
	d=$(differs "$TMP/s.$v" "$TMP/d.$v" schema counters.rst)
	ktap_eq "$v: the schema's $n mappings are counters.rst's" "$d" ""
done

# plain sysfs maps each driver counter as its vendor does
awk '$1 == "map" { print $3, $4 }' "$TMP/schema" | sort -u >"$TMP/s.maps"
awk '$1 == "hw" { print $2, $3 }' "$TMP/schema" | sort -u >"$TMP/s.flat"
d=$(differs "$TMP/s.maps" "$TMP/s.flat" "the vendor maps" "schema_hw_find(NULL)")
ktap_eq "userspace's plain-sysfs lookup gives each vendor's mapping" "$d" ""

# the lab's expectations of the live module (three personalities + ALL)
# (its block of assignments, MAP_mlx5= up to the plan line, and nothing else)
sed -n '/^MAP_mlx5=/,/^ktap_begin/p' "$LAB" | sed '$d' >"$TMP/lab.sh"
MAP_mlx5="" MAP_bnxt_re="" MAP_irdma="" ALL=""
# shellcheck disable=SC1090,SC1091
. "$TMP/lab.sh"
for v in mlx5 bnxt_re irdma; do
	m=MAP_$v
	for pair in ${!m}; do echo "$v ${pair%%:*} ${pair##*:}"; done
done | sort >"$TMP/lab"
awk '$1 == "map" && $2 != "rxe" { print $2, $3, $4 }' "$TMP/schema" | sort >"$TMP/s.lab"
d=$(differs "$TMP/s.lab" "$TMP/lab" schema lab_fabtel_fakeroce.sh)
[[ -s $TMP/lab ]] || d="no MAP_ lists read from $LAB"
ktap_eq "lab_fabtel_fakeroce.sh expects the schema's mlx5, bnxt_re, irdma maps" "$d" ""
d=$(differs "$TMP/counters" <(printf '%s\n' $ALL | sort) schema lab_fabtel_fakeroce.sh)
ktap_eq "lab_fabtel_fakeroce.sh's ALL is the schema's counter list" "$d" ""

# fabtel.ko: its tables come from the header's lists, no name of its own
quoted=$(awk '$1 == "map" { print $3 }' "$TMP/schema" | sort -u | while read -r hw; do
	grep -q "\"$hw\"" "$KO" && echo "$hw"; done | xargs)
if [[ -z $quoted ]] && grep -q 'FABTEL_COUNTERS(' "$KO" && grep -q 'FABTEL_VENDORS(' "$KO"; then
	ktap_pass "fabtel.ko builds its names and maps from include/fabtel_schema.h"
else
	ktap_fail "fabtel.ko builds its names and maps from include/fabtel_schema.h" \
		"kmod/fabtel/fabtel_counters.c names driver counters itself: ${quoted:-(none)}; or no FABTEL_COUNTERS/FABTEL_VENDORS"
fi
ktap_end
