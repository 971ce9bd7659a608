import { createHarness, objects, review } from '../../lib';
import { validateConfiguration } from '../../lib/config/validate';
import { HarnessError } from '../../lib/errors';
import { recorderConfiguration } from '../../lib/record';

/* The configuration that sends kube-apiserver's requests to a recorder: valid as the API validates, and harmless. */

describe('recorderConfiguration', () => {
  it('is a validating configuration that fails open, has no side effects and takes both review versions', () => {
    expect(recorderConfiguration({ url: 'https://127.0.0.1:8443/', caBundle: 'Q0E=' })).toEqual({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'admission-harness-recorder' },
      webhooks: [
        {
          name: 'recorder.admission-harness.io',
          clientConfig: { url: 'https://127.0.0.1:8443/', caBundle: 'Q0E=' },
          rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'], scope: '*' }],
          failurePolicy: 'Ignore',
          sideEffects: 'None',
          timeoutSeconds: 5,
          admissionReviewVersions: ['v1', 'v1beta1'],
        },
      ],
    });
  });

  it('passes the API validation as given and with every option', () => {
    const full = recorderConfiguration({
      name: 'record-pods',
      webhookName: 'pods.recorder.example.com',
      service: { namespace: 'tools', name: 'recorder', port: 8443, path: '/record' },
      caBundle: 'Q0E=',
      rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods', 'pods/ephemeralcontainers'] }],
      namespaceSelector: { matchLabels: { record: 'yes' } },
      objectSelector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] },
      timeoutSeconds: 2,
    });
    for (const configuration of [full, recorderConfiguration({ url: 'https://recorder.example.com/x' })]) {
      expect(validateConfiguration(configuration, false)).toEqual([]);
    }
    expect(full.webhooks?.[0]).toMatchObject({
      clientConfig: { service: { namespace: 'tools', name: 'recorder', port: 8443, path: '/record' } },
      timeoutSeconds: 2,
      failurePolicy: 'Ignore',
    });
  });

  it('loads into a harness, which would call it for every request: any resource, subresource, dryRun', async () => {
    const h = await createHarness({ target: () => undefined, manifests: [recorderConfiguration({ url: 'https://127.0.0.1:1/' })], seed: 1 });
    try {
      for (const r of [
        review.create(objects.secret({ namespace: 'default' })),
        review.exec(objects.pod({ namespace: 'default' }), ['sh']),
        review.create(objects.pod({ namespace: 'default' })).dryRun(),
      ]) {
        expect(String(h.explain(r))).toMatch(/admission-harness-recorder\/recorder\.admission-harness\.io: called — rules\[0\] matched /);
      }
    } finally {
      await h.close();
    }
  });

  it("refuses what the API would refuse, with the API's texts", () => {
    expect(() => recorderConfiguration({})).toThrow(HarnessError);
    expect(() => recorderConfiguration({ url: 'https://a/', service: { namespace: 'n', name: 's' } })).toThrow('exactly one of url and service');
    expect(() => recorderConfiguration({ url: 'http://127.0.0.1/' })).toThrow(
      `webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme`,
    );
    expect(() => recorderConfiguration({ url: 'https://a/', webhookName: 'recorder' })).toThrow('should be a domain with at least three segments');
    expect(() => recorderConfiguration({ url: 'https://a/', timeoutSeconds: 31 })).toThrow('the timeout value must be between 1 and 30 seconds');
    expect(() =>
      recorderConfiguration({ url: 'https://a/', rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*', 'pods'] }] }),
    ).toThrow("if '*/*' is present, must not specify other resources");
  });

  it("gives a copy of the rules, so changing one changes neither the defaults nor the caller's", () => {
    const rules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }];
    const configuration = recorderConfiguration({ url: 'https://a.example/', rules });
    configuration.webhooks![0]!.rules![0]!.operations!.push('DELETE');
    expect(rules[0]!.operations).toEqual(['CREATE']);
    recorderConfiguration({ url: 'https://a.example/' }).webhooks![0]!.rules![0]!.operations!.push('x');
    expect(recorderConfiguration({ url: 'https://a.example/' }).webhooks![0]!.rules![0]!.operations).toEqual(['*']);
  });
});
