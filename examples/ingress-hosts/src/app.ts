import { KubeConfig, makeInformer, NetworkingV1Api, type Informer, type ObjectCache, type V1Ingress } from '@kubernetes/client-node';
import express, { type NextFunction, type Request, type Response } from 'express';
import { hostConflict } from './hosts';

interface AdmissionRequest {
  uid: string;
  kind: { group: string; version: string; kind: string };
  operation: string;
  object?: V1Ingress | null;
}

interface AdmissionReview {
  apiVersion: string;
  kind: 'AdmissionReview';
  request?: AdmissionRequest;
}

export interface IngressHosts {
  /** The Express app: `POST /validate`. */
  app: express.Express;
  /** Resolves once the informer has listed every Ingress (its cache is synced); the webhook answers only then. */
  synced: Promise<void>;
  /** The informer itself, for specs that wait for it to see a change (`on('add' | 'update' | 'delete', …)`). */
  informer: Informer<V1Ingress> & ObjectCache<V1Ingress>;
  /** Stops the informer's watch. */
  stop(): Promise<void>;
}

/**
 * The ingress-hosts validating webhook: denies an Ingress whose host another Ingress already routes. It answers
 * from an informer's cache of every Ingress in the cluster (list, then watch), never from a call per review:
 * the way controller-runtime's default client, client-go listers or Pepr's Store serve a webhook.
 */
export function createApp(kubeConfig: KubeConfig = defaultKubeConfig()): IngressHosts {
  const networking = kubeConfig.makeApiClient(NetworkingV1Api);
  const informer = makeInformer(kubeConfig, '/apis/networking.k8s.io/v1/ingresses', () => networking.listIngressForAllNamespaces());
  // An informer that loses its watch (the API restarted, a 410) lists again by itself; any other error is
  // reported, and it starts over after a pause, as client-go's reflector backs off.
  informer.on('error', () => setTimeout(() => void informer.start().catch(() => undefined), 1000).unref());
  const synced = informer.start();

  function review(request: AdmissionRequest): { allowed: boolean; status?: { code: number; message: string } } {
    const ingress = request.object;
    if (request.kind.kind !== 'Ingress' || !ingress || (request.operation !== 'CREATE' && request.operation !== 'UPDATE')) return { allowed: true };
    const conflict = hostConflict(ingress, informer.list());
    return conflict ? { allowed: false, status: { code: 409, message: conflict } } : { allowed: true };
  }

  const app = express();
  app.use(express.json({ limit: '3mb' }));
  app.post('/validate', (req: Request, res: Response, next: NextFunction) => {
    const body = req.body as AdmissionReview;
    if (!body?.request) return void res.status(400).json({ error: 'expected an AdmissionReview with a request' });
    const request = body.request;
    synced.then(() => res.json({ apiVersion: body.apiVersion, kind: 'AdmissionReview', response: { uid: request.uid, ...review(request) } })).catch(next);
  });
  app.use((_req: Request, res: Response) => void res.status(404).json({ error: 'not found' }));
  app.use((err: { status?: number; message?: string }, _req: Request, res: Response, _next: NextFunction) => {
    const status = err.status ?? 500;
    res.status(status).json({ error: status === 500 ? 'internal error' : err.message });
  });
  return { app, synced, informer, stop: () => informer.stop() };
}

function defaultKubeConfig(): KubeConfig {
  const config = new KubeConfig();
  config.loadFromDefault();
  return config;
}
