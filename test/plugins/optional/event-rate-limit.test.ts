// EventRateLimit (plugin/pkg/admission/eventratelimit): its Configuration read from the
// AdmissionConfiguration and refused as kube-apiserver refuses to start on it, each limit type's
// buckets, the 429, refills on a clock the test steps, and what the plugin leaves uncounted.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHarness, manualClock, review, type Harness, type HarnessOptions } from '../../../lib';
import type { KubeObject } from '../../../lib/kube/admission';
import type { ManualClock } from '../../../lib/imagepolicy/clock';
import { readAdmissionConfiguration } from '../../../lib/plugins/optional/admission-configuration';
import { pluginFlags } from '../../../lib/cli/options';
import { explainCommand } from '../../../lib/cli/explain';

jest.setTimeout(60_000);

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});

type Limit = { type: string; qps?: number; burst?: number; cacheSize?: number };
const admissionConfiguration = (limits: unknown) => ({
  apiVersion: 'apiserver.config.k8s.io/v1',
  kind: 'AdmissionConfiguration',
  plugins: [{ name: 'EventRateLimit', configuration: { apiVersion: 'eventratelimit.admission.k8s.io/v1alpha1', kind: 'Configuration', limits } }],
});

async function harness(limits: Limit[], clock: ManualClock, options: Partial<HarnessOptions> = {}): Promise<Harness> {
  const h = await createHarness({
    seed: 29,
    namespaces: [{ name: 'shop' }, { name: 'blog' }],
    plugins: { enable: ['EventRateLimit'], configuration: admissionConfiguration(limits), clock },
    ...options,
  });
  harnesses.push(h);
  return h;
}

const event = (namespace: string, name = 'web', source: Record<string, string> = { component: 'kubelet', host: 'node-1' }): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: `${name}.17a`, namespace },
  involvedObject: { kind: 'Pod', namespace, name, uid: `uid-${name}`, apiVersion: 'v1' },
  reason: 'Started',
  message: 'Started container app',
  source,
  type: 'Normal',
  count: 1,
});

const tooMany = (message: string) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: `Too many requests: ${message}`,
  reason: 'TooManyRequests',
  code: 429,
});

describe('EventRateLimit: a Server limit', () => {
  it('allows burst events at once, then refuses with a 429 naming the type and the empty key; time refills the bucket at qps', async () => {
    const clock = manualClock();
    const h = await harness([{ type: 'Server', qps: 1, burst: 2 }], clock);
    expect(await h.admit(review.create(event('shop')))).toBeAllowed();
    expect(await h.admit(review.create(event('blog')))).toBeAllowed();
    const refused = await h.admit(review.create(event('shop')));
    expect(refused.status).toEqual(tooMany('limit reached on type Server for key '));
    expect(String(refused.trace)).toContain('EventRateLimit (built-in plugin): rejected');
    clock.advance(999);
    expect((await h.admit(review.create(event('shop')))).status?.code).toBe(429);
    clock.advance(1);
    expect(await h.admit(review.create(event('shop')))).toBeAllowed();
    expect((await h.admit(review.create(event('shop')))).status?.code).toBe(429);
    // A long pause refills no more than burst.
    clock.advance(60_000);
    expect(await h.admit(review.create(event('shop')))).toBeAllowed();
    expect(await h.admit(review.create(event('shop')))).toBeAllowed();
    expect((await h.admit(review.create(event('shop')))).status?.code).toBe(429);
  });
});

