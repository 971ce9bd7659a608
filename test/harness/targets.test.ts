import express from 'express';
import Fastify from 'fastify';
import Koa from 'koa';
import { createHarness, HarnessError, objects, review, type InProcessApp } from '../../lib';
import type { AdmissionReview } from '../../lib/kube/admission';

const allow = (body: AdmissionReview) => ({ apiVersion: body.apiVersion, kind: 'AdmissionReview', response: { uid: body.request?.uid, allowed: true } });

function expressApp(): InProcessApp {
  const app = express();
  app.use(express.json());
  app.post('/validate', (req, res) => void res.json(allow(req.body as AdmissionReview)));
  return app;
}

function koaApp(): InProcessApp {
  const app = new Koa();
  app.use(async (ctx) => {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    ctx.body = allow(JSON.parse(Buffer.concat(chunks).toString()) as AdmissionReview);
  });
  return app;
}

function fastifyApp(): InProcessApp {
  const app = Fastify();
  app.post('/validate', async (request) => allow(request.body as AdmissionReview));
  return app;
}

describe('in-process targets', () => {
  it.each([
    ['Express', expressApp],
    ['Koa', koaApp],
    ['Fastify', fastifyApp],
  ])('serves a %s app over TLS', async (_name, make) => {
    const h = await createHarness({ target: make(), seed: 2 });
    try {
      const outcome = await h.call({ type: 'validating', path: '/validate' }, review.create(objects.pod()));
      expect(outcome).toBeAllowed();
      expect(outcome).toEchoUid();
    } finally {
      await h.close();
    }
  });

  it('rejects something that is not an app', async () => {
    await expect(createHarness({ target: { nope: true } as unknown as InProcessApp })).rejects.toThrow(HarnessError);
    await expect(createHarness({ target: { nope: true } as unknown as InProcessApp })).rejects.toMatchObject({ code: 'TARGET_INVALID' });
  });

  it('refuses calls after close() and closes idempotently', async () => {
    const h = await createHarness({ target: expressApp(), seed: 2 });
    await h.close();
    await h.close();
    await expect(h.call({ type: 'validating' }, review.create(objects.pod()))).rejects.toMatchObject({ code: 'HARNESS_CLOSED' });
  });

  it('names the webhooks it knows when asked for an unknown one', async () => {
    const h = await createHarness({ target: expressApp(), seed: 2 });
    try {
      await expect(h.call('missing.example.com', review.create(objects.pod()))).rejects.toThrow(/no webhook named "missing.example.com"/);
    } finally {
      await h.close();
    }
  });
});
