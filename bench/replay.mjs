// replay: 10 000 recorded reviews replayed against the example webhook (load the fixture files, send
// each, compare the answer with the recording by its effect, write the report) against sending the same
// 10 000 reviews with h.call, in the same run on the same harness. What replay adds to the calls is
// loading, comparing and reporting, which should be nearly free. A second row adds the follow-up checks
// (object validity, idempotence: a second call per patch), reported without a goal.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { harness, paired, require } from './lib.mjs';

const COUNT = Number(process.env.BENCH_REPLAY_FIXTURES ?? 10_000);
const ROUNDS = Number(process.env.BENCH_REPLAY_ROUNDS ?? 3);
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const MUTATE = 'pod-defaults.example.com';

export async function replay() {
  const { createHarness, review, objects, loadFixtures, replayFixtures, formatReplayReport, replayReportJson, writeFixtures } = harness();
  const { createJiti } = require('jiti');
  const { app } = await createJiti(import.meta.url).import(path.join(root, 'examples/pod-defaults/src/app.ts'));
  const h = await createHarness({
    target: app,
    manifests: [path.join(root, 'examples/pod-defaults/deploy/webhooks.yaml')],
    namespaces: [{ name: 'shop' }],
    seed: 1,
  });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ah-bench-replay-'));
  try {
    // The recordings: pods of one to three containers, each review's answer as the example gave it, one
    // fixture file each, written as `record` writes them.
    const reviews = Array.from({ length: COUNT }, (_, i) => {
      const images = ['nginx:1.27', 'redis:7.4', 'envoy:1.31'].slice(0, (i % 3) + 1);
      return review.create(objects.pod({ name: `web-${i}`, namespace: 'shop', images }, { seed: i + 1 }));
    });
    const recorded = [];
    for (const r of reviews) {
      const outcome = await h.call(MUTATE, r);
      recorded.push({
        source: { from: 'record', receivedAt: '2026-05-01T10:00:00.000Z', path: '/mutate?timeout=10s', reviewVersion: 'v1' },
        request: outcome.review.request,
        response: outcome.response,
        limits: [],
      });
    }
    writeFixtures(dir, recorded);
    const sendAll = async () => {
      const started = performance.now();
      for (const r of reviews) await h.call(MUTATE, r);
      return performance.now() - started;
    };
    const replayAll = (followUps) => async () => {
      const started = performance.now();
      const report = await replayFixtures(h, loadFixtures([dir]), { webhook: MUTATE, followUps });
      formatReplayReport(report);
      JSON.stringify(replayReportJson(report));
      if (report.passed !== COUNT) throw new Error(`replay: ${report.failed} of ${COUNT} fixtures failed`);
      return performance.now() - started;
    };
    const rows = [];
    const compared = await paired(ROUNDS, replayAll(false), sendAll);
    rows.push({ name: 'replay', unit: `ms/${COUNT}`, ...compared, goal: '≤ 1.5× h.call', goalRatio: 1.5 });
    const full = await paired(ROUNDS, replayAll(true), sendAll);
    rows.push({ name: 'replay+checks', unit: `ms/${COUNT}`, ...full, goal: 'with object validity and idempotence (a second call per patch)' });
    return rows;
  } finally {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
