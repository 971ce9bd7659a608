/**
 * Pod templates in workloads, with kube's texts: pkg/apis/apps/validation (Deployment, ReplicaSet,
 * StatefulSet, DaemonSet) and pkg/apis/batch/validation (Job, CronJob), as their strategies call them
 * on create and update. Objects are decoded, defaulted and strategy-prepared v1 JSON.
 */
import type { JsonObject } from '../../lib/kube/json';
import type { FieldError } from '../../lib/kube/status';
import { validateCreate, validateUpdate, type KindInfo } from '../../lib/registry/validation';

const texts = (errors: readonly FieldError[]): string[] => errors.map((e) => `${e.field}: ${e.body}`);
const kind = (group: string, name: string): KindInfo => ({ group, version: 'v1', kind: name, namespaced: true });
const DEPLOYMENT = kind('apps', 'Deployment');
const REPLICA_SET = kind('apps', 'ReplicaSet');
const STATEFUL_SET = kind('apps', 'StatefulSet');
const DAEMON_SET = kind('apps', 'DaemonSet');
const JOB = kind('batch', 'Job');
const CRON_JOB = kind('batch', 'CronJob');

const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

function container(extra: JsonObject = {}): JsonObject {
  return {
    name: 'app',
    image: 'nginx:1.27',
    resources: {},
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    imagePullPolicy: 'IfNotPresent',
    ...extra,
  };
}

function podSpec(extra: JsonObject = {}): JsonObject {
  return {
    containers: [container()],
    restartPolicy: 'Always',
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    securityContext: {},
    schedulerName: 'default-scheduler',
    ...extra,
  };
}

function template(labels: JsonObject | null = { app: 'web' }, spec: JsonObject = {}): JsonObject {
  return { metadata: labels === null ? {} : { labels }, spec: podSpec(spec) };
}

const STORED = { uid: 'u-1', resourceVersion: '7', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' };

function deployment(spec: JsonObject = {}, metadata: JsonObject = {}): JsonObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'ns', ...metadata },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      template: template(),
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      ...spec,
    },
  };
}

function replicaSet(spec: JsonObject = {}): JsonObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web', namespace: 'ns' },
    spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: template(), ...spec },
  };
}

function statefulSet(spec: JsonObject = {}, metadata: JsonObject = {}): JsonObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: 'ns', ...metadata },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'db' } },
      template: template({ app: 'db' }),
      serviceName: 'db',
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      revisionHistoryLimit: 10,
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      ...spec,
    },
  };
}

function daemonSet(spec: JsonObject = {}): JsonObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'ns' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: template({ app: 'agent' }),
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      revisionHistoryLimit: 10,
      ...spec,
    },
  };
}

// A Job as its strategy prepares it: the uid is set and the selector and template labels are generated from it.
const JOB_UID = '0b4f3f1e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
const JOB_LABELS = { 'batch.kubernetes.io/controller-uid': JOB_UID, 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': JOB_UID, 'job-name': 'pi' };

const JOB_STORED = { ...STORED, uid: JOB_UID };

function job(spec: JsonObject = {}, metadata: JsonObject = {}): JsonObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi', namespace: 'ns', uid: JOB_UID, labels: JOB_LABELS, ...metadata },
    spec: {
      parallelism: 1,
      completions: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      podReplacementPolicy: 'TerminatingOrFailed',
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': JOB_UID } },
      template: { metadata: { labels: JOB_LABELS }, spec: podSpec({ restartPolicy: 'Never' }) },
      ...spec,
    },
  };
}

function cronJob(spec: JsonObject = {}, metadata: JsonObject = {}): JsonObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'nightly', namespace: 'ns', ...metadata },
    spec: {
      schedule: '0 3 * * *',
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
      jobTemplate: {
        spec: {
          backoffLimit: 6,
          completionMode: 'NonIndexed',
          suspend: false,
          podReplacementPolicy: 'TerminatingOrFailed',
          template: { spec: podSpec({ restartPolicy: 'OnFailure' }) },
        },
      },
      ...spec,
    },
  };
}

