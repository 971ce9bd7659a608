/**
 * Service (core validation ValidateService, ValidateServiceUpdate, validateServicePort,
 * ValidateServiceClusterIPsRelatedFields, the traffic-policy and load-balancer rules). The object is
 * the one the registry validates: IPs and node ports already allocated.
 */
import type { JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { has, listOf, numberOf, objectOf, optionalBoolean, optionalNumber, optionalString, stringMapOf, stringOf, stringsOf, valueOf } from './access';
import { duplicate, forbidden, invalid, json, notSupported, required } from '../../kube/field-errors';
import {
  dns1123LabelErrors,
  dns1123SubdomainErrors,
  INVALID_CIDR,
  INVALID_IP,
  isCIDR,
  isIP,
  portNumberErrors,
  qualifiedNameErrors,
} from '../../kube/value-formats';
import { isDualStack, isIPv6String, specialIPMessages } from './ip-address';
import { validateLabels } from './labels';
import { nameIsDns1035Label } from '../../kube/name-validators';
import { metadataOf, validateObjectMeta, validateObjectMetaUpdate } from './object-meta';
import { Path } from '../../kube/field-path';
import { validatePortNumOrName } from './probes';

const METADATA = Path.of('metadata');
const SPEC = Path.of('spec');
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const MAX_CLIENT_IP_AFFINITY_SECONDS = 86400;

const clusterIPsOf = (spec: JsonObject): string[] => stringsOf(spec, 'clusterIPs');
const isHeadless = (spec: JsonObject): boolean => clusterIPsOf(spec).length === 1 && clusterIPsOf(spec)[0] === 'None';

/** validateServicePort. */
function validateServicePort(port: JsonObject, requireName: boolean, names: Set<string>, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const name = stringOf(port, 'name');
  if (requireName && name === '') errors.push(required(path.child('name')));
  else if (name !== '') {
    errors.push(...dns1123LabelErrors(name).map((message) => invalid(path.child('name'), name, message)));
    if (names.has(name)) errors.push(duplicate(path.child('name'), name));
    else names.add(name);
  }
  const number = numberOf(port, 'port');
  errors.push(...portNumberErrors(number).map((message) => invalid(path.child('port'), number, message)));
  const protocol = stringOf(port, 'protocol');
  if (protocol === '') errors.push(required(path.child('protocol')));
  else if (!PROTOCOLS.includes(protocol)) errors.push(notSupported(path.child('protocol'), json(protocol), PROTOCOLS));
  errors.push(...validatePortNumOrName(valueOf(port, 'targetPort'), path.child('targetPort')));
  const appProtocol = optionalString(port, 'appProtocol');
  if (appProtocol !== undefined) errors.push(...qualifiedNameErrors(appProtocol).map((message) => invalid(path.child('appProtocol'), appProtocol, message)));
  return errors;
}

/** ValidateServiceClusterIPsRelatedFields. */
function validateClusterIPsRelated(spec: JsonObject): FieldError[] {
  if (stringOf(spec, 'type') === 'ExternalName') return [];
  const errors: FieldError[] = [];
  const clusterIPsPath = SPEC.child('clusterIPs');
  const clusterIP = stringOf(spec, 'clusterIP');
  const clusterIPs = clusterIPsOf(spec);
  if (clusterIP !== '') {
    if (clusterIPs.length === 0) errors.push(required(clusterIPsPath));
    else if (clusterIPs[0] !== clusterIP) errors.push(invalid(clusterIPsPath, json(clusterIPs), 'first value must match `clusterIP`'));
  } else if (clusterIPs.length !== 0) {
    errors.push(invalid(clusterIPsPath, json(clusterIPs), 'must be empty when `clusterIP` is not specified'));
  }
  const families = stringsOf(spec, 'ipFamilies');
  const seen = new Set<string>();
  families.forEach((family, i) => {
    if (family !== 'IPv4' && family !== 'IPv6') errors.push(notSupported(SPEC.child('ipFamilies').index(i), json(family), ['IPv4', 'IPv6']));
    if (seen.has(family)) errors.push(duplicate(SPEC.child('ipFamilies').index(i), json(family)));
    seen.add(family);
  });
  const policy = optionalString(spec, 'ipFamilyPolicy');
  const policies = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
  if (policy !== undefined && !policies.includes(policy)) errors.push(notSupported(SPEC.child('ipFamilyPolicy'), json(policy), policies));
  let invalidIPs = false;
  clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (clusterIPs.length > 1) {
        invalidIPs = true;
        errors.push(invalid(clusterIPsPath, json(clusterIPs), "'None' must be the first and only value"));
      }
      return;
    }
    if (!isIP(ip)) {
      invalidIPs = true;
      errors.push(invalid(clusterIPsPath.index(i), ip, INVALID_IP));
    }
  });
  if (clusterIPs.length > 2) errors.push(invalid(clusterIPsPath, json(clusterIPs), 'may only hold up to 2 values'));
  if (invalidIPs) return errors;
  if (clusterIPs.length > 1 && !isDualStack(clusterIPs))
    errors.push(invalid(clusterIPsPath, json(clusterIPs), 'may specify no more than one IP for each IP family'));
  if (!isHeadless(spec) && clusterIPs.length > 0 && families.length > 0) {
    clusterIPs.forEach((ip, i) => {
      if (i > families.length - 1) return;
      if (families[i] === 'IPv4' && isIPv6String(ip))
        errors.push(invalid(clusterIPsPath.index(i), ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (families[i] === 'IPv6' && !isIPv6String(ip))
        errors.push(invalid(clusterIPsPath.index(i), ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errors;
}

/** validateLoadBalancerClassField. */
function validateLoadBalancerClass(spec: JsonObject, oldSpec: JsonObject | undefined): FieldError[] {
  const errors: FieldError[] = [];
  const path = SPEC.child('loadBalancerClass');
  const lbClass = optionalString(spec, 'loadBalancerClass');
  const isLB = stringOf(spec, 'type') === 'LoadBalancer';
  if (oldSpec && stringOf(oldSpec, 'type') === 'LoadBalancer' && isLB && optionalString(oldSpec, 'loadBalancerClass') !== lbClass) {
    errors.push(invalid(path, json(lbClass ?? null), 'may not change once set'));
  }
  if (isLB) {
    if (lbClass !== undefined) errors.push(...qualifiedNameErrors(lbClass).map((message) => invalid(path, lbClass, message)));
  } else if (lbClass !== undefined) {
    errors.push(forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
  }
  return errors;
}

/** apiservice.ExternallyAccessible. */
function externallyAccessible(spec: JsonObject): boolean {
  const type = stringOf(spec, 'type');
  return type === 'LoadBalancer' || type === 'NodePort' || (type === 'ClusterIP' && stringsOf(spec, 'externalIPs').length > 0);
}

/** ValidateService. */
export function validateService(object: JsonObject): FieldError[] {
  const meta = metadataOf(object);
  const spec = objectOf(object, 'spec') ?? {};
  const errors = validateObjectMeta(meta, true, nameIsDns1035Label, METADATA);
  const annotations = stringMapOf(meta, 'annotations') ?? {};
  const hints = annotations['service.kubernetes.io/topology-aware-hints'];
  const mode = annotations['service.kubernetes.io/topology-mode'];
  if (hints !== undefined && mode !== undefined && hints !== mode) {
    errors.push(
      invalid(
        METADATA.child('annotations').key('service.kubernetes.io/topology-mode'),
        mode,
        'must match annotations[service.kubernetes.io/topology-aware-hints] when both are specified',
      ),
    );
  }
  const type = stringOf(spec, 'type');
  const ports = listOf(spec, 'ports');
  const headless = isHeadless(spec);
  if (ports.length === 0 && !headless && type !== 'ExternalName') errors.push(required(SPEC.child('ports')));
  if ((type === 'LoadBalancer' || type === 'NodePort') && headless) {
    errors.push(invalid(SPEC.child('clusterIPs').index(0), 'None', `may not be set to 'None' for ${type} services`));
  } else if (type === 'ExternalName') {
    if (clusterIPsOf(spec).length > 0) errors.push(forbidden(SPEC.child('clusterIPs'), 'may not be set for ExternalName services'));
    if (stringsOf(spec, 'ipFamilies').length > 0) errors.push(forbidden(SPEC.child('ipFamilies'), 'may not be set for ExternalName services'));
    if (has(spec, 'ipFamilyPolicy')) errors.push(forbidden(SPEC.child('ipFamilyPolicy'), 'may not be set for ExternalName services'));
    const cname = stringOf(spec, 'externalName').replace(/\.$/, '');
    if (cname.length > 0) errors.push(...dns1123SubdomainErrors(cname).map((message) => invalid(SPEC.child('externalName'), cname, message)));
    else errors.push(required(SPEC.child('externalName')));
  }
  const names = new Set<string>();
  ports.forEach((port, i) => errors.push(...validateServicePort(port, ports.length > 1, names, SPEC.child('ports').index(i))));
  if (has(spec, 'selector')) errors.push(...validateLabels(stringMapOf(spec, 'selector'), SPEC.child('selector')));
  const affinity = stringOf(spec, 'sessionAffinity');
  if (affinity === '') errors.push(required(SPEC.child('sessionAffinity')));
  else if (affinity !== 'ClientIP' && affinity !== 'None') errors.push(notSupported(SPEC.child('sessionAffinity'), json(affinity), ['ClientIP', 'None']));
  const affinityPath = SPEC.child('sessionAffinityConfig');
  if (affinity === 'ClientIP') {
    const config = objectOf(spec, 'sessionAffinityConfig');
    const clientIP = objectOf(config, 'clientIP');
    const timeout = optionalNumber(clientIP, 'timeoutSeconds');
    if (!config) errors.push(required(affinityPath, 'when session affinity type is ClientIP'));
    else if (!clientIP) errors.push(required(affinityPath.child('clientIP'), 'when session affinity type is ClientIP'));
    else if (timeout === undefined) errors.push(required(affinityPath.child('clientIP').child('timeoutSeconds'), 'when session affinity type is ClientIP'));
    else if (timeout <= 0 || timeout > MAX_CLIENT_IP_AFFINITY_SECONDS)
      errors.push(
        invalid(
          affinityPath.child('clientIP').child('timeoutSeconds'),
          json(timeout),
          `must be greater than 0 and less than ${MAX_CLIENT_IP_AFFINITY_SECONDS}`,
        ),
      );
  } else if (affinity === 'None' && has(spec, 'sessionAffinityConfig')) {
    errors.push(forbidden(affinityPath, 'must not be set when session affinity is None'));
  }
  errors.push(...validateClusterIPsRelated(spec));
  stringsOf(spec, 'externalIPs').forEach((ip, i) => {
    const at = SPEC.child('externalIPs').index(i);
    if (!isIP(ip)) errors.push(invalid(at, ip, INVALID_IP));
    else errors.push(...specialIPMessages(ip).map((message) => invalid(at, ip, message)));
  });
  if (type === '') errors.push(required(SPEC.child('type')));
  else if (!SERVICE_TYPES.includes(type)) errors.push(notSupported(SPEC.child('type'), json(type), SERVICE_TYPES));
  if (type === 'ClusterIP') {
    ports.forEach((port, i) => {
      if (numberOf(port, 'nodePort') !== 0)
        errors.push(forbidden(SPEC.child('ports').index(i).child('nodePort'), "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  ports.forEach((port, i) => {
    const nodePort = numberOf(port, 'nodePort');
    if (nodePort === 0) return;
    const key = `${stringOf(port, 'protocol')}/${nodePort}`;
    if (nodePorts.has(key)) errors.push(duplicate(SPEC.child('ports').index(i).child('nodePort'), nodePort));
    nodePorts.add(key);
  });
  const portKeys = new Set<string>();
  ports.forEach((port, i) => {
    const protocol = stringOf(port, 'protocol');
    const number = numberOf(port, 'port');
    const key = `${protocol}/${number}`;
    // The duplicate is reported with the internal ServicePort key struct (no json tags).
    if (portKeys.has(key))
      errors.push(duplicate(SPEC.child('ports').index(i), json({ Name: '', Protocol: protocol, AppProtocol: null, Port: number, TargetPort: 0, NodePort: 0 })));
    portKeys.add(key);
  });
  const ranges = stringsOf(spec, 'loadBalancerSourceRanges');
  if (ranges.length > 0) {
    const path = SPEC.child('LoadBalancerSourceRanges');
    if (type !== 'LoadBalancer') errors.push(forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
    ranges.forEach((range, i) => {
      const value = range.trim();
      if (!isCIDR(value)) errors.push(invalid(path.index(i), value, INVALID_CIDR));
    });
  } else if ('service.beta.kubernetes.io/load-balancer-source-ranges' in annotations) {
    const path = Path.of('metadata', 'annotations').key('service.beta.kubernetes.io/load-balancer-source-ranges');
    if (type !== 'LoadBalancer') errors.push(forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
    const value = (annotations['service.beta.kubernetes.io/load-balancer-source-ranges'] ?? '').trim();
    if (value !== '') {
      for (const cidr of value.split(',')) {
        const trimmed = cidr.trim();
        if (!isCIDR(trimmed)) errors.push(invalid(path, trimmed, INVALID_CIDR));
      }
    }
  }
  const allocate = optionalBoolean(spec, 'allocateLoadBalancerNodePorts');
  if (allocate !== undefined && type !== 'LoadBalancer')
    errors.push(forbidden(SPEC.child('allocateLoadBalancerNodePorts'), "may only be used when `type` is 'LoadBalancer'"));
  if (type === 'LoadBalancer' && allocate === undefined) errors.push(required(Path.of('allocateLoadBalancerNodePorts')));
  errors.push(...validateLoadBalancerClass(spec, undefined));
  errors.push(...validateTrafficPolicies(spec));
  return errors;
}

/** validateServiceExternalTrafficPolicy, validateServiceInternalTrafficFieldsValue, validateServiceTrafficDistribution. */
function validateTrafficPolicies(spec: JsonObject): FieldError[] {
  const errors: FieldError[] = [];
  const type = stringOf(spec, 'type');
  const external = stringOf(spec, 'externalTrafficPolicy');
  if (!externallyAccessible(spec)) {
    if (external !== '') errors.push(invalid(SPEC.child('externalTrafficPolicy'), json(external), 'may only be set for externally-accessible services'));
  } else if (external === '') errors.push(required(SPEC.child('externalTrafficPolicy')));
  else if (external !== 'Cluster' && external !== 'Local') errors.push(notSupported(SPEC.child('externalTrafficPolicy'), json(external), ['Cluster', 'Local']));
  const healthCheckNodePort = numberOf(spec, 'healthCheckNodePort');
  const needsHealthCheck = type === 'LoadBalancer' && external === 'Local';
  if (!needsHealthCheck) {
    if (healthCheckNodePort !== 0)
      errors.push(
        invalid(SPEC.child('healthCheckNodePort'), healthCheckNodePort, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"),
      );
  } else if (healthCheckNodePort === 0) errors.push(required(SPEC.child('healthCheckNodePort')));
  else errors.push(...portNumberErrors(healthCheckNodePort).map((message) => invalid(SPEC.child('healthCheckNodePort'), healthCheckNodePort, message)));
  const internal = optionalString(spec, 'internalTrafficPolicy');
  if (internal === undefined) {
    if (type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP') errors.push(required(SPEC.child('internalTrafficPolicy')));
  } else if (internal !== 'Cluster' && internal !== 'Local') {
    errors.push(notSupported(SPEC.child('internalTrafficPolicy'), json(internal), ['Cluster', 'Local']));
  }
  const distribution = optionalString(spec, 'trafficDistribution');
  const distributions = ['PreferClose', 'PreferSameZone', 'PreferSameNode'];
  if (distribution !== undefined && !distributions.includes(distribution))
    errors.push(notSupported(SPEC.child('trafficDistribution'), json(distribution), distributions));
  return errors;
}

/** validateUpgradeDowngradeClusterIPs. */
function validateClusterIPsChange(spec: JsonObject, oldSpec: JsonObject): FieldError[] {
  if (stringOf(spec, 'type') === 'ExternalName' || stringOf(oldSpec, 'type') === 'ExternalName') return [];
  if (isHeadless(spec) && isHeadless(oldSpec)) return [];
  const ips = clusterIPsOf(spec);
  const oldIps = clusterIPsOf(oldSpec);
  const path = SPEC.child('clusterIPs');
  const errors: FieldError[] = [];
  if (oldIps.length === ips.length) {
    oldIps.forEach((ip, i) => {
      if (ip !== ips[i]) errors.push(invalid(path.index(i), json(ips), 'may not change once set'));
    });
  } else if (oldIps.length > ips.length) {
    if (ips.length === 0) errors.push(invalid(path.index(0), json(ips), 'primary clusterIP can not be unset'));
    if (oldIps.length > 0 && ips.length > 0 && ips[0] !== oldIps[0]) errors.push(invalid(path.index(0), json(ips), 'may not change once set'));
    if (ips.length === 1 && optionalString(spec, 'ipFamilyPolicy') !== 'SingleStack') {
      errors.push(
        invalid(
          SPEC.child('ipFamilyPolicy'),
          json(optionalString(spec, 'ipFamilyPolicy') ?? null),
          "must be set to 'SingleStack' when releasing the secondary clusterIP",
        ),
      );
    }
  } else if (oldIps.length > 0 && ips[0] !== oldIps[0]) {
    errors.push(invalid(path.index(0), json(ips), 'may not change once set'));
  }
  return errors;
}

/** validateUpgradeDowngradeIPFamilies (its errors print clusterIPs in places, as upstream's do). */
function validateIPFamiliesChange(spec: JsonObject, oldSpec: JsonObject): FieldError[] {
  if (stringOf(spec, 'type') === 'ExternalName' || stringOf(oldSpec, 'type') === 'ExternalName') return [];
  if (isHeadless(spec) !== isHeadless(oldSpec) || isHeadless(spec)) return [];
  const families = stringsOf(spec, 'ipFamilies');
  const oldFamilies = stringsOf(oldSpec, 'ipFamilies');
  const path = SPEC.child('ipFamilies').index(0);
  const errors: FieldError[] = [];
  if (oldFamilies.length === families.length) {
    oldFamilies.forEach((family, i) => {
      if (family !== families[i]) errors.push(invalid(path, json(families), 'may not change once set'));
    });
  } else if (oldFamilies.length > families.length) {
    if (clusterIPsOf(spec).length === 0) errors.push(invalid(path, json(families), 'primary ipFamily can not be unset'));
    if (families.length > 0 && families[0] !== oldFamilies[0]) errors.push(invalid(path, json(clusterIPsOf(spec)), 'may not change once set'));
    if (families.length === 1 && optionalString(spec, 'ipFamilyPolicy') !== 'SingleStack') {
      errors.push(
        invalid(
          SPEC.child('ipFamilyPolicy'),
          json(optionalString(spec, 'ipFamilyPolicy') ?? null),
          "must be set to 'SingleStack' when releasing the secondary ipFamily",
        ),
      );
    }
  } else if (oldFamilies.length > 0 && families.length > 0 && families[0] !== oldFamilies[0]) {
    errors.push(invalid(path, json(clusterIPsOf(spec)), 'may not change once set'));
  }
  return errors;
}

/** ValidateServiceUpdate. */
export function validateServiceUpdate(object: JsonObject, old: JsonObject): FieldError[] {
  const spec = objectOf(object, 'spec') ?? {};
  const oldSpec = objectOf(old, 'spec') ?? {};
  const errors = validateObjectMetaUpdate(metadataOf(object), metadataOf(old), METADATA);
  errors.push(...validateClusterIPsChange(spec, oldSpec));
  errors.push(...validateIPFamiliesChange(spec, oldSpec));
  errors.push(...validateLoadBalancerClass(spec, oldSpec));
  const needs = (s: JsonObject): boolean => stringOf(s, 'type') === 'LoadBalancer' && stringOf(s, 'externalTrafficPolicy') === 'Local';
  if (needs(oldSpec) && needs(spec) && numberOf(spec, 'healthCheckNodePort') !== numberOf(oldSpec, 'healthCheckNodePort')) {
    errors.push(forbidden(SPEC.child('healthCheckNodePort'), 'field is immutable'));
  }
  return [...errors, ...validateService(object)];
}
