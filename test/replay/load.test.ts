import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { reviewsFromAudit, writeFixtures } from '../../lib/audit';
import { HarnessError } from '../../lib/errors';
import { checkRecordedReview, isNew, loadFixtures } from '../../lib/replay';
import { logEvents } from '../audit/events';
import { auditSource, patchBytes, tempDir, writeFile } from './helpers';

/* loadFixtures: which files, in which order, and every problem of every document named by file, line and field. */

const temp = tempDir('load');
afterAll(() => temp.remove());

// Written out (not generated), so the files' line numbers below stay put.
const request = {
  uid: 'u-1',
  kind: { group: '', version: 'v1', kind: 'Pod' },
  resource: { group: '', version: 'v1', resource: 'pods' },
  name: 'web-1',
  namespace: 'shop',
  operation: 'CREATE',
  userInfo: { username: 'admin' },
  object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', namespace: 'shop' }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
  oldObject: null,
  dryRun: false,
  options: null,
};
const valid = { apiVersion: 'admission-harness/v1alpha1', kind: 'RecordedReview', source: auditSource(1), request, limits: [] };

/** The error loadFixtures throws for `paths`. */
function loadError(paths: string[]): HarnessError {
  try {
    loadFixtures(paths);
  } catch (error) {
    if (error instanceof HarnessError) return error;
    throw error;
  }
  throw new Error('loadFixtures did not throw');
}

describe('finding fixtures', () => {
  it('reads the fixtures review --from-audit writes, as new ones (no response)', () => {
    const dir = path.join(temp.dir, 'audit');
    writeFixtures(dir, reviewsFromAudit(logEvents()).reviews);
    const fixtures = loadFixtures([dir]);
    expect(fixtures.map((f) => f.name)).toEqual([
      'configmaps-update-1.yaml',
      'deployments-scale-update-1.yaml',
      'pods-create-1.yaml',
      'pods-exec-connect-1.yaml',
      'secrets-create-1.yaml',
    ]);
    expect(fixtures.every(isNew)).toBe(true);
    expect(fixtures[2]!.review.summary()).toBe(`CREATE pods ${fixtures[2]!.recorded.request.namespace}/${fixtures[2]!.recorded.request.name}`);
  });

  it('searches directories recursively in code-unit order, skips hidden entries and other extensions, and reads a file once', () => {
    const dir = path.join(temp.dir, 'tree');
    mkdirSync(path.join(dir, 'b'), { recursive: true });
    mkdirSync(path.join(dir, '.hidden'), { recursive: true });
    for (const name of ['b/z.yaml', 'B.yml', 'a.yaml', '.hidden/x.yaml', 'notes.txt', 'a.yaml.orig'])
      writeFile(dir, name, name.endsWith('l') ? [valid] : 'not yaml: [');
    const fixtures = loadFixtures([dir, path.join(dir, 'a.yaml')]);
    expect(fixtures.map((f) => f.name)).toEqual(['B.yml', 'a.yaml', 'b/z.yaml']);
    // A file given alone is named as given, and replayed in the order given.
    expect(loadFixtures([path.join(dir, 'b/z.yaml'), dir]).map((f) => f.name)).toEqual([path.join(dir, 'b/z.yaml'), 'B.yml', 'a.yaml']);
  });

  it('takes each document of a stream as a fixture, stray separators aside', () => {
    // JSON is YAML too; an empty document first and a separator last, as hand-edited streams have.
    const file = writeFile(
      temp.dir,
      'stream.yaml',
      `---\n${[valid, { ...valid, source: auditSource(2) }].map((d) => `---\n${JSON.stringify(d)}\n`).join('')}---\n`,
    );
    const fixtures = loadFixtures([file]);
    expect(fixtures.map((f) => [f.name, f.document])).toEqual([
      [file, 1],
      [`${file}#2`, 2],
    ]);
    expect(fixtures[1]!.recorded.source).toEqual(auditSource(2));
  });

  it("accepts the record command's source", () => {
    const file = writeFile(temp.dir, 'recorded.yaml', [
      {
        ...valid,
        source: {
          from: 'record',
          receivedAt: '2026-11-21T23:38:31.402Z',
          path: '/mutate?timeout=5s',
          reviewVersion: 'v1',
          upstream: 'https://webhook.example:8443/mutate',
        },
      },
    ]);
    expect(loadFixtures([file])).toHaveLength(1);
  });

  it('refuses paths that do not exist, and finding nothing at all', () => {
    expect(() => loadFixtures([path.join(temp.dir, 'missing')])).toThrow(`fixtures: cannot read ${path.join(temp.dir, 'missing')}: ENOENT`);
    const empty = path.join(temp.dir, 'empty');
    mkdirSync(empty);
    expect(() => loadFixtures([empty])).toThrow(`no RecordedReview fixtures (*.yaml, *.yml) in ${empty}`);
    expect(() => loadFixtures([])).toThrow('loadFixtures: no fixture files or directories given');
  });
});

