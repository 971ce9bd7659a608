import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HarnessError } from '../errors';
import type { AdmissionRequest } from '../kube/admission';
import { yaml } from '../yaml';
import { recordedReview, type Recordable } from './recorded-review';

type Named = Pick<AdmissionRequest, 'resource' | 'subResource' | 'requestResource' | 'requestSubResource' | 'operation'>;

/** Keeps a file name to what resource names are made of (they are DNS labels already; this guards odd input). */
function safe(part: string): string {
  return part.toLowerCase().replace(/[^a-z0-9.-]+/g, '-');
}

/** `<resource>[-<subresource>]-<operation>`: the client's resource (requestResource), as the file name starts. */
function stem(request: Named): string {
  const resource = (request.requestResource ?? request.resource).resource;
  const subresource = request.requestSubResource ?? request.subResource ?? '';
  return [resource, subresource, request.operation.toLowerCase()].filter(Boolean).map(safe).join('-');
}

/** `pods-create-1.yaml`, `deployments-scale-update-2.yaml`, `pods-exec-connect-1.yaml`: the fixture file of a request; `n` counts from 1. */
export function fixtureFileName(request: Named, n: number): string {
  if (!Number.isInteger(n) || n < 1) throw new HarnessError('USAGE', `fixtureFileName: n must be a whole number from 1, got ${n}`);
  return `${stem(request)}-${n}.yaml`;
}

/**
 * One fixture document as YAML. Written for YAML 1.1 readers (the harness reads manifests as 1.1, as
 * kube's YAML does), so strings such as "yes" or "on" come out quoted; no line folding and no anchors,
 * so each file diffs line by line and reads alone.
 */
function documentYaml(review: Recordable): string {
  return yaml().stringify(recordedReview(review), { version: '1.1', lineWidth: 0, aliasDuplicateObjects: false });
}

/** The reviews as one YAML stream of RecordedReview documents, separated by `---` (for stdout). */
export function fixturesToYaml(reviews: readonly Recordable[]): string {
  return reviews.map(documentYaml).join('---\n');
}

export interface WriteFixturesOptions {
  /** Replace files of the same name; by default numbering goes on after the files already there. */
  overwrite?: boolean;
}

/**
 * Writes one RecordedReview file per review into `dir` (created if missing), named by fixtureFileName
 * with `n` counting per resource, subresource and operation. Returns the paths written, in order. The
 * reviews are written as they are: Secret data included.
 */
export function writeFixtures(dir: string, reviews: readonly Recordable[], options: WriteFixturesOptions = {}): string[] {
  mkdirSync(dir, { recursive: true });
  const next = new Map<string, number>();
  return reviews.map((review) => {
    const key = stem(review.request);
    const text = documentYaml(review);
    for (let n = next.get(key) ?? 1; ; n++) {
      const file = path.join(dir, fixtureFileName(review.request, n));
      try {
        // 'wx' fails on an existing file, so a fixture already there is never overwritten unless asked.
        writeFileSync(file, text, { flag: options.overwrite ? 'w' : 'wx' });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw error;
      }
      next.set(key, n + 1);
      return file;
    }
  });
}
