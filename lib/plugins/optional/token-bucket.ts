/** Time as the rate limiters read it: milliseconds on a monotonic clock (`manualClock()` in a test). */
export interface PluginClock {
  now(): number;
}

/**
 * One bucket of golang.org/x/time/rate's Limiter as client-go's token-bucket rate limiter uses it
 * (flowcontrol.NewTokenBucketRateLimiterWithClock, TryAccept = AllowN(now, 1)): it starts full with
 * `burst` tokens, refills continuously at `qps` per second up to `burst`, and a refused request
 * takes nothing (the limiter keeps its state when a reservation is not ok).
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly qps: number,
    private readonly burst: number,
    private readonly clock: PluginClock,
  ) {
    this.tokens = burst;
    this.last = clock.now();
  }

  /** Takes one token if there is one. */
  tryAccept(): boolean {
    const now = this.clock.now();
    // Limiter.advance: a clock read earlier than the last one counts as no time passed.
    const elapsedSeconds = Math.max(0, now - this.last) / 1000;
    const tokens = Math.min(this.burst, this.tokens + elapsedSeconds * this.qps) - 1;
    if (tokens < 0) return false;
    this.tokens = tokens;
    this.last = now;
    return true;
  }
}

/**
 * The buckets of one limit by key, at most `size` of them (hashicorp/golang-lru as the plugin's
 * lruCache uses it): a key read becomes the most recent; a new key past the size evicts the least
 * recent, whose allowance is then forgotten (it comes back full).
 */
export class BucketCache {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly size: number,
    private readonly newBucket: () => TokenBucket,
  ) {}

  get(key: string): TokenBucket {
    const found = this.buckets.get(key);
    if (found) {
      // A Map iterates in insertion order: re-inserting makes the key the most recent.
      this.buckets.delete(key);
      this.buckets.set(key, found);
      return found;
    }
    const bucket = this.newBucket();
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.size) this.buckets.delete(this.buckets.keys().next().value as string);
    return bucket;
  }
}
