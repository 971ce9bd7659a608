import path from 'node:path';
import { createHarness, objects, type Harness, type KubeObject } from 'admission-harness';
import 'admission-harness/jest';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { app } from '../src/app';

const manifest = path.join(__dirname, '../deploy/crd.yaml');
const crd = parse(readFileSync(manifest, 'utf8')) as object;

let h: Harness;
beforeAll(async () => {
  // The CRD as deployed: its conversion webhook's clientConfig is re-pointed at `app`, served on loopback TLS.
  h = await createHarness({ target: app, manifests: [manifest], seed: 7 });
});
afterAll(() => h.close());

const backup = (): KubeObject =>
  objects.custom(
    crd,
    { name: 'nightly', namespace: 'shop', labels: { team: 'shop' }, spec: { bucket: 'shop-backups', retentionDays: 30 } },
    { stored: true, seed: 7 },
  );

it('converts v1 to v2 and back without losing anything', async () => {
  await expect(h).toConvertRoundTrip(backup(), 'v2');
});

it('reshapes the spec for v2 and keeps the metadata', async () => {
  const { objects: converted } = await h.convert(backup(), 'v2');
  expect(converted[0]).toMatchObject({
    apiVersion: 'example.com/v2',
    metadata: { name: 'nightly', namespace: 'shop', labels: { team: 'shop' } },
    spec: { target: { bucket: 'shop-backups' }, retention: { days: 30 } },
  });
});

it('converts objects generated at v2 back to v1 too', async () => {
  const atV2 = objects.custom(crd, { name: 'weekly', namespace: 'shop' }, { version: 'v2', stored: true, seed: 8 });
  await expect(h).toConvertRoundTrip(atV2, 'v1');
});
