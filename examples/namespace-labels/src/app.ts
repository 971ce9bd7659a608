import { CoreV1Api, KubeConfig, type CoreV1Event } from '@kubernetes/client-node';
import express, { type NextFunction, type Request, type Response } from 'express';
import { apiFailure, withDeadline } from './kube';
import { missingOwner } from './owner';

interface AdmissionRequest {
  uid: string;
  kind: { group: string; version: string; kind: string };
  operation: string;
  name?: string;
  namespace?: string;
  object?: { metadata?: { name?: string; generateName?: string } } | null;
  dryRun?: boolean;
}

interface AdmissionReview {
  apiVersion: string;
  kind: 'AdmissionReview';
  request?: AdmissionRequest;
}

export interface AppOptions {
  /** How to reach the API; `loadFromDefault()` (KUBECONFIG, ~/.kube/config, or in-cluster) when omitted. */
  kubeConfig?: KubeConfig;
  /**
   * How long each API call may take. Keep it well under the webhook's timeoutSeconds, so the webhook still
   * answers (here: denies) when the API is slow; `Infinity` waits for as long as the API takes.
   */
  apiTimeoutMs?: number;
}

/** The namespace-owner validating webhook: `POST /validate` denies pods in namespaces without an owner label. */
export function createApp(options: AppOptions = {}): express.Express {
  const kubeConfig = options.kubeConfig ?? defaultKubeConfig();
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const apiTimeoutMs = options.apiTimeoutMs ?? 1000;

  /** Records the denial on the pod's namespace, as `kubectl get events` shows it. Best effort: a failure only loses the event. */
  async function recordDenial(request: AdmissionRequest, message: string): Promise<void> {
    const namespace = request.namespace ?? 'default';
    const pod = request.object?.metadata?.name ?? request.object?.metadata?.generateName ?? '';
    const event: CoreV1Event = {
      metadata: { generateName: 'namespace-owner-', namespace },
      involvedObject: { apiVersion: 'v1', kind: 'Pod', namespace, name: pod },
      reason: 'MissingOwner',
      message,
      type: 'Warning',
      source: { component: 'namespace-owner-webhook' },
    };
    await withDeadline(apiTimeoutMs, (o) => core.createNamespacedEvent({ namespace, body: event }, o)).catch(() => undefined);
  }

  async function review(request: AdmissionRequest): Promise<{ allowed: boolean; status?: { code: number; message: string } }> {
    if (request.kind.kind !== 'Pod' || request.operation !== 'CREATE' || !request.namespace) return { allowed: true };
    const name = request.namespace;
    let denial: string | undefined;
    try {
      denial = missingOwner(await withDeadline(apiTimeoutMs, (o) => core.readNamespace({ name }, o)));
    } catch (error) {
      // Fail closed, but answer: kube-apiserver would otherwise report a timeout without our reason.
      return { allowed: false, status: { code: 503, message: `cannot check namespace "${name}": ${apiFailure(error)}` } };
    }
    if (!denial) return { allowed: true };
    // sideEffects: NoneOnDryRun — a dry run must leave the cluster as it was.
    if (!request.dryRun) await recordDenial(request, denial);
    return { allowed: false, status: { code: 403, message: denial } };
  }

  const app = express();
  app.use(express.json({ limit: '1mb' }));
  app.post('/validate', (req: Request, res: Response, next: NextFunction) => {
    const body = req.body as AdmissionReview;
    if (!body?.request) return void res.status(400).json({ error: 'expected an AdmissionReview with a request' });
    const request = body.request;
    review(request)
      .then((response) => res.json({ apiVersion: body.apiVersion, kind: 'AdmissionReview', response: { uid: request.uid, ...response } }))
      .catch(next);
  });
  app.use((_req: Request, res: Response) => void res.status(404).json({ error: 'not found' }));
  app.use((err: { status?: number; message?: string }, _req: Request, res: Response, _next: NextFunction) => {
    res.status(err.status ?? 500).json({ error: err.message ?? 'internal error' });
  });
  return app;
}

function defaultKubeConfig(): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromDefault();
  return kubeConfig;
}
