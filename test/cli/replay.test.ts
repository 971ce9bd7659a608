// `admission-harness replay`: fixtures recorded from the example webhook, sent again to it (pass) and to a
// changed version of it (fail, with the diff of the object).
import path from 'node:path';
import { createHarness, objects, review } from '../../lib';
import { writeFixtures } from '../../lib/audit';
import { cli } from './captured';
import { MANIFESTS, MUTATE, recorded, tempDir } from '../replay/helpers';

const EXAMPLE = path.join(__dirname, '../../examples/pod-defaults/src/app.ts');
const CHANGED = path.join(__dirname, 'fixtures/changed-pod-defaults.ts');

it('replays recorded answers: the same webhook passes, a changed patch fails with the object diff, exit 1', async () => {
  const { dir, remove } = tempDir('ah-replay-cli-');
  try {
    const { app } = (await import(EXAMPLE)) as { app: never };
    const h = await createHarness({ target: app, manifests: [MANIFESTS], namespaces: [{ name: 'shop' }], seed: 2 });
    try {
      const outcome = await h.call(MUTATE, review.create(objects.pod({ name: 'web', namespace: 'shop', images: ['nginx:1.27'] }, { seed: 2 })));
      writeFixtures(dir, [recorded(outcome)]);
    } finally {
      await h.close();
    }
    const same = await cli('replay', dir, '--manifests', MANIFESTS, '--module', EXAMPLE, '--webhook', MUTATE);
    expect(same.code).toBe(0);
    const changed = await cli('replay', dir, '--manifests', MANIFESTS, '--module', CHANGED, '--webhook', MUTATE);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain('"500m" → "250m"');
    expect((await cli('replay', '--manifests', MANIFESTS, '--module', EXAMPLE)).stderr).toContain('replay needs fixture files or directories');
  } finally {
    remove();
  }
});
