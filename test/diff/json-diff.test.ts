import { jsonEqual } from '../../lib/kube/json';
import { diffJson, formatChange, formatChanges } from '../../lib/diff/json-diff';

const lines = (before: unknown, after: unknown) => diffJson(before, after).map(formatChange);

describe('diffJson', () => {
  it('reports added, removed and changed members by JSON pointer, escaping ~ and /', () => {
    expect(
      lines({ labels: { 'app.kubernetes.io/name': 'web', old: 'x', 'a~b': 1 } }, { labels: { 'app.kubernetes.io/name': 'api', 'a~b': 2, env: 'prod' } }),
    ).toEqual([
      'removed /labels/old: "x"',
      'changed /labels/app.kubernetes.io~1name: "web" → "api"',
      'changed /labels/a~0b: 1 → 2',
      'added /labels/env: "prod"',
    ]);
  });

  it('matches named elements by name, so an insertion is one line naming the element', () => {
    const before = {
      containers: [
        { name: 'app', image: 'a' },
        { name: 'sidecar', image: 's' },
      ],
    };
    const after = {
      containers: [
        { name: 'app', image: 'a' },
        { name: 'mesh-proxy', image: 'm' },
        { name: 'sidecar', image: 's:2' },
      ],
    };
    expect(lines(before, after)).toEqual(['added /containers/1 (mesh-proxy): {"name":"mesh-proxy","image":"m"}', 'changed /containers/2/image: "s" → "s:2"']);
    expect(lines(after, before)).toEqual(['removed /containers/1 (mesh-proxy): {"name":"mesh-proxy","image":"m"}', 'changed /containers/1/image: "s:2" → "s"']);
  });

  it('reports a changed order of named elements on the array', () => {
    expect(lines({ c: [{ name: 'a' }, { name: 'b' }] }, { c: [{ name: 'b' }, { name: 'a' }] })).toEqual(['changed /c: [a, b] → [b, a]']);
  });

  it('compares other arrays index by index, naming elements replaced by another', () => {
    expect(lines({ args: ['-v', '--x'] }, { args: ['-v', '--y', '--z'] })).toEqual(['changed /args/1: "--x" → "--y"', 'added /args/2: "--z"']);
    const twice = { c: [{ name: 'app' }, { name: 'foo' }, { name: 'foo' }] };
    expect(lines({ c: [{ name: 'app' }, { name: 'mesh' }, { name: 'foo' }] }, twice)).toEqual(['changed /c/1 (mesh → foo): {"name":"mesh"} → {"name":"foo"}']);
  });

  it('reports a change of type, and cuts long values short', () => {
    expect(lines({ a: { b: 1 } }, { a: [1] })).toEqual(['changed /a: {"b":1} → [1]']);
    const [line] = lines({}, { long: 'x'.repeat(200) });
    expect(line).toHaveLength('added /long: '.length + 80);
    expect(line!.endsWith('…')).toBe(true);
  });

  it('finds nothing between equal documents, whatever realm they come from', () => {
    const doc = { spec: { containers: [{ name: 'app' }] }, n: null };
    expect(diffJson(doc, structuredClone(doc))).toEqual([]);
    expect(jsonEqual(doc, structuredClone(doc))).toBe(true);
    expect(formatChanges([])).toBe('  (no change)');
  });
});
