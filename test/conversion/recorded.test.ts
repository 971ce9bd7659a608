// CRD conversion webhooks: the ConversionReview h.convert sends and its verification of the answer, against the
// recordings in ./fixtures (recorded on a real kube-apiserver v1.36.2). Each file's reviews are replayed in order:
// the object kube-apiserver sent, to the version it asked for, with the backend answering as it did.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createHarness, sharedAuthority, type Harness, type KubeObject } from '../../lib';
import { freePort } from '../../lib/net/loopback-server';
import { conversionBackend, type BackendMode } from './backend';

jest.setTimeout(60_000);

interface Recorded {
  environment: { crd: Record<string, unknown> };
  steps: { request: { method: string; path: string }; response: { code: number; body: Record<string, unknown> } }[];
  backendReceived: {
    url: string;
    headers: Record<string, string>;
    body: { request: { uid: string; desiredAPIVersion: string; objects: KubeObject[] } };
    backendAnsweredWith: BackendMode;
  }[];
}

const fixture = (name: string): Recorded => JSON.parse(readFileSync(path.join(__dirname, 'fixtures', `${name}.json`), 'utf8')) as Recorded;

/** The recorded CRD, its clientConfig's caBundle the harness CA's (elided in the recording). */
async function crdOf(recorded: Recorded, url?: string): Promise<Record<string, unknown>> {
  const crd = structuredClone(recorded.environment.crd) as { spec: { conversion: { webhook: { clientConfig: { url: string; caBundle: string } } } } };
  const clientConfig = crd.spec.conversion.webhook.clientConfig;
  clientConfig.caBundle = (await sharedAuthority()).caBundle;
  if (url) clientConfig.url = url;
  return crd as unknown as Record<string, unknown>;
}

/** A harness whose target is the recorded backend, answering as `mode()` says. */
async function withBackend(
  recorded: Recorded,
  mode: () => BackendMode,
  run: (h: Harness, backend: ReturnType<typeof conversionBackend>) => Promise<void>,
  timeScale = 1,
): Promise<void> {
  const backend = conversionBackend(mode);
  const h = await createHarness({ manifests: [await crdOf(recorded)], target: backend.handler, seed: 29, timeScale });
  try {
    await run(h, backend);
  } finally {
    await h.close();
  }
}

const withoutResourceVersion = (object: Record<string, unknown>): Record<string, unknown> => {
  const copy = structuredClone(object) as { metadata: Record<string, unknown> };
  delete copy.metadata.resourceVersion;
  return copy;
};

/** The review the backend received equals the recorded one, byte for byte once the request uid is ours. */
function expectSameReview(
  received: { url: string; headers: Record<string, unknown>; raw: string },
  recorded: Recorded['backendReceived'][number],
  uid: string,
): void {
  expect(received.url).toBe(recorded.url);
  for (const header of ['content-type', 'accept', 'accept-encoding', 'user-agent', 'content-length'])
    expect([header, received.headers[header]]).toEqual([header, recorded.headers[header]]);
  const body = structuredClone(recorded.body);
  body.request.uid = uid;
  // encoding/json's compact form ends with a newline; the recording's keys are in the order kube sent them.
  expect(received.raw).toBe(`${JSON.stringify(body)}\n`);
}

describe('every review sent, and the Status kube answered for it', () => {
  it.each([
    'fail-wrong-uid',
    'fail-wrong-uid.no-watch-cache',
    'fail-failure-status',
    'fail-failure-status.no-watch-cache',
    'fail-change-name',
    'fail-change-name.no-watch-cache',
    'fail-change-uid',
    'fail-change-uid.no-watch-cache',
    'fail-http-500',
    'fail-http-500.no-watch-cache',
  ])('%s', async (name) => {
    const recorded = fixture(name);
    // Each review failed one request, in order; the requests the watch cache answered sent none.
    const failing = recorded.steps.filter((step) => step.response.code === 500);
    expect(failing).toHaveLength(recorded.backendReceived.length);
    let mode: BackendMode = { kind: 'ok' };
    await withBackend(
      recorded,
      () => mode,
      async (h, backend) => {
        for (const [i, review] of recorded.backendReceived.entries()) {
          mode = review.backendAnsweredWith;
          const result = await h.convert(review.body.request.objects[0] as KubeObject, review.body.request.desiredAPIVersion);
          const sent = backend.received[i];
          expect(sent).toBeDefined();
          const uid = sent?.review.request.uid ?? '';
          expectSameReview(sent as NonNullable<typeof sent>, review, uid);
          expect(result.ok).toBe(false);
          expect(result.outcomes).toHaveLength(1);
          const step = failing[i] as Recorded['steps'][number];
          const expected = JSON.parse(JSON.stringify(step.response.body).split(review.body.request.uid).join(uid)) as Record<string, unknown>;
          // A create answers the text wrapped twice as an internal error; reads and updates answer it as is.
          expect(step.request.method === 'POST' ? result.error?.createStatus : result.error?.status).toEqual(expected);
        }
      },
    );
  });
});

