import type { Ingress, NetworkPolicy } from 'kubernetes-types/networking/v1.js';
import { app } from '../app';
import { generator, metadataOf } from '../generate';
import { appName } from '../names';

export const ingress = generator<Ingress>((gen, shortcuts) => {
  const name = shortcuts.name ?? appName(gen);
  const host = `${name}.${gen.faker.internet.domainName()}`;
  const tls = gen.chance(0.6);
  const annotations = tls ? { 'cert-manager.io/cluster-issuer': 'letsencrypt-prod' } : undefined;
  const port = gen.chance(0.5) ? { name: 'http' } : { number: 80 };
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: metadataOf(shortcuts, { name, namespace: 'default', labels: app(gen, name).labels, ...(annotations ? { annotations } : {}) }),
    spec: {
      ingressClassName: gen.pick(['nginx', 'nginx', 'alb', 'traefik']),
      ...(tls ? { tls: [{ hosts: [host], secretName: `${name}-tls` }] } : {}),
      rules: [{ host, http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name, port } } }] } }],
    },
  };
});

export const networkPolicy = generator<NetworkPolicy>((gen, shortcuts) => {
  const name = shortcuts.name ?? appName(gen);
  const selector = app(gen, name).selector;
  const from = gen.pick([
    [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': appName(gen) } } }],
    [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }],
  ]);
  // Allowing DNS is what most egress policies start with.
  const egress = gen.chance(0.4)
    ? {
        egress: [
          {
            to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } } }],
            ports: [{ protocol: 'UDP', port: 53 }, { port: 53 }],
          },
        ],
      }
    : {};
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: metadataOf(shortcuts, { name: `${name}-allow`, namespace: 'default' }),
    spec: { podSelector: { matchLabels: shortcuts.labels ?? selector }, ingress: [{ from, ports: [{ port: gen.pick([80, 8080, 9090]) }] }], ...egress },
  };
});
