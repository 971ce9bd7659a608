/**
 * The same specs with `@kubernetes/client-node` 2.x, unmodified: 2.x sends through its own undici
 * dispatcher, which msw cannot intercept, so it reaches the mock API's loopback HTTPS server through the
 * kubeconfig. (On Node 20, 2.x needs undici 7: see `overrides` in package.json.)
 */
jest.mock('@kubernetes/client-node', () => jest.requireActual('@kubernetes/client-node-2'));

require('./namespace-labels.test');

it('runs the app with client-node 2.x', () => {
  expect(require('@kubernetes/client-node')).toBe(jest.requireActual('@kubernetes/client-node-2'));
  expect(jest.requireActual('@kubernetes/client-node-2')).not.toBe(jest.requireActual('@kubernetes/client-node'));
});
