import type { KubeObject } from '../kube/admission';
import { isRecord } from '../kube/json';
import { optionsObject } from '../review/builders/options';
import { isDryRun, queryBool, queryInt, queryString } from './request-uri';

/** Drops the members Go's omitempty would not write: absent values and empty strings. */
function present(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== ''));
}

/**
 * The members of Create/Update/PatchOptions that reach admission: the handlers decode the query into
 * them (endpoints/handlers create.go, update.go, patch.go), and a patch's options become UpdateOptions
 * (or CreateOptions when it creates) keeping dryRun, fieldManager and fieldValidation; `force` is dropped.
 */
function writeFields(query: URLSearchParams): Record<string, unknown> {
  return present({ fieldManager: queryString(query, 'fieldManager'), fieldValidation: queryString(query, 'fieldValidation') });
}

/** The CreateOptions of a create (also of a patch or update that created the object), in field order. */
export function createOptions(query: URLSearchParams): { options: KubeObject; dryRun: boolean } {
  const dryRun = isDryRun(query);
  return { options: optionsObject('CreateOptions', writeFields(query), dryRun), dryRun };
}

/** The UpdateOptions of an update or patch, in field order. */
export function updateOptions(query: URLSearchParams): { options: KubeObject; dryRun: boolean } {
  const dryRun = isDryRun(query);
  return { options: optionsObject('UpdateOptions', writeFields(query), dryRun), dryRun };
}

/**
 * The DeleteOptions of a delete or deletecollection. endpoints/handlers/delete.go reads them from the
 * body when there is one (which the audit logs as requestObject) and from the query otherwise, never both.
 * What the registry adds before admission (a pod's grace period, a namespace's uid precondition) is not
 * in either.
 */
export function deleteOptions(query: URLSearchParams, body: unknown): { options: KubeObject; dryRun: boolean } {
  if (isRecord(body)) {
    const { kind: _kind, apiVersion: _apiVersion, dryRun: bodyDryRun, ...fields } = body;
    const dryRun = Array.isArray(bodyDryRun) && bodyDryRun.includes('All');
    return { options: optionsObject('DeleteOptions', fields, dryRun), dryRun };
  }
  const dryRun = isDryRun(query);
  const fields = present({
    gracePeriodSeconds: queryInt(query, 'gracePeriodSeconds'),
    orphanDependents: queryBool(query, 'orphanDependents'),
    propagationPolicy: queryString(query, 'propagationPolicy'),
    ignoreStoreReadErrorWithClusterBreakingPotential: queryBool(query, 'ignoreStoreReadErrorWithClusterBreakingPotential'),
  });
  return { options: optionsObject('DeleteOptions', fields, dryRun), dryRun };
}
