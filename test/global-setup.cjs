// Jest's global setup: the schema table (lib/registry/schema/kube-schemas.json) is generated from the
// installed kubernetes-models package, never committed; make it when a fresh checkout runs Jest directly.
const { execFileSync } = require('node:child_process');
const path = require('node:path');

module.exports = () => {
  execFileSync(process.execPath, [path.join(__dirname, '../lib/registry/schema/build-table.mjs'), '--if-missing'], { stdio: 'inherit' });
};
