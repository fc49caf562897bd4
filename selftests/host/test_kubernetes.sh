#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test_kubernetes.sh - deploy/kubernetes/ against the Kubernetes API's own
# schemas (kubernetes-models and @kubernetes-models/prometheus-operator
# from the npm registry: the Kubernetes OpenAPI definitions and the
# operator's CRDs; selftests/tools/k8s_validate.mjs), which reject broken
# copies; the PrometheusRule is rules.yml's groups (one source,
# scripts/gen-prometheusrule.sh); what the manifests say, read with a YAML
# parser: the pieces fit together (selectors, port names, Secrets, the
# service account), device access through the RDMA device plugin or the
# privileged variant, the probes on fabteld's open health paths while
# fabteld.conf asks for TLS and a user, Secrets for the settings, key and
# credentials mounted 0400, the seccomp profile, RBAC that grants only what
# the node-condition action uses; a copy broken on each of those points
# fails each check; fabteld.conf passes fabteld --check-config; the
# ValidatingAdmissionPolicy's expressions decide sample requests as meant
# (a CEL evaluator, @bufbuild/cel, not an API server); and
# deploy/actions/k8s-node-condition, run against a stand-in curl, sends
# the summary byte for byte whatever shell text it holds, keeps the token
# off curl's command line, and refuses a node name that is not one.
. "$(dirname "$0")/../lib.sh"

K=$REPO/deploy/kubernetes
V=$REPO/build/k8s-validate
ACTION=$REPO/deploy/actions/k8s-node-condition
for t in node npm jq; do
	command -v $t >/dev/null || ktap_skip_all "$t missing (scripts/deps.sh)"
done
[[ -x $REPO/build/fabteld ]] || ktap_skip_all "build/fabteld not built (make)"

ktap_begin 23
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# the validators and the CEL evaluator, pinned, installed once into build/
# (not the tree)
PKGS=(kubernetes-models@5.1.0 @kubernetes-models/prometheus-operator@6.0.0 yaml@2.9.1 @bufbuild/cel@0.6.1)
for p in "${PKGS[@]}"; do
	if [[ ! -f $V/node_modules/${p%@*}/package.json ]]; then
		mkdir -p "$V"
		(cd "$V" && npm install --no-audit --no-fund --silent "${PKGS[@]}") >"$TMP/npm.log" 2>&1 ||
			ktap_info "npm install: $(tail -3 "$TMP/npm.log")"
		break
	fi
done

# ---- the API's schemas ---------------------------------------------------------

