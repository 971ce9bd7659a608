import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fixtureFileName, fixturesToYaml, recordedReview, reviewsFromAudit, writeFixtures, type RecordedReview } from '../../lib/audit';
import { HarnessError } from '../../lib/errors';
import { yaml } from '../../lib/yaml';
import { reviewFromRequest } from '../../lib/review';
import { logEvents } from './events';

/*
 * The fixture format shared with record/replay: one RecordedReview YAML document per review
 * (apiVersion admission-harness/v1alpha1), named <resource>[-<subresource>]-<operation>-<n>.yaml.
 */

const { reviews } = reviewsFromAudit(logEvents());

describe('fixtureFileName', () => {
  it('names the resource, the subresource and the operation of the client request, and a count', () => {
    expect(reviews.map((r, i) => fixtureFileName(r.request, i + 1))).toEqual([
      'pods-create-1.yaml',
      'configmaps-update-2.yaml',
      'secrets-create-3.yaml',
      'deployments-scale-update-4.yaml',
      'pods-exec-connect-5.yaml',
    ]);
  });

  it('takes the requested resource over the one a webhook matched', () => {
    const request = { ...reviews[0]!.request, resource: { group: '', version: 'v1', resource: 'other' } };
    expect(fixtureFileName(request, 1)).toBe('pods-create-1.yaml');
  });

  it('refuses a count that is not a whole number from 1', () => {
    expect(() => fixtureFileName(reviews[0]!.request, 0)).toThrow(HarnessError);
    expect(() => fixtureFileName(reviews[0]!.request, 1.5)).toThrow('n must be a whole number from 1, got 1.5');
  });
});

describe('fixturesToYaml', () => {
  const documents = (text: string, version: '1.1' | '1.2') =>
    yaml()
      .parseAllDocuments(text, { version })
      .map((d) => d.toJS() as RecordedReview);

  it("writes one RecordedReview document per review, in the format's member order", () => {
    const parsed = documents(fixturesToYaml(reviews), '1.1');
    expect(parsed).toHaveLength(reviews.length);
    expect(Object.keys(parsed[0]!)).toEqual(['apiVersion', 'kind', 'source', 'request', 'limits']);
    expect(parsed[0]).toMatchObject({
      apiVersion: 'admission-harness/v1alpha1',
      kind: 'RecordedReview',
      source: { from: 'audit', objectFrom: 'requestObject' },
    });
  });

  it('reads back, as YAML 1.1 and 1.2 alike, to the same documents, key order included', () => {
    const text = fixturesToYaml(reviews);
    const expected = reviews.map(recordedReview);
    for (const version of ['1.1', '1.2'] as const) {
      const parsed = documents(text, version);
      expect(parsed).toEqual(expected);
      expect(parsed.map((d) => JSON.stringify(d))).toEqual(expected.map((d) => JSON.stringify(d)));
    }
  });

  it('quotes what YAML 1.1 would read otherwise, folds no line and uses no anchors', () => {
    const tricky = {
      ...reviews[1]!,
      request: {
        ...reviews[1]!.request,
        object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'x1' }, data: { yes: 'on', n: 'no', when: '2026-11-21T23:38:43Z', octal: '0755' } },
      },
    };
    const text = fixturesToYaml([tricky]);
    expect(documents(text, '1.1')[0]!.request.object).toEqual(tricky.request.object);
    expect(text).not.toMatch(/[&*]a\d/);
    for (const limit of tricky.limits) expect(text).toContain(limit);
  });

  it('gives requests that replay: each reads back through reviewFromRequest', () => {
    const parsed = documents(fixturesToYaml(reviews), '1.1');
    parsed.forEach((document, i) => expect(reviewFromRequest(document.request, `fixture ${i}`).attributes).toEqual(reviews[i]!.review.attributes));
  });

  it('writes nothing for no reviews', () => {
    expect(fixturesToYaml([])).toBe('');
  });
});

describe('writeFixtures', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'audit-fixtures-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes one file per review, counting per resource, subresource and operation, into a folder it creates', () => {
    const target = path.join(dir, 'recorded', 'audit');
    const written = writeFixtures(target, [...reviews, reviews[0]!]);
    expect(written.map((file) => path.relative(target, file))).toEqual([
      'pods-create-1.yaml',
      'configmaps-update-1.yaml',
      'secrets-create-1.yaml',
      'deployments-scale-update-1.yaml',
      'pods-exec-connect-1.yaml',
      'pods-create-2.yaml',
    ]);
    const first = yaml().parse(readFileSync(written[0]!, 'utf8'), { version: '1.1' }) as RecordedReview;
    expect(first).toEqual(recordedReview(reviews[0]!));
  });

  it('never overwrites a fixture already there unless asked', () => {
    writeFileSync(path.join(dir, 'pods-create-1.yaml'), 'mine\n');
    expect(writeFixtures(dir, [reviews[0]!]).map((f) => path.basename(f))).toEqual(['pods-create-2.yaml']);
    expect(readFileSync(path.join(dir, 'pods-create-1.yaml'), 'utf8')).toBe('mine\n');
    expect(writeFixtures(dir, [reviews[0]!], { overwrite: true }).map((f) => path.basename(f))).toEqual(['pods-create-1.yaml']);
    expect(readFileSync(path.join(dir, 'pods-create-1.yaml'), 'utf8')).toContain('kind: RecordedReview');
    expect(readdirSync(dir).sort()).toEqual(['pods-create-1.yaml', 'pods-create-2.yaml']);
  });

  it('writes Secret data as the audit logged it: redaction is a later step', () => {
    const [file] = writeFixtures(dir, [reviews.find((r) => r.request.resource.resource === 'secrets')!]);
    expect(readFileSync(file!, 'utf8')).toContain('password: czNjcjN0');
  });
});
