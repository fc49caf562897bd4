// SPDX-License-Identifier: GPL-2.0
/*
 * k8s_validate.mjs - validate Kubernetes manifests against the API's own
 * schemas: kubernetes-models (the Kubernetes OpenAPI definitions) and
 * @kubernetes-models/prometheus-operator (the operator's CRDs), from the
 * npm registry, installed in MODULES (selftests/host/test_kubernetes.sh).
 *   node k8s_validate.mjs MODULES FILE...
 * Every document of every FILE, of any kind those packages define (apps,
 * core, rbac.authorization.k8s.io, admissionregistration.k8s.io, ...; the
 * model is found by apiVersion and kind); one they do not define fails.
 * Prints "FILE: KIND NAME ok" or the schema's complaint; exit 0 if all are
 * valid, 1 otherwise.
 */
import { createRequire } from 'module';
import fs from 'fs';
import path from 'path';
import { pathToFileURL } from 'url';

const [modules, ...files] = process.argv.slice(2);
const nm = path.resolve(modules, 'node_modules');
const YAML = createRequire(nm + '/')('yaml');

/* apiVersion + kind -> the model class (the packages are ES modules) */
async function model(apiVersion, kind) {
	const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
	const file = group === 'monitoring.coreos.com' ?
		path.join(nm, '@kubernetes-models/prometheus-operator', group, version, `${kind}.js`) :
		path.join(nm, 'kubernetes-models', group ? `${group}/${version}` : version, `${kind}.js`);
	if (!fs.existsSync(file))
		return null;
	return (await import(pathToFileURL(file)))[kind];
}

let bad = 0;
for (const file of files) {
	for (const doc of YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'))) {
		const obj = doc.toJS();
		if (!obj)
			continue;
		const what = `${file}: ${obj.kind} ${obj.metadata && obj.metadata.name}`;
		try {
			if (doc.errors.length)
				throw new Error(doc.errors.map(String).join('; '));
			const M = await model(obj.apiVersion, obj.kind);
			if (!M)
				throw new Error(`no schema for ${obj.apiVersion} ${obj.kind}`);
			new M(obj).validate();
			console.log(`${what} ok`);
		} catch (e) {
			bad++;
			console.log(`${what}: ${String(e.message || e).split('\n').slice(0, 6).join(' | ')}`);
		}
	}
}
process.exit(bad ? 1 : 0);
