// What the harness tells a reader: explanations that print as the trace does, and a warning when a test
// calls a webhook with a request kube-apiserver would never send it.
import { createHarness, objects, review, stub, type Harness } from '../../lib';
import { configuration } from '../webhooks/manifests';

const podsOnly = { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] };
const manifests = [
  configuration('MutatingWebhookConfiguration', 'defaults', [{ name: 'defaults.example.com', clientConfig: { url: 'https://defaults.example.com/' }, rules: [podsOnly] }]),
  configuration('ValidatingWebhookConfiguration', 'policy', [
    { name: 'policy.example.com', clientConfig: { url: 'https://policy.example.com/' }, rules: [podsOnly] },
    { name: 'prod-only.example.com', clientConfig: { url: 'https://prod.example.com/' }, rules: [podsOnly], namespaceSelector: { matchLabels: { env: 'prod' } } },
  ]),
];

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ manifests, stubs: { 'defaults.example.com': stub.allow(), 'policy.example.com': stub.allow(), 'prod-only.example.com': stub.allow() }, seed: 11 });
});
afterAll(() => h.close());

describe('String(h.explain(review))', () => {
  it('prints as the admission trace does: the request, then each webhook in call order', () => {
    const explanations = h.explain(review.create(objects.pod({ name: 'web', namespace: 'default' })));
    expect(explanations.map((e) => e.decision)).toEqual(['called', 'called', 'skipped']);
    expect(String(explanations).split('\n')).toEqual([
      'CREATE pods default/web · seed 11',
      '├─ mutating',
      '│  └─ [0] defaults/defaults.example.com: called — rules[0] matched CREATE v1 pods; receives kind v1 Pod, resource v1 pods',
      '└─ validating',
      '   ├─ [0] policy/policy.example.com: called — rules[0] matched CREATE v1 pods; receives kind v1 Pod, resource v1 pods',
      expect.stringMatching(/^ {3}└─ \[1\] policy\/prod-only\.example\.com: skipped — namespaceSelector /),
    ]);
  });
});

describe('h.call with a request the webhook’s rules never match', () => {
  let emitWarning: jest.SpiedFunction<typeof process.emitWarning>;
  beforeEach(() => {
    emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  });
  afterEach(() => emitWarning.mockRestore());

  it('sends it, and warns once that kube-apiserver never would', async () => {
    const configMap = review.create(objects.configMap({ namespace: 'default' }));
    expect(await h.call('policy.example.com', configMap)).toBeAllowed();
    await h.call('policy.example.com', review.create(objects.configMap({ namespace: 'default' })));
    expect(emitWarning.mock.calls).toEqual([
      [
        'h.call("policy.example.com", …): kube-apiserver would never send this request to the webhook: no rule matched CREATE v1 configmaps or any equivalent resource; its outcome says how the webhook answers a request it is not configured for',
        { code: 'ADMISSION_HARNESS_UNMATCHED_CALL' },
      ],
    ]);
  });

  it('stays quiet for a request the rules match (selectors aside)', async () => {
    await h.call('prod-only.example.com', review.create(objects.pod({ namespace: 'default' })));
    expect(emitWarning).not.toHaveBeenCalled();
  });
});
