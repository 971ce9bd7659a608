/**
 * The POST subresources of pods: `binding` (kubernetes `pkg/registry/core/pod/storage` BindingREST: the
 * scheduler's assignment of a node) and `eviction` (EvictionREST: a delete that respects the pod's
 * PodDisruptionBudgets). Both answer a Success Status with the create handler's 201.
 */
import type { KubeObject } from '../../kube/admission';
import type { CatalogEntry } from '../../kube/catalog';
import { isObject } from '../../kube/json';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { compileSelector } from '../../kube/label-selector';
import { ApiError, badRequest, type ApiStatus } from '../../kube/status';
import type { WriteStage } from '../writes';

/** What a successful binding or eviction answers (create.go fills in the code of a Status without one). */
const SUCCESS = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } as unknown as KubeObject;

function failure(code: number, reason: string, message: string, details: Record<string, unknown>): ApiStatus {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, details, code } as ApiStatus;
}

/** BindingREST.Create: sets spec.nodeName of a pod that has none; a bound pod is a 409. */
export function bindPod(stage: WriteStage, entry: CatalogEntry, namespace: string, name: string, binding: KubeObject, dryRun: boolean): KubeObject {
  const bindingName = binding.metadata?.name ?? '';
  if (bindingName !== name) throw new ApiError(badRequest(`name in URL does not match name in Binding object`));
  const target = isObject(binding.target) ? binding.target : {};
  const node = typeof target.name === 'string' ? target.name : '';
  const pod = stage.store.get(entry, namespace, name);
  const spec = isObject(pod.spec) ? pod.spec : {};
  if (typeof spec.nodeName === 'string' && spec.nodeName !== '') {
    const message = `Operation cannot be fulfilled on pods/binding ${JSON.stringify(name)}: pod ${name} is already assigned to node ${JSON.stringify(spec.nodeName)}`;
    throw new ApiError(failure(409, 'Conflict', message, { name, kind: 'pods/binding' }));
  }
  if (!dryRun) stage.store.update(entry, namespace, name, { ...pod, spec: { ...spec, nodeName: node } });
  return SUCCESS;
}

/** The PodDisruptionBudgets of the pod's namespace that select it. */
function budgetsOf(stage: WriteStage, pod: KubeObject, namespace: string): KubeObject[] {
  const budgets = stage.store.catalog.resourceByName('policy', 'v1', 'poddisruptionbudgets');
  if (!budgets) return [];
  const labels = (pod.metadata?.labels ?? {}) as Record<string, string>;
  return stage.store.listView(budgets, namespace).filter((budget) => {
    const selector = isObject(budget.spec) ? (budget.spec.selector as LabelSelector | undefined) : undefined;
    return selector !== undefined && compileSelector(selector).matches(labels);
  });
}

/** EvictionREST.Create: deletes the pod unless a budget that selects it allows no disruption (429). */
export function evictPod(stage: WriteStage, entry: CatalogEntry, namespace: string, name: string, eviction: KubeObject, dryRun: boolean): KubeObject {
  if ((eviction.metadata?.name ?? '') !== name) throw new ApiError(badRequest('name in URL does not match name in Eviction object'));
  const pod = stage.store.get(entry, namespace, name);
  const phase = isObject(pod.status) ? pod.status.phase : undefined;
  // A pod that has finished can always go: no budget counts it.
  if (phase !== 'Succeeded' && phase !== 'Failed') {
    for (const budget of budgetsOf(stage, pod, namespace)) {
      const status = isObject(budget.status) ? budget.status : {};
      if (typeof status.disruptionsAllowed === 'number' && status.disruptionsAllowed > 0) continue;
      const cause = `The disruption budget ${budget.metadata?.name ?? ''} needs ${Number(status.desiredHealthy ?? 0)} healthy pods and has ${Number(status.currentHealthy ?? 0)} currently`;
      throw new ApiError(
        failure(429, 'TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget.", {
          causes: [{ reason: 'DisruptionBudget', message: cause }],
        }),
      );
    }
  }
  // propagateDryRun: the Eviction's own deleteOptions.dryRun (which admission may have set) makes a dry run too.
  const options = isObject(eviction.deleteOptions) ? eviction.deleteOptions : {};
  const asked = Array.isArray(options.dryRun) && options.dryRun.includes('All');
  stage.store.delete(entry, namespace, name, { dryRun: dryRun || asked });
  return SUCCESS;
}
