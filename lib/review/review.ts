import type { UserInfo } from '../kube/admission';
import type { AdmissionAttributes } from '../kube/attributes';
import { withDryRun } from './builders/options';
import { cloneJson } from '../kube/json';

/**
 * A request to admit: immutable; the modifiers return a new Review. The harness turns it into an
 * AdmissionReview per webhook call (fresh uid, negotiated version). Its attributes are frozen once
 * it is first sent; the builders give it copies of what a test passes them, which stays unfrozen.
 */
export class Review {
  constructor(readonly attributes: AdmissionAttributes) {}

  /** The same request with `?dryRun=All`, which its options object carries too (in field order). CONNECT is never dryRun. */
  dryRun(on = true): Review {
    const a = this.attributes;
    if (a.operation === 'CONNECT') return this;
    return new Review({ ...a, dryRun: on, options: withDryRun(a.options, on) });
  }

  /** The same request made by another user. */
  as(userInfo: UserInfo): Review {
    return new Review({ ...this.attributes, userInfo: cloneJson(userInfo) });
  }

  /** One line for failure messages: `CREATE pods prod/web-1 (dryRun)`. */
  summary(): string {
    return requestLine(this.attributes);
  }
}

/** `CREATE pods prod/web-1 (dryRun)`, from a review's attributes or the request a webhook was sent. */
export function requestLine(
  r: Pick<AdmissionAttributes, 'operation' | 'resource'> & { subResource?: string; name?: string; namespace?: string; dryRun?: boolean },
): string {
  const resource = r.subResource ? `${r.resource.resource}/${r.subResource}` : r.resource.resource;
  const group = r.resource.group ? `.${r.resource.group}` : '';
  const target = [r.namespace, r.name || '(no name)'].filter(Boolean).join('/');
  return `${r.operation} ${resource}${group} ${target}${r.dryRun ? ' (dryRun)' : ''}`;
}