out=$(node "$REPO/selftests/tools/k8s_validate.mjs" "$V" "$K"/*.yaml 2>&1)
rc=$?
ktap_info "$out"
ktap_eq "every manifest valid against the API schemas (2 DaemonSets, 3 Secrets, RBAC's 3, the policy and its binding, Service, ServiceMonitor, PrometheusRule)" \
	"$rc $(grep -c ' ok$' <<<"$out")" "0 13"

# the validator rejects what the API server would
sed 's/containerPort: 9465/containerPort: "ninety"/' "$K/daemonset.yaml" >"$TMP/bad-ds.yaml"
sed 's/      interval: 15s/      interval: fifteen/' "$K/servicemonitor.yaml" >"$TMP/bad-sm.yaml"
sed 's/verbs: \["patch"\]/verbs: patch/' "$K/rbac.yaml" >"$TMP/bad-rbac.yaml"
sed 's/failurePolicy: Fail/failurePolicy: Maybe/' "$K/node-condition-policy.yaml" >"$TMP/bad-vap.yaml"
sed 's/^  username: prometheus$/  username: 7/' "$K/secret.yaml" >"$TMP/bad-secret.yaml"
out=$(node "$REPO/selftests/tools/k8s_validate.mjs" "$V" "$TMP"/bad-*.yaml 2>&1)
rc=$?
ktap_info "$out"
ktap_eq "... and rejects a string containerPort, a malformed scrape interval, a verb that is no list, an unknown failurePolicy, a number as a Secret's string" \
	"$rc $(grep -c 'containerPort must be integer' <<<"$out") $(grep -c 'interval must match' <<<"$out") $(grep -c 'verbs must be array' <<<"$out") $(grep -c 'failurePolicy must be equal to one of' <<<"$out") $(grep -c 'stringData/username must be string' <<<"$out")" \
	"1 1 1 1 1 1"

scripts_out=$TMP/prometheusrule.yaml
"$REPO/scripts/gen-prometheusrule.sh" "$scripts_out"
ktap_check "prometheusrule.yaml is rules.yml's groups (scripts/gen-prometheusrule.sh output, unchanged)" \
	cmp -s "$scripts_out" "$K/prometheusrule.yaml"

# ---- what the manifests say ----------------------------------------------------

# facts.mjs DIR: one "name true|false" line per point, read from DIR's
# manifests with the YAML parser
cat >"$TMP/facts.mjs" <<'EOF'
import { createRequire } from "module";
import fs from "fs";
const YAML = createRequire(process.cwd() + "/node_modules/")("yaml");
const k = process.argv[2];
const docs = (f) => YAML.parseAllDocuments(fs.readFileSync(`${k}/${f}`, "utf8")).map((d) => d.toJS());
const rd = (f) => docs(f)[0];
const ds = rd("daemonset.yaml"), pds = rd("daemonset-privileged.yaml");
const svc = rd("service.yaml"), sm = rd("servicemonitor.yaml");
const secrets = Object.fromEntries(docs("secret.yaml").map((s) => [s.metadata.name, s]));
const rbac = docs("rbac.yaml");
const pod = (d) => d.spec.template.spec, ctr = (d) => pod(d).containers[0];
const vol = (d, name) => (pod(d).volumes || []).find((v) => v.name === name);
const mnt = (d, name) => (ctr(d).volumeMounts || []).find((m) => m.name === name);
const mntAt = (d, path) => (ctr(d).volumeMounts || []).find((m) => m.mountPath === path);
const has = (sel, labels) => Object.entries(sel).every(([a, b]) => labels[a] === b);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const conf = (secrets["fabteld-config"]?.stringData || {})["fabteld.conf"] || "";
const setting = (key) => conf.split("\n").map((l) => l.replace(/#.*/, "").trim())
	.filter((l) => l.startsWith(key + " ") || l.startsWith(key + "=")).map((l) => l.replace(/^[^=]*=\s*/, ""));
const both = (f) => [ds, pds].every(f);
const out = {};

out.fit = has(ds.spec.selector.matchLabels, ds.spec.template.metadata.labels) &&
	has(svc.spec.selector, ds.spec.template.metadata.labels) &&
	has(sm.spec.selector.matchLabels, svc.metadata.labels) &&
	svc.spec.ports[0].targetPort === ctr(ds).ports[0].name && sm.spec.endpoints[0].port === svc.spec.ports[0].name &&
	both((d) => pod(d).hostPID === true && pod(d).hostNetwork === true);

// device access: the default asks the RDMA device plugin and mounts no
// host device; the privileged variant mounts the host's, privileged
const limits = ctr(ds).resources?.limits || {};
const hostDevs = (d) => (pod(d).volumes || []).filter((v) => v.hostPath && v.hostPath.path.startsWith("/dev"));
out.device_plugin = Object.entries(limits).some(([r, n]) => r.startsWith("rdma/") && Number(n) >= 1) &&
	hostDevs(ds).length === 0 && !ctr(ds).securityContext?.privileged;
const ib = vol(pds, "infiniband"), km = vol(pds, "kmsg");
out.privileged = ctr(pds).securityContext?.privileged === true &&
	ib?.hostPath?.path === "/dev/infiniband" && ib.hostPath.type === "Directory" &&
	mnt(pds, "infiniband")?.mountPath === "/dev/infiniband" &&
	km?.hostPath?.path === "/dev/kmsg" && km.hostPath.type === "CharDevice" &&
	mnt(pds, "kmsg")?.mountPath === "/dev/kmsg" && mnt(pds, "kmsg").readOnly === true &&
	ctr(pds).args.includes("--set=kmsg=auto") && setting("kmsg")[0] === "off";

// the variants differ in device access (and what goes with it) only
const strip = (d) => {
	const c = structuredClone(d), p = pod(c), t = p.containers[0];
	delete p.securityContext;
	delete t.securityContext;
	t.args = t.args.filter((a) => !a.startsWith("--set=kmsg="));
	for (const r of Object.keys(t.resources.limits)) if (r.startsWith("rdma/")) delete t.resources.limits[r];
	p.volumes = p.volumes.filter((v) => !["infiniband", "kmsg"].includes(v.name));
	t.volumeMounts = t.volumeMounts.filter((m) => !["infiniband", "kmsg"].includes(m.name));
	return c;
};
out.variants_alike = same(strip(ds), strip(pds));

