#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_prometheus_rules.sh - deploy/prometheus/rules.yml is clean for promtool
# and passes its unit tests (rules_test.yml; cluster_test.yml, the rules of
# one job across hosts by shape), which can fail: a broken FabtelLinkFlap
# threshold, a probe culprit that weighs nothing, make them fail; every rule
# has a unit test; the cluster rules hold over 1,000 generated hosts; the
# Grafana dashboards deploy/grafana/fabtel.json and fabtel-cluster.json
# are valid JSON, use the
# DS_PROMETHEUS data source variable, and queries only valid PromQL over
# fabtel's own metrics and recorded series; the Alertmanager route of
# deploy/alertmanager/route.yml is valid for amtool and sends
# the fault alerts, and only those, to its drain webhook.
#
# KTAP output; exit 0 on success, 1 on a failure, 4 (skip) without promtool.
set -u

REPO=$(cd "$(dirname "$0")/../.." && pwd)
RULES=$REPO/deploy/prometheus/rules.yml
RULES_TEST=$REPO/deploy/prometheus/tests/rules_test.yml
CLUSTER_TEST=$REPO/deploy/prometheus/tests/cluster_test.yml
PLAN=18

echo "KTAP version 1"
if ! command -v promtool >/dev/null 2>&1; then
	echo "1..0 # SKIP promtool not found (Debian: apt-get install prometheus)"
	exit 4
fi
echo "1..$PLAN"

