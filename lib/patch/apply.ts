/**
 * RFC 6902 JSON Patch with the semantics and error texts of evanphx/json-patch v4
 * (gopkg.in/evanphx/json-patch.v4 v4.13.0, patch.go), the library kube-apiserver applies mutating
 * webhook patches with (`Patch.Apply` in the mutating dispatcher's callAttrMutatingHook).
 *
 * Each operation below is a port of the patch.go function of the same name; the error strings are the
 * ones its fmt.Errorf calls print. fast-json-patch's operations differ from it too often (indices,
 * missing keys, error order and text) to delegate to; the tests compare the two.
 */
import { cannotUnmarshal, goJsonKind } from '../go/json-errors';
import { cloneJson } from '../kube/json';
import { findObject, rootContainer, type Json, type Target } from './containers';
import { asPatch, type DecodedOperation } from './decode';
import { valueEquals } from './equal';
import { ERR_MISSING, ERR_TEST_FAILED, GoError, GoPanic, NIL_DEREFERENCE, missingValue, replaceFailure, wrapFailure } from './go-text';

export type ApplyResult = { ok: true; document: unknown } | { ok: false; error: string };

/**
 * How an error starts when json-patch would have panicked rather than returned an error. kube-apiserver
 * does not report these as `Internal error occurred: …`; the request dies in its panic-recovery filter.
 */
export const GO_PANIC_PREFIX = 'panic: ';

type Operation = Record<string, unknown>;

interface State {
  root: Json;
}

const OPERATIONS: ReadonlyMap<string, (state: State, op: Operation) => void> = new Map([
  ['add', add],
  ['remove', remove],
  ['replace', replace],
  ['move', move],
  ['test', test],
  ['copy', copy],
]);

/**
 * Applies `ops` (a parsed JSON Patch, as from decodeJsonPatch) to `document` as kube-apiserver would.
 * Neither argument is modified, and a failing patch leaves no partial result.
 */
export function applyJsonPatch(document: unknown, ops: unknown): ApplyResult {
  const patch = asPatch(ops);
  if (!patch.ok) return patch;
  const state: State = { root: (document === undefined ? null : cloneJson(document)) as Json };
  const documentError = unmarshalError(state.root);
  if (documentError !== undefined) return { ok: false, error: documentError };
  try {
    for (const op of patch.ops) applyOperation(state, op);
    return { ok: true, document: state.root };
  } catch (error) {
    if (error instanceof GoError) return { ok: false, error: error.message };
    if (error instanceof GoPanic) return { ok: false, error: `${GO_PANIC_PREFIX}${error.message}` };
    throw error;
  }
}

/** ApplyIndent unmarshals a document not starting with `[` into partialDoc, which only objects (and null) fit. */
function unmarshalError(root: Json): string | undefined {
  const kind = goJsonKind(root);
  return kind === 'object' || kind === 'array' || kind === 'null' ? undefined : cannotUnmarshal(root, 'jsonpatch.partialDoc');
}

function applyOperation(state: State, op: DecodedOperation): void {
  const member = op?.op;
  const kind = typeof member === 'string' ? member : 'unknown';
  const run = OPERATIONS.get(kind);
  if (run === undefined || op === null) throw new GoError(`Unexpected kind: ${kind}`);
  run(state, op);
}

function add(state: State, op: Operation): void {
  const path = replaceFailure(`add operation failed to decode path: ${ERR_MISSING}`, () => pathOf(op));
  const target = found(findObject(rootContainer(state.root), path), `add operation does not apply: doc is missing path: "${path}"`);
  wrapFailure(`error in add for path: '${path}'`, () => target.container.add(target.key, valueOf(op) ?? null));
}

function remove(state: State, op: Operation): void {
  const path = replaceFailure(`remove operation failed to decode path: ${ERR_MISSING}`, () => pathOf(op));
  const target = found(findObject(rootContainer(state.root), path), `remove operation does not apply: doc is missing path: "${path}"`);
  wrapFailure(`error in remove for path: '${path}'`, () => target.container.remove(target.key));
}

/** v4's replace only checks that the container accepts the key: on an object, a missing key is simply added. */
function replace(state: State, op: Operation): void {
  const path = wrapFailure('replace operation failed to decode path', () => pathOf(op));
  if (path === '') {
    state.root = wholeDocument(valueOf(op));
    return;
  }
  const target = found(findObject(rootContainer(state.root), path), `replace operation does not apply: doc is missing path: ${path}`);
  replaceFailure(`replace operation does not apply: doc is missing key: ${path}: ${ERR_MISSING}`, () => target.container.get(target.key));
  // set cannot fail once get has accepted the key, so patch.go's "error in remove for path" is unreachable.
  target.container.set(target.key, valueOf(op) ?? null);
}

