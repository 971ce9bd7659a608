import { acceptsLegacyDiscovery, discoveryRepresentation, negotiateResource, parseAccept, resourceRepresentation } from '../../lib/mockapi/negotiation';

// What kube-apiserver's negotiation picks for the Accept headers clients send (client-go, kubectl, curl, browsers).
const KUBECTL_DISCOVERY =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
const KUBECTL_GET = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

describe('parseAccept', () => {
  it('ranks ranges by q, keeping the given order among equals, and drops q=0', () => {
    expect(parseAccept('text/html;q=0.5, application/yaml, application/json;q=0.9, image/png;q=0').map((r) => `${r.type}/${r.subtype}`)).toEqual([
      'application/yaml',
      'application/json',
      'text/html',
    ]);
  });

  it('reads parameters, and treats a missing header as */*', () => {
    expect(parseAccept('application/json;as=Table;v=v1;g=meta.k8s.io')[0]?.params).toEqual({ as: 'Table', v: 'v1', g: 'meta.k8s.io' });
    expect(parseAccept(null)).toEqual([{ type: '*', subtype: '*', params: {}, q: 1 }]);
  });
});

describe('discovery', () => {
  it.each([
    [KUBECTL_DISCOVERY, 'aggregated'],
    ['application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList', 'aggregated'],
    ['application/json', 'legacy'],
    ['application/json, */*', 'legacy'],
    [null, 'legacy'],
    ['application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList', undefined],
    ['text/html', undefined],
  ])('%s → %s', (accept, expected) => {
    expect(discoveryRepresentation(accept)).toBe(expected);
  });

  it('serves a legacy-only document to any Accept with plain JSON in it', () => {
    expect(acceptsLegacyDiscovery(KUBECTL_DISCOVERY)).toBe(true);
    expect(acceptsLegacyDiscovery('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList')).toBe(false);
  });
});

describe('resources', () => {
  it.each([
    [KUBECTL_GET, 'json'],
    ['application/vnd.kubernetes.protobuf,application/json', 'json'],
    ['application/yaml', 'yaml'],
    ['application/yaml;q=0.5, application/json', 'json'],
    ['*/*', 'json'],
    ['text/html', undefined],
    ['application/json;as=Table;v=v1;g=meta.k8s.io', undefined],
    // How an error is written: no range that asks for a conversion is taken.
    ['application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1', undefined],
    ['application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/yaml', 'yaml'],
  ])('%s → %s', (accept, expected) => {
    expect(resourceRepresentation(accept)).toBe(expected);
  });
});

describe('resources that make Tables (get, list and watch of a resource with a TableConvertor)', () => {
  it.each([
    [KUBECTL_GET, { encoding: 'json', table: 'v1' }],
    ['application/json;as=Table;v=v1beta1;g=meta.k8s.io', { encoding: 'json', table: 'v1beta1' }],
    ['application/yaml;as=Table;v=v1;g=meta.k8s.io', { encoding: 'yaml', table: 'v1' }],
    // Only JSON and YAML Tables are made (AllowsMediaTypeTransform); other versions and groups are no Table.
    ['application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,application/json', { encoding: 'json' }],
    ['application/json;as=Table;v=v2;g=meta.k8s.io,application/json;as=Table;g=meta.k8s.io;v=v1', { encoding: 'json', table: 'v1' }],
    ['application/json;as=Table;v=v1;g=example.com', undefined],
    ['application/json;as=Frob;v=v1;g=meta.k8s.io', undefined],
    ['application/json', { encoding: 'json' }],
  ])('%s → %j', (accept, expected) => {
    expect(negotiateResource(accept, true)).toEqual(expected);
  });

  it('passes a Table over where none can be made', () => {
    expect(negotiateResource(KUBECTL_GET, false)).toEqual({ encoding: 'json' });
    expect(negotiateResource('application/json;as=Table;v=v1;g=meta.k8s.io', false)).toBeUndefined();
  });
});

// client-go's metadata client (k8s.io/client-go/metadata/metadata.go) sends these for get (and watch), and for list.
const METADATA_GET =
  'application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
const METADATA_LIST =
  'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

describe('PartialObjectMetadata (every resource endpoint, with or without a TableConvertor)', () => {
  it.each([
    [METADATA_GET, { encoding: 'json', partial: { kind: 'PartialObjectMetadata', version: 'v1' } }],
    [METADATA_LIST, { encoding: 'json', partial: { kind: 'PartialObjectMetadataList', version: 'v1' } }],
    ['application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1', { encoding: 'json', partial: { kind: 'PartialObjectMetadata', version: 'v1beta1' } }],
    ['application/yaml;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1', { encoding: 'yaml', partial: { kind: 'PartialObjectMetadataList', version: 'v1' } }],
    // Another version or group is no conversion kube makes (AllowsMediaTypeTransform): the range is passed over.
    ['application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v2,application/json', { encoding: 'json' }],
    ['application/json;as=PartialObjectMetadata;v=v1', undefined],
    ['application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1', undefined],
  ])('%s → %j', (accept, expected) => {
    expect(negotiateResource(accept, false)).toEqual(expected);
    expect(negotiateResource(accept, true)).toEqual(expected);
  });
});
