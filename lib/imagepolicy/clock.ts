import { performance } from 'node:perf_hooks';

/**
 * The time the plugin waits on and ages its cache by: the waits between retries and the TTLs. A test
 * passes its own (`manualClock()`) to step through retries and expiries without waiting; the calls
 * themselves still go over real sockets with real deadlines.
 */
export interface ImagePolicyClock {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  /** Resolves after `ms` milliseconds. */
  sleep(ms: number): Promise<void>;
}

/** Real time. */
export const realClock: ImagePolicyClock = {
  now: () => performance.now(),
  // Unref'd: a harness closed during a retry's wait must not hold the process open.
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref()),
};

/** A clock a test moves: `sleep` advances it at once and records the wait; `advance` ages the cache. */
export interface ManualClock extends ImagePolicyClock {
  /** Every wait asked for, in order (the retries' backoff). */
  readonly sleeps: number[];
  advance(ms: number): void;
}

export function manualClock(start = 0): ManualClock {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    advance(ms) {
      now += ms;
    },
    async sleep(ms) {
      sleeps.push(ms);
      now += ms;
    },
  };
}
