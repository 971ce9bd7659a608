import { listAt, stringAt, type JsonRecord } from '../../kube/record';
import type { StorageRandom } from './random';

/** The ClusterIP (from kubeadm's default 10.96.0.0/12), IP family and node ports the service registry allocates. */
export function allocateService(spec: JsonRecord, random: StorageRandom): JsonRecord {
  const type = spec.type;
  if (type === 'ExternalName') return spec;
  const clusterIP = stringAt(spec, 'clusterIP') ?? `10.${random.int(96, 111)}.${random.int(0, 255)}.${random.int(1, 254)}`;
  const nodePorts = type === 'NodePort' || type === 'LoadBalancer';
  const ports = listAt(spec, 'ports').map((port) => (nodePorts && port.nodePort === undefined ? { ...port, nodePort: random.int(30000, 32767) } : port));
  return {
    ...spec,
    ports,
    clusterIP,
    clusterIPs: [clusterIP],
    ipFamilies: ['IPv4'],
    ipFamilyPolicy: 'SingleStack',
    ...(type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local' ? { healthCheckNodePort: random.int(30000, 32767) } : {}),
  };
}
