import { loadManifestSet, type ManifestSet } from '../config/load';
import { parseManifestFiles } from '../config/parse';
import { HarnessError } from '../errors';
import type { ResourceCatalog } from '../kube/catalog';
import { refusedError } from '../config/refusal';
import { matchConditionRefusals } from '../match/conditions';
import { policyRefusals } from '../policy/prepare';

/** What the files hold, for a message: `a.yaml: Deployment "web", Service "web"`. */
function contents(files: readonly string[]): string {
  return files
    .map((file) => {
      const documents = parseManifestFiles([file]).map(({ value }) => {
        const object = (value ?? {}) as { kind?: unknown; metadata?: { name?: unknown } };
        return typeof object.kind === 'string'
          ? `${object.kind}${typeof object.metadata?.name === 'string' ? ` ${JSON.stringify(object.metadata.name)}` : ''}`
          : 'a document without kind';
      });
      return `${file}: ${documents.length > 0 ? documents.join(', ') : 'no documents'}`;
    })
    .join('; ');
}

/**
 * The manifests a command was given, validated and defaulted like the API does (their CEL not yet
 * compiled). Files with neither a webhook nor an admission policy are a usage error that says what they hold.
 */
export function readCommandManifests(
  command: string,
  files: readonly string[],
  catalog?: ResourceCatalog,
  /** The files hold something else to check (conversion webhooks): having no webhook or policy is no error. */
  otherwise = false,
): ManifestSet {
  if (files.length === 0) throw new HarnessError('USAGE', `${command} needs --manifests FILE (one or more)`);
  const set = loadManifestSet(files, catalog ? { catalog } : {});
  if (!otherwise && isEmpty(set)) throw nothingToCheck(command, files);
  return set;
}

/** No webhook and no admission policy in the set. */
export const isEmpty = (set: ManifestSet): boolean => set.webhooks.length === 0 && set.validatingPolicies.length === 0 && set.mutatingPolicies.length === 0;

/** The usage error of a command given files with nothing it checks, saying what they hold. */
export function nothingToCheck(
  command: string,
  files: readonly string[],
  alternatives = command === 'check' ? 'CustomResourceDefinitions with conversion.strategy Webhook' : '',
): HarnessError {
  return new HarnessError(
    'USAGE',
    `no MutatingWebhookConfiguration or ValidatingWebhookConfiguration with webhooks, and no admission policy, in the manifests; read ${contents(files)}`,
    `pass the files that hold the webhook configurations and policies${alternatives ? `, or ${alternatives}` : ''} (for Helm: helm template … > rendered.yaml)`,
  );
}

/**
 * The manifests a command was given, checked as a harness loads them: read as readCommandManifests
 * reads them, matchConditions and policies compiled; the objects kube-apiserver would refuse for their
 * CEL are a setup error that names them all at once.
 */
export async function loadCommandManifests(
  command: string,
  files: readonly string[],
  catalog?: ResourceCatalog,
  /** The files hold something else to check (conversion webhooks): having no webhook or policy is no error. */
  otherwise = false,
): Promise<ManifestSet> {
  const set = readCommandManifests(command, files, catalog, otherwise);
  const refusals = [...(await matchConditionRefusals(set.webhooks)), ...(await policyRefusals(set))];
  if (refusals.length > 0) throw refusedError(refusals);
  return set;
}
