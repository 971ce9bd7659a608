import { semanticEqualAs, semanticEqualAt } from '../../lib/registry/equality';
import { structByName } from '../../lib/registry/schema/table';

// apimachinery pkg/api/equality/semantic.go: Semantic.DeepEqual compares resource.Quantity by Cmp,
// wherever the Go type holds one. Which fields those are comes from the schema table (a `$ref` to
// io.k8s.apimachinery.pkg.api.resource.Quantity), not from field names: a PVC status's
// allocatedResources held quantities the name list of the old update comparison did not know.
describe('Semantic.DeepEqual over the schema table’s types', () => {
  it('compares quantities by value in every field whose type is a Quantity', () => {
    const template = (size: string) => ({ volumeClaimTemplates: [{ metadata: { name: 'data' }, status: { allocatedResources: { storage: size } } }] });
    expect(semanticEqualAt('io.k8s.api.apps.v1.StatefulSetSpec', undefined, template('1Gi'), template('1024Mi'))).toBe(true);
    expect(semanticEqualAt('io.k8s.api.apps.v1.StatefulSetSpec', undefined, template('1Gi'), template('2Gi'))).toBe(false);
    const pod = (cpu: string) => ({ containers: [{ name: 'app', resources: { limits: { cpu } } }] });
    expect(semanticEqualAt('io.k8s.api.core.v1.PodSpec', undefined, pod('1'), pod('1000m'))).toBe(true);
  });

  it('compares a string named like a quantity field as a string', () => {
    // ConfigMap data values are strings even under a key named `storage`.
    const data = structByName('io.k8s.api.core.v1.ConfigMap')?.fields.get('data');
    expect(semanticEqualAs(data, { storage: '1Gi' }, { storage: '1024Mi' })).toBe(false);
  });

  it('tells a nil pointer from a zero value, and a missing value field from its zero', () => {
    expect(semanticEqualAt('io.k8s.api.batch.v1.JobSpec', 'completions', undefined, 0)).toBe(false);
    expect(semanticEqualAt('io.k8s.api.batch.v1.JobSpec', 'completions', null, undefined)).toBe(true);
    expect(semanticEqualAt('io.k8s.api.core.v1.PodSpec', undefined, { hostNetwork: false }, {})).toBe(true);
  });

  it('treats a nil and an empty list or map alike without a type', () => {
    expect(semanticEqualAs(undefined, { a: [] }, { a: null })).toBe(true);
    expect(semanticEqualAs(undefined, { a: [1] }, { a: [2] })).toBe(false);
  });
});
