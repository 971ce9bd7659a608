import type { IncomingMessage, ServerResponse } from 'node:http';

/** How the recorded backend answered (`backendAnsweredWith` in the fixtures), plus a backend that never answers. */
export type BackendMode =
  | { kind: 'ok' }
  | { kind: 'wrong-uid' }
  | { kind: 'failure'; message: string }
  | { kind: 'change-name' }
  | { kind: 'change-uid' }
  | { kind: 'change-labels' }
  | { kind: 'http500'; text: string }
  | { kind: 'never-answer' }
  /** Any answer, built from the review: for the checks no recording shows. */
  | { kind: 'custom'; answer: (review: Review) => { status?: number; body: unknown } };

type Json = Record<string, unknown>;
interface Review {
  apiVersion: string;
  kind: string;
  request: { uid: string; desiredAPIVersion: string; objects: Json[] };
}

/** A request the backend received: URL, headers and the body byte for byte. */
export interface BackendRequest {
  url: string;
  headers: IncomingMessage['headers'];
  raw: string;
  review: Review;
}

/**
 * The conversion backend of the recordings: renames spec.color (v1) <-> spec.colour (v2), sets apiVersion
 * to desiredAPIVersion, copies everything else, and misbehaves as `mode()` says.
 */
export function conversionBackend(mode: () => BackendMode): { handler: (req: IncomingMessage, res: ServerResponse) => void; received: BackendRequest[] } {
  const received: BackendRequest[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const review = JSON.parse(raw) as Review;
      received.push({ url: req.url ?? '', headers: req.headers, raw, review });
      const current = mode();
      if (current.kind === 'never-answer') return;
      if (current.kind === 'http500') {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(current.text);
        return;
      }
      const answer = current.kind === 'custom' ? current.answer(review) : { body: answerFor(current, review) };
      res.writeHead(answer.status ?? 200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  };
  return { handler, received };
}

function answerFor(mode: BackendMode, review: Review): unknown {
  const { uid, desiredAPIVersion, objects } = review.request;
  const convertedObjects = objects.map((object) => converted(object, desiredAPIVersion, mode));
  const failed = mode.kind === 'failure';
  return {
    apiVersion: review.apiVersion,
    kind: 'ConversionReview',
    response: {
      uid: mode.kind === 'wrong-uid' ? 'not-the-request-uid' : uid,
      ...(failed ? {} : { convertedObjects }),
      result: failed ? { status: 'Failure', message: mode.message } : { status: 'Success' },
    },
  };
}

function converted(object: Json, desiredAPIVersion: string, mode: BackendMode): Json {
  const copy = structuredClone(object);
  copy.apiVersion = desiredAPIVersion;
  const spec = copy.spec as Json | undefined;
  if (spec && desiredAPIVersion.endsWith('/v2') && 'color' in spec) {
    spec.colour = spec.color;
    delete spec.color;
  } else if (spec && desiredAPIVersion.endsWith('/v1') && 'colour' in spec) {
    spec.color = spec.colour;
    delete spec.colour;
  }
  const metadata = copy.metadata as Json;
  if (mode.kind === 'change-name') metadata.name = `${String(metadata.name)}-renamed`;
  if (mode.kind === 'change-uid') metadata.uid = '00000000-0000-0000-0000-000000000000';
  if (mode.kind === 'change-labels') {
    metadata.labels = { ...(metadata.labels as Json | undefined), 'converted-by': 'webhook' };
    metadata.annotations = { ...(metadata.annotations as Json | undefined), 'converted-at': 'backend' };
  }
  return copy;
}
