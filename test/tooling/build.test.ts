// lib/build.mjs: `npm run demo` and `npm run bench` rebuild only when a byte of the sources changed (not
// when `npm test`'s pre-step rewrites the generated schema table), and say so when they do.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildIfChanged, GENERATED, isCurrent, sourceHash } from '../../lib/build.mjs';

describe('the build stamp', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'ah-build-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('hashes the sources the same way each time', () => {
    expect(sourceHash()).toMatch(/^[0-9a-f]{64}$/);
    expect(sourceHash()).toBe(sourceHash());
  });

  it('is current only when it holds the hash of the sources as they are', () => {
    const stamp = path.join(dir, '.build-hash');
    expect(isCurrent(stamp)).toBe(false);
    writeFileSync(stamp, `${sourceHash()}\n`);
    expect(isCurrent(stamp)).toBe(true);
    writeFileSync(stamp, `${'0'.repeat(64)}\n`);
    expect(isCurrent(stamp)).toBe(false);
  });
});

describe('npm run demo after npm test', () => {
  // A checkout of its own: the sources, and the schema table npm test's pre-step writes beside them.
  let root: string;
  const table = () => path.join(root, 'lib/registry/schema/kube-schemas.json');
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'ah-build-root-'));
    mkdirSync(path.dirname(table()), { recursive: true });
    writeFileSync(path.join(root, 'lib/index.ts'), 'export const x = 1;\n');
    writeFileSync(path.join(root, 'package.json'), '{"name":"x"}\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('does not count the generated schema table as a source: writing, rewriting or removing it rebuilds nothing', () => {
    const stamp = path.join(root, '.build-hash');
    const say = jest.fn();
    const run = jest.fn();
    // The demo's build on a fresh clone (no table yet), then npm test's pre-step writes the table.
    expect(buildIfChanged({ stamp, root, say, run })).toBe(true);
    writeFileSync(stamp, `${sourceHash(root)}\n`);
    writeFileSync(table(), '{"format":1,"packages":{"kubernetes-models":"5.1.0"}}\n');
    expect(isCurrent(stamp, root)).toBe(true);
    writeFileSync(table(), '{"format":1,"packages":{"kubernetes-models":"5.2.0"}}\n');
    rmSync(table());
    expect(buildIfChanged({ stamp, root, say, run })).toBe(false);
    expect(say).toHaveBeenCalledTimes(1);
    expect(run).toHaveBeenCalledTimes(1);
    expect(GENERATED).toEqual(['lib/registry/schema/kube-schemas.json']);
  });

  it('rebuilds when a source byte changes, and says it is building before it does', () => {
    const stamp = path.join(root, '.build-hash');
    writeFileSync(stamp, `${sourceHash(root)}\n`);
    writeFileSync(path.join(root, 'lib/index.ts'), 'export const x = 2;\n');
    const events: string[] = [];
    expect(buildIfChanged({ stamp, root, say: (line) => events.push(line), run: () => events.push('(build)') })).toBe(true);
    expect(events).toEqual(['building dist/ (the sources changed since the last build)…', '(build)']);
    rmSync(stamp);
    events.length = 0;
    buildIfChanged({ stamp, root, say: (line) => events.push(line), run: () => events.push('(build)') });
    expect(events).toEqual(['building dist/ (first build)…', '(build)']);
  });
});
