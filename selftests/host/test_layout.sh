#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_layout.sh - the house rules a reader relies on, checked on the tree:
#  - the collector keeps no writable file-scope data: every object of
#    userspace/collector/ (the plain build, build/obj/collector) has no
#    symbol in .data or .bss (const tables, .data.rel.ro, are fine), but
#    fsread.c's backend hook, which only tests and fuzzers set
#    (Documentation/collector.rst);
#  - no file in userspace/ outside fabteld/ includes a header of fabteld's,
#    but fabteld's own tests and fuzzers (its config and HTTP);
#  - no source file of kmod/ or userspace/ over 600 lines, no function of
#    kmod/ over 80 lines (a body from a line "{" to its line "}").
. "$(dirname "$0")/../lib.sh"

OBJ=${OBJ:-$REPO/build/obj/collector}
U=$REPO/userspace
ALLOWED_DATA="fsread.o:backend"
ALLOWED_INCLUDERS="tests/test_config.c tests/test_actions.c fuzz/fuzz_config.c fuzz/fuzz_http.c"

ktap_begin 4

objs=("$OBJ"/*.o)
if [[ ! -e ${objs[0]} ]]; then
	ktap_fail "collector objects have no writable file-scope data" "no objects in $OBJ (make)"
else
	data=$(for f in "${objs[@]}"; do
		objdump -t "$f" | awk -v f="${f##*/}" '$3 == "O" && $4 ~ /^\.(data|bss)(\.|$)/ && $4 !~ /rel\.ro/ { print f ":" $NF }'
	done | grep -vxF "$ALLOWED_DATA")
	ktap_check "${#objs[@]} collector objects: no writable file-scope data but $ALLOWED_DATA${data:+ (found: $(echo $data))}" \
		test -z "$data"
fi

fabteld_hdrs=$(cd "$U/fabteld" && ls *.h | paste -sd'|')
inc=$(cd "$U" && grep -rlE "#include \"($fabteld_hdrs)\"" --include='*.[ch]' . |
	sed 's|^\./||' | grep -v '^fabteld/' | sort)
bad=$(comm -23 <(echo "$inc") <(tr ' ' '\n' <<<"$ALLOWED_INCLUDERS" | sort) | grep .)
ktap_check "no file outside userspace/fabteld/ includes its headers (but $ALLOWED_INCLUDERS)${bad:+: $(echo $bad)}" \
	test -z "$bad"

long=$(cd "$REPO" && find kmod userspace -name '*.[ch]' -exec wc -l {} + | awk '$2 != "total" && $1 > 600 { print $2 "(" $1 ")" }')
ktap_check "no source file of kmod/ or userspace/ over 600 lines${long:+: $(echo $long)}" test -z "$long"

# a function: a line starting "{" after its signature, to the next line "}"
longf=$(cd "$REPO" && find kmod -name '*.c' -exec awk '
	/^\{/ { start = FNR; name = prev }
	/^\}/ && start { if (FNR - start - 1 > 80) print FILENAME ":" name "(" FNR - start - 1 ")"; start = 0 }
	{ prev = $0 }' {} + | sed 's/(\([^)]*\)(.*)(/(/')
ktap_check "no function of kmod/ over 80 lines${longf:+: $(echo $longf)}" test -z "$longf"

ktap_end
