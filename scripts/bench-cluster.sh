# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# bench-cluster.sh - make bench's "cluster" stage, sourced by scripts/bench.sh
# (it uses OUT and B from there); no lab.
#
# The cost of the cluster view (Documentation/cluster.rst) at 1,000 hosts
# of 8 ports: scripts/gen-cluster-fixture.sh's series (about 68,000: jobs
# big and small-01..20, 32,000 probe pairs, one bad port) served as one
# static exposition (busybox httpd) to a Prometheus of the stage's own,
# which scrapes it every 15 s with honor_labels (so the series keep their
# instance) and evaluates deploy/prometheus/rules.yml.  Once the rules name
# the culprit: the rule group's own evaluation time (Prometheus's
# /api/v1/rules), and BENCH_CLUSTER_RUNS (20) refreshes of fabtop
# --prometheus --once --json, the jobs list and job big's page: queries
# sent and their time as fabtop counts them, wall time of the whole run,
# p50 and max.
CLUSTER_RUNS=${BENCH_CLUSTER_RUNS:-20}

cluster_stage() {
	local d=$OUT/cluster port hport i ok=0 pid_prom pid_http t0 t1 list job
	rm -rf "$d"
	mkdir -p "$d/www" "$d/prom"
	"$REPO/scripts/gen-cluster-fixture.sh" exposition 1000 8 >"$d/www/metrics"
	hport=$("$REPO/scripts/fablab" free-port)
	port=$("$REPO/scripts/fablab" free-port)
	while [[ $port == "$hport" ]]; do port=$("$REPO/scripts/fablab" free-port); done
	busybox httpd -f -p "127.0.0.1:$hport" -h "$d/www" &
	pid_http=$!
	cat >"$d/prom/prometheus.yml" <<YML
global:
  scrape_interval: 15s
  evaluation_interval: 15s
rule_files:
  - $REPO/deploy/prometheus/rules.yml
scrape_configs:
  - job_name: fixture
    honor_labels: true
    metrics_path: /metrics
    static_configs:
      - targets: ['127.0.0.1:$hport']
YML
	prometheus --config.file="$d/prom/prometheus.yml" --storage.tsdb.path="$d/prom/data" \
		--web.listen-address="127.0.0.1:$port" >"$d/prom/log" 2>&1 &
	pid_prom=$!
	# the culprit needs two scrapes (the rates) and an evaluation after them
	for ((i = 0; i < 120; i++)); do
		[[ $(curl -sf "http://127.0.0.1:$port/api/v1/query" \
			--data-urlencode 'query=count(fabtel:job_port_culprit{job_id="big"})' |
			jq -r '.data.result[0].value[1] // empty') == 1 ]] && { ok=1; break; }
		sleep 1
	done
	if ((!ok)); then
		echo "cluster: the rules named no culprit in 120 s (log: $d/prom/log)" >&2
		kill "$pid_prom" "$pid_http"
		wait "$pid_prom" "$pid_http" 2>/dev/null
		return 1
	fi
	# the groups' last evaluation, and the rules that took most of it
	curl -sf "http://127.0.0.1:$port/api/v1/rules" >"$d/rules.json"
	jq -r '.data.groups[] | "cluster rule_group \(.name) \(.evaluationTime * 1000 | floor) ms_per_evaluation"' \
		"$d/rules.json" | tee -a "$OUT/results"
	jq -r '[.data.groups[].rules[] | {n: .name, t: .evaluationTime}] | sort_by(-.t) | .[:5][] |
		"cluster rule \(.n) \(.t * 1000 | floor) ms"' "$d/rules.json" | tee -a "$OUT/results"
	for ((i = 0; i < CLUSTER_RUNS; i++)); do
		for view in list job; do
			local args=()
			[[ $view == job ]] && args=(--job big)
			t0=$(date +%s%N)
			"$B/fabtop" --prometheus "http://127.0.0.1:$port" --once --json "${args[@]}" >"$d/out.json" ||
				echo "cluster: fabtop failed" >&2
			t1=$(date +%s%N)
			jq -r --arg v "$view" --arg w "$(((t1 - t0) / 1000000))" \
				'"\($v) \(.queries) \(.query_ms) \($w)"' "$d/out.json" >>"$d/runs"
		done
	done
	kill "$pid_prom" "$pid_http"
	wait "$pid_prom" "$pid_http" 2>/dev/null
	# per view: queries, query ms and wall ms, p50 and max (sorted apart: mawk has no asort)
	for view in list job; do
		local q m w
		q=$(awk -v v="$view" '$1 == v { print $2; exit }' "$d/runs")
		m=$(awk -v v="$view" '$1 == v { print $3 }' "$d/runs" | sort -n | awk '{ a[NR] = $1 } END { printf "p50 %.0f max %.0f", a[int((NR + 1) / 2)], a[NR] }')
		w=$(awk -v v="$view" '$1 == v { print $4 }' "$d/runs" | sort -n | awk '{ a[NR] = $1 } END { printf "p50 %.0f max %.0f", a[int((NR + 1) / 2)], a[NR] }')
		echo "cluster fabtop_$view $q queries, query_ms $m, wall_ms $w" | tee -a "$OUT/results"
	done
	echo "cluster: series $(grep -vc '^#' "$d/www/metrics"), raw lines in $d/runs"
}
