// The store's uncopied reads for the harness's own readers (plugins, params, namespace lookups).
import { defaultCatalog } from '../../lib';
import { ObjectStore } from '../../lib/mockapi/store';
import { SeededRandom } from '../../lib/random';

function store(): ObjectStore {
  const s = new ObjectStore(defaultCatalog, new SeededRandom(3));
  s.put({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
  s.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', namespace: 'shop' }, data: { k: 'v' } });
  s.put({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'shop' }, data: { k: 'w' } });
  return s;
}

it('view and listView give the stored objects themselves, frozen, equal to what read and list copy', () => {
  const s = store();
  const viewed = s.view('v1', 'ConfigMap', 'a', 'shop')!;
  expect(s.view('v1', 'ConfigMap', 'a', 'shop')).toBe(viewed);
  expect(viewed).toEqual(s.read('v1', 'ConfigMap', 'a', 'shop'));
  expect(Object.isFrozen(viewed) && Object.isFrozen(viewed.metadata) && Object.isFrozen(viewed.data)).toBe(true);
  const entry = s.entryFor('v1', 'ConfigMap');
  expect(s.listView(entry, 'shop').map((o) => o.metadata?.name)).toEqual(['a', 'b']);
  expect(s.listView(entry, 'shop')).toEqual(s.list(entry, 'shop').items);
  expect(s.view('v1', 'ConfigMap', 'missing', 'shop')).toBeUndefined();
});

it('what read hands out is a copy the caller may change; the stored object cannot be changed in place', () => {
  const s = store();
  const copy = s.read('v1', 'ConfigMap', 'a', 'shop')!;
  (copy.data as Record<string, string>).k = 'changed';
  expect(s.view('v1', 'ConfigMap', 'a', 'shop')!.data).toEqual({ k: 'w' });
  expect(() => {
    (s.view('v1', 'ConfigMap', 'a', 'shop')!.data as Record<string, string>).k = 'changed';
  }).toThrow(TypeError);
});
