import { applyPatch, type Operation } from 'fast-json-patch';
import { applyJsonPatch, decodeJsonPatch } from '../../lib/patch';
import { decodePatchKey } from '../../lib/patch/containers';

// Expectations come from evanphx/json-patch v4.13.0 patch.go (as vendored by kubernetes under
// vendor/gopkg.in/evanphx/json-patch.v4/), named per row as `patch.go <function>`.

type Outcome = { document: unknown } | { error: string };

interface Row {
  name: string;
  doc: unknown;
  ops: unknown;
  expect: Outcome;
  /** For rows where fast-json-patch's applyPatch(doc, ops, true, false) behaves differently: how. */
  fjp?: string;
}

const NIL_DEREFERENCE = 'panic: runtime error: invalid memory address or nil pointer dereference';
const list = (items: unknown[]) => ({ l: items });

const rows: Row[] = [
  // patch.go partialDoc.add: a plain map assignment.
  { name: 'add a new key', doc: { a: 1 }, ops: [{ op: 'add', path: '/b', value: 2 }], expect: { document: { a: 1, b: 2 } } },
  { name: 'add overwrites an existing key', doc: { a: 1 }, ops: [{ op: 'add', path: '/a', value: 2 }], expect: { document: { a: 2 } } },
  // patch.go Operation.value: an absent value is a nil node, which marshals as null.
  { name: 'add without a value adds null', doc: {}, ops: [{ op: 'add', path: '/a' }], expect: { document: { a: null } }, fjp: 'requires value' },
  { name: 'add a null value', doc: {}, ops: [{ op: 'add', path: '/a', value: null }], expect: { document: { a: null } } },
  // patch.go partialArray.add: inserts; "-" appends; len(ary) is in range.
  { name: 'add inserts into an array', doc: list([1, 2]), ops: [{ op: 'add', path: '/l/1', value: 9 }], expect: { document: list([1, 9, 2]) } },
  { name: 'add "-" appends', doc: list([1, 2]), ops: [{ op: 'add', path: '/l/-', value: 9 }], expect: { document: list([1, 2, 9]) } },
  { name: 'add at index == length appends', doc: list([1, 2]), ops: [{ op: 'add', path: '/l/2', value: 9 }], expect: { document: list([1, 2, 9]) } },
  {
    name: 'add past the end',
    doc: list([1, 2]),
    ops: [{ op: 'add', path: '/l/3', value: 9 }],
    expect: { error: "error in add for path: '/l/3': Unable to access invalid index: 3: invalid index referenced" },
  },
  // patch.go partialArray.add + SupportNegativeIndices: idx += len(ary)+1, so -1 appends and -(len+1) prepends.
  {
    name: 'add at -1 appends',
    doc: list([1, 2]),
    ops: [{ op: 'add', path: '/l/-1', value: 9 }],
    expect: { document: list([1, 2, 9]) },
    fjp: 'rejects negative indices',
  },
  {
    name: 'add at -(len+1) prepends',
    doc: list([1, 2]),
    ops: [{ op: 'add', path: '/l/-3', value: 9 }],
    expect: { document: list([9, 1, 2]) },
    fjp: 'rejects negative indices',
  },
  {
    name: 'add below -(len+1)',
    doc: list([1, 2]),
    ops: [{ op: 'add', path: '/l/-4', value: 9 }],
    expect: { error: "error in add for path: '/l/-4': Unable to access invalid index: -4: invalid index referenced" },
  },
  // patch.go partialArray.add parses with strconv.Atoi, which takes a sign.
  {
    name: 'add at "+1"',
    doc: list([1, 2]),
    ops: [{ op: 'add', path: '/l/+1', value: 9 }],
    expect: { document: list([1, 9, 2]) },
    fjp: 'rejects a signed index',
  },
  { name: 'add at "01"', doc: list([1, 2]), ops: [{ op: 'add', path: '/l/01', value: 9 }], expect: { document: list([1, 9, 2]) } },
  {
    name: 'add at a non-numeric array index',
    doc: list([1, 2]),
    ops: [{ op: 'add', path: '/l/x', value: 9 }],
    expect: { error: `error in add for path: '/l/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax` },
  },
  {
    name: 'add at an index beyond int64',
    doc: list([1, 2]),
    ops: [{ op: 'add', path: '/l/99999999999999999999', value: 9 }],
    expect: {
      error: `error in add for path: '/l/99999999999999999999': value was not a proper array index: '99999999999999999999': strconv.Atoi: parsing "99999999999999999999": value out of range`,
    },
  },
  // patch.go Patch.add + findObject: a missing intermediate is ErrMissing, path quoted with \"%s\".
  {
    name: 'add under a missing parent',
    doc: { metadata: {} },
    ops: [{ op: 'add', path: '/metadata/labels/x', value: 'y' }],
    expect: { error: 'add operation does not apply: doc is missing path: "/metadata/labels/x": missing value' },
  },
  // patch.go findObject: intoDoc fails on a scalar, and a JSON null is a nil node.
  {
    name: 'add under a scalar',
    doc: { a: 1 },
    ops: [{ op: 'add', path: '/a/b', value: 1 }],
    expect: { error: 'add operation does not apply: doc is missing path: "/a/b": missing value' },
  },
  {
    name: 'add under a null',
    doc: { a: null },
    ops: [{ op: 'add', path: '/a/b', value: 1 }],
    expect: { error: 'add operation does not apply: doc is missing path: "/a/b": missing value' },
  },
  // patch.go findObject: strings.Split("", "/") has one element, so "" never resolves.
  {
    name: 'add at the whole document ""',
    doc: { a: 1 },
    ops: [{ op: 'add', path: '', value: { b: 2 } }],
    expect: { error: 'add operation does not apply: doc is missing path: "": missing value' },
    fjp: 'replaces the document',
  },
  // patch.go findObject: split[0] is never looked at, so "a/b" means "/b".
  { name: 'a path without a leading slash', doc: {}, ops: [{ op: 'add', path: 'a/b', value: 1 }], expect: { document: { b: 1 } }, fjp: 'rejects the path' },
  // patch.go decodePatchKey: ~1 then ~0, so ~01 is a literal ~1.
  { name: 'JSON pointer escapes', doc: {}, ops: [{ op: 'add', path: '/a~1b~0c~01', value: 1 }], expect: { document: { 'a/b~c~1': 1 } } },
  // patch.go partialDoc: keys are never indices inside objects.
  {
    name: 'numeric-looking object keys',
    doc: { m: {} },
    ops: [
      { op: 'add', path: '/m/0', value: 'x' },
      { op: 'add', path: '/m/-', value: 'y' },
    ],
    expect: { document: { m: { '0': 'x', '-': 'y' } } },
  },
  {
    name: 'a __proto__ key is an ordinary key',
    doc: {},
    ops: [{ op: 'add', path: '/__proto__', value: { x: 1 } }],
    expect: { document: JSON.parse('{"__proto__":{"x":1}}') },
    fjp: 'bans prototype keys',
  },

  // patch.go partialDoc.remove: ErrMissing wrapped with the key, then with the path in '%s'.
  { name: 'remove a key', doc: { a: 1, b: 2 }, ops: [{ op: 'remove', path: '/a' }], expect: { document: { b: 2 } } },
  { name: 'remove a key holding null', doc: { a: null }, ops: [{ op: 'remove', path: '/a' }], expect: { document: {} } },
  {
    name: 'remove a missing key',
    doc: { metadata: { labels: {} } },
    ops: [{ op: 'remove', path: '/metadata/labels/remove' }],
    expect: { error: "error in remove for path: '/metadata/labels/remove': Unable to remove nonexistent key: remove: missing value" },
  },
  {
    name: 'remove under a missing parent',
    doc: {},
    ops: [{ op: 'remove', path: '/x/y' }],
    expect: { error: 'remove operation does not apply: doc is missing path: "/x/y": missing value' },
  },
  {
    name: 'remove ""',
    doc: { a: 1 },
    ops: [{ op: 'remove', path: '' }],
    expect: { error: 'remove operation does not apply: doc is missing path: "": missing value' },
    fjp: 'sets the document to null',
  },
  // patch.go partialArray.remove.
  { name: 'remove an array element', doc: list([1, 2, 3]), ops: [{ op: 'remove', path: '/l/1' }], expect: { document: list([1, 3]) } },
  {
    name: 'remove at -1 removes the last element',
    doc: list([1, 2, 3]),
    ops: [{ op: 'remove', path: '/l/-1' }],
    expect: { document: list([1, 2]) },
    fjp: 'rejects negative indices',
  },
  {
    name: 'remove past the end',
    doc: list([1, 2, 3]),
    ops: [{ op: 'remove', path: '/l/3' }],
    expect: { error: "error in remove for path: '/l/3': Unable to access invalid index: 3: invalid index referenced" },
  },
  {
    name: 'remove "-"',
    doc: list([1]),
    ops: [{ op: 'remove', path: '/l/-' }],
    expect: { error: `error in remove for path: '/l/-': strconv.Atoi: parsing "-": invalid syntax` },
  },

  // patch.go Patch.replace: con.get must not fail, then con.set; partialDoc.get never fails.
  { name: 'replace a key', doc: { a: 1 }, ops: [{ op: 'replace', path: '/a', value: 2 }], expect: { document: { a: 2 } } },
  {
    name: 'replace a missing key acts as add',
    doc: { metadata: { labels: {} } },
    ops: [{ op: 'replace', path: '/metadata/labels/fight', value: 'b' }],
    expect: { document: { metadata: { labels: { fight: 'b' } } } },
    fjp: 'fails on the missing key',
  },
  { name: 'replace without a value sets null', doc: { a: 1 }, ops: [{ op: 'replace', path: '/a' }], expect: { document: { a: null } }, fjp: 'requires value' },
  {
    name: 'replace under a missing parent',
    doc: {},
    ops: [{ op: 'replace', path: '/x/y', value: 1 }],
    expect: { error: 'replace operation does not apply: doc is missing path: /x/y: missing value' },
  },
  // patch.go partialArray.get: the index must exist; its error is replaced by "doc is missing key".
  {
    name: 'replace past the end',
    doc: list([1]),
    ops: [{ op: 'replace', path: '/l/1', value: 9 }],
    expect: { error: 'replace operation does not apply: doc is missing key: /l/1: missing value' },
  },
  {
    name: 'replace "-"',
    doc: list([1]),
    ops: [{ op: 'replace', path: '/l/-', value: 9 }],
    expect: { error: 'replace operation does not apply: doc is missing key: /l/-: missing value' },
  },
  {
    name: 'replace at -1 replaces the last element',
    doc: list([1, 2]),
    ops: [{ op: 'replace', path: '/l/-1', value: 9 }],
    expect: { document: list([1, 9]) },
    fjp: 'rejects negative indices',
  },
  // patch.go Patch.replace, path == "": the value must decode as an object or an array.
  {
    name: 'replace "" swaps the document',
    doc: { a: 1 },
    ops: [
      { op: 'replace', path: '', value: { b: 2 } },
      { op: 'add', path: '/c', value: 3 },
    ],
    expect: { document: { b: 2, c: 3 } },
  },
  {
    name: 'replace "" with an array',
    doc: { a: 1 },
    ops: [
      { op: 'replace', path: '', value: [1] },
      { op: 'add', path: '/-', value: 2 },
    ],
    expect: { document: [1, 2] },
  },
  // ... and fmt prints the nil error it wraps as %!w(<nil>).
  {
    name: 'replace "" with a scalar',
    doc: { a: 1 },
    ops: [{ op: 'replace', path: '', value: 5 }],
    expect: { error: 'replace operation value must be object or array: %!w(<nil>)' },
    fjp: 'replaces the document with 5',
  },
  {
    name: 'replace "" with null',
    doc: { a: 1 },
    ops: [{ op: 'replace', path: '', value: null }],
    expect: { error: 'replace operation value must be object or array: %!w(<nil>)' },
    fjp: 'replaces the document with null',
  },
  // ... and reads val.which on a nil node when "value" is absent.
  { name: 'replace "" without a value', doc: { a: 1 }, ops: [{ op: 'replace', path: '' }], expect: { error: NIL_DEREFERENCE } },

  // patch.go Patch.move: get, remove, then resolve the destination.
  { name: 'move a key', doc: { a: { x: 1 }, b: {} }, ops: [{ op: 'move', from: '/a/x', path: '/b/y' }], expect: { document: { a: {}, b: { y: 1 } } } },
  {
    name: 'move within an array',
    doc: list(['all', 'grass', 'cows', 'eat']),
    ops: [{ op: 'move', from: '/l/1', path: '/l/3' }],
    expect: { document: list(['all', 'cows', 'eat', 'grass']) },
  },
  // ... naming the key, not the path, in 'error in move for path'.
  {
    name: 'move a missing key',
    doc: { a: {} },
    ops: [{ op: 'move', from: '/a/x', path: '/b' }],
    expect: { error: "error in move for path: 'x': Unable to remove nonexistent key: x: missing value" },
  },
  {
    name: 'move from past the end',
    doc: list([1]),
    ops: [{ op: 'move', from: '/l/1', path: '/m' }],
    expect: { error: "error in move for path: '1': Unable to access invalid index: 1: invalid index referenced" },
  },
  {
    name: 'move from a missing parent',
    doc: {},
    ops: [{ op: 'move', from: '/x/y', path: '/z' }],
    expect: { error: 'move operation does not apply: doc is missing from path: /x/y: missing value' },
  },
  {
    name: 'move into itself',
    doc: { a: { b: 1 } },
    ops: [{ op: 'move', from: '/a', path: '/a/c' }],
    expect: { error: 'move operation does not apply: doc is missing destination path: /a/c: missing value' },
  },
  {
    name: 'move without from',
    doc: { a: 1 },
    ops: [{ op: 'move', path: '/b' }],
    expect: { error: 'move operation failed to decode from: operation, missing from field: missing value' },
  },
  {
    name: 'move without path',
    doc: { a: 1 },
    ops: [{ op: 'move', from: '/a' }],
    expect: { error: 'move operation failed to decode path: operation missing path field: missing value' },
  },

  // patch.go Patch.copy: deepCopy, so the copies are independent.
  {
    name: 'copy a value',
    doc: { a: { x: [1] } },
    ops: [
      { op: 'copy', from: '/a/x', path: '/b' },
      { op: 'replace', path: '/b/0', value: 2 },
    ],
    expect: { document: { a: { x: [1] }, b: [2] } },
  },
  // ... partialDoc.get returns a nil node for a missing key, and deepCopy(nil) adds null.
  {
    name: 'copy from a missing key copies null',
    doc: { a: 1 },
    ops: [{ op: 'copy', from: '/nope', path: '/b' }],
    expect: { document: { a: 1, b: null } },
    fjp: 'fails on the missing from',
  },
  {
    name: 'copy from ""',
    doc: { a: 1 },
    ops: [{ op: 'copy', from: '', path: '/b' }],
    expect: { error: 'copy operation does not apply: doc is missing from path: : missing value' },
    fjp: 'copies the whole document',
  },
  {
    name: 'copy past the end',
    doc: list([1]),
    ops: [{ op: 'copy', from: '/l/0', path: '/l/5' }],
    expect: { error: 'error while adding value during copy: Unable to access invalid index: 5: invalid index referenced' },
  },
  { name: 'copy without path', doc: { a: 1 }, ops: [{ op: 'copy', from: '/a' }], expect: { error: 'copy operation failed to decode path: missing value' } },

  // patch.go Patch.test + lazyNode.equal.
  {
    name: 'test a matching value',
    doc: { a: { b: [1, 'x'] } },
    ops: [{ op: 'test', path: '/a', value: { b: [1, 'x'] } }],
    expect: { document: { a: { b: [1, 'x'] } } },
  },
  { name: 'test a different value', doc: { a: 1 }, ops: [{ op: 'test', path: '/a', value: 2 }], expect: { error: 'testing value /a failed: test failed' } },
  {
    name: 'test an object with more keys',
    doc: { a: { x: 1, y: 2 } },
    ops: [{ op: 'test', path: '/a', value: { x: 1 } }],
    expect: { error: 'testing value /a failed: test failed' },
  },
  {
    name: 'test nulls inside objects',
    doc: { a: { x: null } },
    ops: [{ op: 'test', path: '/a', value: { x: null } }],
    expect: { document: { a: { x: null } } },
  },
  // ... val == nil: a missing key passes only against a null or absent value.
  { name: 'test a missing key against null', doc: {}, ops: [{ op: 'test', path: '/a', value: null }], expect: { document: {} }, fjp: 'fails' },
  { name: 'test a missing key without a value', doc: {}, ops: [{ op: 'test', path: '/a' }], expect: { document: {} }, fjp: 'requires value' },
  {
    name: 'test a missing key against a value',
    doc: {},
    ops: [{ op: 'test', path: '/a', value: 1 }],
    expect: { error: 'testing value /a failed: test failed' },
  },
  {
    name: 'test an existing key without a value',
    doc: { a: [] },
    ops: [{ op: 'test', path: '/a' }],
    expect: { error: 'testing value /a failed: test failed' },
  },
  {
    name: 'test an existing key against null',
    doc: { a: {} },
    ops: [{ op: 'test', path: '/a', value: null }],
    expect: { error: 'testing value /a failed: test failed' },
  },
  // ... equal() dereferences nil array elements.
  {
    name: 'test an array holding null',
    doc: { a: [null] },
    ops: [{ op: 'test', path: '/a', value: [null] }],
    expect: { error: NIL_DEREFERENCE },
    fjp: 'passes',
  },
  {
    name: 'test stops at an earlier mismatch',
    doc: { a: [1, null] },
    ops: [{ op: 'test', path: '/a', value: [2, null] }],
    expect: { error: 'testing value /a failed: test failed' },
  },
  {
    name: 'test at -1',
    doc: list([1, 2]),
    ops: [{ op: 'test', path: '/l/-1', value: 2 }],
    expect: { document: list([1, 2]) },
    fjp: 'rejects negative indices',
  },
  {
    name: 'test "-"',
    doc: list([1]),
    ops: [{ op: 'test', path: '/l/-', value: 1 }],
    expect: { error: `error in test for path: '/l/-': strconv.Atoi: parsing "-": invalid syntax` },
  },
  {
    name: 'test under a missing parent',
    doc: {},
    ops: [{ op: 'test', path: '/x/y', value: 1 }],
    expect: { error: 'test operation does not apply: is missing path: /x/y: missing value' },
  },
  // ... path == "": the whole document.
  { name: 'test "" matching', doc: { a: 1 }, ops: [{ op: 'test', path: '', value: { a: 1 } }], expect: { document: { a: 1 } } },
  { name: 'test "" differing', doc: { a: 1 }, ops: [{ op: 'test', path: '', value: { a: 2 } }], expect: { error: 'testing value  failed: test failed' } },

  // patch.go Patch.ApplyIndent: op.Kind() is "unknown" unless "op" is a string.
  { name: 'an unknown op', doc: {}, ops: [{ op: 'merge', path: '/a' }], expect: { error: 'Unexpected kind: merge' } },
  { name: 'ops are case-sensitive', doc: {}, ops: [{ op: 'Add', path: '/a', value: 1 }], expect: { error: 'Unexpected kind: Add' } },
  { name: 'a missing op', doc: {}, ops: [{ path: '/a', value: 1 }], expect: { error: 'Unexpected kind: unknown' } },
  { name: 'a non-string op', doc: {}, ops: [{ op: 5, path: '/a' }], expect: { error: 'Unexpected kind: unknown' } },
  { name: 'a null operation', doc: {}, ops: [null], expect: { error: 'Unexpected kind: unknown' } },
  // patch.go Operation.Path: add and remove replace its error by ErrMissing, replace and test wrap it.
  { name: 'add without path', doc: {}, ops: [{ op: 'add', value: 1 }], expect: { error: 'add operation failed to decode path: missing value' } },
  { name: 'remove with a null path', doc: {}, ops: [{ op: 'remove', path: null }], expect: { error: 'remove operation failed to decode path: missing value' } },
  {
    name: 'replace without path',
    doc: {},
    ops: [{ op: 'replace', value: 1 }],
    expect: { error: 'replace operation failed to decode path: operation missing path field: missing value' },
  },
  {
    name: 'replace with a numeric path',
    doc: {},
    ops: [{ op: 'replace', path: 5, value: 1 }],
    expect: { error: 'replace operation failed to decode path: json: cannot unmarshal number into Go value of type string' },
  },
  {
    name: 'test without path',
    doc: {},
    ops: [{ op: 'test', value: 1 }],
    expect: { error: 'test operation failed to decode path: operation missing path field: missing value' },
  },
  {
    name: 'copy with a null from',
    doc: {},
    ops: [{ op: 'copy', from: null, path: '/a' }],
    expect: { error: 'copy operation failed to decode from: operation, missing from field: missing value' },
  },

  // patch.go Patch.ApplyIndent: a document starting with "[" is a partialArray, anything else a partialDoc.
  {
    name: 'an array document',
    doc: [1],
    ops: [
      { op: 'add', path: '/-', value: 2 },
      { op: 'remove', path: '/0' },
    ],
    expect: { document: [2] },
  },
  { name: 'a scalar document', doc: 'x', ops: [], expect: { error: 'json: cannot unmarshal string into Go value of type jsonpatch.partialDoc' } },
  // ... null unmarshals into a nil map: reads work, writes panic.
  { name: 'a null document read', doc: null, ops: [{ op: 'test', path: '/a', value: null }], expect: { document: null } },
  { name: 'a null document written', doc: null, ops: [{ op: 'add', path: '/a', value: 1 }], expect: { error: 'panic: assignment to entry in nil map' } },
  // patch.go DecodePatch: the ops must type as []map[string]*json.RawMessage.
  { name: 'ops that are not an array', doc: {}, ops: { op: 'add' }, expect: { error: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch' } },
  {
    name: 'an operation that is not an object',
    doc: {},
    ops: [null, 'add'],
    expect: { error: 'json: cannot unmarshal string into Go value of type jsonpatch.Operation' },
  },
];

describe('applyJsonPatch (evanphx/json-patch v4 semantics)', () => {
  it.each(rows.map((row) => [row.name, row] as const))('%s', (_name, row) => {
    const result = applyJsonPatch(row.doc, row.ops);
    expect(result.ok ? { document: result.document } : { error: result.error }).toEqual(row.expect);
  });
});

describe('rows where fast-json-patch differs', () => {
  const differing = rows.filter((row) => row.fjp !== undefined);

  it.each(differing.map((row) => [row.name, row.fjp, row] as const))('%s: fast-json-patch %s', (_name, _how, row) => {
    const fjp = fastJsonPatch(row.doc, row.ops);
    const same = 'error' in row.expect ? 'error' in fjp : 'document' in fjp && isEqual(fjp.document, row.expect.document);
    expect({ fastJsonPatch: fjp, sameBehaviour: same }).toEqual({ fastJsonPatch: fjp, sameBehaviour: false });
  });
});

describe('applyJsonPatch purity', () => {
  it('leaves its arguments alone and shares nothing with the result', () => {
    const doc = { a: { x: [1] } };
    const value = { y: [2] };
    const ops = [
      { op: 'add', path: '/b', value },
      { op: 'add', path: '/a/x/-', value: 3 },
    ];
    const before = JSON.stringify({ doc, ops });
    const result = applyJsonPatch(doc, ops);
    expect(result).toEqual({ ok: true, document: { a: { x: [1, 3] }, b: { y: [2] } } });
    expect(JSON.stringify({ doc, ops })).toBe(before);
    if (result.ok) expect((result.document as { b: unknown }).b).not.toBe(value);
  });

  // patch.go Patch.ApplyIndent returns (nil, err) on the first failing operation.
  it('returns no partial result when a later operation fails', () => {
    const doc = { a: 1 };
    const result = applyJsonPatch(doc, [
      { op: 'add', path: '/b', value: 2 },
      { op: 'remove', path: '/nope' },
    ]);
    expect(result).toEqual({ ok: false, error: "error in remove for path: '/nope': Unable to remove nonexistent key: nope: missing value" });
    expect(doc).toEqual({ a: 1 });
  });
});

// Go's encoding/json texts (scanner.go for syntax, decode.go for types), as kube-apiserver reports them after
// `received undecodable patch in webhook response: `.
const decodeRows: [string, string | Uint8Array, { ops: unknown[] } | { error: string }][] = [
  ['a patch', '[{"op":"add","path":"/a","value":1}]', { ops: [{ op: 'add', path: '/a', value: 1 }] }],
  ['null is an empty patch', 'null', { ops: [] }],
  ['an object', '{"op":"add"}', { error: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch' }],
  ['a string', '"x"', { error: 'json: cannot unmarshal string into Go value of type jsonpatch.Patch' }],
  ['a number', '5', { error: 'json: cannot unmarshal number into Go value of type jsonpatch.Patch' }],
  ['a bool', 'true', { error: 'json: cannot unmarshal bool into Go value of type jsonpatch.Patch' }],
  ['a number element', '[1]', { error: 'json: cannot unmarshal number into Go value of type jsonpatch.Operation' }],
  ['an array element after a null one', '[null,[]]', { error: 'json: cannot unmarshal array into Go value of type jsonpatch.Operation' }],
  // Operation members are json.RawMessage: any JSON decodes; apply then reports `Unexpected kind: unknown`.
  ['a non-string op', '[{"op":5}]', { ops: [{ op: 5 }] }],
  ['nothing', '', { error: 'unexpected end of JSON input' }],
  ['truncated', '[{', { error: 'unexpected end of JSON input' }],
  ['a missing value', '[{"op": "add", "CORRUPTED_KEY":}]', { error: "invalid character '}' looking for beginning of value" }],
  ['a trailing comma in an object', '[{"op":"add",}]', { error: "invalid character '}' looking for beginning of object key string" }],
  ['a missing colon', '[{"op" "add"}]', { error: `invalid character '"' after object key` }],
  ['a missing comma between members', '[{"op":"add" "path":"/a"}]', { error: `invalid character '"' after object key:value pair` }],
  ['a missing comma between elements', '[1 2]', { error: "invalid character '2' after array element" }],
  ['trailing data', '[] x', { error: "invalid character 'x' after top-level value" }],
  ['a literal cut short at EOF', '[t', { error: "invalid character ' ' in literal true (expecting 'r')" }],
  ['a misspelt literal', '[nul]', { error: "invalid character ']' in literal null (expecting 'l')" }],
  ['a bare minus', '[-]', { error: "invalid character ']' in numeric literal" }],
  ['a bare decimal point', '[1.]', { error: "invalid character ']' after decimal point in numeric literal" }],
  ['an empty exponent', '[1e]', { error: "invalid character ']' in exponent of numeric literal" }],
  ['a bad escape', '["\\x"]', { error: "invalid character 'x' in string escape code" }],
  ['a bad \\u escape', '["\\u12G4"]', { error: "invalid character 'G' in \\u hexadecimal character escape" }],
  ['a raw newline in a string', '["a\nb"]', { error: "invalid character '\\n' in string literal" }],
  ['a single quote', "['a']", { error: "invalid character '\\'' looking for beginning of value" }],
  ['a non-ASCII byte shown as Latin-1', 'é', { error: "invalid character 'Ã' looking for beginning of value" }],
  ['nesting past 10000', '['.repeat(10001), { error: "invalid character '[' exceeded max depth" }],
  [
    'invalid UTF-8 inside a string is accepted',
    new Uint8Array([0x5b, 0x22, 0xff, 0x22, 0x5d]),
    { error: 'json: cannot unmarshal string into Go value of type jsonpatch.Operation' },
  ],
];

describe('decodeJsonPatch (jsonpatch.DecodePatch)', () => {
  it.each(decodeRows)('%s', (_name, input, expected) => {
    const result = decodeJsonPatch(input);
    expect(result.ok ? { ops: result.ops } : { error: result.error }).toEqual(expected);
  });

  it('feeds applyJsonPatch', () => {
    const decoded = decodeJsonPatch('[{"op":5,"path":"/a"}]');
    expect(decoded.ok && applyJsonPatch({}, decoded.ops)).toEqual({ ok: false, error: 'Unexpected kind: unknown' });
  });
});

function fastJsonPatch(doc: unknown, ops: unknown): Outcome {
  try {
    return { document: applyPatch(doc, ops as Operation[], true, false).newDocument };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function isEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

describe('JSON-pointer tokens (patch.go decodePatchKey)', () => {
  it('decodes ~1 before ~0, so ~01 is the key "~1", not "/"', () => {
    expect(decodePatchKey('a~1b')).toBe('a/b');
    expect(decodePatchKey('~01')).toBe('~1');
    expect(applyJsonPatch({ '~1': 1, '/': 2 }, [{ op: 'remove', path: '/~01' }])).toEqual({ ok: true, document: { '/': 2 } });
  });
});
