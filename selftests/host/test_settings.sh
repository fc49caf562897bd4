#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_settings.sh - fabteld's one settings table (userspace/fabteld/
# settings.c) and everything that must say the same: deploy/fabteld.conf
# and the option table of Documentation/fabteld.rst are what
# `fabteld --print-settings conf|rst` prints from it, and the defaults the
# parser sets (config_defaults) and the collector's own
# (collect_opts_default, health.c) are the table's
# (`fabteld --print-settings check`).  A default changed in one place only
# fails here.  After an intended change of the table:
#   fabteld --print-settings conf >deploy/fabteld.conf
# and paste `fabteld --print-settings rst` between the "settings table"
# comments of Documentation/fabteld.rst.
# FABTELD=path tests another build.
. "$(dirname "$0")/../lib.sh"

FABTELD=${FABTELD:-$REPO/build/fabteld}
[[ -x $FABTELD ]] || ktap_skip_all "$FABTELD not built (make)"
CONF=$REPO/deploy/fabteld.conf
RST=$REPO/Documentation/fabteld.rst

ktap_begin 3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# a difference, as diff prints it (the first lines), or nothing
differs() { # WANT GOT
	diff -u "$1" "$2" | head -n 40
}

"$FABTELD" --print-settings conf >"$TMP/conf"
out=$(differs "$CONF" "$TMP/conf")
if [[ -z $out ]]; then
	ktap_pass "deploy/fabteld.conf is the settings table's"
else
	ktap_fail "deploy/fabteld.conf is the settings table's" "$out"
fi

"$FABTELD" --print-settings rst >"$TMP/rst"
awk '/^\.\. end of settings table/ { on = 0 }
     on && (NF || started) { started = 1; print }
     /^\.\. settings table:/ { on = 1 }' "$RST" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$TMP/doc"
out=$(differs "$TMP/doc" "$TMP/rst")
if [[ -s $TMP/doc && -z $out ]]; then
	ktap_pass "Documentation/fabteld.rst's option table is the settings table's"
else
	ktap_fail "Documentation/fabteld.rst's option table is the settings table's" \
		"${out:-no table between the settings table comments}"
fi

ktap_check "the parser's and the collector's defaults are the table's" \
	"$FABTELD" --print-settings check
ktap_end
