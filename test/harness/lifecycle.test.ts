// The harness's parts tell its Lifecycle what they started; h.close() and a createHarness that fails
// halfway close them in the order kept here, without knowing the parts.
import { createHarness } from '../../lib';
import { startCapabilities, type Capability } from '../../lib/harness/capability';
import type { HarnessCore } from '../../lib/harness/core';
import { Lifecycle } from '../../lib/harness/lifecycle';

describe('Lifecycle', () => {
  it('flushes first, closes the servers together, then the cluster, and throws the flush error last', async () => {
    const lifecycle = new Lifecycle();
    const events: string[] = [];
    lifecycle.own(() => {
      events.push('cluster');
    }, 'cluster');
    lifecycle.own(async () => {
      events.push('target starts closing');
      await Promise.resolve();
      events.push('target closed');
    });
    lifecycle.own(() => {
      events.push('backend');
    });
    lifecycle.flushFirst(() => {
      events.push('flush');
      throw new Error('could not write the summary');
    });
    await expect(lifecycle.close()).rejects.toThrow('could not write the summary');
    expect(events).toEqual(['flush', 'target starts closing', 'backend', 'target closed', 'cluster']);
    await expect(lifecycle.close()).resolves.toBeUndefined();
    expect(events).toHaveLength(5);
  });

  it('closes the cluster even when a server fails to close', async () => {
    const lifecycle = new Lifecycle();
    const events: string[] = [];
    lifecycle.own(() => {
      events.push('cluster');
    }, 'cluster');
    lifecycle.own(async () => {
      throw new Error('target would not stop');
    });
    await expect(lifecycle.close()).rejects.toThrow('target would not stop');
    expect(events).toEqual(['cluster']);
  });

  it('refuses use after close with the fix', async () => {
    const lifecycle = new Lifecycle();
    expect(() => lifecycle.assertOpen()).not.toThrow();
    await lifecycle.close();
    expect(() => lifecycle.assertOpen()).toThrow(
      expect.objectContaining({ code: 'HARNESS_CLOSED', hint: 'create a new harness per test file and close it in afterAll' }) as unknown as Error,
    );
  });

  it('undoes a failed build from the last started part to the first, each whatever the others do', async () => {
    const lifecycle = new Lifecycle();
    const events: string[] = [];
    lifecycle.own(() => {
      events.push('mock API');
    }, 'cluster');
    lifecycle.own(() => {
      throw new Error('target would not stop');
    });
    lifecycle.own(() => {
      events.push('backend');
    });
    await expect(lifecycle.undo()).rejects.toThrow('target would not stop');
    expect(events).toEqual(['backend', 'mock API']);
  });
});

describe('capabilities', () => {
  it('add their methods and validation plugins, and the harness owns what each started', async () => {
    const lifecycle = new Lifecycle();
    const closed: string[] = [];
    const plugin = { name: 'Example', validate: async () => ({ auditAnnotations: {} }) };
    const first: Capability<{ first(): string }> = {
      start: () => ({ methods: { first: () => 'one' }, validationPlugins: [plugin], close: async () => void closed.push('first') }),
    };
    const second: Capability<{ second(): number }> = { start: async () => ({ methods: { second: () => 2 } }) };
    const started = await startCapabilities([first, second] as const, { lifecycle } as unknown as HarnessCore);
    expect(started.methods.first()).toBe('one');
    expect(started.methods.second()).toBe(2);
    expect(started.validationPlugins).toEqual([plugin]);
    await lifecycle.close();
    expect(closed).toEqual(['first']);
  });

  it('are the harness methods of image policy and conversion, refused once the harness closed', async () => {
    const h = await createHarness({ seed: 7 });
    await h.close();
    expect(() => h.convert([], 'v2')).toThrow('the harness was used after close()');
    expect(() => h.imageReview({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' } })).toThrow('the harness was used after close()');
  });
});
