/**
 * The request bodies a stub received, in order, as bytes in one growing buffer outside the JavaScript
 * heap. A stub keeps every body for the whole test file; kept as strings (or parsed), each one survives
 * a garbage collection and is copied into the old generation, and the heap a long suite carries grows by
 * every review it sent (≈ 15 KB per admission over five stubs). Here the heap holds one number per body.
 */
export class ReceivedLog {
  // Empty until the first body: a suite declares many stubs and a test calls few.
  #bytes = Buffer.alloc(0);
  #used = 0;
  /** Where each body starts in `#bytes`; body i ends where body i + 1 starts (or at `#used`). */
  readonly #starts: number[] = [];

  get length(): number {
    return this.#starts.length;
  }

  append(body: Buffer): void {
    const needed = this.#used + body.length;
    if (needed > this.#bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.#bytes.length * 2, 16 * 1024));
      this.#bytes.copy(grown, 0, 0, this.#used);
      this.#bytes = grown;
    }
    this.#starts.push(this.#used);
    body.copy(this.#bytes, this.#used);
    this.#used = needed;
  }

  /** Body `index` as UTF-8 text. */
  text(index: number): string {
    const start = this.#starts[index];
    if (start === undefined) throw new RangeError(`no body ${index}: ${this.#starts.length} received`);
    const end = this.#starts[index + 1] ?? this.#used;
    return this.#bytes.toString('utf8', start, end);
  }
}
