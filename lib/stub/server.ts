import net, { type Socket } from 'node:net';
import type { AdmissionReview } from '../kube/admission';
import type { KeyPair } from '../tls';
import type { StubBehavior } from './behavior';
import { freePort, listenLoopback, listenTls } from '../net/loopback-server';
import { ReceivedLog } from './received-log';
import { stubReply } from './respond';

/** A stub webhook: where it listens, what it received, and how to change what it does. */
export interface StubServer {
  /** Starts its servers on first use: a suite declares many stubs and a case calls few. */
  ready(): Promise<void>;
  /** Where to connect (after `ready()`), which depends on the behavior: black hole, closed port or TLS. */
  readonly address: { host: string; port: number };
  /** Every review it received, in order. */
  readonly received: AdmissionReview[];
  behavior: StubBehavior;
  close(): Promise<void>;
}

/**
 * A stub behavior served over TLS on loopback, like a real webhook would be served. `timeScale`
 * compresses its delays as it compresses call deadlines.
 */
export function createStub(initial: StubBehavior, serving: KeyPair, timeScale: number): StubServer {
  // What a stub received is kept as bytes outside the heap and parsed when a test reads it.
  const log = new ReceivedLog();
  const received: AdmissionReview[] = [];
  const state = { behavior: initial };
  let started: Promise<Listening> | undefined;
  let listening: Listening | undefined;
  return {
    ready: async () => {
      started ??= listen(state, log, serving, timeScale);
      listening = await started;
    },
    get address() {
      if (!listening) throw new Error('stub address read before ready()');
      if (state.behavior.unreachable) return listening.hole;
      if (state.behavior.transport === 'refuse') return listening.refused;
      return listening.tls;
    },
    get received() {
      while (received.length < log.length) received.push(JSON.parse(log.text(received.length)) as AdmissionReview);
      return received;
    },
    get behavior() {
      return state.behavior;
    },
    set behavior(next: StubBehavior) {
      state.behavior = next;
    },
    close: async () => {
      if (started) await (await started).close();
    },
  };
}

interface Listening {
  tls: { host: string; port: number };
  hole: { host: string; port: number };
  refused: { host: string; port: number };
  close(): Promise<void>;
}

async function listen(state: { behavior: StubBehavior }, received: ReceivedLog, serving: KeyPair, timeScale: number): Promise<Listening> {
  const timers = new Set<NodeJS.Timeout>();
  const tls = await listenTls((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const behavior = state.behavior;
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      const text = body.toString('utf8');
      let review: AdmissionReview;
      try {
        review = JSON.parse(text) as AdmissionReview;
      } catch {
        res.writeHead(400, { 'Content-Type': 'text/plain' }).end('a stub webhook expects an AdmissionReview');
        return;
      }
      received.append(body);
      const answer = (): void => {
        const reply = stubReply(behavior, review);
        if ('close' in reply) {
          req.socket.destroy();
          return;
        }
        res.writeHead(reply.status, { 'Content-Type': reply.contentType, ...reply.headers });
        res.end(reply.body);
      };
      if (!behavior.delaySeconds) return answer();
      const timer = setTimeout(
        () => {
          timers.delete(timer);
          answer();
        },
        behavior.delaySeconds * 1000 * timeScale,
      );
      timers.add(timer);
    });
  }, serving);
  // A black hole for `unreachable`: it takes the connection and never speaks.
  const held = new Set<Socket>();
  const blackHole = net.createServer((socket) => {
    held.add(socket);
    socket.on('close', () => held.delete(socket));
  });
  const hole = await listenLoopback(blackHole);
  // A port nothing listens on, for `refuse`.
  const refused = { host: '127.0.0.1', port: await freePort() };
  return {
    tls: { host: tls.host, port: tls.port },
    hole,
    refused,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of held) socket.destroy();
      await Promise.all([tls.close(), new Promise((resolve) => blackHole.close(resolve))]);
    },
  };
}
