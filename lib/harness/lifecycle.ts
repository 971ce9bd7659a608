import { HarnessError } from '../errors';

/** Stops something the harness started: a server, a pool of connections, a mock API. */
export type Closer = () => Promise<void> | void;

/**
 * When a part closes. The servers (targets, stubs, backends) and the connections to them close together;
 * the cluster (an owned mock API) closes after them, since a webhook may call it until its server stops.
 */
export type CloseTier = 'servers' | 'cluster';

/**
 * What one harness holds open and whether it still may be used. Each part says what it started as it
 * starts it, so that neither `close()` nor a createHarness that fails halfway needs to know the parts.
 */
export class Lifecycle {
  private closed = false;
  private readonly flushes: (() => void)[] = [];
  /** Every closer, in the order its part started (for undoing a build that failed). */
  private readonly started: { closer: Closer; tier: CloseTier }[] = [];

  assertOpen(): void {
    if (this.closed)
      throw new HarnessError('HARNESS_CLOSED', 'the harness was used after close()', 'create a new harness per test file and close it in afterAll');
  }

  /** Takes `closer` as part of the harness's close, in its tier. */
  own(closer: Closer, tier: CloseTier = 'servers'): void {
    this.started.push({ closer, tier });
  }

  /**
   * Runs `flush` first on close, before anything closes, so that a closing error cannot lose what it
   * writes; its own error is thrown after everything closed, so that it cannot leave anything open.
   */
  flushFirst(flush: () => void): void {
    this.flushes.push(flush);
  }

  /** For a build that failed: closes what started so far, the last started first, each whatever the others do. */
  async undo(): Promise<void> {
    const closers = this.started.map(({ closer }) => closer).reverse();
    const closeFrom = async (index: number): Promise<void> => {
      const closer = closers[index];
      if (!closer) return;
      try {
        await closer();
      } finally {
        await closeFrom(index + 1);
      }
    };
    await closeFrom(0);
  }

  /** `h.close()`: flushes, closes the servers together, then the cluster; a second call does nothing. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    let flushError: unknown;
    for (const flush of this.flushes) {
      try {
        flush();
      } catch (error) {
        flushError ??= error;
      }
    }
    const of = (tier: CloseTier) => this.started.filter((part) => part.tier === tier).map(({ closer }) => closer);
    try {
      await Promise.all(of('servers').map((closer) => closer()));
    } finally {
      for (const closer of of('cluster').reverse()) await closer();
    }
    if (flushError) throw flushError;
  }
}
