// loadPlainYaml11 must read every text it accepts exactly as the `yaml` package reads YAML 1.1 (the
// reading the harness promises), and refuse what it cannot vouch for.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadPlainYaml11 } from '../../lib/yaml-fast';
import { yaml } from '../../lib/yaml';
import { fixturesToYaml } from '../../lib/audit/fixture';
import { encodeReview, objects, review } from '../../lib';

const slow = (text: string): unknown => yaml().parse(text, { version: '1.1' }) as unknown;

/** Plain scalars whose meaning differs between YAML 1.1 and 1.2, or between parsers. */
const SCALARS = [
  'y',
  'Y',
  'n',
  'N',
  'yes',
  'Yes',
  'YES',
  'no',
  'No',
  'NO',
  'on',
  'On',
  'ON',
  'off',
  'Off',
  'OFF',
  'true',
  'True',
  'TRUE',
  'false',
  'FALSE',
  'yEs',
  'oN',
  '~',
  'null',
  'Null',
  'NULL',
  'nULL',
  '',
  '0',
  '-0',
  '+12',
  '012',
  '0777',
  '08',
  '0o17',
  '0b1010',
  '-0b11',
  '0x1F',
  '0xg',
  '1_000',
  '0_7',
  '190:20:30',
  '1:20',
  '-1:20',
  '1:61',
  '1.5',
  '.5',
  '5.',
  '1e3',
  '1.0e+3',
  '-1E-2',
  '6.8523015e+5',
  '685.230_15e+03',
  '190:20:30.15',
  '.inf',
  '-.Inf',
  '+.INF',
  '.nan',
  '.NaN',
  'NaN',
  'inf',
  '2001-12-14',
  '2001-12-14t21:59:43.10-05:00',
  '2001-12-14 21:59:43.10 -5',
  '2001-12-15T02:59:43.1Z',
  '2002-1-1',
  '2001-13-45',
  '12:30',
  '1.36.2',
  'v1',
  '500m',
  '1Gi',
  'nginx:1.27',
  'a b',
  'https://x/y?z=1',
  '"quoted"',
  "'single'",
  '0.0.0.0/0',
  '=',
  '-',
  '?x',
  'x:y',
];

describe('loadPlainYaml11', () => {
  it.each(SCALARS)('reads the plain scalar %j as the yaml package does (as a value, a key, a list item)', (scalar) => {
    for (const text of [
      `v: ${scalar}\n`,
      `${scalar || '""'}: v\n`,
      `l:\n- ${scalar}\n- [${scalar}]\n`,
      `q: "${scalar.replace(/"/g, '\\"')}"\nr: '${scalar.replace(/'/g, "''")}'\n`,
    ]) {
      let expected: unknown;
      try {
        expected = slow(text);
      } catch {
        expected = undefined;
      }
      const fast = loadPlainYaml11(text);
      if (fast === undefined) continue;
      expect({ text, value: fast.value }).toEqual({ text, value: expected });
    }
  });

  it('reads block and flow collections, block scalars and comments alike', () => {
    const text = [
      'a:',
      '  b: [1, two, {c: yes}]',
      '  d: |',
      '    line one',
      '     line two',
      '  e: >-',
      '    folded',
      '    text',
      '  f: plain text',
      '    continued',
      '# a comment',
      'g:',
      '- - nested',
      '  - 0x10',
      '- {}',
      '- []',
      'h: "esc \\u00e9 \\t \\x41"',
      'i:',
      'j: 2001-12-14',
      '',
    ].join('\n');
    expect(loadPlainYaml11(text)?.value).toEqual(slow(text));
  });

  it('reads reviews and fixtures as the harness writes them', () => {
    let accepted = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const built = [
        review.create(objects.pod({ namespace: 'shop', images: ['nginx:1.27', 'redis:7.4'] }, { seed })),
        review.update(objects.deployment({ namespace: 'shop' }, { seed }), objects.deployment({ namespace: 'shop' }, { seed: seed + 1 })),
        review.delete(objects.configMap({ namespace: 'shop' }, { seed })),
      ];
      for (const r of built) {
        const request = encodeReview(r.attributes, 'v1', `uid-${seed}`).request!;
        const text = fixturesToYaml([
          { source: { from: 'record', receivedAt: '2026-05-01T10:00:00.000Z', path: '/validate?timeout=10s', reviewVersion: 'v1' }, request, limits: [] },
        ]);
        const fast = loadPlainYaml11(text);
        if (!fast) continue;
        accepted++;
        expect(fast.value).toEqual(slow(text));
      }
    }
    // The writers' output is what the fast path is for.
    expect(accepted).toBeGreaterThan(60);
  });

  it("reads every single-document YAML file of the repository's tests and examples alike, or refuses it", () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir)) {
        const full = path.join(dir, entry);
        if (statSync(full).isDirectory()) walk(full);
        else if (/\.ya?ml$/.test(entry)) files.push(full);
      }
    };
    for (const dir of ['test', 'examples']) walk(path.join(__dirname, '../..', dir));
    let accepted = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const fast = loadPlainYaml11(text);
      if (fast === undefined) continue;
      accepted++;
      expect({ file, value: fast.value }).toEqual({ file, value: slow(text) });
    }
    expect(accepted).toBeGreaterThan(10);
  });

  it('refuses what only the yaml package may judge: streams, tags, anchors, aliases, merge keys, duplicate keys, errors, empty texts', () => {
    for (const text of [
      'a: 1\n---\nb: 2\n',
      '--- \na: 1\n',
      '%YAML 1.1\n---\na: 1\n',
      'a: !!str 1\n',
      'a: &x 1\nb: *x\n',
      'a:\n  <<: {b: 1}\n',
      'a: 1\na: 2\n',
      'a: [1\n',
      '',
      '# only a comment\n',
      'a: "unterminated\n',
    ]) {
      expect({ text, fast: loadPlainYaml11(text) }).toEqual({ text, fast: undefined });
    }
  });
});
