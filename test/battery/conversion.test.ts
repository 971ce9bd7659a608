// The conversion webhook battery (`check --manifests crd.yaml`): each check against a webhook that fails
// it, over real TLS, with kube-apiserver's texts (apiextensions-apiserver pkg/apiserver/conversion/
// webhook_converter.go: getConvertedObjectsFromResponse, Convert, validateConvertedObject, restoreObjectMeta).
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { BackendBatteryReport } from '../../lib/battery/backend/report';
import { CONVERSION_CHECK_IDS } from '../../lib/battery/conversion/checks';
import { conversionInputs, runConversionCheck } from '../../lib/cli/check-conversion';
import { listenTls } from '../../lib/net/loopback-server';
import type { Target } from '../../lib/target/targets';
import { sharedAuthority } from '../../lib/tls';
import { answer, app } from '../../examples/conversion/src/app';

jest.setTimeout(120_000);

const crd = path.join(__dirname, '../../examples/conversion/deploy/crd.yaml');
const inputs = conversionInputs([crd]);

type Review = { apiVersion: string; kind: string; request: { uid: string; desiredAPIVersion: string; objects: Record<string, unknown>[] } };
type Reply = { status?: number; body: unknown } | 'never';

/** A webhook answering each ConversionReview as `reply` says, given the example's good answer. */
function webhook(reply: (review: Review, good: { response: Record<string, unknown> } & Record<string, unknown>) => Reply): Target {
  return (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      const review = JSON.parse(body) as Review;
      const given = reply(review, answer(review as never) as never);
      if (given === 'never') return;
      const text = typeof given.body === 'string' ? given.body : JSON.stringify(given.body);
      res.writeHead(given.status ?? 200, { 'Content-Type': typeof given.body === 'string' ? 'text/plain' : 'application/json' }).end(text);
    });
  };
}

/** The good answer, its converted objects edited. */
const editing = (edit: (object: Record<string, unknown>, index: number) => Record<string, unknown>) =>
  webhook((_review, good) => {
    const converted = (good.response.convertedObjects as Record<string, unknown>[]).map(edit);
    return { body: { ...good, response: { ...good.response, convertedObjects: converted } } };
  });

async function battery(target: Target, options: { timeScale?: number; only?: string[] } = {}): Promise<BackendBatteryReport> {
  return runConversionCheck({ ...options }, target, inputs as NonNullable<typeof inputs>, 3);
}

const failures = (report: BackendBatteryReport, id: string) => report.results.flatMap((r) => r.checks.filter((c) => c.id === id && c.status === 'fail'));
const failedIds = (report: BackendBatteryReport) =>
  [...new Set(report.results.flatMap((r) => r.checks.filter((c) => c.status === 'fail').map((c) => c.id)))].sort();

