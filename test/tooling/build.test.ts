// lib/build.mjs: `npm run demo` and `npm run bench` rebuild only when a byte of the sources changed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isCurrent, sourceHash } from '../../lib/build.mjs';

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