describe('EventRateLimit: keyed limits', () => {
  it('Namespace: one bucket per namespace, the key its name', async () => {
    const h = await harness([{ type: 'Namespace', qps: 1, burst: 1 }], manualClock());
    expect(await h.admit(review.create(event('shop')))).toBeAllowed();
    expect(await h.admit(review.create(event('blog')))).toBeAllowed();
    expect((await h.admit(review.create(event('shop')))).status).toEqual(tooMany('limit reached on type Namespace for key shop'));
    expect((await h.admit(review.create(event('blog')))).status).toEqual(tooMany('limit reached on type Namespace for key blog'));
  });

  it('User: one bucket per user name', async () => {
    const h = await harness([{ type: 'User', qps: 1, burst: 1 }], manualClock());
    const alice = { username: 'alice', groups: ['system:authenticated'] };
    expect(await h.admit(review.create(event('shop')).as(alice))).toBeAllowed();
    expect(await h.admit(review.create(event('shop')))).toBeAllowed();
    expect((await h.admit(review.create(event('blog')).as(alice))).status).toEqual(tooMany('limit reached on type User for key alice'));
    expect((await h.admit(review.create(event('shop')))).status).toEqual(tooMany('limit reached on type User for key kubernetes-admin'));
  });

  it('SourceAndObject: one bucket per source and involved object, their fields joined with nothing between', async () => {
    const h = await harness([{ type: 'SourceAndObject', qps: 1, burst: 1 }], manualClock());
    expect(await h.admit(review.create(event('shop', 'web')))).toBeAllowed();
    expect(await h.admit(review.create(event('shop', 'db')))).toBeAllowed();
    expect(await h.admit(review.create(event('shop', 'web', { component: 'scheduler' })))).toBeAllowed();
    expect((await h.admit(review.create(event('shop', 'web')))).status).toEqual(
      tooMany('limit reached on type SourceAndObject for key kubeletnode-1Podshopwebuid-webv1'),
    );
  });

  it('cacheSize: a key evicted from the LRU comes back with a full bucket', async () => {
    const h = await harness([{ type: 'Namespace', qps: 1, burst: 1, cacheSize: 1 }], manualClock());
    expect(await h.admit(review.create(event('shop')))).toBeAllowed();
    expect((await h.admit(review.create(event('shop')))).status?.code).toBe(429);
    expect(await h.admit(review.create(event('blog')))).toBeAllowed();
    expect(await h.admit(review.create(event('shop')))).toBeAllowed();
  });

  it('every limit takes its token; the refusals of several are one 429 listing each in brackets', async () => {
    const h = await harness(
      [
        { type: 'Server', qps: 1, burst: 2 },
        { type: 'Namespace', qps: 1, burst: 1 },
      ],
      manualClock(),
    );
    expect(await h.admit(review.create(event('shop')))).toBeAllowed();
    expect((await h.admit(review.create(event('shop')))).status).toEqual(tooMany('limit reached on type Namespace for key shop'));
    // The Server bucket gave its second token to the refused request: kube asks every limit.
    expect((await h.admit(review.create(event('blog')))).status).toEqual(tooMany('limit reached on type Server for key '));
    expect((await h.admit(review.create(event('shop')))).status).toEqual(
      tooMany('[limit reached on type Server for key , limit reached on type Namespace for key shop]'),
    );
  });
});

describe('EventRateLimit: what it does not count', () => {
  it('leaves other kinds, events.k8s.io Events, deletes and dry runs alone', async () => {
    const h = await harness([{ type: 'Server', qps: 1, burst: 1 }], manualClock());
    const pod: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'shop' },
      spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
    };
    const modern: KubeObject = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'web.17b', namespace: 'shop' },
      eventTime: '2026-01-01T00:00:00.000000Z',
      reportingController: 'example.com/controller',
      reportingInstance: 'controller-1',
      action: 'Started',
      reason: 'Started',
      regarding: { kind: 'Pod', namespace: 'shop', name: 'web', apiVersion: 'v1' },
      type: 'Normal',
    };
    for (let i = 0; i < 3; i++) {
      expect(await h.admit(review.create(pod))).toBeAllowed();
      expect(await h.admit(review.create(modern))).toBeAllowed();
      expect(await h.admit(review.create(event('shop')).dryRun())).toBeAllowed();
      expect(await h.admit(review.delete(event('shop')))).toBeAllowed();
    }
    expect(await h.admit(review.create(event('shop')))).toBeAllowed();
    expect((await h.admit(review.update(event('shop'), event('shop')))).status?.code).toBe(429);
  });

  it('takes no token for a request an earlier plugin refused (NamespaceLifecycle, in the mutation phase)', async () => {
    const h = await harness([{ type: 'Server', qps: 1, burst: 1 }], manualClock());
    expect((await h.admit(review.create(event('gone')))).status?.code).toBe(404);
    expect(await h.admit(review.create(event('shop')))).toBeAllowed();
  });
});

