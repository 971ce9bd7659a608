import { performance } from 'node:perf_hooks';
import { clearTimeout, setTimeout } from 'node:timers';

/**
 * The deadlines of every pending webhook call, watched by one timer. A timer per call (set on the
 * request, cleared on the reply) cost about 5% of an admit over five webhooks: each call made Node
 * create and drop a timer list. Calls mostly end long before their deadline, so the timer is armed
 * for the earliest pending deadline and re-armed only when a call with an earlier one starts; when it
 * fires, the calls past their deadline expire and it is armed for the next one.
 */
export interface Deadline {
  /** The clock's time at which the call expires. */
  readonly at: number;
  readonly expire: () => void;
}

/** Time and timers. The calls' deadlines use Node's own, which a test's fake timers leave alone: the calls go over real sockets. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): NodeJS.Timeout;
  clearTimeout(timer: NodeJS.Timeout): void;
}

const NODE_CLOCK: Clock = { now: () => performance.now(), setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (timer) => clearTimeout(timer) };

export class DeadlineWatch {
  readonly #pending = new Set<Deadline>();
  #timer: NodeJS.Timeout | undefined;
  #armedAt = Infinity;

  constructor(private readonly clock: Clock = NODE_CLOCK) {}

  /** Calls `expire` once `ms` milliseconds have passed, unless the call is cancelled first. */
  watch(ms: number, expire: () => void): Deadline {
    const deadline: Deadline = { at: this.clock.now() + ms, expire };
    this.#pending.add(deadline);
    if (deadline.at < this.#armedAt) this.#arm(deadline.at);
    // A pending call keeps the process alive, as its own timer did.
    else if (this.#pending.size === 1) this.#timer?.ref();
    return deadline;
  }

  cancel(deadline: Deadline): void {
    this.#pending.delete(deadline);
    // With nothing pending, the armed timer must not hold the process open (nor show in Jest's open handles).
    if (this.#pending.size === 0) this.#timer?.unref();
  }

  #arm(at: number): void {
    if (this.#timer) this.clock.clearTimeout(this.#timer);
    this.#armedAt = at;
    this.#timer = this.clock.setTimeout(() => this.#fire(), Math.max(0, Math.ceil(at - this.clock.now())));
    if (this.#pending.size === 0) this.#timer.unref();
  }

  #fire(): void {
    this.#timer = undefined;
    this.#armedAt = Infinity;
    const now = this.clock.now();
    let next = Infinity;
    for (const deadline of this.#pending) {
      if (deadline.at <= now) {
        this.#pending.delete(deadline);
        deadline.expire();
      } else if (deadline.at < next) next = deadline.at;
    }
    // An expiry may have started a call and armed the timer for it.
    if (next < this.#armedAt) this.#arm(next);
  }
}

/** The process's watch, shared by every harness. */
export const callDeadlines = new DeadlineWatch();
