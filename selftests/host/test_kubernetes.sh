#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_kubernetes.sh - deploy/kubernetes/ against the Kubernetes API's own
# schemas (kubernetes-models and @kubernetes-models/prometheus-operator
# from the npm registry: the Kubernetes OpenAPI definitions and the
# operator's CRDs; selftests/tools/k8s_validate.mjs), which reject a broken
# copy; the PrometheusRule is rules.yml's groups (one source,
# scripts/gen-prometheusrule.sh); the pieces fit together (selectors,
# port names); the ConfigMap's fabteld.conf passes fabteld --check-config.
. "$(dirname "$0")/../lib.sh"

K=$REPO/deploy/kubernetes
V=$REPO/build/k8s-validate
for t in node npm; do
	command -v $t >/dev/null || ktap_skip_all "$t missing (scripts/deps.sh)"
done
[[ -x $REPO/build/fabteld ]] || ktap_skip_all "build/fabteld not built (make)"

ktap_begin 7
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# the validators, pinned, installed once into build/ (not the tree)
if [[ ! -f $V/node_modules/kubernetes-models/package.json ]]; then
	mkdir -p "$V"
	(cd "$V" && npm install --no-audit --no-fund --silent kubernetes-models@5.1.0 \
		@kubernetes-models/prometheus-operator@6.0.0 yaml@2.9.1) >"$TMP/npm.log" 2>&1 ||
		ktap_info "npm install: $(tail -3 "$TMP/npm.log")"
fi
out=$(node "$REPO/selftests/tools/k8s_validate.mjs" "$V" "$K"/*.yaml 2>&1)
rc=$?
ktap_info "$out"
ktap_eq "every manifest valid against the API schemas (DaemonSet, ConfigMap, Service, ServiceMonitor, PrometheusRule)" \
	"$rc $(grep -c ' ok$' <<<"$out")" "0 5"

# the validator rejects what the API server would
sed 's/containerPort: 9465/containerPort: "ninety"/' "$K/daemonset.yaml" >"$TMP/bad-ds.yaml"
sed 's/      interval: 15s/      interval: fifteen/' "$K/servicemonitor.yaml" >"$TMP/bad-sm.yaml"
out=$(node "$REPO/selftests/tools/k8s_validate.mjs" "$V" "$TMP/bad-ds.yaml" "$TMP/bad-sm.yaml" 2>&1)
rc=$?
ktap_info "$out"
ktap_eq "... and rejects a string containerPort and a malformed scrape interval" \
	"$rc $(grep -c 'containerPort must be integer' <<<"$out") $(grep -c 'interval must match' <<<"$out")" "1 1 1"

scripts_out=$TMP/prometheusrule.yaml
"$REPO/scripts/gen-prometheusrule.sh" "$scripts_out"
ktap_check "prometheusrule.yaml is rules.yml's groups (scripts/gen-prometheusrule.sh output, unchanged)" \
	cmp -s "$scripts_out" "$K/prometheusrule.yaml"

# the pieces fit: selectors and port names, read with the yaml parser
fit=$(cd "$V" && node --input-type=module -e '
	import { createRequire } from "module";
	import fs from "fs";
	const YAML = createRequire(process.cwd() + "/node_modules/")("yaml");
	const k = process.argv[1];
	const rd = (f) => YAML.parse(fs.readFileSync(`${k}/${f}`, "utf8"));
	const ds = rd("daemonset.yaml"), svc = rd("service.yaml"), sm = rd("servicemonitor.yaml");
	const pod = ds.spec.template.metadata.labels, c = ds.spec.template.spec.containers[0];
	const has = (sel, labels) => Object.entries(sel).every(([a, b]) => labels[a] === b);
	console.log([
		has(ds.spec.selector.matchLabels, pod),
		has(svc.spec.selector, pod),
		has(sm.spec.selector.matchLabels, svc.metadata.labels),
		svc.spec.ports[0].targetPort === c.ports[0].name && sm.spec.endpoints[0].port === svc.spec.ports[0].name,
		ds.spec.template.spec.hostPID === true && ds.spec.template.spec.hostNetwork === true,
		ds.spec.template.spec.volumes.find((v) => v.name === "config").configMap.name === rd("configmap.yaml").metadata.name,
	].join(" "));
' "$K" 2>&1)
ktap_eq "selectors match the pod's labels, port names agree, host network and pid, the ConfigMap mounted" \
	"$fit" "true true true true true true"

# the ConfigMap's settings are fabteld's (with the pod's /host trees)
(cd "$V" && node --input-type=module -e '
	import { createRequire } from "module";
	import fs from "fs";
	const YAML = createRequire(process.cwd() + "/node_modules/")("yaml");
	process.stdout.write(YAML.parse(fs.readFileSync(process.argv[1], "utf8")).data["fabteld.conf"]);
' "$K/configmap.yaml") >"$TMP/fabteld.conf"
ktap_eq "the ConfigMap's fabteld.conf: sysfs_root and proc_root /host" \
	"$(grep -cE '^(sysfs_root|proc_root) = /host$' "$TMP/fabteld.conf")" 2
out=$("$REPO/build/fabteld" --config "$TMP/fabteld.conf" --check-config 2>&1)
ktap_eq "... and fabteld --check-config accepts it" "$?:${out%% (*}" "0:fabteld: settings OK"
ktap_eq "the probes' paths are fabteld's (/-/ready, /-/healthy)" \
	"$(grep -cE 'path: /-/(ready|healthy)$' "$K/daemonset.yaml")" 2
ktap_end
