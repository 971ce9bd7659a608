import type { GroupVersionResource, Operation } from '../kube/admission';
import type { AdmissionAttributes } from '../kube/attributes';
import type { Verb } from './faults';

/** The admission request a webhook was serving, as failure messages and the write log name it. */
export interface AdmissionSummary {
  /** The AdmissionRequest uid, when the caller knows it (the harness does; a hand-wired test may not). */
  uid?: string;
  operation: Operation;
  /** `pods`, `deployments.apps`, `pods/status`… */
  resource: string;
  namespace?: string;
  name?: string;
  dryRun: boolean;
  /** The harness seed the request was generated with. */
  seed?: number;
}

/** The summary of a request about to be sent to a webhook. */
export function admissionSummary(attributes: AdmissionAttributes, ids: { uid?: string; seed?: number } = {}): AdmissionSummary {
  const sub = attributes.subResource ? `/${attributes.subResource}` : '';
  const group = attributes.resource.group ? `.${attributes.resource.group}` : '';
  return {
    ...(ids.uid !== undefined ? { uid: ids.uid } : {}),
    operation: attributes.operation,
    resource: `${attributes.resource.resource}${sub}${group}`,
    ...(attributes.namespace ? { namespace: attributes.namespace } : {}),
    ...(attributes.name ? { name: attributes.name } : {}),
    dryRun: attributes.dryRun,
    ...(ids.seed !== undefined ? { seed: ids.seed } : {}),
  };
}

export type WriteVerb = Extract<Verb, 'create' | 'update' | 'patch' | 'delete' | 'deletecollection'>;

/** One mutating call to the mock API, whether or not it succeeded. */
export interface WriteRecord {
  verb: WriteVerb;
  method: string;
  /** Path and query, as requested. */
  path: string;
  resource: GroupVersionResource;
  namespace: string;
  name: string;
  /** `?dryRun=All` (or DeleteOptions.dryRun): the call could not change anything. */
  dryRun: boolean;
  /** The HTTP status answered; undefined when the call ended in an injected network error. */
  code: number | undefined;
  /** The request body: parsed JSON, or the text of a YAML apply patch. */
  request: unknown;
  /** The answer's body: the object as written (or as it would have been, for a dry run), or a Status. */
  response: unknown;
  /**
   * The admission requests in flight when the call arrived. Normally one; several when webhook calls overlap,
   * since an API call carries nothing that says which admission request it serves.
   */
  admission: readonly AdmissionSummary[];
}

/**
 * Every mutating call made to the mock API, attributed to the admission requests the harness had in flight,
 * so a test can prove that a dryRun request had no side effects (sideEffects None / NoneOnDryRun).
 */
export class WriteLog {
  #records: WriteRecord[] = [];
  readonly #inFlight = new Set<AdmissionSummary>();

  get records(): readonly WriteRecord[] {
    return this.#records;
  }

  /** The admission requests being served right now. */
  inFlight(): AdmissionSummary[] {
    return [...this.#inFlight];
  }

  /** Attributes the writes made while `fn` runs to `admission` (the harness wraps each webhook call in this). */
  async during<T>(admission: AdmissionSummary, fn: () => Promise<T>): Promise<T> {
    this.#inFlight.add(admission);
    try {
      return await fn();
    } finally {
      this.#inFlight.delete(admission);
    }
  }

  record(record: WriteRecord): void {
    this.#records.push(record);
  }

  /** The writes made while `admission` (a summary given to `during`, or its uid) was in flight. */
  of(admission: AdmissionSummary | string): WriteRecord[] {
    const matches = (a: AdmissionSummary): boolean => (typeof admission === 'string' ? a.uid === admission : a === admission);
    return this.#records.filter((r) => r.admission.some(matches));
  }

  /**
   * The writes of `admission` that were not dry runs: the side effects a dryRun request must not have. An
   * attempt counts even if it failed, because the webhook would have changed the cluster had it succeeded.
   */
  sideEffectsOf(admission: AdmissionSummary | string): WriteRecord[] {
    return this.of(admission).filter((r) => !r.dryRun);
  }

  clear(): void {
    this.#records = [];
  }
}