describe('valid workloads', () => {
  it.each<[string, KindInfo, JsonObject]>([
    ['Deployment', DEPLOYMENT, deployment()],
    ['ReplicaSet', REPLICA_SET, replicaSet()],
    ['StatefulSet', STATEFUL_SET, statefulSet()],
    ['DaemonSet', DAEMON_SET, daemonSet()],
    ['Job', JOB, job()],
    ['CronJob', CRON_JOB, cronJob()],
    ['CronJob with a macro schedule', CRON_JOB, cronJob({ schedule: '@hourly' })],
    ['CronJob with an @every schedule', CRON_JOB, cronJob({ schedule: '@every 5m' })],
  ])('%s', (_title, k, object) => {
    expect(validateCreate(k, object)).toEqual([]);
  });
});

describe('selectors and templates', () => {
  it.each<[string, KindInfo, JsonObject, string[]]>([
    // Without a selector kube also compares the template with the "nothing" selector, which matches nothing.
    [
      'no selector',
      DEPLOYMENT,
      deployment({ selector: null }),
      ['spec.selector: Required value', 'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`'],
    ],
    ['empty selector', DEPLOYMENT, deployment({ selector: {} }), ['spec.selector: Invalid value: {}: empty selector is invalid for deployment']],
    // ReplicaSet's text says "deployment" too, as upstream's does.
    ['empty ReplicaSet selector', REPLICA_SET, replicaSet({ selector: {} }), ['spec.selector: Invalid value: {}: empty selector is invalid for deployment']],
    [
      'selector not matching the template',
      DEPLOYMENT,
      deployment({ template: template({ app: 'other', tier: 'x' }) }),
      ['spec.template.metadata.labels: Invalid value: {"app":"other","tier":"x"}: `selector` does not match template `labels`'],
    ],
    [
      'template without labels',
      DEPLOYMENT,
      deployment({ template: template(null) }),
      ['spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`'],
    ],
    [
      'an invalid selector: the template is not checked',
      DEPLOYMENT,
      deployment({ selector: { matchLabels: { 'bad key': 'x' } }, template: template({ 'bad key': 'x' }) }),
      [
        `spec.selector.matchLabels: Invalid value: "bad key": ${NAME_PART_MSG}`,
        'spec.selector: Invalid value: {"matchLabels":{"bad key":"x"}}: invalid label selector',
      ],
    ],
    [
      'StatefulSet selector mismatch',
      STATEFUL_SET,
      statefulSet({ template: template({ app: 'x' }) }),
      ['spec.template.metadata.labels: Invalid value: {"app":"x"}: `selector` does not match template `labels`'],
    ],
    [
      'template container errors carry the template path',
      DEPLOYMENT,
      deployment({ template: template(undefined, { containers: [container({ name: 'a_b' })] }) }),
      [`spec.template.spec.containers[0].name: Invalid value: "a_b": ${LABEL_MSG}`],
    ],
  ])('%s', (_title, k, object, expected) => {
    expect(texts(validateCreate(k, object))).toEqual(expected);
  });
});

