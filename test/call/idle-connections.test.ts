// The servers the harness runs (in-process webhooks, ImagePolicyWebhook backends, stubs, the mock API) keep an idle
// kept-alive connection open until close(), as Go's net/http Server does without an IdleTimeout. Node's default
// (close after 5 s idle) made sequential calls on a loaded machine dial again, or fail with ECONNRESET when a
// request met the server's close.
import https from 'node:https';
import type { Socket } from 'node:net';
import { listenTls } from '../../lib/net/loopback-server';
import { sharedAuthority } from '../../lib/tls';

it('answers without a Keep-Alive timeout, keeping the connection for the next call until close()', async () => {
  const authority = await sharedAuthority();
  const server = await listenTls((_req, res) => res.end('{}'), await authority.issueServing({ hosts: ['localhost'] }));
  const agent = new https.Agent({ keepAlive: true });
  try {
    const get = () =>
      new Promise<{ headers: NodeJS.Dict<string | string[]>; socket: Socket }>((resolve, reject) => {
        const req = https.get({ host: server.host, port: server.port, servername: 'localhost', ca: authority.cert, agent }, (res) => {
          const socket = res.socket;
          res.resume();
          res.on('end', () => resolve({ headers: res.headers, socket }));
        });
        req.on('error', reject);
      });
    const first = await get();
    expect(first.headers.connection).toBe('keep-alive');
    // Node announces its idle timeout here (`timeout=5`); Go's server, like kube-apiserver's webhooks, announces none.
    expect(first.headers['keep-alive']).toBeUndefined();
    const second = await get();
    expect(second.socket).toBe(first.socket);
    const closed = new Promise((resolve) => first.socket.once('close', resolve));
    await server.close();
    await closed;
  } finally {
    agent.destroy();
    await server.close();
  }
});
