/**
 * The quota evaluator for services.
 *
 * Upstream: `pkg/quota/v1/evaluator/core/services.go` (v1.36: ServiceLBNodePortControl is GA, so a
 * load balancer with `allocateLoadBalancerNodePorts: false` is charged only the node ports it names).
 */
import { listAt, objectAt, type JsonRecord } from '../../kube/record';
import { objectCountName, type QuotaEvaluator } from './evaluator';
import { newQuantity } from './quantity-arithmetic';
import type { ResourceList } from './resource-list';

const SERVICE_COUNT = objectCountName({ group: '', resource: 'services' });
const SERVICE_RESOURCES = new Set([SERVICE_COUNT, 'services', 'services.nodeports', 'services.loadbalancers']);

export const serviceEvaluator: QuotaEvaluator = {
  // Create and update: an update can change the type, and with it the node ports and load balancers.
  handles: ({ operation }) => operation === 'CREATE' || operation === 'UPDATE',
  matchingResources: (names) => names.filter((name) => SERVICE_RESOURCES.has(name)),
  // Services have no quota scopes: a quota with any scope never matches them.
  matchesScope: () => false,
  constraints: () => undefined,
  usage(service: JsonRecord) {
    const spec = objectAt(service, 'spec');
    const ports = listAt(spec, 'ports');
    const result: ResourceList = new Map([
      [SERVICE_COUNT, newQuantity(1)],
      ['services', newQuantity(1)],
      ['services.loadbalancers', newQuantity(0)],
      ['services.nodeports', newQuantity(0)],
    ]);
    if (spec.type === 'NodePort') {
      result.set('services.nodeports', newQuantity(ports.length));
    } else if (spec.type === 'LoadBalancer') {
      // Node ports are not allocated yet: the intent counts, not the values.
      const named =
        spec.allocateLoadBalancerNodePorts === false ? ports.filter((p) => typeof p.nodePort === 'number' && p.nodePort !== 0).length : ports.length;
      result.set('services.nodeports', newQuantity(named));
      result.set('services.loadbalancers', newQuantity(1));
    }
    return result;
  },
};
