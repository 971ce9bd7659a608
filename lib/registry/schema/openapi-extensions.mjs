/**
 * The OpenAPI vendor extensions `build-table.mjs` merges into the schema table, read from
 * `openapi-extensions.json` beside this file (definition → `properties` → extension, OpenAPI's own shape)
 * and written in the table's compact form.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const EXTENSIONS_FILE = 'openapi-extensions.json';

const EXTENSION_KEYS = {
  'x-kubernetes-list-type': 'lt',
  'x-kubernetes-list-map-keys': 'lk',
  'x-kubernetes-map-type': 'mt',
  'x-kubernetes-patch-strategy': 'ps',
  'x-kubernetes-patch-merge-key': 'pk',
  default: 'd',
};

export function readExtensions() {
  const text = fs.readFileSync(path.join(HERE, EXTENSIONS_FILE), 'utf8');
  const data = JSON.parse(text);
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  return { definitions: data.definitions ?? {}, verified: data.verifiedPackages ?? [], hash };
}

/** The compact extensions of one definition (struct-level map type, then per field); problems for names the packages lack. */
export function encodeExtensions(decl, extensions, problems) {
  const own = extensions.definitions[decl.id];
  if (own === undefined) return {};
  const out = {};
  for (const key of Object.keys(own)) {
    if (key === 'x-kubernetes-map-type') out.mt = own[key];
    else if (key !== 'properties') problems.push(`${EXTENSIONS_FILE}: ${decl.id} has ${key}, which this script does not read`);
  }
  const fields = new Set(decl.props.map(([name]) => name));
  const x = {};
  for (const [field, facts] of Object.entries(own.properties ?? {})) {
    if (!fields.has(field)) problems.push(`${EXTENSIONS_FILE}: ${decl.id} has no field ${field}`);
    const compact = {};
    for (const [key, value] of Object.entries(facts)) {
      if (EXTENSION_KEYS[key] === undefined) problems.push(`${EXTENSIONS_FILE}: ${decl.id}.${field} has ${key}, which this script does not read`);
      else compact[EXTENSION_KEYS[key]] = value;
    }
    x[field] = compact;
  }
  if (Object.keys(x).length > 0) out.x = x;
  return out;
}
