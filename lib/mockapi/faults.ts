import { HarnessError } from '../errors';

/** The verbs kube-apiserver authorizes and logs requests by. */
export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/** What to do to the requests a fault matches: a delay, then at most one of status, networkError or throttle. */
export interface FaultSpec {
  /**
   * Which paths: a glob over the URL path (`*` within one segment, `**` across segments, e.g.
   * `/api/v1/namespaces/*`), or a RegExp tested against the path. Every path when omitted.
   */
  path?: string | RegExp;
  /** Which verbs (`get`, `list`, `create`, …); every verb when omitted. */
  verb?: Verb | readonly Verb[];
  /** Milliseconds to wait before answering (or before the failure below), scaled by the API's timeScale. */
  latencyMs?: number;
  /** Answer with this HTTP status and a Status body whose reason matches the code. */
  status?: number;
  /** The Status message for `status`. */
  message?: string;
  /** Drop the connection without an answer, as a crashed or unreachable apiserver does. */
  networkError?: boolean;
  /** Reject as API Priority and Fairness does: 429 with a `Retry-After` header (1 second by default). */
  throttle?: boolean | { retryAfterSeconds: number };
  /** Only the first `times` matching requests; all of them when omitted. */
  times?: number;
}

/** An injected fault: how often it fired, and a way to lift it. */
export interface Fault {
  readonly spec: Readonly<FaultSpec>;
  readonly hits: number;
  remove(): void;
}

function globToRegExp(glob: string): RegExp {
  const source = glob
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

class InjectedFault implements Fault {
  hits = 0;
  readonly #path: RegExp | undefined;
  readonly #verbs: readonly Verb[] | undefined;

  constructor(
    readonly spec: Readonly<FaultSpec>,
    readonly remove: () => void,
  ) {
    this.#path = typeof spec.path === 'string' ? globToRegExp(spec.path) : spec.path;
    this.#verbs = spec.verb === undefined ? undefined : typeof spec.verb === 'string' ? [spec.verb] : spec.verb;
  }

  applies(path: string, verb: Verb): boolean {
    if (this.spec.times !== undefined && this.hits >= this.spec.times) return false;
    if (this.#verbs && !this.#verbs.includes(verb)) return false;
    return !this.#path || this.#path.test(path);
  }
}

function check(spec: FaultSpec): void {
  const outcomes = [spec.status !== undefined, spec.networkError === true, spec.throttle !== undefined && spec.throttle !== false].filter(Boolean).length;
  if (outcomes > 1)
    throw new HarnessError(
      'USAGE',
      'a fault can answer with at most one of status, networkError and throttle',
      'inject one fault per outcome, with `times` to sequence them',
    );
  if (outcomes === 0 && !spec.latencyMs)
    throw new HarnessError('USAGE', 'a fault needs latencyMs, status, networkError or throttle', 'e.g. { path: "/api/v1/namespaces/*", latencyMs: 500 }');
  if (spec.status !== undefined && !(Number.isInteger(spec.status) && spec.status >= 400 && spec.status <= 599)) {
    throw new HarnessError('USAGE', `fault status must be an HTTP error code (400-599), got ${spec.status}`);
  }
}

/**
 * Faults injected into the mock API, per path and verb. Like msw's runtime handlers, the fault added last
 * is tried first, so a narrow fault can override a broad one.
 */
export class Faults {
  #faults: InjectedFault[] = [];

  inject(spec: FaultSpec): Fault {
    check(spec);
    const fault: InjectedFault = new InjectedFault({ ...spec }, () => {
      this.#faults = this.#faults.filter((f) => f !== fault);
    });
    this.#faults.unshift(fault);
    return fault;
  }

  clear(): void {
    this.#faults = [];
  }

  /** The fault for this request, counted as a hit; undefined when none applies. */
  take(path: string, verb: Verb): Readonly<FaultSpec> | undefined {
    const fault = this.#faults.find((f) => f.applies(path, verb));
    if (fault) fault.hits++;
    return fault?.spec;
  }
}
