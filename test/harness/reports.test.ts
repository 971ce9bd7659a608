// What the harness tells a reader: explanations that print as the trace does, and a warning when a test
// calls a webhook with a request kube-apiserver would never send it.
import { createHarness, objects, review, stub, type Harness } from '../../lib';
import { configuration } from '../webhooks/manifests';

const podsOnly = { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] };
const manifests = [
  configuration('MutatingWebhookConfiguration', 'defaults', [
    { name: 'defaults.example.com', clientConfig: { url: 'https://defaults.example.com/' }, rules: [podsOnly] },
  ]),
  configuration('ValidatingWebhookConfiguration', 'policy', [
    { name: 'policy.example.com', clientConfig: { url: 'https://policy.example.com/' }, rules: [podsOnly] },
    {
      name: 'prod-only.example.com',
      clientConfig: { url: 'https://prod.example.com/' },
      rules: [podsOnly],
      namespaceSelector: { matchLabels: { env: 'prod' } },
    },
  ]),
];

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    manifests,
    stubs: { 'defaults.example.com': stub.allow(), 'policy.example.com': stub.allow(), 'prod-only.example.com': stub.allow() },
    seed: 11,
  });
});
afterAll(() => h.close());

describe('String(h.explain(review))', () => {
  it('prints as the admission trace does: the request, then each webhook in call order', () => {
    const explanations = h.explain(review.create(objects.pod({ name: 'web', namespace: 'default' })));
    expect(explanations.map((e) => e.decision)).toEqual(['called', 'called', 'skipped']);
    expect(String(explanations).split('\n')).toEqual([
      'CREATE pods default/web · seed 11',
      '├─ built-in plugins, mutation phase',
      '│  ├─ NamespaceLifecycle (built-in plugin): acts — namespace "default" exists; creating in a namespace being terminated is refused',
      "│  ├─ LimitRanger (built-in plugin): acts — gives containers the namespace's LimitRange default requests and limits (if it has any)",
      '│  ├─ ServiceAccount (built-in plugin): acts — defaults serviceAccountName, requires the account to exist, mounts the kube-api-access token volume',
      '│  ├─ Priority (built-in plugin): acts — resolves spec.priorityClassName (else the globalDefault class) into spec.priority and preemptionPolicy; an unknown class is refused',
      '│  ├─ DefaultTolerationSeconds (built-in plugin): acts — adds 300 s NoExecute tolerations of not-ready and unreachable nodes, unless the pod has them',
      "│  └─ RuntimeClass (built-in plugin): acts — a pod naming a RuntimeClass gets the class's overhead and node scheduling; an unknown class is refused",
      '├─ mutating',
      '│  └─ [0] defaults/defaults.example.com: called — rules[0] matched CREATE v1 pods; receives kind v1 Pod, resource v1 pods',
      '├─ built-in plugins, validation phase',
      "│  ├─ LimitRanger (built-in plugin): acts — checks the containers' requests and limits against the namespace's LimitRanges (min, max, ratio)",
      '│  ├─ ServiceAccount (built-in plugin): acts — the account the pod names must exist (a webhook that renames it is refused) and, if it enforces mountable secrets, the pod uses only its secrets',
      "│  ├─ PodSecurity (built-in plugin): acts — judges the pod against the namespace's Pod Security levels: enforce refuses, audit annotates, warn warns",
      "│  └─ RuntimeClass (built-in plugin): acts — refuses an unknown RuntimeClass, and a spec.overhead other than its class's",
      '├─ validating',
      '│  ├─ [0] policy/policy.example.com: called — rules[0] matched CREATE v1 pods; receives kind v1 Pod, resource v1 pods',
      expect.stringMatching(/^│ {2}└─ \[1\] policy\/prod-only\.example\.com: skipped — namespaceSelector /),
      '└─ built-in plugins after the validating webhooks',
      "   └─ ResourceQuota (built-in plugin): acts — charges the pod's count, requests and limits to the namespace's ResourceQuotas (if it has any)",
    ]);
    // The plugins are data beside the array, which stays the webhooks and policies.
    expect(explanations.plugins.map((p) => `${p.phase} ${p.name}`)).toEqual([
      'mutation NamespaceLifecycle',
      'mutation LimitRanger',
      'mutation ServiceAccount',
      'mutation Priority',
      'mutation DefaultTolerationSeconds',
      'mutation RuntimeClass',
      'validation LimitRanger',
      'validation ServiceAccount',
      'validation PodSecurity',
      'validation RuntimeClass',
      'validation ResourceQuota',
    ]);
  });

  it('leaves out the plugins a cluster runs without, and says a refusal and an empty chain so', async () => {
    const bare = await createHarness({
      seed: 11,
      plugins: {
        disable: [
          'NamespaceLifecycle',
          'LimitRanger',
          'ServiceAccount',
          'TaintNodesByCondition',
          'Priority',
          'DefaultTolerationSeconds',
          'DefaultStorageClass',
          'StorageObjectInUseProtection',
          'RuntimeClass',
          'DefaultIngressClass',
          'PodSecurity',
          'PersistentVolumeClaimResize',
          'ResourceQuota',
        ],
      },
    });
    const lifecycleOnly = await createHarness({
      seed: 11,
      plugins: {
        disable: [
          'LimitRanger',
          'ServiceAccount',
          'TaintNodesByCondition',
          'Priority',
          'DefaultTolerationSeconds',
          'DefaultStorageClass',
          'StorageObjectInUseProtection',
          'RuntimeClass',
          'DefaultIngressClass',
          'PodSecurity',
          'PersistentVolumeClaimResize',
          'ResourceQuota',
        ],
      },
    });
    try {
      expect(String(bare.explain(review.create(objects.pod({ name: 'web', namespace: 'default' }))))).toBe('CREATE pods default/web · seed 11\n└─ no webhooks');
      expect(String(lifecycleOnly.explain(review.create(objects.pod({ name: 'web', namespace: 'nowhere' }))))).toBe(
        [
          'CREATE pods nowhere/web · seed 11',
          '├─ built-in plugins, mutation phase',
          '│  └─ NamespaceLifecycle (built-in plugin): refuses — namespaces "nowhere" not found (404): the request stops here; the steps below are judged as if it existed',
          '└─ no webhooks',
        ].join('\n'),
      );
    } finally {
      await Promise.all([bare.close(), lifecycleOnly.close()]);
    }
  });
});

