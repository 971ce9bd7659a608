import path from 'node:path';
import { parseManifestFile } from '../config/parse';
import { HarnessError } from '../errors';
import type { Suite, SuiteCase } from './model';
import { isRecord as isObject } from '../kube/json';
import { didYouMean } from '../nearest-name';
import schema from './suite.schema.json';
import { parseAllowPrivileged, parsePodSecurity, parseSuitePlugins } from './parse-cluster';
import { schemaMismatches, type SchemaNode } from './schema-check';

type Json = Record<string, unknown>;

// The keys each level allows, from the suite's JSON Schema (lib/suite/suite.schema.json), which editors
// validate with: one definition of the format, so the two cannot disagree.
const keysOf = (definition: { properties: Record<string, unknown> }) => new Set(Object.keys(definition.properties));
const SUITE_KEYS = keysOf(schema);
const CASE_KEYS = keysOf(schema.definitions.case);
const EXPECT_KEYS = keysOf(schema.definitions.expectation);
const EXPECTATION_SCHEMA: Record<string, unknown> = schema.definitions.expectation.properties;
const BEHAVIOR_KEYS = keysOf(schema.definitions.behavior);

/** `{ [key]: value }` when there is a value, else nothing: an absent field stays absent. */
const optional = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } => (value === undefined ? {} : ({ [key]: value } as { [P in K]?: V }));

/** Where a person reads the format. */
export const SUITE_FORMAT_HINT =
  'see the Suite format in the README, or point your editor at admission-harness/suite.schema.json (# yaml-language-server: $schema=…)';

/**
 * Reads and checks a suite file. Unknown keys are errors (a typo would otherwise silently test
 * nothing); every error names the file and the path of the field.
 */
export function parseSuite(file: string): Suite {
  const [document, ...rest] = parseManifestFile(file, 'USAGE');
  if (!document || rest.length > 0) throw new HarnessError('MANIFEST_INVALID', `${file}: a suite file holds exactly one document`);
  const problems: string[] = [];
  const at = (where: string, message: string) => void problems.push(`${file} ${where}: ${message}`);
  const suite = document.value;
  if (!isObject(suite)) throw new HarnessError('MANIFEST_INVALID', `${file}: expected a Suite object`);
  if (suite.apiVersion !== 'admission-harness/v1alpha1')
    at('apiVersion', `Unsupported value: ${JSON.stringify(suite.apiVersion)}: supported values: "admission-harness/v1alpha1"`);
  if (suite.kind !== 'Suite') at('kind', `Unsupported value: ${JSON.stringify(suite.kind)}: supported values: "Suite"`);
  const unknownField = (where: string, key: string, known: Set<string>, tail = '') =>
    at(where, `unknown field ${JSON.stringify(key)}${didYouMean(key, known)}${tail}`);
  for (const key of Object.keys(suite)) if (!SUITE_KEYS.has(key)) unknownField(key, key, SUITE_KEYS);
  const list = (key: string): unknown[] => {
    const value = suite[key];
    if (value === undefined) return [];
    if (!Array.isArray(value)) {
      at(key, 'must be a list');
      return [];
    }
    return value;
  };
  const behaviors = (value: unknown, where: string): Json => {
    if (value === undefined) return {};
    if (!isObject(value)) {
      at(where, 'must map webhook names to stub behaviors');
      return {};
    }
    for (const [name, behavior] of Object.entries(value)) {
      if (!isObject(behavior)) at(`${where}.${name}`, 'must be a stub behavior object');
      else
        for (const key of Object.keys(behavior))
          if (!BEHAVIOR_KEYS.has(key)) unknownField(`${where}.${name}.${key}`, key, BEHAVIOR_KEYS, `; behaviors are ${[...BEHAVIOR_KEYS].join(', ')}`);
    }
    return value;
  };

  const cases = list('cases').map((raw, i): SuiteCase => {
    const where = `cases[${i}]`;
    if (!isObject(raw)) {
      at(where, 'must be an object');
      return { name: `case ${i + 1}`, request: {}, expect: {} };
    }
    for (const key of Object.keys(raw)) if (!CASE_KEYS.has(key)) unknownField(`${where}.${key}`, key, CASE_KEYS);
    if (typeof raw.name !== 'string' || raw.name === '') at(`${where}.name`, 'Required value');
    if (!isObject(raw.request)) at(`${where}.request`, 'Required value: an AdmissionRequest');
    if (raw.knownFailure !== undefined && (typeof raw.knownFailure !== 'string' || raw.knownFailure.trim() === ''))
      at(`${where}.knownFailure`, 'Invalid value: say why the harness is known to fail the case');
    if (!isObject(raw.expect)) at(`${where}.expect`, 'Required value');
    else if (Object.keys(raw.expect).length === 0)
      at(`${where}.expect`, `Required value: at least one expectation (${[...EXPECT_KEYS].join(', ')}); an empty expect would pass whatever happens`);
    else
      for (const [key, value] of Object.entries(raw.expect)) {
        if (!EXPECT_KEYS.has(key)) unknownField(`${where}.expect.${key}`, key, EXPECT_KEYS, `; expectations are ${[...EXPECT_KEYS].join(', ')}`);
        else for (const [field, message] of schemaMismatches(value, EXPECTATION_SCHEMA[key] as SchemaNode, `${where}.expect.${key}`)) at(field, message);
      }
    return {
      name: String(raw.name ?? `case ${i + 1}`),
      ...(typeof raw.requestTimeoutSeconds === 'number' ? { requestTimeoutSeconds: raw.requestTimeoutSeconds } : {}),
      request: raw.request,
      webhooks: behaviors(raw.webhooks, `${where}.webhooks`) as SuiteCase['webhooks'],
      expect: (raw.expect ?? {}) as SuiteCase['expect'],
      ...(typeof raw.knownFailure === 'string' ? { knownFailure: raw.knownFailure } : {}),
    };
  });
  if (cases.length === 0) at('cases', 'Required value: at least one case');
  const names = cases.map((c) => c.name);
  names.forEach((name, i) => {
    if (names.indexOf(name) !== i) at(`cases[${i}].name`, `Duplicate value: ${JSON.stringify(name)}`);
  });
  const base = path.dirname(file);
  const parsed: Suite = {
    file,
    manifests: list('manifests').map((m) => path.resolve(base, String(m))),
    configurations: list('configurations').filter(isObject),
    namespaces: list('namespaces') as Suite['namespaces'],
    objects: list('objects').filter((object, i) => {
      if (isObject(object) && typeof object.apiVersion === 'string' && typeof object.kind === 'string' && isObject(object.metadata)) return true;
      at(`objects[${i}]`, 'must be a Kubernetes object with apiVersion, kind and metadata');
      return false;
    }) as Suite['objects'],
    webhooks: behaviors(suite.webhooks, 'webhooks') as Suite['webhooks'],
    ...optional('plugins', parseSuitePlugins(suite.plugins, at)),
    ...optional('allowPrivileged', parseAllowPrivileged(suite.allowPrivileged, at)),
    ...optional('podSecurity', parsePodSecurity(suite.podSecurity, at)),
    ...(typeof suite.timeScale === 'number' ? { timeScale: suite.timeScale } : {}),
    ...(typeof suite.seed === 'number' ? { seed: suite.seed } : {}),
    cases,
  };
  if (problems.length > 0) throw new HarnessError('MANIFEST_INVALID', `invalid suite:\n  ${problems.join('\n  ')}`, SUITE_FORMAT_HINT);
  return parsed;
}
