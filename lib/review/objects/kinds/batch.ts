import type { CronJob, Job } from 'kubernetes-types/batch/v1.js';
import type { Gen } from '../faker';
import { generator, metadataOf, type WorkloadShortcuts } from '../generate';
import { isObject, objectAt, stringAt, type JsonObject } from '../json';
import { dnsLabel } from '../names';
import { jobFrom, storedOwner } from '../owner';
import type { OwnedOptions } from './pod';
import { workloadBase } from './workloads';

// What batch workloads in real clusters are called.
const TASKS = ['db-migrate', 'backup', 'report', 'cleanup', 'sync', 'reindex', 'export', 'rotate-keys'];

/** The job spec of a batch task: pods that run to completion and are retried a few times. */
function jobSpec(gen: Gen, shortcuts: WorkloadShortcuts, name: string): { spec: JsonObject; labels: JsonObject } {
  const base = workloadBase(gen, shortcuts, name);
  return {
    labels: base.app.labels,
    spec: {
      ...(gen.chance(0.4) ? { backoffLimit: gen.pick([0, 2, 3]) } : {}),
      template: { metadata: base.podMetadata, spec: { ...base.podSpec, restartPolicy: gen.pick(['OnFailure', 'Never']) } },
      ...(gen.chance(0.5) ? { ttlSecondsAfterFinished: gen.pick([300, 3600, 86400]) } : {}),
    },
  };
}

function taskName(gen: Gen): string {
  return dnsLabel(`${dnsLabel(gen.faker.word.noun(), 20)}-${gen.pick(TASKS)}`, 40);
}

/** A Job; standalone by default, or the run of a CronJob given as `owner`. */
export const job = generator<Job, WorkloadShortcuts, OwnedOptions>((gen, shortcuts, options) => {
  if (isObject(options.owner)) {
    const made = jobFrom(storedOwner(options.owner, gen), gen);
    const metadata = objectAt(made, 'metadata');
    return {
      ...made,
      metadata: {
        ...metadata,
        ...metadataOf(shortcuts, { name: String(metadata.name), namespace: stringAt(metadata, 'namespace'), labels: objectAt(metadata, 'labels') }),
      },
    };
  }
  const name = shortcuts.name ?? taskName(gen);
  const { spec, labels } = jobSpec(gen, shortcuts, name);
  return { apiVersion: 'batch/v1', kind: 'Job', metadata: metadataOf(shortcuts, { name, namespace: 'default', labels }), spec };
});

const SCHEDULES = ['*/5 * * * *', '0 * * * *', '0 3 * * *', '30 2 * * 0', '0 */6 * * *', '@hourly', '@daily'];

export const cronJob = generator<CronJob, WorkloadShortcuts>((gen, shortcuts) => {
  const name = shortcuts.name ?? taskName(gen);
  const { spec, labels } = jobSpec(gen, shortcuts, name);
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: metadataOf(shortcuts, { name, namespace: 'default', labels }),
    spec: {
      schedule: gen.pick(SCHEDULES),
      ...(gen.chance(0.3) ? { timeZone: gen.pick(['Etc/UTC', 'Europe/Berlin', 'America/New_York']) } : {}),
      ...(gen.chance(0.4) ? { concurrencyPolicy: 'Forbid' } : {}),
      jobTemplate: { metadata: { labels }, spec },
    },
  };
});