describe('conversion webhook battery', () => {
  it('finds the CRDs with a conversion webhook, and passes the example webhook', async () => {
    expect(inputs?.crds.map((c) => [c.name, c.versions, c.served, c.storage, c.listKind])).toEqual([
      ['backups.example.com', ['v1', 'v2'], ['v1', 'v2'], 'v1', 'BackupList'],
    ]);
    const report = await battery(app);
    expect(report.failed).toBe(0);
    expect(report.results.map((r) => r.scenario)).toEqual([
      'v1 → v2 → v1 (object 1)',
      'v1 → v2 → v1 (object 2)',
      'v2 → v1 → v2 (object 1)',
      'v2 → v1 → v2 (object 2)',
      '3 objects in one review: v1 → v2',
    ]);
    expect([...new Set(report.results.flatMap((r) => r.checks.map((c) => c.id)))].sort()).toEqual([...CONVERSION_CHECK_IDS].sort());
    expect(report.results[0]?.verdict).toMatch(/^came back as sent · \d+ ms$/);
  });

  it('sends objects as the API stores them: uid, resourceVersion, the labels and annotations to keep', async () => {
    const seen: Review[] = [];
    await battery(
      webhook((review, good) => {
        seen.push(review);
        return { body: good };
      }),
      { only: ['conversion-response-valid'] },
    );
    const first = seen[0]?.request.objects[0] as { apiVersion: string; metadata: Record<string, unknown> };
    expect(first.apiVersion).toBe('example.com/v1');
    expect(first.metadata).toMatchObject({ namespace: 'default', uid: expect.stringMatching(/^[0-9a-f-]{36}$/), labels: { 'example.com/index': '1' } });
    expect(seen.at(-1)?.request.objects).toHaveLength(3);
  });

  it('conversion-no-server-error and conversion-response-valid: an HTTP 500', async () => {
    const report = await battery(webhook(() => ({ status: 500, body: 'boom' })));
    expect(failedIds(report)).toEqual(['conversion-list', 'conversion-no-server-error', 'conversion-response-valid']);
    expect(failures(report, 'conversion-no-server-error')[0]?.detail).toBe(
      'HTTP 500: conversion webhook for example.com/v1, Kind=Backup failed: an error on the server ("boom") has prevented the request from succeeding',
    );
  });

  it('conversion-review-kind: an AdmissionReview in answer', async () => {
    const report = await battery(
      webhook((_review, good) => ({ body: { ...good, apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' } })),
      {
        only: ['conversion-review-kind'],
      },
    );
    expect(failures(report, 'conversion-review-kind')[0]?.detail).toBe(
      'expected apiextensions.k8s.io/v1 ConversionReview, got admission.k8s.io/v1 AdmissionReview: conversion webhook for example.com/v1, Kind=Backup failed: no kind "AdmissionReview" is registered for version "admission.k8s.io/v1" in scheme "pkg/util/webhook/client.go:71"',
    );
  });

  it('conversion-uid-echo: a response.uid of its own', async () => {
    const report = await battery(
      webhook((_review, good) => ({ body: { ...good, response: { ...good.response, uid: 'mine' } } })),
      {
        only: ['conversion-uid-echo'],
      },
    );
    expect(failures(report, 'conversion-uid-echo')).toHaveLength(5);
    expect(failures(report, 'conversion-uid-echo')[0]?.detail).toMatch(
      /^conversion webhook for example\.com\/v1, Kind=Backup failed: expected response\.uid="[0-9a-f-]{36}", got "mine"$/,
    );
  });

  it('conversion-api-version: the objects left at their version', async () => {
    const report = await battery(
      editing((object) => ({ ...object, apiVersion: 'example.com/v1' })),
      { only: ['conversion-api-version'] },
    );
    expect(failures(report, 'conversion-api-version').map((c) => c.detail)).toContain(
      'conversion webhook for example.com/v1, Kind=Backup returned invalid object at index 0: invalid groupVersion (expected example.com/v2, received example.com/v1)',
    );
    // In a list, kube-apiserver numbers the object after counting it.
    expect(failures(report, 'conversion-api-version').at(-1)?.detail).toBe(
      'conversion webhook for example.com/v1, Kind=BackupList returned invalid converted object at index 1: invalid groupVersion (expected example.com/v2, received example.com/v1)',
    );
  });

  it('conversion-metadata: a changed name, and labels the API would refuse', async () => {
    const renamed = await battery(
      editing((object) => ({ ...object, metadata: { ...(object.metadata as object), name: 'other' } })),
      { only: ['conversion-metadata'] },
    );
    expect(failures(renamed, 'conversion-metadata')[0]?.detail).toMatch(
      /^conversion webhook for example\.com\/v1, Kind=Backup returned invalid object: must have the same name: [a-z0-9-]+ != other$/,
    );
    const labelled = await battery(
      editing((object) => ({ ...object, metadata: { ...(object.metadata as object), labels: { 'converted by': 'me' } } })),
      { only: ['conversion-metadata'] },
    );
    expect(failures(labelled, 'conversion-metadata')[0]?.detail).toMatch(
      /^conversion webhook for example\.com\/v1, Kind=Backup returned invalid metadata: metadata\.labels: Invalid value: "converted by": name part must consist of alphanumeric characters/,
    );
  });

  it('conversion-round-trip: a field lost on the way, with what changed', async () => {
    const report = await battery(
      editing((object) => {
        const spec = { ...(object.spec as Record<string, unknown>) };
        delete spec.retention;
        delete spec.retentionDays;
        return { ...object, spec };
      }),
      { only: ['conversion-round-trip'] },
    );
    expect(failures(report, 'conversion-round-trip')).toHaveLength(4);
    expect(failures(report, 'conversion-round-trip')[0]?.detail).toMatch(/^changed on the way \(sent → back\):\n {2}removed \/spec\/retentionDays: \d+$/);
  });

  it('conversion-list: a webhook that answers the first object only, or the objects out of order', async () => {
    const first = await battery(
      webhook((_review, good) => ({
        body: { ...good, response: { ...good.response, convertedObjects: (good.response.convertedObjects as object[]).slice(0, 1) } },
      })),
      {
        only: ['conversion-list'],
      },
    );
    expect(failures(first, 'conversion-list').map((c) => c.detail)).toEqual([
      'conversion webhook for example.com/v1, Kind=BackupList returned 1 objects, expected 3',
    ]);
    const reversed = await battery(
      webhook((_review, good) => ({
        body: { ...good, response: { ...good.response, convertedObjects: [...(good.response.convertedObjects as object[])].reverse() } },
      })),
      {
        only: ['conversion-list'],
      },
    );
    expect(failures(reversed, 'conversion-list')[0]?.detail).toMatch(
      /^conversion webhook for example\.com\/v1, Kind=BackupList returned invalid converted object at index 1: must have the same name: ([a-z0-9-]+) != (?!\1)[a-z0-9-]+$/,
    );
  });

  it('conversion-timeout-budget: a webhook that never answers hits the 30 s deadline (time-scaled)', async () => {
    const report = await battery(
      webhook(() => 'never'),
      { timeScale: 0.001, only: ['conversion-timeout-budget'] },
    );
    expect(failures(report, 'conversion-timeout-budget')).toHaveLength(5);
    expect(failures(report, 'conversion-timeout-budget')[0]?.detail).toMatch(
      /^conversion webhook for example\.com\/v1, Kind=Backup failed: Post "https:\/\/backup-conversion\.backup-system\.svc:443\/convert\?timeout=30s": context deadline exceeded/,
    );
  });

  it('conversion-tls: a certificate without the service name', async () => {
    const authority = await sharedAuthority();
    const server = await listenTls(app, await authority.issueServing({ hosts: ['elsewhere.example.com'] }));
    try {
      const report = await battery({ url: `https://${server.host}:${server.port}`, ca: authority.cert }, { only: ['conversion-tls'] });
      expect(failures(report, 'conversion-tls')).toHaveLength(5);
      expect(failures(report, 'conversion-tls')[0]?.detail).toMatch(
        /tls: failed to verify certificate: x509: certificate is valid for elsewhere\.example\.com, localhost, not backup-conversion\.backup-system\.svc$/,
      );
    } finally {
      await server.close();
    }
  });
});
