// The repository speaks only of what a contributor has: upstream Kubernetes sources by their file, and
// the recordings under test/fixtures. A notes file kept beside the project, its section numbers, or a
// path on the machine that built it would send a reader to something they do not have.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '../..');

// Not the project's own text: installed packages, build output, generated tables, local results.
const SKIPPED = new Set(['.git', 'node_modules', 'dist', 'coverage', 'bench/cel-engines/results', 'lib/registry/schema/kube-schemas.json']);

function files(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = dir ? path.posix.join(dir, entry.name) : entry.name;
    if (SKIPPED.has(entry.name) || SKIPPED.has(relative)) return [];
    if (entry.isDirectory()) return files(relative);
    return entry.isFile() ? [relative] : [];
  });
}

// Spelled in pieces so that this file does not match itself.
const FORBIDDEN: [string, RegExp][] = [
  ['the notes file', new RegExp(['KUBE', 'FACTS'].join('[-_ ]'), 'i')],
  ['a section of the notes file (cite the upstream source file instead)', new RegExp(`(?<!RFC \\d+ )${'\u00a7'}\\d`)],
  ['a path of the build machine', new RegExp(`(^|[\\s'"\`(=:])/${'work'}/`)],
  ['the shared folder beside the checkout', new RegExp(`(^|[\\s'"\`(/.])${'shared'}/(fixtures|${'KUBE'})`)],
];

function offences(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) => FORBIDDEN.filter(([, pattern]) => pattern.test(line)).map(([what]) => `line ${i + 1}: ${what}: ${line.trim().slice(0, 120)}`));
}

describe('nothing outside the repository', () => {
  it('cites no notes file, no section of one and no machine path anywhere in the tree', () => {
    const found = files('').flatMap((file) => {
      const bytes = readFileSync(path.join(root, file));
      if (bytes.includes(0)) return [];
      return offences(bytes.toString('utf8')).map((offence) => `${file} ${offence}`);
    });
    expect(found).toEqual([]);
  });

  it('catches each kind of reference', () => {
    const lines = [
      `as ${['KUBE', 'FACTS'].join('-')} says`,
      `(${'\u00a7'}6.3)`,
      `read /${'work'}/main/lib`,
      `path.join(__dirname, '../${'shared'}/fixtures/x.json')`,
    ];
    for (const line of lines) expect(offences(line)).toHaveLength(1);
    expect(offences('RFC 9110 \u00a77.6.1; k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/dispatcher.go; test/fixtures/apiserver-captures')).toEqual(
      [],
    );
  });
});
