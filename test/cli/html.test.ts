// `check --html FILE` and `replay --html FILE`: the report written as one self-contained HTML file (its
// content and rendering are tested in test/report, in a real browser too).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHarness, objects, review } from '../../lib';
import { writeFixtures } from '../../lib/audit';
import { cli } from './captured';
import { MANIFESTS, MUTATE, recorded } from '../replay/helpers';

const EXAMPLE = path.join(__dirname, '../../examples/pod-defaults/src/app.ts');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ah-html-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('check --html writes the battery report with its seed and the coverage, besides the text report', async () => {
  const file = path.join(dir, 'check.html');
  const result = await cli('check', '--manifests', MANIFESTS, '--module', EXAMPLE, '--seed', '7', '--only', 'uid-echo', '--html', file);
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('admission coverage');
  const html = readFileSync(file, 'utf8');
  expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
  expect(html).toContain('seed 7');
  expect(html).toContain('pod-defaults.example.com');
  expect(html).not.toMatch(/(?:src|href)="https?:/);
});

it('replay --html writes the replay report; an --html path that cannot be written is refused before anything runs', async () => {
  const { app } = (await import(EXAMPLE)) as { app: never };
  const h = await createHarness({ target: app, manifests: [MANIFESTS], namespaces: [{ name: 'shop' }], seed: 2 });
  try {
    writeFixtures(path.join(dir, 'fixtures'), [
      recorded(await h.call(MUTATE, review.create(objects.pod({ name: 'web', namespace: 'shop', images: ['nginx:1.27'] }, { seed: 2 })))),
    ]);
  } finally {
    await h.close();
  }
  const file = path.join(dir, 'replay.html');
  const result = await cli('replay', path.join(dir, 'fixtures'), '--manifests', MANIFESTS, '--module', EXAMPLE, '--webhook', MUTATE, '--html', file);
  expect(result.code).toBe(0);
  const html = readFileSync(file, 'utf8');
  expect(html).toContain('pods-create-1.yaml');
  expect(html).toContain('</html>');

  const nowhere = path.join(dir, 'missing', 'r.html');
  const refused = await cli('replay', path.join(dir, 'fixtures'), '--manifests', MANIFESTS, '--module', EXAMPLE, '--html', nowhere);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain(`admission-harness: --html ${nowhere}: cannot write the report there: the folder ${path.dirname(nowhere)} does not exist`);
  expect(existsSync(nowhere)).toBe(false);
});