// the kubelet's probes on the paths fabteld leaves open under auth, over
// the HTTPS fabteld.conf configures
out.probes = both((d) => ctr(d).readinessProbe?.httpGet?.path === "/-/ready" &&
	ctr(d).livenessProbe?.httpGet?.path === "/-/healthy" &&
	ctr(d).readinessProbe.httpGet.scheme === "HTTPS" && ctr(d).livenessProbe.httpGet.scheme === "HTTPS");
out.auth_configured = setting("tls_cert_file").length === 1 && setting("tls_key_file").length === 1 &&
	setting("basic_auth_user").length >= 1;

// Secrets: the settings (users' hashes) and the certificate and key,
// mounted read-only, 0400 (256), where fabteld.conf points
const tls = secrets["fabteld-tls"], cfg = secrets["fabteld-config"];
const secretVol = (d, v, s) => v?.secret?.secretName === s && v.secret.defaultMode === 256 && mnt(d, v.name)?.readOnly === true;
out.secrets = tls?.type === "kubernetes.io/tls" && "tls.crt" in tls.stringData && "tls.key" in tls.stringData &&
	cfg?.type === "Opaque" &&
	both((d) => secretVol(d, vol(d, "tls"), "fabteld-tls") && secretVol(d, vol(d, "config"), "fabteld-config") &&
		setting("tls_cert_file")[0] === `${mnt(d, "tls").mountPath}/tls.crt` &&
		setting("tls_key_file")[0] === `${mnt(d, "tls").mountPath}/tls.key` &&
		ctr(d).args.includes(`--config=${mnt(d, "config").mountPath}/fabteld.conf`) &&
		!(pod(d).volumes || []).some((v) => v.configMap));

// RuntimeDefault, with the capabilities under which containerd's and
// Docker's default profiles allow bpf (SYS_ADMIN or BPF) and
// perf_event_open (SYS_ADMIN or PERFMON)
const caps = ctr(ds).securityContext?.capabilities?.add || [];
const prof = ctr(ds).securityContext?.seccompProfile || pod(ds).securityContext?.seccompProfile;
out.seccomp = prof?.type === "RuntimeDefault" &&
	(caps.includes("SYS_ADMIN") || caps.includes("BPF")) && (caps.includes("SYS_ADMIN") || caps.includes("PERFMON"));

// the pods' service account is rbac.yaml's, which may get nodes and patch
// nodes/status, nothing more
const sa = rbac.find((o) => o.kind === "ServiceAccount"), role = rbac.find((o) => o.kind === "ClusterRole");
const bind = rbac.find((o) => o.kind === "ClusterRoleBinding");
const rules = role.rules.map((r) => `${r.apiGroups.join(",")}|${r.resources.join(",")}|${r.verbs.join(",")}`).sort();
out.rbac = both((d) => pod(d).serviceAccountName === sa.metadata.name && d.metadata.namespace === sa.metadata.namespace) &&
	same(rules, ["|nodes/status|patch", "|nodes|get"]) &&
	bind.roleRef.kind === "ClusterRole" && bind.roleRef.name === role.metadata.name &&
	same(bind.subjects, [{ kind: "ServiceAccount", name: sa.metadata.name, namespace: sa.metadata.namespace }]) &&
	both((d) => ctr(d).env.some((e) => e.name === "NODE_NAME" && e.valueFrom?.fieldRef?.fieldPath === "spec.nodeName"));

// Prometheus scrapes over HTTPS with its user from a Secret
const scrape = secrets["fabteld-scrape"], ep = sm.spec.endpoints[0];
out.scrape = ep.scheme === "https" && scrape?.type === "kubernetes.io/basic-auth" &&
	ep.basicAuth?.username?.name === "fabteld-scrape" && ep.basicAuth.username.key in scrape.stringData &&
	ep.basicAuth?.password?.name === "fabteld-scrape" && ep.basicAuth.password.key in scrape.stringData &&
	ep.tlsConfig?.ca?.secret?.name === "fabteld-tls" && ep.tlsConfig.ca.secret.key in tls.stringData;

for (const [n, v] of Object.entries(out)) console.log(`${n} ${v === true}`);
EOF
facts() { (cd "$V" && node "$TMP/facts.mjs" "$1" 2>&1); }
fact() { awk -v n="$2" '$1 == n { print $2 }' <<<"$1"; }
F=$(facts "$K")
ktap_info "$F"
ktap_eq "selectors match the pod's labels, port names agree, host network and pid" "$(fact "$F" fit)" true
ktap_eq "device access: the default DaemonSet asks the RDMA device plugin's resource and mounts no /dev from the host" \
	"$(fact "$F" device_plugin)" true