function wholeDocument(value: Json | undefined): Json {
  if (value === undefined) throw new GoPanic(NIL_DEREFERENCE);
  // patch.go wraps the nil error left over from reading the path, which fmt prints as %!w(<nil>).
  if (typeof value !== 'object' || value === null) throw new GoError('replace operation value must be object or array: %!w(<nil>)');
  return value;
}

function move(state: State, op: Operation): void {
  const from = wrapFailure('move operation failed to decode from', () => fromOf(op));
  const source = found(findObject(rootContainer(state.root), from), `move operation does not apply: doc is missing from path: ${from}`);
  // These two messages name the decoded key, not the path.
  const value = wrapFailure(`error in move for path: '${source.key}'`, () => source.container.get(source.key));
  wrapFailure(`error in move for path: '${source.key}'`, () => source.container.remove(source.key));
  // The destination is resolved only after the removal, so it cannot lie inside the moved value.
  const path = wrapFailure('move operation failed to decode path', () => pathOf(op));
  const target = found(findObject(rootContainer(state.root), path), `move operation does not apply: doc is missing destination path: ${path}`);
  wrapFailure(`error in move for path: '${path}'`, () => target.container.add(target.key, value));
}

function test(state: State, op: Operation): void {
  const path = wrapFailure('test operation failed to decode path', () => pathOf(op));
  const expected = valueOf(op);
  if (path === '') {
    if (expected === undefined) throw new GoPanic(NIL_DEREFERENCE);
    // A nil-map document compares like an empty object.
    if (!valueEquals(state.root ?? {}, expected)) throw testFailed(path);
    return;
  }
  const target = found(findObject(rootContainer(state.root), path), `test operation does not apply: is missing path: ${path}`);
  const actual = wrapFailure(`error in test for path: '${path}'`, () => target.container.get(target.key));
  if (!testPasses(actual, expected)) throw testFailed(path);
}

/** A missing (or null) member passes only against `"value": null` or no value at all. */
function testPasses(actual: Json, expected: Json | undefined): boolean {
  if (actual === null) return expected === undefined || expected === null;
  return expected !== undefined && valueEquals(actual, expected);
}

function testFailed(path: string): GoError {
  return new GoError(`testing value ${path} failed: ${ERR_TEST_FAILED}`);
}

/**
 * Copying a missing object member copies Go's nil node, so the destination gets null. kube-apiserver also
 * caps the bytes all copies of a patch may add (jsonpatch.AccumulatedCopySizeLimit, 3 MiB); not modelled.
 */
function copy(state: State, op: Operation): void {
  const from = wrapFailure('copy operation failed to decode from', () => fromOf(op));
  const source = found(findObject(rootContainer(state.root), from), `copy operation does not apply: doc is missing from path: ${from}`);
  const value = wrapFailure(`error in copy for from: '${from}'`, () => source.container.get(source.key));
  const path = replaceFailure(`copy operation failed to decode path: ${ERR_MISSING}`, () => pathOf(op));
  const target = found(findObject(rootContainer(state.root), path), `copy operation does not apply: doc is missing destination path: ${path}`);
  wrapFailure('error while adding value during copy', () => target.container.add(target.key, cloneJson(value) as Json));
}

function found(target: Target | undefined, message: string): Target {
  if (target === undefined) throw missingValue(message);
  return target;
}

/** Operation.Path(): a JSON null counts as absent, a non-string fails as json.Unmarshal into a string. */
function pathOf(op: Operation): string {
  return stringMember(op, 'path', `operation missing path field: ${ERR_MISSING}`);
}

function fromOf(op: Operation): string {
  return stringMember(op, 'from', `operation, missing from field: ${ERR_MISSING}`);
}

function stringMember(op: Operation, name: string, absent: string): string {
  const value = op[name];
  if (value === undefined || value === null) throw new GoError(absent);
  if (typeof value !== 'string') throw new GoError(cannotUnmarshal(value, 'string'));
  return value;
}

/** Operation.value(): undefined when the member is absent (a nil node), else a copy the result can own. */
function valueOf(op: Operation): Json | undefined {
  return op.value === undefined ? undefined : (cloneJson(op.value) as Json);
}
