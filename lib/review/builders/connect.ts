import type { KubeObject } from '../../kube/admission';
import { gvrOf } from '../../kube/catalog';
import { DEFAULT_USER } from '../../kube/attributes';
import { listAt, objectAt, stringAt } from '../objects/json';
import { shape } from '../../registry/shape';
import { Review } from '../review';
import type { RequestOptions } from './options';
import { catalogOf, entryFor, placement, subresourceFor } from './target';
import { cloneJson } from '../../kube/json';
import { joinApiVersion } from '../../kube/api-version';
import { CONNECT_OPTIONS_FIELD_ORDER as FIELD_ORDER } from '../../kube/connect-options';

/** The container kubectl picks: the `kubectl.kubernetes.io/default-container` annotation, else the first one. */
function defaultContainer(object: KubeObject): { container?: string } {
  const annotated = stringAt(objectAt(objectAt(object, 'metadata'), 'annotations'), 'kubectl.kubernetes.io/default-container');
  const first = stringAt(listAt(objectAt(object, 'spec'), 'containers')[0] ?? {}, 'name');
  const container = annotated ?? first;
  return container ? { container } : {};
}

function defaults(subResource: string, object: KubeObject): Record<string, unknown> {
  switch (subResource) {
    case 'exec':
      return { stdout: true, stderr: true, ...defaultContainer(object), command: ['sh'] };
    case 'attach':
      return { stdout: true, stderr: true, ...defaultContainer(object) };
    case 'proxy':
      return { path: '/' };
    default:
      return {};
  }
}

export type ConnectOptions = Omit<RequestOptions, 'dryRun' | 'options' | 'fieldManager' | 'managedFields'>;

/**
 * A CONNECT to a subresource of `object` (`pods/exec`, `pods/attach`, `pods/portforward`, `*\/proxy`):
 * the object is the connect options (PodExecOptions…), there is no oldObject, no options and never
 * dryRun. `fields` are members of the options object; `name` overrides the request name (`pod:port` for a proxy).
 */
export function connect(
  object: KubeObject,
  subResource: string,
  fields: Record<string, unknown> = {},
  options: ConnectOptions & { name?: string } = {},
): Review {
  const catalog = catalogOf(options);
  const entry = entryFor(object, catalog);
  const sub = subresourceFor(entry, subResource, 'CONNECT', catalog);
  const placed = placement(object, entry, options);
  const kind = sub.kind.kind;
  const members = Object.fromEntries(
    Object.entries({ ...defaults(subResource, placed.object), ...fields }).filter(([, value]) => value !== false && value !== undefined),
  );
  return new Review({
    operation: 'CONNECT',
    kind: { group: sub.kind.group, version: sub.kind.version, kind },
    resource: gvrOf(entry),
    subResource,
    name: options.name ?? placed.object.metadata?.name ?? '',
    namespace: placed.namespace,
    userInfo: options.userInfo ? cloneJson(options.userInfo) : DEFAULT_USER,
    object: { kind, apiVersion: joinApiVersion(sub.kind), ...shape(members, FIELD_ORDER[kind] ?? []) },
    oldObject: null,
    dryRun: false,
    options: null,
  });
}

/** `kubectl exec [-it] pod -c container -- command…`. With a TTY kubectl merges stderr into stdout. */
export function exec(pod: KubeObject, command: string[], options: ConnectOptions & { container?: string; stdin?: boolean; tty?: boolean } = {}): Review {
  const { container, stdin, tty, ...rest } = options;
  return connect(pod, 'exec', { stdin, ...(tty ? { stderr: false, tty } : {}), ...(container ? { container } : {}), command }, rest);
}

/** `kubectl attach [-it] pod -c container`. */
export function attach(pod: KubeObject, options: ConnectOptions & { container?: string; stdin?: boolean; tty?: boolean } = {}): Review {
  const { container, stdin, tty, ...rest } = options;
  return connect(pod, 'attach', { stdin, ...(tty ? { stderr: false, tty } : {}), ...(container ? { container } : {}) }, rest);
}

/** `kubectl port-forward` (which sends no ports: they travel in the stream), or a raw request with `?ports=`. */
export function portForward(pod: KubeObject, options: ConnectOptions & { ports?: number[] } = {}): Review {
  const { ports, ...rest } = options;
  return connect(pod, 'portforward', ports ? { ports } : {}, rest);
}

/**
 * A request through `pods/proxy`, `services/proxy` or `nodes/proxy` (`kubectl get --raw …/proxy/<path>`):
 * the options carry the path; a port (or port name) makes the request name `<name>:<port>`.
 */
export function proxy(target: KubeObject, options: ConnectOptions & { path?: string; port?: number | string } = {}): Review {
  const { path, port, ...rest } = options;
  const name = target.metadata?.name ?? '';
  return connect(target, 'proxy', path === undefined ? {} : { path }, { ...rest, ...(port === undefined ? {} : { name: `${name}:${port}` }) });
}