describe('kind-specific spec rules', () => {
  it.each<[string, KindInfo, JsonObject, string[]]>([
    ['negative replicas', DEPLOYMENT, deployment({ replicas: -1 }), ['spec.replicas: Invalid value: -1: must be greater than or equal to 0']],
    [
      'Deployment pods must restart Always, without a deadline',
      DEPLOYMENT,
      deployment({ template: template(undefined, { restartPolicy: 'Never', activeDeadlineSeconds: 5 }) }),
      [
        'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
        'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported',
      ],
    ],
    [
      'Recreate with rollingUpdate',
      DEPLOYMENT,
      deployment({ strategy: { type: 'Recreate', rollingUpdate: { maxSurge: 1 } } }),
      ["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"],
    ],
    [
      'maxUnavailable and maxSurge both 0',
      DEPLOYMENT,
      deployment({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } }),
      ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0'],
    ],
    [
      'bad percentages',
      DEPLOYMENT,
      deployment({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '120%', maxSurge: 'abc' } } }),
      [
        "spec.strategy.rollingUpdate.maxSurge: Invalid value: \"abc\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
        'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "120%": must not be greater than 100%',
      ],
    ],
    [
      'unknown strategy type (the internal struct is printed)',
      DEPLOYMENT,
      deployment({ strategy: { type: 'Blue' } }),
      ['spec.strategy: Unsupported value: {"Type":"Blue","RollingUpdate":null}: supported values: "Recreate", "RollingUpdate"'],
    ],
    [
      'progressDeadlineSeconds not above minReadySeconds',
      DEPLOYMENT,
      deployment({ minReadySeconds: 700 }),
      ['spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds'],
    ],
    ['StatefulSet names are DNS labels', STATEFUL_SET, statefulSet({}, { name: 'db.x' }), ['metadata.name: Invalid value: "db.x": must not contain dots']],
    [
      // Upstream does not validate a StatefulSet's pod spec (only its restart policy, labels and annotations).
      'StatefulSet policies',
      STATEFUL_SET,
      statefulSet({
        podManagementPolicy: 'Any',
        updateStrategy: { type: 'Foo' },
        template: template({ app: 'db' }, { restartPolicy: 'OnFailure', containers: [container({ name: 'Bad_Name' })] }),
      }),
      [
        "spec.podManagementPolicy: Invalid value: \"Any\": must be 'OrderedReady' or 'Parallel'",
        'spec.updateStrategy: Invalid value: {"Type":"Foo","RollingUpdate":null}: must be \'RollingUpdate\' or \'OnDelete\'',
        'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
      ],
    ],
    [
      'DaemonSet restart policy and rolling update',
      DAEMON_SET,
      daemonSet({
        template: template({ app: 'agent' }, { restartPolicy: 'Never' }),
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } },
      }),
      [
        'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
        'spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
      ],
    ],
    [
      'Job pods may not restart Always',
      JOB,
      job({ template: { metadata: { labels: JOB_LABELS }, spec: podSpec({ restartPolicy: 'Always' }) } }),
      ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'],
    ],
    [
      'negative Job counts',
      JOB,
      job({ parallelism: -1, completions: -1, backoffLimit: -1, ttlSecondsAfterFinished: -1 }),
      [
        'spec.parallelism: Invalid value: -1: must be greater than or equal to 0',
        'spec.completions: Invalid value: -1: must be greater than or equal to 0',
        'spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0',
        'spec.ttlSecondsAfterFinished: Invalid value: -1: must be greater than or equal to 0',
      ],
    ],
    [
      'Indexed Job without completions',
      JOB,
      job({ completionMode: 'Indexed', completions: null }),
      ['spec.completions: Required value: when completion mode is Indexed'],
    ],
    ['completion mode', JOB, job({ completionMode: 'Foo' }), ['spec.completionMode: Unsupported value: "Foo": supported values: "NonIndexed", "Indexed"']],
    [
      'manual selector not matching the template',
      JOB,
      job({ selector: { matchLabels: { a: 'b' } }, manualSelector: true }),
      [`spec.template.metadata.labels: Invalid value: ${JSON.stringify(JOB_LABELS)}: \`selector\` does not match template \`labels\``],
    ],
    [
      'CronJob schedule out of range',
      CRON_JOB,
      cronJob({ schedule: '61 * * * *' }),
      ['spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61'],
    ],
    [
      'CronJob schedule with three fields',
      CRON_JOB,
      cronJob({ schedule: '* * *' }),
      ['spec.schedule: Invalid value: "* * *": expected exactly 5 fields, found 3: [* * *]'],
    ],
    ['CronJob without a schedule', CRON_JOB, cronJob({ schedule: '' }), ['spec.schedule: Required value']],
    [
      'CronJob schedule with TZ',
      CRON_JOB,
      cronJob({ schedule: 'TZ=UTC 0 * * * *' }),
      ['spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead'],
    ],
    [
      'CronJob unknown time zone',
      CRON_JOB,
      cronJob({ timeZone: 'Mars/Olympus' }),
      ['spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus'],
    ],
    [
      'CronJob name longer than 52',
      CRON_JOB,
      cronJob({}, { name: 'x'.repeat(53) }),
      [`metadata.name: Invalid value: "${'x'.repeat(53)}": must be no more than 52 characters`],
    ],
    [
      'CronJob policies and limits',
      CRON_JOB,
      cronJob({ concurrencyPolicy: 'Sometimes', startingDeadlineSeconds: -1, successfulJobsHistoryLimit: -1 }),
      [
        'spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0',
        'spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"',
        'spec.successfulJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
      ],
    ],
    [
      'CronJob job template restart policy',
      CRON_JOB,
      cronJob({ jobTemplate: { spec: { template: { spec: podSpec({ restartPolicy: 'Always' }) } } } }),
      ['spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'],
    ],
  ])('%s', (_title, k, object, expected) => {
    expect(texts(validateCreate(k, object))).toEqual(expected);
  });
});