describe('h.call with a request the webhook’s rules or namespaceSelector never match', () => {
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

  it('warns likewise, once per namespace, for a namespace its namespaceSelector excludes', async () => {
    const prod = await createHarness({
      manifests,
      namespaces: [
        { name: 'shop', labels: { env: 'prod' } },
        { name: 'lab', labels: { env: 'dev' } },
      ],
      stubs: { 'defaults.example.com': stub.allow(), 'policy.example.com': stub.allow(), 'prod-only.example.com': stub.allow() },
      seed: 11,
    });
    try {
      expect(await prod.call('prod-only.example.com', review.create(objects.pod({ namespace: 'lab' })))).toBeAllowed();
      await prod.call('prod-only.example.com', review.create(objects.pod({ namespace: 'lab' })));
      await prod.call('prod-only.example.com', review.create(objects.pod({ namespace: 'default' })));
      expect(emitWarning.mock.calls).toEqual([
        [
          'h.call("prod-only.example.com", …): kube-apiserver would never send this request to the webhook: namespaceSelector {env=prod} did not match namespace "lab" (labels {"env":"dev","kubernetes.io/metadata.name":"lab"}); its outcome says how the webhook answers a request it is not configured for',
          { code: 'ADMISSION_HARNESS_UNMATCHED_CALL' },
        ],
        [
          'h.call("prod-only.example.com", …): kube-apiserver would never send this request to the webhook: namespaceSelector {env=prod} did not match namespace "default" (labels {"kubernetes.io/metadata.name":"default"}); its outcome says how the webhook answers a request it is not configured for',
          { code: 'ADMISSION_HARNESS_UNMATCHED_CALL' },
        ],
      ]);
    } finally {
      await prod.close();
    }
  });

  it('stays quiet for a request the rules and the namespaceSelector match, and for a namespace not declared (h.admit says that one)', async () => {
    const prod = await createHarness({
      manifests,
      namespaces: [{ name: 'shop', labels: { env: 'prod' } }],
      stubs: { 'defaults.example.com': stub.allow(), 'policy.example.com': stub.allow(), 'prod-only.example.com': stub.allow() },
      seed: 11,
    });
    try {
      await prod.call('prod-only.example.com', review.create(objects.pod({ namespace: 'shop' })));
      await prod.call('prod-only.example.com', review.create(objects.pod({ namespace: 'nowhere' })));
      await prod.call('policy.example.com', review.create(objects.pod({ namespace: 'default' })));
      expect(emitWarning).not.toHaveBeenCalled();
    } finally {
      await prod.close();
    }
  });
});
