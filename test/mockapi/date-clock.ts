/**
 * A clock the test controls for what the mock API reads the time for (creationTimestamp, managedFields times,
 * the Age cells of its Tables): only Date is faked, so timers, TLS and sockets run as usual.
 */
export function freezeDate(at: string | number): { set(to: string | number): void; restore(): void } {
  jest.useFakeTimers({
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'requestAnimationFrame',
      'cancelAnimationFrame',
      'requestIdleCallback',
      'cancelIdleCallback',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
    now: typeof at === 'string' ? Date.parse(at) : at,
  });
  return {
    set: (to) => jest.setSystemTime(typeof to === 'string' ? Date.parse(to) : to),
    restore: () => jest.useRealTimers(),
  };
}
