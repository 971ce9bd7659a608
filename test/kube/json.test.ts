import { runInNewContext } from 'node:vm';
import { cloneJson, deepFreeze } from '../../lib/kube/json';

describe('cloneJson', () => {
  it('copies objects and arrays all the way down', () => {
    const original = { a: { b: [1, { c: 'd' }] }, e: null, f: undefined };
    const copy = cloneJson(original);
    expect(copy).toStrictEqual(original);
    expect(copy.a).not.toBe(original.a);
    expect(copy.a.b).not.toBe(original.a.b);
    expect(copy.a.b[1]).not.toBe(original.a.b[1]);
    expect('f' in copy).toBe(true);
  });

  it("copies another realm's plain objects (a test context's) and keeps other objects as they are", () => {
    const foreign = runInNewContext('({ metadata: { labels: { app: "web" } } })') as { metadata: { labels: Record<string, string> } };
    const when = new Date(0);
    const copy = cloneJson({ foreign, when });
    expect(copy.foreign.metadata).not.toBe(foreign.metadata);
    expect(copy.foreign.metadata.labels).toEqual({ app: 'web' });
    expect(copy.when).toBe(when);
  });
});

describe('deepFreeze', () => {
  it('freezes every object and array under the value', () => {
    const value = { a: { b: [{ c: 1 }] } };
    deepFreeze(value);
    expect([value, value.a, value.a.b, value.a.b[0]].every((v) => Object.isFrozen(v))).toBe(true);
  });
});
