import type { GroupVersionKind, Operation } from '../admission';
import type { WebhookClientConfig } from '../webhook-config';

/** How a subresource is declared when registering a resource. */
export interface SubresourceSpec {
  /** `status`, `scale`, `exec`… (the part after the `/`). */
  name: string;
  /** The kind its requests carry in `request.kind`; the parent resource's own kind when omitted (as for `status`). */
  kind?: GroupVersionKind;
  /**
   * The operations under which its requests reach admission webhooks; `['UPDATE']` when omitted (status and scale
   * are written with PUT/PATCH, which admission sees as UPDATE). Empty for read-only subresources such as `pods/log`.
   */
  operations?: readonly Operation[];
}

/** A subresource as the catalog knows it. */
export interface SubresourceInfo {
  name: string;
  kind: GroupVersionKind;
  operations: readonly Operation[];
  /** Admitted as CONNECT: `request.object` holds the options object (`PodExecOptions`…) and `request.options` is null. */
  connect: boolean;
  /** False when no request to it ever reaches admission (`pods/log` is GET-only), so builders must refuse it. */
  admitted: boolean;
}

/** One served resource: how a kind is addressed and whether its objects live in a namespace. */
export interface ResourceInfo {
  group: string;
  version: string;
  kind: string;
  /** The plural resource name used in URLs and in `request.resource`. */
  resource: string;
  namespaced: boolean;
  /** The singular name discovery reports; the kind in lower case when omitted (true of every built-in). */
  singular?: string;
  /** Operations that reach admission for the resource itself; CREATE, UPDATE and DELETE when omitted. */
  operations?: readonly Operation[];
  subresources?: readonly SubresourceSpec[];
  /**
   * Resources registered with the same storage key share storage, so matchPolicy Equivalent treats them as the same
   * resource (kube-apiserver keys them by etcd resource prefix). `<resource>.<group>` (or `<resource>` for core)
   * when omitted, which makes every version of a group/resource equivalent, as kube-apiserver does.
   */
  storageKey?: string;
  /** Short names discovery lists (`kubectl get cm`); a CustomResourceDefinition's `spec.names.shortNames`. */
  shortNames?: readonly string[];
  /** Categories discovery lists (`kubectl get all`); a CustomResourceDefinition's `spec.names.categories`. */
  categories?: readonly string[];
  /**
   * The version objects are stored at, from which discovery's storageVersionHash is computed: a
   * CustomResourceDefinition's `storage: true` version. The highest-priority version of the storage key when omitted.
   */
  storageVersion?: string;
  /** A custom resource version's `schema.openAPIV3Schema`, from which the registry prunes, defaults and validates its objects. */
  schema?: unknown;
  /** How a CustomResourceDefinition's versions convert into each other (`spec.conversion`); built-in resources have none. */
  conversion?: CustomResourceConversion;
  /** A custom resource version's `additionalPrinterColumns`: the columns of its Table (`kubectl get`). */
  printerColumns?: readonly PrinterColumn[];
}

/** One of a CustomResourceDefinition version's `additionalPrinterColumns`. */
export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

/** A CustomResourceDefinition's `spec.conversion`, with what kube-apiserver's converter reads beside it. */
export interface CustomResourceConversion {
  /** metadata.name of the CustomResourceDefinition. */
  crd: string;
  strategy: 'None' | 'Webhook';
  /** Every version the definition declares, served or not: the versions kube-apiserver converts between. */
  versions: readonly string[];
  /** For `strategy: Webhook`: where the ConversionReviews go, and the review versions the webhook accepts. */
  webhook?: { clientConfig: WebhookClientConfig; conversionReviewVersions: readonly string[] };
}

/** What lookups return: a registered resource with every default filled in. Frozen. */
export interface CatalogEntry extends ResourceInfo {
  singular: string;
  operations: readonly Operation[];
  subresources: readonly SubresourceInfo[];
  storageKey: string;
}
