// EventRateLimit's buckets (golang.org/x/time/rate as client-go's token-bucket limiter uses it, and the
// plugin's LRU of them), stepped on a clock the test moves.
import { manualClock } from '../../../lib';
import { BucketCache, TokenBucket } from '../../../lib/plugins/optional/token-bucket';

describe('TokenBucket', () => {
  it('starts full, refills continuously at qps (a third of a token each 333 ms at 3 qps), and a refusal takes nothing', () => {
    const clock = manualClock(10_000);
    const bucket = new TokenBucket(3, 2, clock);
    expect([bucket.tryAccept(), bucket.tryAccept(), bucket.tryAccept()]).toEqual([true, true, false]);
    clock.advance(333);
    expect(bucket.tryAccept()).toBe(false);
    // The refused reads above did not restart the refill: 334 ms in all is one token.
    clock.advance(1);
    expect(bucket.tryAccept()).toBe(true);
    expect(bucket.tryAccept()).toBe(false);
  });

  it('holds no more than burst however long it waits', () => {
    const clock = manualClock();
    const bucket = new TokenBucket(100, 3, clock);
    clock.advance(3_600_000);
    expect(Array.from({ length: 4 }, () => bucket.tryAccept())).toEqual([true, true, true, false]);
  });
});

describe('BucketCache', () => {
  it('keeps the most recently read keys: a read key survives, the least recent is evicted and comes back full', () => {
    const clock = manualClock();
    const cache = new BucketCache(2, () => new TokenBucket(1, 1, clock));
    expect(cache.get('a').tryAccept()).toBe(true);
    expect(cache.get('b').tryAccept()).toBe(true);
    // Reading a makes b the least recent; c then evicts b, not a.
    expect(cache.get('a').tryAccept()).toBe(false);
    expect(cache.get('c').tryAccept()).toBe(true);
    expect(cache.get('a').tryAccept()).toBe(false);
    expect(cache.get('b').tryAccept()).toBe(true);
  });
});