describe('EventRateLimit: its Configuration', () => {
  const read = (limits: unknown) => () => readAdmissionConfiguration(admissionConfiguration(limits));
  const at = 'plugins.configuration: plugins[0] (EventRateLimit).configuration';

  it('refuses what the plugin’s validation refuses, with its texts, as kube-apiserver refuses to start', () => {
    expect(read([])).toThrow(`${at}: couldn't init admission plugin "EventRateLimit": limits: Invalid value: []eventratelimit.Limit{}: must not be empty`);
    expect(read(undefined)).toThrow(`couldn't init admission plugin "EventRateLimit": limits: Invalid value: []eventratelimit.Limit(nil): must not be empty`);
    expect(read([{ type: 'Namespace', qps: 0, burst: 0, cacheSize: -1 }])).toThrow(
      `couldn't init admission plugin "EventRateLimit": [limits[0].burst: Invalid value: 0: must be positive, limits[0].qps: Invalid value: 0: must be positive, limits[0].cacheSize: Invalid value: -1: must not be negative]`,
    );
    expect(read([{ type: 'Server', qps: 1, burst: 1, cacheSize: -1 }])).not.toThrow();
    expect(read([{ type: 'Cluster', qps: 1, burst: 1 }])).toThrow(
      `couldn't init admission plugin "EventRateLimit": limits[0].type: Unsupported value: "Cluster": supported values: "Server", "Namespace", "User", "SourceAndObject"`,
    );
  });

  it('refuses what it cannot decode, naming the field', () => {
    expect(read([{ type: 'Server', qps: 1.5, burst: 1 }])).toThrow(`${at}.limits[0].qps: 1.5 is not a whole number (an int32)`);
    expect(read({ type: 'Server' })).toThrow(`${at}.limits: must be a list of { type, qps, burst, cacheSize }`);
    expect(() =>
      readAdmissionConfiguration({
        apiVersion: 'apiserver.config.k8s.io/v1',
        kind: 'AdmissionConfiguration',
        plugins: [{ name: 'EventRateLimit', configuration: { apiVersion: 'eventratelimit.admission.k8s.io/v1alpha1', kind: 'Configuraton', limits: [] } }],
      }),
    ).toThrow(`${at}.kind: is "Configuraton", not Configuration (did you mean "Configuration"?)`);
  });

  it('is required: enabled without one, createHarness refuses as kube-apiserver refuses to start', async () => {
    await expect(createHarness({ seed: 29, namespaces: [{ name: 'shop' }], plugins: { enable: ['EventRateLimit'] } })).rejects.toThrow(
      `plugins.configuration: couldn't init admission plugin "EventRateLimit": limits: Invalid value: []eventratelimit.Limit(nil): must not be empty`,
    );
    // A configuration without an EventRateLimit entry is no configuration for it either.
    const other = { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AdmissionConfiguration', plugins: [] };
    await expect(createHarness({ seed: 29, plugins: { enable: ['EventRateLimit'], configuration: other } })).rejects.toThrow(
      `couldn't init admission plugin "EventRateLimit"`,
    );
  });
});

describe('EventRateLimit: the clock', () => {
  it('plugins.clock and the older { admissionConfiguration, clock } form step the same buckets', async () => {
    const limits = [{ type: 'Server', qps: 1, burst: 1 }];
    const newClock = manualClock();
    const oldClock = manualClock();
    const spelled = await harness(limits, newClock);
    const wrapped = await createHarness({
      seed: 29,
      namespaces: [{ name: 'shop' }],
      plugins: { enable: ['EventRateLimit'], configuration: { admissionConfiguration: admissionConfiguration(limits), clock: oldClock } },
    });
    harnesses.push(wrapped);
    for (const [h, clock] of [
      [spelled, newClock],
      [wrapped, oldClock],
    ] as const) {
      expect(await h.admit(review.create(event('shop')))).toBeAllowed();
      expect((await h.admit(review.create(event('shop')))).status).toEqual(tooMany('limit reached on type Server for key '));
      clock.advance(1000);
      expect(await h.admit(review.create(event('shop')))).toBeAllowed();
    }
  });

  it('refuses a clock given twice, or without a configuration', async () => {
    const clock = manualClock();
    const configuration = { admissionConfiguration: admissionConfiguration([{ type: 'Server', qps: 1, burst: 1 }]), clock };
    await expect(createHarness({ seed: 29, plugins: { enable: ['EventRateLimit'], configuration, clock } })).rejects.toThrow(
      'plugins.clock is given twice (also in plugins.configuration.clock)',
    );
    await expect(createHarness({ seed: 29, plugins: { clock } })).rejects.toThrow('plugins.clock is given without plugins.configuration');
  });
});

describe('EventRateLimit in the validation phase', () => {
  it('runs before the admission policies: a request a policy then denies has spent its token, and the next is refused before any policy', async () => {
    const policy: KubeObject = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'no-events' },
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['events'] }] },
        validations: [{ expression: 'false', message: 'no events here' }],
      },
    };
    const binding: KubeObject = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'no-events' },
      spec: { policyName: 'no-events', validationActions: ['Deny'] },
    };
    const h = await harness([{ type: 'Server', qps: 1, burst: 1 }], manualClock(), { manifests: [policy, binding] as never[] });
    const denied = await h.admit(review.create(event('shop')));
    expect(denied.status).toMatchObject({
      code: 422,
      message: expect.stringContaining("ValidatingAdmissionPolicy 'no-events' with binding 'no-events' denied request"),
    });
    const limited = await h.admit(review.create(event('shop')));
    expect(limited.status).toEqual(tooMany('limit reached on type Server for key '));
    expect(String(limited.trace)).not.toContain('no-events');
  });
});

