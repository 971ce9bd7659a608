import type { UserInfo } from '../kube/admission';
import { DEFAULT_USER } from '../kube/attributes';
import { hashSeed, SeededRandom } from '../random';
import { sortedMap } from '../registry/shape';
import { cloneJson } from '../kube/json';

const AUTHENTICATED = 'system:authenticated';
const CREDENTIAL_ID = 'authentication.kubernetes.io/credential-id';

/** A stable uuid for `identity`: the same user gets the same uid in every run. */
function uidFor(identity: string): string {
  return new SeededRandom(hashSeed(identity)).uuid();
}

export interface ServiceAccountUserOptions {
  uid?: string;
  /** The pod a projected token is bound to: its name and uid then appear in `extra` with its node's. */
  pod?: { name: string; uid?: string; node?: string; nodeUid?: string };
}

/** The users requests are made as, shaped as kube-apiserver's authenticators produce them. */
export const users = {
  /** kubeadm's admin (client certificate): the harness's default user. */
  admin(): UserInfo {
    return cloneJson(DEFAULT_USER);
  },

  /**
   * A service account authenticated with a bound token, as in
   * fixtures/apiserver-captures/configmaps-create-serviceaccount-user.json: its groups, and `extra`
   * with the token's credential id (plus the pod and node for a pod's projected token).
   */
  serviceAccount(namespace: string, name: string, options: ServiceAccountUserOptions = {}): UserInfo {
    const username = `system:serviceaccount:${namespace}:${name}`;
    const pod = options.pod;
    const extra: Record<string, string[]> = { [CREDENTIAL_ID]: [`JTI=${uidFor(`${username}/token`)}`] };
    if (pod) {
      const node = pod.node ?? 'node-1';
      extra['authentication.kubernetes.io/node-name'] = [node];
      extra['authentication.kubernetes.io/node-uid'] = [pod.nodeUid ?? uidFor(`node/${node}`)];
      extra['authentication.kubernetes.io/pod-name'] = [pod.name];
      extra['authentication.kubernetes.io/pod-uid'] = [pod.uid ?? uidFor(`pod/${namespace}/${pod.name}`)];
    }
    return {
      username,
      uid: options.uid ?? uidFor(username),
      groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, AUTHENTICATED],
      extra: sortedMap(extra),
    };
  },

  /**
   * Who the apiserver says made a request sent with impersonation headers (`kubectl --as`), as in
   * fixtures/apiserver-captures/configmaps-create-impersonated*.json: `system:authenticated` appended
   * to the groups, extra keys lower-cased (headers are case-insensitive) and sorted.
   */
  impersonated(user: { username: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> }): UserInfo {
    const groups = user.groups ?? [];
    const extra =
      user.extra && Object.keys(user.extra).length > 0
        ? sortedMap(Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k.toLowerCase(), v])))
        : undefined;
    return {
      username: user.username,
      ...(user.uid ? { uid: user.uid } : {}),
      groups: groups.includes(AUTHENTICATED) ? groups : [...groups, AUTHENTICATED],
      ...(extra ? { extra } : {}),
    };
  },

  /** A kubelet (node authorizer identity). */
  node(name: string): UserInfo {
    return { username: `system:node:${name}`, groups: ['system:nodes', AUTHENTICATED] };
  },

  /** The scheduler, which creates pods/binding. */
  scheduler(): UserInfo {
    return { username: 'system:kube-scheduler', groups: [AUTHENTICATED] };
  },

  /** A built-in controller of kube-controller-manager, e.g. `replicaset-controller`. */
  controller(name: string): UserInfo {
    return users.serviceAccount('kube-system', name);
  },

  anonymous(): UserInfo {
    return { username: 'system:anonymous', groups: ['system:unauthenticated'] };
  },
};
