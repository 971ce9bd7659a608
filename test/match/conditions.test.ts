import { createHarness, objects, review, stub, type Harness } from '../../lib';
import { mutating, validating } from '../dispatch/helpers';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const conditions = (...expressions: string[]) => expressions.map((expression, i) => ({ name: `c${i}`, expression }));

describe('matchConditions through the chain (k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions/matcher.go)', () => {
  it('skips kube-system pods with object.metadata.namespace != "kube-system"', async () => {
    h = await createHarness({
      seed: 1,
      manifests: [validating('v', { name: 'v.example.com', matchConditions: conditions("object.metadata.namespace != 'kube-system'") })],
      stubs: { 'v.example.com': stub.deny() },
    });
    expect(await h.admit(review.create(objects.pod({ namespace: 'kube-system' })))).toBeAllowed();
    expect(await h.admit(review.create(objects.pod({ namespace: 'default' })))).toBeDenied();
  });

  it('[error, true, true, error] with failurePolicy Fail rejects with 403 and the joined errors', async () => {
    h = await createHarness({
      seed: 1,
      manifests: [
        validating('v', {
          name: 'v.example.com',
          matchConditions: conditions('object.metadata.labels.missing == "x"', 'true', 'true', 'object.spec.nope == 1'),
        }),
      ],
      stubs: { 'v.example.com': stub.allow() },
    });
    const result = await h.admit(review.create(objects.pod({ name: 'web-1', labels: {} })));
    expect(result.status).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: `pods "web-1" is forbidden: [expression 'object.metadata.labels.missing == "x"' resulted in error: no such key: missing, expression 'object.spec.nope == 1' resulted in error: no such key: nope]`,
    });
    expect(h.stub('v.example.com').received).toHaveLength(0);
    expect(h.metrics()).toContain(
      'apiserver_admission_match_condition_evaluation_errors_total{kind="webhook",name="v.example.com",operation="CREATE",type="validating"} 1',
    );
  });

  it('[error, true, false, true, error] skips the webhook without an error', async () => {
    h = await createHarness({
      seed: 1,
      manifests: [
        mutating('m', {
          name: 'm.example.com',
          matchConditions: conditions('object.metadata.labels.missing == "x"', 'true', 'false', 'true', 'object.spec.nope == 1'),
        }),
      ],
      stubs: { 'm.example.com': stub.deny() },
    });
    const result = await h.admit(review.create(objects.pod()));
    expect(result).toBeAllowed();
    expect(result.trace.steps.find((s) => s.webhook === 'm.example.com')?.why.at(-1)).toBe('matchConditions "c2" evaluated to false');
    expect(h.metrics()).toContain(
      'apiserver_admission_match_condition_exclusions_total{kind="webhook",name="m.example.com",operation="CREATE",type="admit"} 1',
    );
  });

  it('with failurePolicy Ignore an erroring condition skips the webhook', async () => {
    h = await createHarness({
      seed: 1,
      manifests: [validating('v', { name: 'v.example.com', failurePolicy: 'Ignore', matchConditions: conditions('object.metadata.labels.missing == "x"') })],
      stubs: { 'v.example.com': stub.deny() },
    });
    expect(await h.admit(review.create(objects.pod({ labels: {} })))).toBeAllowed();
  });

  it('sees oldObject == null on CREATE and the request’s userInfo', async () => {
    h = await createHarness({
      seed: 1,
      manifests: [validating('v', { name: 'v.example.com', matchConditions: conditions('oldObject == null', "request.userInfo.username == 'alice'") })],
      stubs: { 'v.example.com': stub.deny() },
    });
    expect(await h.admit(review.create(objects.pod()).as({ username: 'alice' }))).toBeDenied();
    expect(await h.admit(review.create(objects.pod()).as({ username: 'bob' }))).toBeAllowed();
  });

  it('asks the authorizer the test programs', async () => {
    h = await createHarness({
      seed: 1,
      authorizer: ({ user, verb }) => ({ decision: user.username === 'admin' && verb === 'create' ? 'allow' : 'deny' }),
      manifests: [validating('v', { name: 'v.example.com', matchConditions: conditions("!authorizer.requestResource.check('create').allowed()") })],
      stubs: { 'v.example.com': stub.deny() },
    });
    expect(await h.admit(review.create(objects.pod()).as({ username: 'admin' }))).toBeAllowed();
    expect(await h.admit(review.create(objects.pod()).as({ username: 'mallory' }))).toBeDenied();
  });

  it('rejects a manifest whose expression does not compile, naming the webhook and condition', async () => {
    await expect(
      createHarness({
        seed: 1,
        manifests: [validating('bad', { name: 'v.example.com', matchConditions: conditions('object.metadata.name') })],
        stubs: { 'v.example.com': stub.allow() },
      }),
    ).rejects.toThrow(
      /manifests\[0\] \(ValidatingWebhookConfiguration "bad"\) webhooks\[0\]\.matchConditions\[0\]\.expression: Invalid value: "object\.metadata\.name": must evaluate to bool but got dyn/,
    );
  });
});