ktap_eq "... the privileged variant is privileged, mounts /dev/infiniband and /dev/kmsg (read only) and reads it (kmsg = auto; off in the default)" \
	"$(fact "$F" privileged)" true
ktap_eq "... and the two are otherwise the same DaemonSet" "$(fact "$F" variants_alike)" true
ktap_eq "the probes: /-/ready and /-/healthy over HTTPS, in both" "$(fact "$F" probes)" true
ktap_eq "... while fabteld.conf configures TLS and a basic-auth user (the probes rely on those paths being open)" \
	"$(fact "$F" auth_configured)" true
ktap_eq "Secrets: fabteld.conf (users' hashes) and the kubernetes.io/tls certificate and key, mounted read only, 0400, where the config points" \
	"$(fact "$F" secrets)" true
ktap_eq "seccomp RuntimeDefault, with the capabilities that profile wants for bpf and perf_event_open" \
	"$(fact "$F" seccomp)" true
ktap_eq "the service account is rbac.yaml's, whose ClusterRole grants get nodes and patch nodes/status only; NODE_NAME from spec.nodeName" \
	"$(fact "$F" rbac)" true
ktap_eq "the ServiceMonitor scrapes over HTTPS, its CA and user from Secrets" "$(fact "$F" scrape)" true

# the same checks on a copy broken on each point fail, every one
mkdir "$TMP/bad"
cp "$K"/*.yaml "$TMP/bad/"
out=$(cd "$V" && node --input-type=module -e '
	import { createRequire } from "module";
	import fs from "fs";
	const YAML = createRequire(process.cwd() + "/node_modules/")("yaml");
	const b = process.argv[1];
	const edit = (f, fn) => {
		const d = YAML.parseAllDocuments(fs.readFileSync(`${b}/${f}`, "utf8")).map((x) => x.toJS());
		d.forEach(fn);
		fs.writeFileSync(`${b}/${f}`, d.map((x) => YAML.stringify(x)).join("---\n"));
	};
	edit("daemonset.yaml", (d) => {
		const p = d.spec.template.spec, c = p.containers[0];
		p.hostPID = false;
		delete c.resources.limits["rdma/hca_shared_devices_a"];
		p.volumes.push({ name: "infiniband", hostPath: { path: "/dev/infiniband" } });
		c.readinessProbe.httpGet.path = "/metrics";
		p.volumes.find((v) => v.name === "tls").secret.defaultMode = 420;
		delete p.securityContext;
		p.serviceAccountName = "default";
	});
	edit("daemonset-privileged.yaml", (d) => { d.spec.template.spec.containers[0].securityContext.privileged = false; });
	edit("secret.yaml", (s) => {
		if (s.stringData["fabteld.conf"])
			s.stringData["fabteld.conf"] = s.stringData["fabteld.conf"].replace(/^basic_auth_user.*$/m, "");
	});
	edit("rbac.yaml", (o) => { if (o.kind === "ClusterRole") o.rules[1].verbs.push("update"); });
	edit("servicemonitor.yaml", (o) => { o.spec.endpoints[0].scheme = "http"; });
' "$TMP/bad" 2>&1)
B=$(facts "$TMP/bad")
ktap_info "$out$B"
ktap_eq "... and each fails on a copy broken on its point (hostPID, the device resource, a probe path, mode 0644, no seccomp, unprivileged, no user, a third verb, plain HTTP)" \
	"$(awk '{ printf "%s ", $2 }' <<<"$B")" "false false false false false false false false false false "

# fabteld.conf (the Secret's) is fabteld's, with the pod's /host trees
(cd "$V" && node --input-type=module -e '
	import { createRequire } from "module";
	import fs from "fs";
	const YAML = createRequire(process.cwd() + "/node_modules/")("yaml");
	const s = YAML.parseAllDocuments(fs.readFileSync(process.argv[1], "utf8")).map((d) => d.toJS());
	process.stdout.write(s.find((x) => x.metadata.name === "fabteld-config").stringData["fabteld.conf"]);
' "$K/secret.yaml") >"$TMP/fabteld.conf"
ktap_eq "fabteld.conf: sysfs_root and proc_root /host" \
	"$(grep -cE '^(sysfs_root|proc_root) = /host$' "$TMP/fabteld.conf")" 2
# the image's action path is the tree's script here (--check-config wants
# an executable file); the certificate is read at start, not checked
sed -i "s|= /usr/local/lib/fabtel/actions/|= $REPO/deploy/actions/|" "$TMP/fabteld.conf"
out=$("$REPO/build/fabteld" --config "$TMP/fabteld.conf" --check-config 2>&1)
ktap_eq "... and fabteld --check-config accepts it (node actions: deploy/actions/k8s-node-condition)" \
	"$?:${out%% (*}:$(grep -c "^action_node_.* = $REPO/deploy/actions/k8s-node-condition$" "$TMP/fabteld.conf")" \
	"0:fabteld: settings OK:2"

# ---- the admission policy's expressions ---------------------------------------

if [[ -f $V/node_modules/@bufbuild/cel/package.json ]]; then
	out=$(cd "$V" && node --input-type=module -e '
		import { createRequire } from "module";
		import fs from "fs";
		import { run } from "@bufbuild/cel";
		const YAML = createRequire(process.cwd() + "/node_modules/")("yaml");
		const pol = YAML.parseAllDocuments(fs.readFileSync(process.argv[1], "utf8"))[0].toJS().spec;
		const cel = (v) => Array.isArray(v) ? v.map(cel) : v && typeof v === "object" ?
			new Map(Object.entries(v).map(([a, b]) => [a, cel(b)])) : v;
		const node = (name, o = {}) => ({
			metadata: { name, labels: { "kubernetes.io/hostname": name, ...(o.labels || {}) } },
			status: {
				addresses: [{ type: "InternalIP", address: o.ip || "10.0.0.17" }],
				capacity: { cpu: "64" }, allocatable: { cpu: "63" },
				conditions: [{ type: "Ready", status: o.ready || "True" }, ...(o.fabric ? [{ type: "FabricHealthy", status: o.fabric }] : [])],
			},
		});
		const sa = "system:serviceaccount:fabtel:fabteld";
		const req = (user, nodeName) => ({ userInfo: { username: user, ...(nodeName ? { extra: { "authentication.kubernetes.io/node-name": [nodeName] } } : {}) } });
		const decide = (r, obj, old) => {
			const vars = { request: cel(r), object: cel(obj), oldObject: cel(old) };
			try {
				if (!pol.matchConditions.every((m) => run(m.expression, vars) === true))
					return "unmatched";
				return pol.validations.every((v) => run(v.expression, vars) === true) ? "allow" : "deny";
			} catch (e) {
				return `error(${e.message})`;
			}
		};
		const old = node("gpu-17");
		console.log([
			decide(req(sa, "gpu-17"), node("gpu-17", { fabric: "False" }), old),
			decide(req(sa, "gpu-17"), node("gpu-18", { fabric: "False" }), node("gpu-18")),
			decide(req(sa), node("gpu-17", { fabric: "False" }), old),
			decide(req(sa, "gpu-17"), node("gpu-17", { fabric: "False", ready: "False" }), old),
			decide(req(sa, "gpu-17"), node("gpu-17", { ip: "192.0.2.1" }), old),
			decide(req(sa, "gpu-17"), node("gpu-17", { labels: { role: "x" } }), old),
			decide(req("system:node:gpu-17", "gpu-17"), node("gpu-17", { ready: "False" }), old),
		].join(" "));
	' "$K/node-condition-policy.yaml" 2>&1)
	ktap_eq "the policy (CEL): own node's FabricHealthy allowed; another node, a token without its node, another condition, addresses, labels refused; other users not matched" \
		"$out" "allow deny deny deny deny deny unmatched"
else
	ktap_skip "the policy's expressions" "@bufbuild/cel not installed (npm)"
fi

# ---- deploy/actions/k8s-node-condition ----------------------------------------

ktap_check "k8s-node-condition parses (sh -n)" sh -n "$ACTION"

# a stand-in curl: records its arguments, the headers it reads from files
# (-H @FILE) and a PATCH's body; answers a GET with $STUB_NODE
mkdir -p "$TMP/bin" "$TMP/sa"
cat >"$TMP/bin/curl" <<'EOF'
#!/bin/sh
d=$STUB_DIR
n=$(cat "$d/n" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" >"$d/n"
printf '%s\n' "$@" >"$d/$n.args"
prev= patch=
for a in "$@"; do
	if [ "$prev" = -H ]; then
		case $a in @*) cat "${a#@}" >>"$d/$n.headers" ;; esac
	fi
	[ "$a" = PATCH ] && patch=1
	prev=$a
done
if [ -n "$patch" ]; then cat >"$d/$n.body"; else cat "$STUB_NODE"; fi
EOF
chmod +x "$TMP/bin/curl"
echo "eyJhbGciOi.TOKEN-d0e5n0t-leak" >"$TMP/sa/token"
echo "CA" >"$TMP/sa/ca.crt"
cat >"$TMP/node.json" <<'EOF'
{"metadata": {"name": "gpu-17"}, "status": {"conditions": [
 {"type": "Ready", "status": "True"},
 {"type": "FabricHealthy", "status": "True", "lastTransitionTime": "2026-01-01T00:00:00Z"}]}}
EOF
SUMMARY='fabtel: a"b;$(touch '"$TMP"'/pwned) `touch '"$TMP"'/pwned2` \n'"'x'"' | & é; jobs: 4711'
# act DIR EVENT [VAR=VALUE...]: the action as fabteld runs it, its calls in DIR
act() {
	local d=$1 ev=$2
	shift 2
	mkdir -p "$d"
	(cd "$d" && env -i PATH="$TMP/bin:/usr/bin:/bin" STUB_DIR="$d" STUB_NODE="$TMP/node.json" \
		FABTEL_SA_DIR="$TMP/sa" KUBERNETES_SERVICE_HOST=10.96.0.1 KUBERNETES_SERVICE_PORT=443 \
		NODE_NAME=gpu-17 FABTEL_NODE=gpu-17.example.com FABTEL_SCOPE=node FABTEL_EVENT="$ev" \
		FABTEL_LEVEL=failing FABTEL_REASON=link_flap FABTEL_TIME=2026-11-28T17:02:11Z \
		FABTEL_SUMMARY="$SUMMARY" "$@" "$ACTION" </dev/null >"$d/out" 2>&1)
}
act "$TMP/f" failing
rc=$?
ktap_info "$(cat "$TMP/f/out")"
ktap_eq "failing: one PATCH of nodes/gpu-17/status (NODE_NAME), strategic merge, FabricHealthy False FabricFault since FABTEL_TIME" \
	"$rc $(cat "$TMP/f/n" 2>/dev/null) $(tail -n 1 "$TMP/f/2.args" 2>/dev/null) $(grep -c '^Content-Type: application/strategic-merge-patch+json$' "$TMP/f/2.args" 2>/dev/null) $(jq -r '.status.conditions | length as $n | .[0] | "\($n) \(.type) \(.status) \(.reason) \(.lastTransitionTime)"' "$TMP/f/2.body" 2>&1)" \
	"0 2 https://10.96.0.1:443/api/v1/nodes/gpu-17/status 1 1 FabricHealthy False FabricFault 2026-11-28T17:02:11Z"
ktap_eq "... its message the summary byte for byte (quotes, \$(...), backquotes, backslash, UTF-8), and no shell ran any of it" \
	"$(jq -j --arg s "$SUMMARY" '.status.conditions[0].message == $s' "$TMP/f/2.body" 2>&1) $(ls "$TMP" | grep -c pwned)" \
	"true 0"
ktap_eq "... the token as an Authorization header from a file, never on curl's command line" \
	"$(cat "$TMP"/f/*.headers 2>/dev/null | sort -u) $(cat "$TMP"/f/*.args | grep -c TOKEN)" \
	"Authorization: Bearer eyJhbGciOi.TOKEN-d0e5n0t-leak 0"
act "$TMP/h" healthy
rc=$?
ktap_info "$(cat "$TMP/h/out")"
ktap_eq "healthy: FabricHealthy True FabricClean, lastTransitionTime kept from the node's condition (already True)" \
	"$rc $(jq -r '.status.conditions[0] | "\(.status) \(.reason) \(.lastTransitionTime)"' "$TMP/h/2.body" 2>&1)" \
	"0 True FabricClean 2026-01-01T00:00:00Z"
act "$TMP/bad-node" failing NODE_NAME='gpu-17/../../namespaces'
r1=$?
act "$TMP/port" failing FABTEL_SCOPE=port
r2=$?
ktap_eq "refused, with no request: a node name Kubernetes would not give (a path), a port's event" \
	"$r1 $r2 $(cat "$TMP"/bad-node/n "$TMP"/port/n 2>/dev/null | wc -l)" "2 2 0"
ktap_end
