import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Document, LineCounter } from 'yaml';
import { HarnessError } from '../errors';
import { yaml } from '../yaml';
import { loadPlainYaml11 } from '../yaml-fast';
import type { LoadedFixture } from './fixture';
import { checkRecordedReview, type FieldProblem } from './validate';

const EXTENSIONS = ['.yaml', '.yml'];

/** A file to read, and the name reports give it. */
interface Found {
  file: string;
  name: string;
}

/**
 * Reads RecordedReview fixtures: files, and directories (searched recursively for *.yaml and *.yml,
 * hidden entries aside), in the order given, each directory's entries sorted by name in code-unit
 * order (depth first), so every machine and locale replays them alike. A file may hold several documents (`---`); each is
 * one fixture. Every document is validated first: all problems of all files are thrown together, one
 * line each naming the file, its line and the field.
 */
export function loadFixtures(paths: readonly string[]): LoadedFixture[] {
  if (paths.length === 0) throw new HarnessError('USAGE', 'loadFixtures: no fixture files or directories given');
  const seen = new Set<string>();
  const files = paths.flatMap(expand).filter(({ file }) => {
    // A file named directly and again through its directory is replayed once.
    const key = path.resolve(file);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (files.length === 0) {
    throw new HarnessError(
      'USAGE',
      `no RecordedReview fixtures (${EXTENSIONS.map((e) => `*${e}`).join(', ')}) in ${paths.join(', ')}`,
      'write some with `admission-harness review --from-audit LOG --out DIR`, or by hand',
    );
  }
  const fixtures: LoadedFixture[] = [];
  const problems: string[] = [];
  for (const found of files) readFixtureFile(found, fixtures, problems);
  if (problems.length > 0) {
    throw new HarnessError(
      'REVIEW_INVALID',
      `invalid replay fixture${problems.length === 1 ? '' : 's'} (RecordedReview or RecordedAdmission):\n  ${problems.join('\n  ')}`,
      'each document needs apiVersion admission-harness/v1alpha1, kind RecordedReview, source, request (an AdmissionRequest), limits, and optionally webhook and response (an AdmissionResponse); kind RecordedAdmission has answers (each {webhook, round, response}) instead of those two',
    );
  }
  return fixtures;
}

function expand(given: string): Found[] {
  let stats;
  try {
    stats = statSync(given);
  } catch (error) {
    throw new HarnessError('USAGE', `fixtures: cannot read ${given}: ${(error as Error).message}`, undefined, { cause: error });
  }
  if (!stats.isDirectory()) return [{ file: given, name: given }];
  return walk(given, '');
}

function walk(root: string, under: string): Found[] {
  const entries = readdirSync(path.join(root, under), { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.'))
    // Code-unit order, not localeCompare: the order must not depend on the machine's locale.
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return entries.flatMap((entry) => {
    const relative = under === '' ? entry.name : path.join(under, entry.name);
    if (entry.isDirectory()) return walk(root, relative);
    return EXTENSIONS.some((ext) => entry.name.endsWith(ext)) ? [{ file: path.join(root, relative), name: relative.split(path.sep).join('/') }] : [];
  });
}

/** Parses one file as YAML 1.1 (as kube reads YAML) and checks each of its documents. */
function readFixtureFile(found: Found, fixtures: LoadedFixture[], problems: string[]): void {
  let text: string;
  try {
    text = readFileSync(found.file, 'utf8');
  } catch (error) {
    problems.push(`${found.file}: cannot read: ${(error as Error).message}`);
    return;
  }
  // The common case, a file of one plain document as record and review --from-audit write them, read
  // fast; a valid fixture is all it needs. Anything else, or any problem, is read again below by the
  // `yaml` package, whose documents say which line a problem is on.
  const plain = loadPlainYaml11(text);
  if (plain) {
    const checked = checkRecordedReview(plain.value);
    if (checked.ok) {
      fixtures.push({
        file: found.file,
        document: 0,
        name: found.name,
        recorded: checked.recorded,
        review: checked.review,
        recordedPatch: checked.recordedPatch,
        ...(checked.answers ? { answers: checked.answers } : {}),
      });
      return;
    }
  }
  const lines = new (yaml().LineCounter)();
  // Duplicate keys are errors (uniqueKeys), as in kube's strict decoding.
  const documents = yaml().parseAllDocuments(text, { version: '1.1', lineCounter: lines });
  let count = 0;
  // `document` is the index in the whole stream, empty documents included: updateFixture finds it again by that.
  documents.forEach((doc, document) => {
    if (doc.errors.length > 0) {
      count++;
      for (const error of doc.errors)
        problems.push(`${found.file}:${error.linePos?.[0].line ?? 1}: YAML: ${(error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:$/, '')}`);
      return;
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (error) {
      // An alias bomb, or an alias to nothing: the yaml package refuses to build the value.
      count++;
      problems.push(`${found.file}: YAML: ${(error as Error).message}`);
      return;
    }
    // A stream's stray `---` (an empty document) is no fixture.
    if (value === null || value === undefined) return;
    const later = count > 0 ? `#${count + 1}` : '';
    count++;
    const checked = checkRecordedReview(value);
    if (!checked.ok) {
      for (const problem of checked.problems) problems.push(describe(found.file, doc, lines, problem));
      return;
    }
    fixtures.push({
      file: found.file,
      document,
      name: `${found.name}${later}`,
      recorded: checked.recorded,
      review: checked.review,
      recordedPatch: checked.recordedPatch,
      ...(checked.answers ? { answers: checked.answers } : {}),
    });
  });
  if (count === 0) problems.push(`${found.file}: no YAML document in the file`);
}

/**
 * `dir/pods-create-1.yaml:14: response.allowed: Required value`: the line of the field's key, or for a
 * missing field, of its nearest present parent's key.
 */
function describe(file: string, doc: Document, lines: LineCounter, problem: FieldProblem): string {
  let at: (string | number)[] = problem.path;
  while (at.length > 0 && !doc.hasIn(at)) at = at.slice(0, -1);
  const start = at.length === 0 ? rangeOf(doc.contents) : keyStart(doc, at);
  const line = start === undefined ? '' : `:${lines.linePos(start).line}`;
  return `${file}${line}: ${fieldName(problem.path)}${problem.path.length > 0 ? ': ' : ''}${problem.message}`;
}

/** Where a present member starts: its key in a mapping, the element itself in a list. */
function keyStart(doc: Document, at: (string | number)[]): number | undefined {
  const y = yaml();
  const parent = at.length === 1 ? doc.contents : doc.getIn(at.slice(0, -1), true);
  const last = at[at.length - 1];
  if (y.isMap(parent)) {
    const pair = parent.items.find((item) => y.isScalar(item.key) && item.key.value === last);
    if (pair) return rangeOf(pair.key);
  }
  return rangeOf(doc.getIn(at, true));
}

function rangeOf(node: unknown): number | undefined {
  return (node as { range?: [number, number, number] } | null | undefined)?.range?.[0];
}

/** `response.warnings[0]`, as kube's field paths read. */
function fieldName(parts: readonly (string | number)[]): string {
  return parts.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');
}