describe('invalid fixtures', () => {
  it('lists every problem of every file, each with its file, line and field', () => {
    const dir = path.join(temp.dir, 'invalid');
    mkdirSync(dir);
    writeFile(dir, '1-kind.yaml', [{ ...valid, kind: 'AdmissionReview', respone: {} }]);
    writeFile(dir, '2-request.yaml', [{ ...valid, request: { ...request, operation: 'PATCH' } }]);
    writeFile(dir, '3-response.yaml', [
      { ...valid, respone: { allowed: true }, response: { uid: 'u-1', allowed: 'yes', warnings: ['ok', 3], status: { code: '403' } } },
    ]);
    writeFile(dir, '4-patch.yaml', [
      { ...valid, response: { allowed: true, patchType: 'JSONPatch', patch: 'not base64!' } },
      { ...valid, response: { allowed: true, patchType: 'JSONPatch', patch: Buffer.from('{"op":"add"}').toString('base64') } },
      { ...valid, response: { allowed: true, patch: patchBytes([{ op: 'add', path: '/x', value: 1 }]) } },
    ]);
    writeFile(dir, '5-syntax.yaml', 'apiVersion: admission-harness/v1alpha1\nkind: [RecordedReview\n');
    writeFile(dir, '6-source.yaml', [{ ...valid, source: { from: 'audit', stage: 'Done', objectFrom: 'requestObject', auditId: 'x' }, limits: 'none' }]);
    writeFile(dir, '7-empty.yaml', '# nothing yet\n');
    writeFile(dir, '8-scalar.yaml', 'just a string\n');
    writeFile(dir, '9-request.yaml', [{ ...valid, request: { ...request, uid: undefined, object: 'pod', resource: undefined, requestResource: undefined } }]);
    const error = loadError([dir]);
    expect(error.code).toBe('REVIEW_INVALID');
    const at = (name: string) => path.join(dir, name);
    expect(error.message.split('\n').slice(0, -1)).toEqual([
      'invalid replay fixtures (RecordedReview or RecordedAdmission):',
      `  ${at('1-kind.yaml')}:2: kind: Unsupported value: "AdmissionReview": supported values: "RecordedReview", "RecordedAdmission"`,
      `  ${at('2-request.yaml')}:21: request.operation: Unsupported value: "PATCH": supported values: "CREATE", "UPDATE", "DELETE", "CONNECT"`,
      `  ${at('3-response.yaml')}:38: respone: unknown field "respone" (did you mean "response"?)`,
      `  ${at('3-response.yaml')}:42: response.allowed: Invalid value: "yes": must be true or false`,
      `  ${at('3-response.yaml')}:47: response.status.code: Invalid value: "403": must be an integer`,
      `  ${at('3-response.yaml')}:45: response.warnings[1]: Invalid value: 3: must be a string`,
      `  ${at('4-patch.yaml')}:41: response.patch: Invalid value: not base64 (the JSON Patch is written base64-encoded, as a webhook sends it)`,
      `  ${at('4-patch.yaml')}:83: response.patch: Invalid value: not a JSON Patch: json: cannot unmarshal object into Go value of type jsonpatch.Patch`,
      `  ${at('4-patch.yaml')}:122: response.patchType: Required value: "JSONPatch" with a patch`,
      `  ${at('5-syntax.yaml')}:3: YAML: Flow sequence in block collection must be sufficiently indented and end with a ]`,
      `  ${at('6-source.yaml')}:7: source.auditId: unknown field "auditId" (did you mean "auditID"?)`,
      `  ${at('6-source.yaml')}:3: source.auditID: Required value`,
      `  ${at('6-source.yaml')}:5: source.stage: Unsupported value: "Done": supported values: "ResponseComplete", "ResponseStarted"`,
      `  ${at('6-source.yaml')}:3: source.requestURI: Required value`,
      `  ${at('6-source.yaml')}:36: limits: Invalid value: "none": must be a list of strings`,
      `  ${at('7-empty.yaml')}: no YAML document in the file`,
      `  ${at('8-scalar.yaml')}:1: Invalid value: "just a string": a RecordedReview document is a mapping`,
      `  ${at('9-request.yaml')}:9: request.uid: Required value`,
      `  ${at('9-request.yaml')}:19: request.object: Invalid value: "pod": must be an object or null`,
      `  ${at('9-request.yaml')}:9: request.resource: Required value: {group, version, resource}`,
    ]);
    expect(error.message).toContain('hint: each document needs apiVersion admission-harness/v1alpha1, kind RecordedReview, source, request');
  });

  it('checks one document without a file, for callers holding parsed documents', () => {
    expect(checkRecordedReview(valid)).toMatchObject({ ok: true, recordedPatch: [] });
    expect(checkRecordedReview({ ...valid, apiVersion: 'v1' })).toEqual({
      ok: false,
      problems: [{ path: ['apiVersion'], message: 'Unsupported value: "v1": supported values: "admission-harness/v1alpha1"' }],
    });
    expect(checkRecordedReview({ ...valid, source: { from: 'tape' } })).toEqual({
      ok: false,
      problems: [{ path: ['source', 'from'], message: 'Unsupported value: "tape": supported values: "audit", "record", "objects"' }],
    });
  });
});