describe('fail-change-labels: labels and annotations may change, and are kept', () => {
  it.each(['fail-change-labels', 'fail-change-labels.no-watch-cache'])('%s', async (name) => {
    const recorded = fixture(name);
    await withBackend(
      recorded,
      () => ({ kind: 'change-labels' }),
      async (h, backend) => {
        for (const [i, review] of recorded.backendReceived.entries()) {
          const object = review.body.request.objects[0] as KubeObject;
          const result = await h.convert(object, review.body.request.desiredAPIVersion);
          expectSameReview(backend.received[i] as NonNullable<(typeof backend.received)[number]>, review, backend.received[i]?.review.request.uid ?? '');
          expect(result.error).toBeUndefined();
          expect(result.objects[0]?.metadata?.labels).toEqual({ ...object.metadata?.labels, 'converted-by': 'webhook' });
          expect(result.objects[0]?.metadata?.annotations).toEqual({ ...object.metadata?.annotations, 'converted-at': 'backend' });
        }
        // The first review is the GET of w1 in v2: what kube answered is the converted object (and its resourceVersion).
        const first = await h.convert(recorded.backendReceived[0]?.body.request.objects[0] as KubeObject, 'v2');
        expect(first.objects[0]).toEqual(withoutResourceVersion(recorded.steps[0]?.response.body as Record<string, unknown>));
      },
    );
  });
});

describe('get-v2: a v1 object read in v2', () => {
  it.each(['get-v2', 'get-v2.no-watch-cache'])('%s', async (name) => {
    const recorded = fixture(name);
    const review = recorded.backendReceived[0] as Recorded['backendReceived'][number];
    await withBackend(
      recorded,
      () => ({ kind: 'ok' }),
      async (h, backend) => {
        const result = await h.convert(review.body.request.objects[0] as KubeObject, 'stable.example.com/v2');
        expectSameReview(backend.received[0] as NonNullable<(typeof backend.received)[number]>, review, backend.received[0]?.review.request.uid ?? '');
        expect(result.ok).toBe(true);
        expect(result.outcomes[0]?.url).toBe('https://127.0.0.1:9445/convert?timeout=30s');
        expect(result.objects).toEqual([withoutResourceVersion(recorded.steps[0]?.response.body as Record<string, unknown>)]);
      },
    );
  });
});

describe('list-v2: one review per object, in order', () => {
  it('list-v2.no-watch-cache', async () => {
    const recorded = fixture('list-v2.no-watch-cache');
    const objects = recorded.backendReceived.map((review) => review.body.request.objects[0] as KubeObject);
    await withBackend(
      recorded,
      () => ({ kind: 'ok' }),
      async (h, backend) => {
        const result = await h.convert(objects, 'v2');
        expect(backend.received).toHaveLength(3);
        recorded.backendReceived.forEach((review, i) =>
          expectSameReview(backend.received[i] as NonNullable<(typeof backend.received)[number]>, review, backend.received[i]?.review.request.uid ?? ''),
        );
        expect(new Set(backend.received.map((r) => r.review.request.uid)).size).toBe(3);
        const items = (recorded.steps[0]?.response.body as { items: Record<string, unknown>[] }).items;
        expect(result.objects).toEqual(items.map(withoutResourceVersion));
      },
    );
  });
});

describe('fail-timeout: a webhook that never answers meets the 30 s deadline', () => {
  it('fail-timeout', async () => {
    const recorded = fixture('fail-timeout');
    const review = recorded.backendReceived[0] as Recorded['backendReceived'][number];
    // timeScale 0.1 makes the 30 s deadline 3 s of real time (room for the handshake and the body on a loaded
    // machine); the URL still says 30s. The webhook never answers, so the failure itself proves the deadline.
    await withBackend(
      recorded,
      () => ({ kind: 'never-answer' }),
      async (h, backend) => {
        const result = await h.convert(review.body.request.objects[0] as KubeObject, 'v2');
        expectSameReview(backend.received[0] as NonNullable<(typeof backend.received)[number]>, review, backend.received[0]?.review.request.uid ?? '');
        expect(result.error?.check).toBe('transport');
        expect(result.error?.status).toEqual(recorded.steps[0]?.response.body);
      },
      0.1,
    );
  });
});

describe('fail-unreachable: nothing listens at the webhook', () => {
  it.each(['fail-unreachable', 'fail-unreachable.no-watch-cache'])('%s', async (name) => {
    const recorded = fixture(name);
    // The backend is stopped: its address is a port nothing listens on, dialled as written in the CRD.
    const port = await freePort();
    const h = await createHarness({
      manifests: [await crdOf(recorded, `https://127.0.0.1:${port}/convert`)],
      target: { url: `https://127.0.0.1:${port}` },
      seed: 29,
    });
    try {
      const stored = withoutResourceVersion(recorded.steps[1]?.response.body as Record<string, unknown>) as unknown as KubeObject;
      const result = await h.convert(stored, 'v2');
      const expected = JSON.parse(JSON.stringify(recorded.steps[0]?.response.body).split('127.0.0.1:9445').join(`127.0.0.1:${port}`)) as unknown;
      expect(result.error?.status).toEqual(expected);
      expect(result.outcomes).toHaveLength(1);
    } finally {
      await h.close();
    }
  });
});

describe('get-v1: an object read at its stored version sends no review', () => {
  it.each(['get-v1', 'get-v1.no-watch-cache'])('%s', async (name) => {
    const recorded = fixture(name);
    expect(recorded.backendReceived).toHaveLength(0);
    await withBackend(
      recorded,
      () => ({ kind: 'ok' }),
      async (h, backend) => {
        const stored = withoutResourceVersion(recorded.steps[0]?.response.body as Record<string, unknown>) as unknown as KubeObject;
        const result = await h.convert(stored, 'v1');
        expect(backend.received).toHaveLength(0);
        expect(result).toEqual({ ok: true, objects: [stored], outcomes: [] });
      },
    );
  });
});
