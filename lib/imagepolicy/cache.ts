import type { ImagePolicyClock } from './clock';
import type { ImageReviewStatus } from './image-review';

/**
 * The plugin's answer cache (k8s.io/apimachinery pkg/util/cache `LRUExpireCache`, 1024 entries): an
 * entry lives for the TTL of its answer (allowTTL or denyTTL), is expired once the clock is past its
 * expiry, and the least recently used entry goes when a new key would exceed the size.
 */
export class AnswerCache {
  readonly #entries = new Map<string, { status: ImageReviewStatus; expires: number }>();

  constructor(
    private readonly clock: ImagePolicyClock,
    private readonly size = 1024,
  ) {}

  get(key: string): ImageReviewStatus | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (this.clock.now() > entry.expires) return undefined;
    // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
    this.#entries.set(key, entry);
    return entry.status;
  }

  add(key: string, status: ImageReviewStatus, ttlMs: number): void {
    this.#entries.delete(key);
    this.#entries.set(key, { status, expires: this.clock.now() + ttlMs });
    if (this.#entries.size > this.size) this.#entries.delete(this.#entries.keys().next().value as string);
  }

  /** The keys held (expired ones included until looked up), least recently used first. */
  keys(): string[] {
    return [...this.#entries.keys()];
  }
}
