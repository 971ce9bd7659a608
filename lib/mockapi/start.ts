import type { MockApi, MockApiOptions } from './mock-api';

/**
 * Starts a mock Kubernetes API (see `MockApi`). The implementation, msw included, is loaded on first
 * use, so `import 'admission-harness'` does not pay for it.
 */
export async function startMockApi(options: MockApiOptions = {}): Promise<MockApi> {
  const { startMockApi: start } = await import('./mock-api.js');
  return start(options);
}
