// reviews, objects and certs: generation rates. Reviews (built and encoded from 100 varied objects)
// are compared with JSON.parse(JSON.stringify()) of a review, the cheapest way a test could copy a
// fixture; certificates with node:crypto's EC key generation alone.
import { generateKeyPairSync } from 'node:crypto';
import { harness } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

export async function generate() {
  const { review, objects, SeededRandom, encodeReview, CertificateAuthority } = harness();
  const reviews = [];
  const copies = [];
  const generated = [];
  const COUNT = 10_000;
  for (let i = 0; i < RUNS; i++) {
    const random = new SeededRandom(i + 1);
    let started = performance.now();
    const pods = Array.from({ length: 100 }, () => objects.pod({ random }));
    generated.push((performance.now() - started) / 100);
    started = performance.now();
    for (let k = 0; k < COUNT; k++) encodeReview(review.create(pods[k % 100]).attributes, 'v1', random.uuid());
    reviews.push((performance.now() - started) / COUNT);
    const fixture = encodeReview(review.create(pods[0]).attributes, 'v1', random.uuid());
    started = performance.now();
    for (let k = 0; k < COUNT; k++) JSON.parse(JSON.stringify(fixture));
    copies.push((performance.now() - started) / COUNT);
  }
  const certs = [];
  const keys = [];
  const ca = await CertificateAuthority.create();
  for (let i = 0; i < RUNS; i++) {
    let started = performance.now();
    for (let k = 0; k < 10; k++) await ca.issueServing({ hosts: [`svc-${i}-${k}.ns.svc`] });
    certs.push((performance.now() - started) / 10);
    started = performance.now();
    for (let k = 0; k < 10; k++) generateKeyPairSync('ec', { namedCurve: 'P-256' });
    keys.push((performance.now() - started) / 10);
  }
  return [
    { name: 'reviews', unit: 'ms/review', samples: reviews, baseline: copies, goal: '10 000 reviews well under 1 s', goalMs: 0.05 },
    { name: 'objects', unit: 'ms/pod', samples: generated, baseline: undefined, goal: 'seeded realistic pods (faker)' },
    { name: 'certs', unit: 'ms/cert', samples: certs, baseline: keys, goal: 'milliseconds per certificate (baseline: EC key generation alone)' },
  ];
}
