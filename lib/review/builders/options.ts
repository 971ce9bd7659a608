import type { KubeObject, UserInfo } from '../../kube/admission';
import type { ResourceCatalog } from '../../kube/catalog';
import { shape } from '../../registry/shape';

/** What every builder accepts. */
export interface RequestOptions {
  /** Who makes the request; kubeadm's admin by default (see `users`). */
  userInfo?: UserInfo;
  dryRun?: boolean;
  /** The request's namespace when the object does not name one; `default` otherwise. */
  namespace?: string;
  /** Fields of the operation's options object, replacing the ones the client would send. */
  options?: Record<string, unknown>;
  /** Where kinds are looked up; the default catalog (built-ins plus registered CRDs) otherwise. */
  catalog?: ResourceCatalog;
  /** The client's `?fieldManager=`; its default depends on the client (kubectl-create, kubectl-patch…). */
  fieldManager?: string;
  /**
   * The client's User-Agent. Without a fieldManager, the apiserver names the manager of a write after
   * its first word (`curl/8.5.0` → `curl`), so raw API calls (`via: 'api'`) are `curl`'s by default.
   */
  userAgent?: string;
  /**
   * Whether objects carry the managedFields the apiserver records for the write. Off by default; a real
   * apiserver's requests always carry them (every capture does), and with them the request's first
   * patch counts as a change whatever it does (k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/dispatcher.go `callAttrMutatingHook`; recorded in test/fixtures/apiserver-outcomes/patch-noop-replace.json).
   */
  managedFields?: boolean;
}

/** Which options kind an operation carries (CONNECT carries none). */
export type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'DeleteOptions';

// meta/v1 field orders: dryRun comes first in Create/UpdateOptions but after propagationPolicy in DeleteOptions.
const FIELD_ORDER: Record<OptionsKind, readonly string[]> = {
  CreateOptions: ['dryRun', 'fieldManager', 'fieldValidation'],
  UpdateOptions: ['dryRun', 'fieldManager', 'fieldValidation'],
  DeleteOptions: ['gracePeriodSeconds', 'preconditions', 'orphanDependents', 'propagationPolicy', 'dryRun', 'ignoreStoreReadErrorWithClusterBreakingPotential'],
};

function isOptionsKind(kind: unknown): kind is OptionsKind {
  return typeof kind === 'string' && kind in FIELD_ORDER;
}

/** An options object as the apiserver encodes it: type fields, then its members in Go field order. */
export function optionsObject(kind: OptionsKind, fields: Record<string, unknown>, dryRun: boolean): KubeObject {
  const { dryRun: _ignored, ...rest } = fields;
  const members = shape({ ...rest, ...(dryRun ? { dryRun: ['All'] } : {}) }, FIELD_ORDER[kind]);
  return { kind, apiVersion: 'meta.k8s.io/v1', ...members };
}

/** `options` with `?dryRun=All` set or cleared, its members kept in field order. */
export function withDryRun(options: KubeObject | null, on: boolean): KubeObject | null {
  if (!options || !isOptionsKind(options.kind)) return options;
  const { kind, apiVersion: _apiVersion, ...fields } = options;
  return optionsObject(kind, fields, on);
}

/** Who writes an object, and how: the options the client sends and the managedFields entry the write records. */
export interface Writer {
  fields: Record<string, unknown>;
  manager: string;
  operation: 'Update' | 'Apply';
}

function agentManager(options: RequestOptions, fallback: string): string {
  return options.fieldManager ?? (options.userAgent ?? fallback).split(/[/\s]/)[0] ?? fallback;
}

/** How a CREATE is made: `kubectl create -f`, `kubectl apply --server-side`, or a raw POST. */
export type CreateVia = 'kubectl' | 'apply' | 'api';

/** The CreateOptions and manager of each client, as fixtures/apiserver-captures shows them. */
export function createWriter(via: CreateVia, options: RequestOptions): Writer {
  switch (via) {
    case 'kubectl': {
      const fieldManager = options.fieldManager ?? 'kubectl-create';
      return { fields: { fieldManager, fieldValidation: 'Strict' }, manager: fieldManager, operation: 'Update' };
    }
    case 'apply': {
      // kubectl's default server-side apply manager is "kubectl".
      const fieldManager = options.fieldManager ?? 'kubectl';
      return { fields: { fieldManager, fieldValidation: 'Strict' }, manager: fieldManager, operation: 'Apply' };
    }
    case 'api':
      return { fields: options.fieldManager ? { fieldManager: options.fieldManager } : {}, manager: agentManager(options, 'curl'), operation: 'Update' };
  }
}

/**
 * How an UPDATE is made: `kubectl replace` (PUT), `kubectl patch --type=merge|json|strategic`,
 * `kubectl apply --server-side` on an existing object, or a raw PUT. Every PATCH reaches webhooks as UPDATE.
 */
export type UpdateVia = 'replace' | 'merge-patch' | 'json-patch' | 'strategic-patch' | 'apply' | 'api';

/** The UpdateOptions and manager of each client: kubectl patch sends no fieldValidation. */
export function updateWriter(via: UpdateVia, options: RequestOptions): Writer {
  switch (via) {
    case 'replace': {
      const fieldManager = options.fieldManager ?? 'kubectl-replace';
      return { fields: { fieldManager, fieldValidation: 'Strict' }, manager: fieldManager, operation: 'Update' };
    }
    case 'merge-patch':
    case 'json-patch':
    case 'strategic-patch': {
      const fieldManager = options.fieldManager ?? 'kubectl-patch';
      return { fields: { fieldManager }, manager: fieldManager, operation: 'Update' };
    }
    case 'apply': {
      const fieldManager = options.fieldManager ?? 'kubectl';
      return { fields: { fieldManager, fieldValidation: 'Strict' }, manager: fieldManager, operation: 'Apply' };
    }
    case 'api':
      return { fields: options.fieldManager ? { fieldManager: options.fieldManager } : {}, manager: agentManager(options, 'curl'), operation: 'Update' };
  }
}

/** kubectl commands that send no fieldManager (scale, debug, create token, drain): kubectl's own name manages their writes. */
export function kubectlWriter(options: RequestOptions): Writer {
  return { fields: options.fieldManager ? { fieldManager: options.fieldManager } : {}, manager: agentManager(options, 'kubectl'), operation: 'Update' };
}
