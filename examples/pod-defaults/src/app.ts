import express, { type NextFunction, type Request, type Response } from 'express';
import { mutatePod } from './mutate';
import { patched, podOf, reply, requestOf, type AdmissionReview } from './review';
import { validatePod } from './validate';

/** The pod-defaults admission webhook: `POST /mutate` and `POST /validate`. */
export function createApp(): express.Express {
  const app = express();
  app.use(express.json({ limit: '1mb' }));

  app.post('/mutate', (req: Request, res: Response) => {
    const request = requestOf(req.body);
    if (!request) return void res.status(400).json({ error: 'expected an AdmissionReview with a request' });
    const pod = podOf(request);
    res.json(reply(req.body as AdmissionReview, pod ? patched(mutatePod(pod)) : { allowed: true }));
  });

  app.post('/validate', (req: Request, res: Response) => {
    const request = requestOf(req.body);
    if (!request) return void res.status(400).json({ error: 'expected an AdmissionReview with a request' });
    const pod = podOf(request);
    if (!pod) return void res.json(reply(req.body as AdmissionReview, { allowed: true }));
    const { denied, warnings } = validatePod(pod);
    res.json(
      reply(req.body as AdmissionReview, {
        allowed: !denied,
        ...(denied ? { status: { code: 403, reason: 'Forbidden', message: denied } } : {}),
        ...(warnings.length > 0 ? { warnings } : {}),
      }),
    );
  });

  app.use((_req: Request, res: Response) => void res.status(404).json({ error: 'not found' }));
  // Malformed JSON, oversized bodies: answer with the error's status instead of an HTML page.
  app.use((err: { status?: number; message?: string }, _req: Request, res: Response, _next: NextFunction) => {
    res.status(err.status ?? 500).json({ error: err.message ?? 'internal error' });
  });
  return app;
}

export const app = createApp();
export default app;
