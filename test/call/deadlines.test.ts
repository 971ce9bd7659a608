// lib/call/deadlines.ts: one timer for every pending call's deadline.
import { callDeadlines, DeadlineWatch } from '../../lib/call/deadlines';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

// A watch on Jest's fake clock (the process's own uses Node's timers, which fake timers leave alone).
const fakeClock = () =>
  new DeadlineWatch({ now: () => performance.now(), setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (timer) => clearTimeout(timer) });
const timeouts = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

it('expires each call at its own deadline, in deadline order, whatever order they started in', () => {
  const watch = fakeClock();
  const expired: string[] = [];
  const late = watch.watch(300, () => expired.push('late'));
  watch.watch(100, () => expired.push('early'));
  watch.watch(200, () => expired.push('middle'));
  jest.advanceTimersByTime(99);
  expect(expired).toEqual([]);
  jest.advanceTimersByTime(1);
  expect(expired).toEqual(['early']);
  jest.advanceTimersByTime(100);
  expect(expired).toEqual(['early', 'middle']);
  watch.cancel(late);
  jest.advanceTimersByTime(1000);
  expect(expired).toEqual(['early', 'middle']);
});

it('never expires a call that ended first, and watches a later call from its own start', () => {
  const watch = fakeClock();
  const expired: string[] = [];
  const first = watch.watch(100, () => expired.push('first'));
  jest.advanceTimersByTime(60);
  watch.cancel(first);
  watch.watch(100, () => expired.push('second'));
  jest.advanceTimersByTime(60);
  expect(expired).toEqual([]);
  jest.advanceTimersByTime(40);
  expect(expired).toEqual(['second']);
});

it('a call started by an expiry is watched too', () => {
  const watch = fakeClock();
  const expired: string[] = [];
  watch.watch(100, () => {
    expired.push('first');
    watch.watch(50, () => expired.push('retry'));
  });
  jest.advanceTimersByTime(149);
  expect(expired).toEqual(['first']);
  jest.advanceTimersByTime(1);
  expect(expired).toEqual(['first', 'retry']);
});

it("the process's watch runs on Node's timers, untouched by fake ones, and holds the process open only while a call is pending", () => {
  const before = timeouts();
  const deadline = callDeadlines.watch(60_000, () => undefined);
  expect(timeouts()).toBe(before + 1);
  expect(jest.getTimerCount()).toBe(0);
  callDeadlines.cancel(deadline);
  expect(timeouts()).toBe(before);
  const again = callDeadlines.watch(60_000, () => undefined);
  expect(timeouts()).toBe(before + 1);
  callDeadlines.cancel(again);
  expect(timeouts()).toBe(before);
});