n=0
failed=0
diag() { local l; while IFS= read -r l; do echo "# $l"; done <<<"$*"; }
pass() { n=$((n + 1)); echo "ok $n $1"; }
# rules_clean DESC FILE...: promtool check rules exits 0 and warns of nothing
rules_clean() {
	local desc=$1 out rc
	shift
	out=$(promtool check rules "$@" 2>&1)
	rc=$?
	if ((rc == 0)) && ! grep -qiE 'error|warn' <<<"$out"; then
		pass "$desc"
	else
		fail "$desc" "rc=$rc
$out"
	fi
}
fail() { # DESC [DIAGNOSTICS]
	n=$((n + 1))
	failed=$((failed + 1))
	[[ -n ${2:-} ]] && diag "$2"
	echo "not ok $n $1"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- rules ------------------------------------------------------------------

# 1: promtool check rules: success, and no warning or error line.
out=$(promtool check rules --lint=all "$RULES" 2>&1)
rc=$?
bad=$(grep -iE 'warn|error' <<<"$out" | grep -v SUCCESS)
if ((rc == 0)) && [[ -z $bad ]] && grep -q SUCCESS <<<"$out"; then
	pass "promtool check rules rules.yml is clean"
else
	fail "promtool check rules rules.yml is clean" "rc=$rc
$out"
fi

# 2: the unit tests pass: the host rules' and the cluster rules' (by shape).
out=$(promtool test rules "$RULES_TEST" "$CLUSTER_TEST" 2>&1)
rc=$?
if ((rc == 0)) && (($(grep -c SUCCESS <<<"$out") == 2)); then
	pass "promtool test rules rules_test.yml cluster_test.yml passes"
else
	fail "promtool test rules rules_test.yml cluster_test.yml passes" "rc=$rc
$out"
fi

# mutant_fails DESC SED TEST WANT GONE: rules.yml changed by SED must make
# the unit test file TEST fail, its output naming WANT; GONE says what the
# SED no longer finds when it changes nothing.
mkdir -p "$tmp/mut/tests"
mutant_fails() {
	local desc=$1 out rc
	sed -E "$2" "$RULES" >"$tmp/mut/rules.yml"
	cp "$3" "$tmp/mut/tests/"
	if cmp -s "$RULES" "$tmp/mut/rules.yml"; then
		fail "$desc" "the sed did not change rules.yml: $5"
		return
	fi
	out=$(promtool test rules "$tmp/mut/tests/$(basename "$3")" 2>&1)
	rc=$?
	if ((rc != 0)) && grep -qF -- "$4" <<<"$out"; then
		pass "$desc"
	else
		fail "$desc" "rc=$rc
$out"
	fi
}

# 3: ...and can fail: with FabtelLinkFlap's threshold at 1e9 a flap no longer
# fires it, so the tests fail, and for that alert.
mutant_fails "rules_test.yml fails when FabtelLinkFlap's threshold is broken (> 1e9)" \
	's/^( *expr: increase\(fabtel_link_flaps_total\[5m\]\)) > 0$/\1 > 1e9/' "$RULES_TEST" \
	'alertname: FabtelLinkFlap' \
	"FabtelLinkFlap's expr is no longer 'increase(fabtel_link_flaps_total[5m]) > 0'"

# 4: every alert and recording rule of rules.yml is tested in rules_test.yml
# or cluster_test.yml.
missing=()
while read -r name; do
	grep -qE "^ *- alertname: $name\$" "$RULES_TEST" "$CLUSTER_TEST" || missing+=("alert $name")
done < <(sed -nE 's/^ *- alert: *([A-Za-z0-9_]+) *$/\1/p' "$RULES")
while read -r name; do
	grep -qF -- "- expr: $name" "$RULES_TEST" "$CLUSTER_TEST" || missing+=("record $name")
done < <(sed -nE 's/^ *- record: *([A-Za-z0-9_:]+) *$/\1/p' "$RULES")
nrules=$(grep -cE '^ *- (alert|record):' "$RULES")
if ((${#missing[@]} == 0 && nrules > 0)); then
	pass "each of the $nrules rules of rules.yml has a unit test"
else
	fail "each rule of rules.yml has a unit test" "untested: ${missing[*]:-no rules found}"
fi

# 4b: the cluster tests can fail: with the probe culprit's tier of the
# evidence at 0, the peer whose QPs see the loss outranks the bad port.
mutant_fails "cluster_test.yml fails when the probe culprit weighs nothing in fabtel:port_evidence" \
	's/^( *)8 \* max by \(instance, device, port\) \($/\10 * max by (instance, device, port) (/' \
	"$CLUSTER_TEST" 'expr: "fabtel:job_port_culprit"' \
	"fabtel:port_evidence's '8 * max by (instance, device, port) (' is gone"

# 4c: the cluster rules over 1,000 hosts (scripts/gen-cluster-fixture.sh:
# one port a host, promtool's own limit): the bad port is the big job's one
# culprit, its hosts counted, the hosts whose probes lose are it and the 2
# that probe it.
"$REPO/scripts/gen-cluster-fixture.sh" promtool "$RULES" 1000 1 >"$tmp/cluster1000.yml"
out=$(promtool test rules "$tmp/cluster1000.yml" 2>&1)
rc=$?
if ((rc == 0)) && grep -q SUCCESS <<<"$out"; then
	pass "the cluster rules over a generated fixture of 1,000 hosts ($(grep -c 'series:' "$tmp/cluster1000.yml") series)"
else
	fail "the cluster rules over a generated fixture of 1,000 hosts" "rc=$rc
$(head -20 <<<"$out")"
fi

# 5: the rules folder as a whole (its tests live in tests/, not beside it).
rules_clean "promtool check rules deploy/prometheus/*.yml is clean" "$REPO"/deploy/prometheus/*.yml

# 6: every alert has a runbook_url ending in #<its name, lower case>, and
# Documentation/runbooks.rst a section titled with its name.
RUNBOOKS=$REPO/Documentation/runbooks.rst
missing=()
while read -r name; do
	low=$(tr 'A-Z' 'a-z' <<<"$name")
	awk -v a="$name" -v l="$low" '
		$0 ~ "- alert: " a "$" { in_a = 1; next }
		in_a && /- (alert|record):/ { exit }
		in_a && /runbook_url:/ && index($0, "#" l "\x27") { found = 1; exit }
		END { exit !found }' "$RULES" || missing+=("$name: no runbook_url #$low")
	grep -qx "$name" "$RUNBOOKS" || missing+=("$name: no section in runbooks.rst")
done < <(sed -nE 's/^ *- alert: *([A-Za-z0-9_]+) *$/\1/p' "$RULES")
if ((${#missing[@]} == 0)); then
	pass "every alert has a runbook_url and a section in Documentation/runbooks.rst"
else
	fail "every alert has a runbook_url and a section in Documentation/runbooks.rst" \
		"$(printf '%s\n' "${missing[@]}")"
fi

# ---- dashboards ---------------------------------------------------------------

# The dashboards checked alike: the host one and the cluster one.
DASHES=("$REPO/deploy/grafana/fabtel.json" "$REPO/deploy/grafana/fabtel-cluster.json")

# dash_exprs FILE: a dashboard's queries: panel targets (rows' nested panels
# too), query variables, annotations.
dash_exprs() {
	jq -r '(.. | objects | select(has("targets")) | .targets[] | .expr // empty),
	       (.templating.list[] | select(.type == "query") | .definition),
	       (.annotations.list[] | .expr // empty)' "$1"
}

# metric_names EXPR: the metric names an expression selects, one a line.
# Drops strings, label matchers, ranges, by/on/... label lists, function and
# aggregation names, keywords and numbers; what is left are metric names.
# A {__name__=~"..."} selector yields its regex prefixed by "__name__=";
# Grafana's label_values(METRIC, LABEL) its METRIC.
metric_names() {
	local e=$1
	[[ $e =~ ^label_values\(([^,]*), ]] && e=${BASH_REMATCH[1]}
	grep -oE '__name__ *=~? *"[^"]*"' <<<"$e" | sed -E 's/^__name__ *=~? *"(.*)"$/__name__=\1/'
	e=$(sed -E 's/"([^"\\]|\\.)*"//g; s/\{[^}]*\}/ /g; s/\[[^]]*\]/ /g' <<<"$e")
	e=$(sed -E 's/\b(by|without|on|ignoring|group_left|group_right) *\([^)]*\)/ /g' <<<"$e")
	e=$(sed -E 's/[A-Za-z_][A-Za-z0-9_]* *\(/ (/g' <<<"$e")
	e=$(sed -E 's/\b(and|or|unless|bool|offset|group_left|group_right)\b/ /g; s/\b[0-9][0-9A-Za-z.]*\b/ /g' <<<"$e")
	grep -oE '[A-Za-z_:][A-Za-z0-9_:]*' <<<"$e"
}

# check_names EXPR...: prints what is wrong with the metrics each selects:
# a name not fabtel_*, job_id:fabtel_*, instance_device_port:fabtel_* or
# fabtel:* (the cluster rules' level), a recorded series rules.yml does not
# record, or none at all.
check_names() {
	local e name
	for e in "$@"; do
		mapfile -t names < <(metric_names "$e")
		((${#names[@]})) || echo "no metric in: $e"
		for name in "${names[@]}"; do
			case $name in
			__name__=*)
				[[ ${name#__name__=} =~ ^fabtel_[a-z_]*(\([a-z_|]*\))?[a-z_]*$ ]] ||
					echo "$name is not only fabtel_ metrics, in: $e" ;;
			job_id:fabtel_* | instance_device_port:fabtel_* | fabtel:*)
				grep -qE "^ *- record: *$name *\$" "$RULES" ||
					echo "$name is not recorded by rules.yml, in: $e" ;;
			fabtel_*) ;;
			*) echo "$name is not a fabtel metric, in: $e" ;;
			esac
		done
	done
}

# 7: the name check itself rejects foreign and unrecorded names, of each
# recorded level (fabtel:nonesuch: a fabtel: name is no free pass either),
# and takes the recorded ones, label_replace()'s "$1" included.
out=$(check_names 'rate(node_network_carrier_changes_total{device="eth0"}[5m]) > 0' \
	'job_id:fabtel_nonesuch:rate1m' 'sum by (job) (rate({__name__=~"node_.*|fabtel_x"}[1m]))' \
	'max by (job_id) (fabtel_job_verdict) == 2' 'label_values(fabtel_job_info, job_id)' \
	'fabtel:nonesuch and on (host) fabtel:job_host' \
	'label_replace(fabtel:job_host, "peer_host", "$1", "host", "(.*)")')
want="node_network_carrier_changes_total is not a fabtel metric, in: rate(node_network_carrier_changes_total{device=\"eth0\"}[5m]) > 0
job_id:fabtel_nonesuch:rate1m is not recorded by rules.yml, in: job_id:fabtel_nonesuch:rate1m
__name__=node_.*|fabtel_x is not only fabtel_ metrics, in: sum by (job) (rate({__name__=~\"node_.*|fabtel_x\"}[1m]))
fabtel:nonesuch is not recorded by rules.yml, in: fabtel:nonesuch and on (host) fabtel:job_host"
if [[ $out == "$want" ]]; then
	pass "the metric-name check rejects foreign and unrecorded names"
else
	fail "the metric-name check rejects foreign and unrecorded names" "got:
$out
want:
$want"
fi

# 8-11 for each dashboard.
for DASH in "${DASHES[@]}"; do
	dname=$(basename "$DASH")

	# 8: valid JSON, a dashboard with panels.
	if ! command -v jq >/dev/null 2>&1; then
		fail "grafana/$dname is valid JSON" "jq not found (apt-get install jq)"
		dash_ok=0
	elif out=$(jq -e '.panels | length > 0' "$DASH" 2>&1); then
		pass "grafana/$dname is valid JSON"
		dash_ok=1
	else
		fail "grafana/$dname is valid JSON" "$out"
		dash_ok=0
	fi

	# 9: a datasource variable DS_PROMETHEUS of type prometheus, job_id and
	# instance variables from label_values, and every panel and target on
	# ${DS_PROMETHEUS}.
	desc="$dname: DS_PROMETHEUS, job_id, instance variables; panels use \${DS_PROMETHEUS}"
	if ((dash_ok)); then
		out=$(jq -r '
			def ds_ok: type == "object" and .uid == "${DS_PROMETHEUS}" and .type == "prometheus";
			(if any(.templating.list[]; .name == "DS_PROMETHEUS" and .type == "datasource" and .query == "prometheus")
			 then empty else "no datasource variable DS_PROMETHEUS of type prometheus" end),
			(.templating.list[] as $v | ["job_id", "instance"][] as $want
			 | select($v.name == $want)
			 | if ($v.type == "query" and ($v.definition | test("^label_values\\(.*, *" + $want + "\\)$")) and ($v.datasource | ds_ok))
			   then empty else "variable \($want) is not label_values(..., \($want)) on ${DS_PROMETHEUS}" end),
			(["job_id", "instance"][] as $want
			 | if any(.templating.list[]; .name == $want) then empty else "no variable \($want)" end),
			(.. | objects | select(has("gridPos") and .type != "row")
			 | select((.datasource | ds_ok | not) or (.targets | length == 0) or any(.targets[]; .datasource | ds_ok | not))
			 | "panel \(.id) \"\(.title)\": no targets or not on ${DS_PROMETHEUS}")' "$DASH" 2>&1)
		if [[ -z $out ]]; then
			pass "$desc"
		else
			fail "$desc" "$out"
		fi
	else
		fail "$desc" "$dname does not parse"
	fi

	# 10: every dashboard query selects only fabtel metrics and recorded series.
	desc="$dname queries use only fabtel_* series and series rules.yml records"
	if ((dash_ok)); then
		mapfile -t exprs < <(dash_exprs "$DASH")
		out=$(check_names "${exprs[@]}")
		if ((${#exprs[@]} >= 10)) && [[ -z $out ]]; then
			pass "$desc (${#exprs[@]} queries)"
		else
			fail "$desc" "${out:-only ${#exprs[@]} queries found}"
		fi
	else
		fail "$desc" "$dname does not parse"
	fi

	# 11: every dashboard query is valid PromQL: Grafana's variables replaced,
	# each becomes a recording rule for promtool check rules.  label_values()
	# is Grafana's: its metric is checked instead.
	desc="$dname queries are valid PromQL"
	if ((dash_ok)); then
		{
			echo "groups:"
			echo "  - name: dashboard"
			echo "    rules:"
			i=0
			while IFS= read -r e; do
				[[ $e =~ ^label_values\(([^,]*), ]] && e=${BASH_REMATCH[1]}
				e=${e//\$__rate_interval/1m}
				e=${e//\$__interval/1m}
				e=${e//\$__range/1h}
				e=${e//\$job_id/.*}
				e=${e//\$instance/.*}
				e=${e//\'/\'\'}
				i=$((i + 1))
				echo "      - record: dashboard_query_$i"
				echo "        expr: '$e'"
			done < <(dash_exprs "$DASH")
		} >"$tmp/dashboard_rules.yml"
		rules_clean "$desc" "$tmp/dashboard_rules.yml"
	else
		fail "$desc" "$dname does not parse"
	fi
done

# the central action's route: amtool's own check, and its routing tree
desc="deploy/alertmanager/route.yml: amtool check-config, and FabtelPortRecentFault, FabtelDriverWedged, FabtelNICFirmware routed to fabric-drain, FabtelLinkFlap not"
AM=$REPO/deploy/alertmanager/route.yml
if ! command -v amtool >/dev/null; then
	fail "$desc" "amtool missing (apt-get install prometheus-alertmanager: scripts/deps.sh)"
else
	got=""
	for a in FabtelPortRecentFault FabtelDriverWedged FabtelNICFirmware FabtelLinkFlap; do
		got+="$(amtool config routes test --config.file="$AM" alertname=$a instance=h1 2>/dev/null) "
	done
	if amtool check-config "$AM" >/dev/null 2>&1 &&
	   [[ $got == "fabric-drain fabric-drain fabric-drain default " ]]; then
		pass "$desc"
	else
		fail "$desc" "$(amtool check-config "$AM" 2>&1 | tail -3); routes: $got"
	fi
fi

if ((n != PLAN)); then
	diag "planned $PLAN tests, ran $n"
	exit 1
fi
((failed)) && exit 1
exit 0
