// The Suite format's JSON Schema, shipped for editors: every suite here is valid under it, it refuses
// what the parser refuses, and the parser reads its keys from it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { parseManifestText } from '../../lib/config';
import schema from '../../lib/suite/suite.schema.json';
import { BUILTIN_PLUGIN_NAMES } from '../../lib/plugins';

const root = path.join(__dirname, '../..');
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);
const suites = readdirSync(__dirname, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.suite.yaml'))
  .map((f) => path.join(__dirname, f));
const read = (file: string, edit: (text: string) => string = (t) => t) => parseManifestText(edit(readFileSync(file, 'utf8')), file)[0]?.value;

describe('lib/suite/suite.schema.json', () => {
  it('is shipped in the package (the build copies it into dist) and exported by path', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { files: string[]; exports: Record<string, unknown> };
    expect(pkg.files).toContain('dist');
    expect(pkg.exports['./suite.schema.json']).toBe('./dist/suite.schema.json');
    expect(readFileSync(path.join(root, 'lib/build.mjs'), 'utf8')).toContain("'lib/suite/suite.schema.json'");
  });

  it.each(suites.map((f) => [path.basename(f), f]))('accepts %s', (_name, file) => {
    expect(validate(read(file))).toBe(true);
    expect(validate.errors ?? []).toEqual([]);
  });

  it.each<[string, (text: string) => string, string]>([
    ['an unknown expectation', (t) => t.replace('callCounts:', 'callCount:'), 'must NOT have additional properties'],
    [
      'an empty expect',
      (t) => t.replace(/expect:\n {6}allowed: true\n {6}called: \[peer\.example\.com\]\n?$/, 'expect: {}\n'),
      'must NOT have fewer than 1 properties',
    ],
    [
      'a case without a name',
      (t) => t.replace('  - name: outside prod the policy is not called\n    request:', '  - request:'),
      "must have required property 'name'",
    ],
    [
      'an unknown stub behavior',
      (t) => t.replace('webhooks:\n  peer.example.com:', 'webhooks:\n  peer.example.com:\n    respnd: {allowed: true}'),
      'must NOT have additional properties',
    ],
  ])('refuses %s, as the parser does', (_name, edit, message) => {
    const suite = read(path.join(__dirname, 'basic.suite.yaml'), edit);
    expect(validate(suite)).toBe(false);
    expect(validate.errors?.map((e) => e.message)).toContain(message);
  });

  it('offers exactly the built-in plugins the harness runs, the names the parser accepts', () => {
    expect(schema.definitions.pluginName.enum).toEqual(BUILTIN_PLUGIN_NAMES);
    const suite = read(path.join(__dirname, 'basic.suite.yaml'), (t) => t.replace('kind: Suite', 'kind: Suite\nplugins: {disable: [PodSecurty]}'));
    expect(validate(suite)).toBe(false);
    expect(validate.errors?.map((e) => `${e.instancePath} ${e.message}`)).toContain('/plugins/disable/0 must be equal to one of the allowed values');
  });

  it('documents every key it allows in docs/suites.md (editors show the descriptions)', () => {
    const readme = readFileSync(path.join(root, 'docs/suites.md'), 'utf8');
    const keys = [
      ...Object.keys(schema.properties),
      ...Object.keys(schema.definitions.case.properties),
      ...Object.keys(schema.definitions.expectation.properties),
      ...Object.keys(schema.definitions.behavior.properties),
      ...Object.keys(schema.definitions.plugins.properties),
      ...Object.keys(schema.definitions.podSecurity.properties),
    ];
    expect(keys.filter((key) => !readme.includes(`\`${key}\``))).toEqual([]);
  });
});
