import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHarness, type Harness } from '../../lib';
import { cli } from '../cli/captured';
import { reviewsFromAudit } from '../../lib/audit';
import type { AdmissionReview } from '../../lib/kube/admission';
import { logEvents, without } from './events';

/* The converted reviews are harness Reviews: sent to a webhook, it gets the converted request but for a fresh uid. */

const received: AdmissionReview[] = [];
function recorder(req: IncomingMessage, res: ServerResponse): void {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk));
  req.on('end', () => {
    const review = JSON.parse(body) as AdmissionReview;
    received.push(review);
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request!.uid, allowed: true } }));
  });
}

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ target: recorder, seed: 3 });
});
afterAll(() => h.close());

it('sends each converted review as the AdmissionRequest it holds, with a fresh uid', async () => {
  const { reviews } = reviewsFromAudit(logEvents());
  for (const converted of reviews) {
    const outcome = await h.call({ type: 'validating', path: '/validate' }, converted.review);
    expect(outcome).toBeAllowed();
    const sent = received.at(-1)!.request!;
    expect(sent.uid).not.toBe(converted.request.uid);
    expect(without(sent, ['uid'])).toEqual(without(converted.request, ['uid']));
  }
  expect(received).toHaveLength(reviews.length);
});

describe('admission-harness review --from-audit', () => {
  it('prints the reviews as a YAML stream headed by what was skipped, or writes one fixture per review', async () => {
    const log = path.join(__dirname, 'fixtures/audit.log');
    const printed = await cli('review', '--from-audit', log);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toMatch(/^# \d+ requests in .*audit\.log, \d+ reviews; skipped: /);
    expect(printed.stdout).toContain('kind: RecordedReview');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ah-audit-'));
    try {
      const written = await cli('review', '--from-audit', log, '--out', dir);
      expect(written.code).toBe(0);
      expect(readdirSync(dir)).toContain('pods-create-1.yaml');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
