import type { Gen } from './faker';

/** `text` made into an RFC 1123 label of at most `max` characters (`fallback` when nothing is left). */
export function dnsLabel(text: string, max = 63, fallback = 'app'): string {
  const cleaned = text
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .slice(0, max)
    .replace(/^-+|-+$/g, '');
  return cleaned || fallback;
}

// The parts of a workload's name that say what it does, as real clusters name them.
const COMPONENTS = ['api', 'web', 'worker', 'gateway', 'frontend', 'backend', 'consumer', 'scheduler', 'sync', 'proxy', 'exporter', 'service'];

/** An application name such as `invoice-api` or `orbit-worker`: a Faker noun plus what it does. */
export function appName(gen: Gen): string {
  const noun = dnsLabel(gen.faker.word.noun(), 12);
  return dnsLabel(`${noun}-${gen.pick(COMPONENTS)}`, 40);
}

/** A team-like namespace name, e.g. `payments-prod`. */
export function namespaceName(gen: Gen): string {
  const team = dnsLabel(gen.faker.commerce.department(), 20);
  return dnsLabel(`${team}-${gen.pick(['prod', 'staging', 'dev', 'qa', 'sandbox'])}`, 40);
}

/** `base` plus `-suffix`, cut so the whole stays a label of at most 63 characters. */
export function withSuffix(base: string, suffix: string): string {
  return `${base.slice(0, 62 - suffix.length).replace(/-+$/, '')}-${suffix}`;
}
