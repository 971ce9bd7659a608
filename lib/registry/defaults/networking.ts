import { listAt, type JsonRecord } from '../../kube/record';
import { at, each, shape, structAt } from '../shape';
import { labelSelector, typed } from './meta';

const peer = (value: JsonRecord) =>
  shape(at(at(value, 'podSelector', labelSelector), 'namespaceSelector', labelSelector), ['podSelector', 'namespaceSelector', 'ipBlock']);
const withProtocol = (rule: JsonRecord) =>
  each(
    each(
      each(rule, 'ports', (port) => shape(port, ['protocol', 'port', 'endPort'], { protocol: 'TCP' })),
      'from',
      peer,
    ),
    'to',
    peer,
  );

/** Ingresses have no defaults besides their status; pathType is required in networking.k8s.io/v1. */
export function ingress(object: JsonRecord): JsonRecord {
  const spec = (value: JsonRecord) => shape(value, ['ingressClassName', 'defaultBackend', 'tls', 'rules']);
  return typed(structAt(object, 'spec', spec), ['spec', 'status'], { status: { loadBalancer: {} } });
}

/** SetDefaults_NetworkPolicy: policyTypes from the rules given, TCP ports. */
export function networkPolicy(object: JsonRecord): JsonRecord {
  const spec = (value: JsonRecord) => {
    // podSelector is a LabelSelector value: written `{}` (select every pod) when absent.
    const rules = structAt(
      each(
        each(value, 'ingress', (rule) => shape(withProtocol(rule), ['ports', 'from'])),
        'egress',
        (rule) => shape(withProtocol(rule), ['ports', 'to']),
      ),
      'podSelector',
      labelSelector,
    );
    // len(policyTypes) == 0, so an empty (or null) list is defaulted too.
    const sent = Array.isArray(value.policyTypes) && value.policyTypes.length > 0;
    const policyTypes = sent ? value.policyTypes : ['Ingress', ...(listAt(value, 'egress').length > 0 ? ['Egress'] : [])];
    return shape({ ...rules, policyTypes }, ['podSelector', 'ingress', 'egress', 'policyTypes']);
  };
  return typed(structAt(object, 'spec', spec), ['spec']);
}
