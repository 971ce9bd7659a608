import type { RequestHandler } from 'msw';
import { setupServer } from 'msw/node';

type Server = ReturnType<typeof setupServer>;

// msw's interceptors patch process-wide globals and are shared by every setupServer: closing one server
// restores the globals under all the others. So every mock API in the process shares this one server.
let server: Server | undefined;
const registered = new Set<readonly RequestHandler[]>();

/**
 * Answers in-process requests matching `handlers` through msw until the returned function is called.
 * Requests no handler matches (the harness's calls to webhooks, anything else) go on to the network.
 */
export function intercept(handlers: readonly RequestHandler[]): () => void {
  registered.add(handlers);
  if (!server) {
    server = setupServer();
    server.listen({ onUnhandledRequest: 'bypass' });
  }
  server.resetHandlers(...[...registered].flat());
  return () => {
    if (!registered.delete(handlers) || !server) return;
    if (registered.size > 0) {
      server.resetHandlers(...[...registered].flat());
      return;
    }
    server.close();
    server = undefined;
  };
}
