import type { WebhookEntry } from '../config/load';
import { findWebhook } from '../config/find';
import { HarnessError } from '../errors';
import { didYouMean } from '../nearest-name';
import { isAdmission, type LoadedFixture } from './fixture';

/** `configuration/name`: unambiguous even when two configurations declare the same webhook name. */
export function referenceOf(entry: WebhookEntry): string {
  return `${entry.configuration}/${entry.spec.name}`;
}

/**
 * The webhook a fixture (or the `webhook` option) names, as `findWebhook` finds it, or an error saying
 * where the name was given, the nearest spelling the manifests have and every webhook they declare.
 */
export function resolveWebhook(webhooks: readonly WebhookEntry[], reference: string, where: string): WebhookEntry {
  try {
    return findWebhook(webhooks, reference);
  } catch (error) {
    if (!(error instanceof HarnessError) || error.code !== 'WEBHOOK_NOT_FOUND') throw error;
    const known = webhooks.map(referenceOf);
    // A bare name is compared with bare names, `configuration/name` with references.
    const spellings = reference.includes('/') ? known : webhooks.map((w) => w.spec.name);
    const listed = known.length > 0 ? known.join(', ') : '(none: no manifests given)';
    throw new HarnessError(
      'WEBHOOK_NOT_FOUND',
      `${where}: no webhook ${JSON.stringify(reference)} in the manifests${didYouMean(reference, spellings)}; they declare ${listed}`,
      'correct the name, or replay with the manifests that declare it',
    );
  }
}

/** Where a fixture names webhooks, as `file: field`, and the names. */
function namedWebhooks(fixture: LoadedFixture): { where: string; reference: string }[] {
  if (isAdmission(fixture)) return (fixture.answers ?? []).map((answer, i) => ({ where: `${fixture.name}: answers[${i}].webhook`, reference: answer.webhook }));
  const named = fixture.recorded.kind === 'RecordedReview' ? fixture.recorded.webhook : undefined;
  return named === undefined ? [] : [{ where: `${fixture.name}: webhook`, reference: named }];
}

/**
 * Every webhook name of every fixture checked against the manifests before anything is replayed:
 * all the names the manifests lack are thrown together, one line each (file, document, field, the
 * nearest spelling), as a usage error.
 */
export function checkFixtureWebhooks(webhooks: readonly WebhookEntry[], fixtures: readonly LoadedFixture[]): void {
  const problems: string[] = [];
  for (const { where, reference } of fixtures.flatMap(namedWebhooks)) {
    try {
      resolveWebhook(webhooks, reference, where);
    } catch (error) {
      if (!(error instanceof HarnessError)) throw error;
      problems.push(error.message);
    }
  }
  if (problems.length === 1)
    throw new HarnessError('WEBHOOK_NOT_FOUND', problems[0] as string, 'correct the name, or replay with the manifests that declare it');
  if (problems.length > 1)
    throw new HarnessError(
      'WEBHOOK_NOT_FOUND',
      `fixtures name webhooks the manifests do not declare:\n  ${problems.join('\n  ')}`,
      'correct the names, or replay with the manifests that declare them',
    );
}