describe('EventRateLimit on the command line', () => {
  it('explain shows it taking a token for an Event create, in the validation phase after PodTolerationRestriction', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'event-rate-limit-explain-'));
    const request = {
      uid: 'u',
      kind: { group: '', version: 'v1', kind: 'Event' },
      resource: { group: '', version: 'v1', resource: 'events' },
      name: 'web.17a',
      namespace: 'shop',
      operation: 'CREATE',
      userInfo: { username: 'kubelet' },
      object: event('shop'),
    };
    writeFileSync(path.join(dir, 'review.json'), JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request }));
    const lines: string[] = [];
    const code = await explainCommand(
      {
        manifests: [path.join(__dirname, '..', '..', 'cli', 'fixtures', 'explain-webhooks.yaml')],
        review: path.join(dir, 'review.json'),
        json: false,
        enablePlugins: ['EventRateLimit', 'PodTolerationRestriction'],
      },
      (text) => lines.push(text),
    );
    expect(code).toBe(0);
    const plugins = lines
      .join('\n')
      .split('\n')
      .filter((line) => line.startsWith('  plugin ') && line.includes('(validation)'));
    const at = plugins.findIndex((line) => line.includes('EventRateLimit'));
    expect(plugins[at]).toBe(
      '  plugin EventRateLimit (validation): acts — takes a token from each limit’s bucket (server, namespace, user, source and object); an empty one refuses (429)',
    );
    expect(plugins[at - 1]).toContain('plugin PodTolerationRestriction (validation): not involved');
  });

  it('--enable-admission-plugins EventRateLimit needs its Configuration in --admission-control-config-file', () => {
    expect(() => pluginFlags({ 'enable-admission-plugins': ['EventRateLimit'] })).toThrow(
      `--admission-control-config-file: couldn't init admission plugin "EventRateLimit": limits: Invalid value: []eventratelimit.Limit(nil): must not be empty`,
    );
    const dir = mkdtempSync(path.join(tmpdir(), 'event-rate-limit-'));
    writeFileSync(
      path.join(dir, 'eventratelimit.yaml'),
      'apiVersion: eventratelimit.admission.k8s.io/v1alpha1\nkind: Configuration\nlimits:\n- type: Namespace\n  qps: 50\n  burst: 100\n  cacheSize: 2000\n',
    );
    const file = path.join(dir, 'admission.yaml');
    writeFileSync(
      file,
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: EventRateLimit\n  path: eventratelimit.yaml\n',
    );
    expect(pluginFlags({ 'enable-admission-plugins': ['EventRateLimit'], 'admission-control-config-file': file })).toEqual({
      enablePlugins: ['EventRateLimit'],
      admissionConfigFile: file,
    });
  });
});