describe('updates', () => {
  it('a Deployment selector is immutable (apps/v1)', () => {
    const old = deployment({}, STORED);
    const updated = deployment({ selector: { matchLabels: { app: 'web', v: '2' } }, template: template({ app: 'web', v: '2' }) }, STORED);
    expect(texts(validateUpdate(DEPLOYMENT, updated, old))).toEqual([
      'spec.selector: Invalid value: {"matchLabels":{"app":"web","v":"2"}}: field is immutable',
    ]);
  });

  it('a Deployment template may change', () => {
    const updated = deployment(
      { template: template(undefined, { containers: [container({ image: 'nginx:1.28', env: [{ name: 'A', value: 'b' }] })] }) },
      STORED,
    );
    expect(validateUpdate(DEPLOYMENT, updated, deployment({}, STORED))).toEqual([]);
  });

  it('a StatefulSet may only change some spec fields', () => {
    const updated = statefulSet({ serviceName: 'other' }, STORED);
    expect(texts(validateUpdate(STATEFUL_SET, updated, statefulSet({}, STORED)))).toEqual([
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ]);
    expect(
      validateUpdate(
        STATEFUL_SET,
        statefulSet({ replicas: 3, template: template({ app: 'db' }, { containers: [container({ image: 'db:2' })] }) }, STORED),
        statefulSet({}, STORED),
      ),
    ).toEqual([]);
  });

  it('a Job completions count is immutable', () => {
    expect(texts(validateUpdate(JOB, job({ completions: 3 }, JOB_STORED), job({}, JOB_STORED)))).toEqual([
      'spec.completions: Invalid value: 3: field is immutable',
    ]);
  });

  it('a Job selector must stay the generated one, and is immutable', () => {
    const selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': JOB_UID, x: 'y' } };
    const mismatch = `spec.template.metadata.labels: Invalid value: ${JSON.stringify(JOB_LABELS)}: \`selector\` does not match template \`labels\``;
    // The strategy runs ValidateJob, then ValidateJobUpdate, which validates the new spec again.
    expect(texts(validateUpdate(JOB, job({ selector }, JOB_STORED), job({}, JOB_STORED)))).toEqual([
      `spec.selector: Invalid value: ${JSON.stringify(selector)}: \`selector\` not auto-generated`,
      mismatch,
      mismatch,
      `spec.selector: Invalid value: ${JSON.stringify(selector)}: field is immutable`,
    ]);
  });

  it('KNOWN DIVERGENCE: a changed Job template is refused, but its value is printed from v1 JSON', () => {
    // Upstream passes the internal core.PodTemplateSpec to field.Invalid, which json.Marshal prints with the
    // internal types' Go field names and every zero member; we print the v1 JSON of the template. The field,
    // error type and detail (`field is immutable`) are kube's.
    const changed = { metadata: { labels: JOB_LABELS }, spec: podSpec({ restartPolicy: 'Never', containers: [container({ image: 'busybox:2' })] }) };
    const errors = validateUpdate(JOB, job({ template: changed }, JOB_STORED), job({}, JOB_STORED));
    expect(errors).toHaveLength(1);
    expect(errors[0]?.type).toBe('FieldValueInvalid');
    expect(errors[0]?.field).toBe('spec.template');
    expect(errors[0]?.body).toBe(`Invalid value: ${JSON.stringify(changed)}: field is immutable`);
  });
});
