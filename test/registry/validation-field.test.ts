import { goJsonString, goMarshal, goMap } from '../../lib/go/json-marshal';
import { duplicate, forbidden, internalError, invalid, json, notFound, notSupported, OMIT, required, tooLong, tooMany } from '../../lib/kube/field-errors';
import { Path } from '../../lib/kube/field-path';

const text = (e: { field: string; body: string }): string => `${e.field}: ${e.body}`;

describe('field.Path as kube prints it', () => {
  it.each([
    [Path.of('spec').child('containers').index(2).child('name'), 'spec.containers[2].name'],
    [Path.of('metadata', 'labels'), 'metadata.labels'],
    [Path.of('metadata').child('annotations').key('example.com/x'), 'metadata.annotations[example.com/x]'],
    [Path.of('spec').child('template', 'spec', 'restartPolicy'), 'spec.template.spec.restartPolicy'],
    [Path.of('spec').child('ordinals.start'), 'spec.ordinals.start'],
    // field.NewPath("") is an empty subscript: ConfigMap's size error names "[]".
    [Path.of(''), '[]'],
    [Path.of('data').key('a.b'), 'data[a.b]'],
  ])('%s', (path, expected) => {
    expect(path.toString()).toBe(expected);
  });
});

describe('field.Error bodies (apimachinery field/errors.go ErrorBody)', () => {
  const at = Path.of('spec').child('x');
  it.each([
    [required(Path.of('metadata', 'name'), 'name or generateName is required'), 'metadata.name: Required value: name or generateName is required'],
    [required(at), 'spec.x: Required value'],
    [invalid(at, 'foo', 'must be valid'), 'spec.x: Invalid value: "foo": must be valid'],
    [invalid(at, 'tab\there', 'bad'), 'spec.x: Invalid value: "tab\\there": bad'],
    [invalid(at, 70000, 'must be between 1 and 65535, inclusive'), 'spec.x: Invalid value: 70000: must be between 1 and 65535, inclusive'],
    [invalid(at, true, 'bad'), 'spec.x: Invalid value: true: bad'],
    [
      invalid(at, null, 'must not update from a positive integer to nil value'),
      'spec.x: Invalid value: null: must not update from a positive integer to nil value',
    ],
    [invalid(at, '', ''), 'spec.x: Invalid value: ""'],
    [
      invalid(at, OMIT, 'specifying one of OnExitCodes and OnPodConditions is required'),
      'spec.x: Invalid value: specifying one of OnExitCodes and OnPodConditions is required',
    ],
    [
      invalid(at, json(goMap({ b: '2', a: '1' })), '`selector` does not match template `labels`'),
      'spec.x: Invalid value: {"a":"1","b":"2"}: `selector` does not match template `labels`',
    ],
    [duplicate(at, 'foo-sidecar'), 'spec.x: Duplicate value: "foo-sidecar"'],
    [duplicate(at, 30080), 'spec.x: Duplicate value: 30080'],
    [
      notSupported(at, json('Sometimes'), ['Always', 'OnFailure', 'Never']),
      'spec.x: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
    ],
    [notSupported(at, json('x'), []), 'spec.x: Unsupported value: "x"'],
    [forbidden(at, 'disallowed by cluster policy'), 'spec.x: Forbidden: disallowed by cluster policy'],
    [tooLong(at, 262144), 'spec.x: Too long: may not be more than 262144 bytes'],
    [tooLong(at, 1), 'spec.x: Too long: may not be more than 1 byte'],
    [tooMany(at, 21, 20), 'spec.x: Too many: 21: must have at most 20 items'],
    [tooMany(at, 2, 1), 'spec.x: Too many: 2: must have at most 1 item'],
    [tooMany(at, -1, 20), 'spec.x: Too many: must have at most 20 items'],
    [notFound(at, 'vol'), 'spec.x: Not found: "vol"'],
    [internalError(at, 'boom'), 'spec.x: Internal error: boom'],
  ])('%#', (error, expected) => {
    expect(text(error)).toBe(expected);
  });

  it('carries the cause reason kube puts in details.causes', () => {
    expect(duplicate(Path.of('a'), 'x').type).toBe('FieldValueDuplicate');
    expect(required(Path.of('a')).type).toBe('FieldValueRequired');
    expect(invalid(Path.of('a'), 'x', 'y').type).toBe('FieldValueInvalid');
    expect(notSupported(Path.of('a'), 'x', []).type).toBe('FieldValueNotSupported');
    expect(forbidden(Path.of('a'), 'x').type).toBe('FieldValueForbidden');
    expect(tooLong(Path.of('a'), 1).type).toBe('FieldValueTooLong');
    expect(tooMany(Path.of('a'), 2, 1).type).toBe('FieldValueTooMany');
    expect(notFound(Path.of('a'), 'x').type).toBe('FieldValueNotFound');
    expect(internalError(Path.of('a'), 'x').type).toBe('InternalError');
  });
});

describe('bad values of other Go types go through json.Marshal', () => {
  it('escapes as encoding/json does (HTML-safe), unlike %q', () => {
    expect(goJsonString('a<b>&c')).toBe('"a\\u003cb\\u003e\\u0026c"');
    expect(goJsonString('line\nbreak\u2028')).toBe('"line\\nbreak\\u2028"');
    expect(goJsonString('\u0001\b\f')).toBe('"\\u0001\\b\\f"');
    expect(goJsonString('héllo')).toBe('"héllo"');
    expect(invalid(Path.of('x'), 'a<b', 'plain string: %q').body).toBe('Invalid value: "a<b": plain string: %q');
    expect(invalid(Path.of('x'), json('a<b'), 'named string type: json').body).toBe('Invalid value: "a\\u003cb": named string type: json');
  });

  it('writes members in the order given (structs) and sorted for maps', () => {
    expect(goMarshal({ Type: 'Foo', RollingUpdate: null })).toBe('{"Type":"Foo","RollingUpdate":null}');
    expect(goMarshal(goMap({ z: '1', a: '2' }))).toBe('{"a":"2","z":"1"}');
    expect(goMarshal(['a', 1, true, null])).toBe('["a",1,true,null]');
  });
});
