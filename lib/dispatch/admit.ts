import type { KubeObject, Status } from '../kube/admission';
import type { JsonRecord } from '../kube/record';
import { quotaAdmit } from '../plugins/resource-quota';
import { runValidationPlugins } from '../plugins/validation-phase';
import { BEFORE_IMAGE_POLICY } from '../plugins/image-policy-order';
import { badRequest } from '../kube/status';
import { exemptionOf } from '../match/exempt';
import { isNamespaceResource } from '../kube/gvr';
import { deleteAttempts, preparedForValidation } from '../registry';
import type { AdmissionAttributes } from '../kube/attributes';
import type { DispatchContext } from './context';
import { dispatchMutating } from './mutating';
import { namespaceLifecycleRefusal } from '../plugins/namespace-lifecycle';
import type { TraceStep } from './trace';
import { dispatchValidating } from './validating';
import { dispatchValidatingPolicies } from './validating-policies';

export interface ChainResult {
  /** The object after mutation: what would be stored (null for DELETE and when rejected early). */
  object: KubeObject | null;
  rejection?: Status;
  exempt?: string;
}

/**
 * One API request through admission as kube-apiserver runs it. Most requests are admitted once; a
 * DELETE is admitted once per storage attempt (a pod's graceful deletion: k8s.io/apiserver/pkg/registry/generic/registry/store.go `Delete`), each
 * run a whole chain with fresh uids, until one is rejected.
 */
export async function admitRequest(request: AdmissionAttributes, context: DispatchContext): Promise<ChainResult> {
  await context.registry.ready();
  const attributes = context.registry.requestView(request);
  const attempts = deleteAttempts(attributes);
  if (attempts.length === 1) return runChain(attributes, context);
  let result: ChainResult = { object: null };
  for (const [i, attempt] of attempts.entries()) {
    const first = context.trace.steps.length;
    result = await runChain(attempt.attributes, context);
    const marker = { number: i + 1, of: attempts.length, step: attempt.step };
    for (const step of context.trace.steps.slice(first)) step.attempt = marker;
    if (result.rejection || result.exempt) return result;
  }
  return result;
}

/**
 * The admission chain as kube-apiserver runs it once: the mutation phase (built-in plugins and
 * mutating webhooks, with reinvocation), the storage layer's namespace check, the registry's
 * strategy and validation (a 422 here means no validating webhook is called), then the
 * ValidatingAdmissionPolicies and the validating webhooks on the object as the registry prepared it.
 */
export async function runChain(attributes: AdmissionAttributes, context: DispatchContext): Promise<ChainResult> {
  const exempt = exemptionOf(attributes);
  if (exempt) return { object: attributes.object, exempt };

  // NamespaceLifecycle, the first plugin of the mutation phase: it refuses before anyone else sees the request.
  if (context.builtins?.has('NamespaceLifecycle') && context.cluster) {
    const refused = namespaceLifecycleRefusal(attributes, (name) => context.cluster!.namespaceObject(name));
    if (refused) {
      const missing = refused.missing ? { missing: refused.missing } : {};
      context.trace.steps.push({
        phase: 'mutating',
        round: 0,
        index: -1,
        configuration: '',
        webhook: 'NamespaceLifecycle',
        plugin: true,
        decision: 'called',
        why: [],
        rejection: refused.status,
        ...missing,
      });
      return { object: attributes.object, rejection: refused.status };
    }
  }

  const admitStarted = performance.now();
  const mutated = await dispatchMutating(attributes, context);
  context.metrics.step('admit', attributes.operation, (performance.now() - admitStarted) / 1000, !!mutated.rejection);
  if (mutated.rejection) return { object: mutated.object, rejection: mutated.rejection };

  const namespaceError = namespaceMismatch(attributes, mutated.object);
  if (namespaceError) {
    context.trace.steps.push({
      phase: 'registry',
      round: 0,
      index: -1,
      configuration: '',
      webhook: 'registry',
      decision: 'called',
      why: [],
      rejection: namespaceError,
    });
    return { object: mutated.object, rejection: namespaceError };
  }

  // Validating admission runs inside the registry, after BeforeCreate/BeforeUpdate and the strategy's validation.
  // The object as the mutation phase left it: decoded and defaulted by the registry after every change.
  const prepared = preparedForValidation({ ...attributes, object: mutated.object }, context.random, { defaulted: true });
  const invalid = context.registry.validate(prepared);
  if (invalid) {
    const step: TraceStep = { phase: 'registry', round: 0, index: -1, configuration: '', webhook: 'registry', decision: 'called', why: [], rejection: invalid };
    context.trace.steps.push(step);
    return { object: mutated.object, rejection: invalid };
  }

  const validateStarted = performance.now();
  // The validation phase: the built-in plugins, ValidatingAdmissionPolicy, the validating webhooks, and
  // ResourceQuota last; the first refusal ends it.
  const rejection =
    (await validationPlugins(prepared, context)) ??
    dispatchValidatingPolicies(prepared, context) ??
    (await dispatchValidating(prepared, context)) ??
    resourceQuota(prepared, context);
  context.metrics.step('validate', attributes.operation, (performance.now() - validateStarted) / 1000, !!rejection);
  if (rejection) return { object: mutated.object, rejection };
  // What storage keeps: a custom resource loses the fields its schema lacks only now.
  return { object: mutated.object && context.registry.storedForm(attributes.kind, mutated.object) };
}

// rest.BeforeCreate/BeforeUpdate: a mutation may rename an object but not move it to another namespace.
function namespaceMismatch(attributes: AdmissionAttributes, object: KubeObject | null): Status | undefined {
  if (!object || attributes.subResource !== '' || (attributes.operation !== 'CREATE' && attributes.operation !== 'UPDATE')) return undefined;
  if (attributes.namespace === '' || isNamespaceResource(attributes.resource)) return undefined;
  const namespace = object.metadata?.namespace;
  if (namespace === undefined || namespace === '' || namespace === attributes.namespace) return undefined;
  return badRequest('the namespace of the provided object does not match the namespace sent on the request');
}

function pluginStep(context: DispatchContext, plugin: string, rejection: Status): Status {
  context.trace.steps.push({
    phase: 'validating',
    round: 0,
    index: -1,
    configuration: '',
    webhook: plugin,
    plugin: true,
    decision: 'called',
    why: [],
    rejection,
  });
  return rejection;
}

/** The validating plugins kube-apiserver runs before the configured ones (ImagePolicyWebhook). */
const BEFORE_CONFIGURED = BEFORE_IMAGE_POLICY;

/**
 * The validation phase's plugins before the policies and webhooks: the built-in ones (LimitRanger,
 * PodSecurity…) with the configured ones (ImagePolicyWebhook) in their place.
 */
async function validationPlugins(attributes: AdmissionAttributes, context: DispatchContext): Promise<Status | undefined> {
  const configured = context.configuredPlugins ?? [];
  if (configured.length === 0) return builtinValidation(attributes, context, context.builtins);
  const builtins = context.builtins ?? new Set<string>();
  const before = builtinValidation(attributes, context, new Set([...builtins].filter((name) => BEFORE_CONFIGURED.has(name))));
  if (before) return before;
  for (const plugin of configured) {
    const { status, auditAnnotations } = await plugin.validate(attributes);
    for (const [key, value] of Object.entries(auditAnnotations)) context.annotations.add(key, value);
    if (status) return pluginStep(context, plugin.name, status);
  }
  return builtinValidation(attributes, context, new Set([...builtins].filter((name) => !BEFORE_CONFIGURED.has(name))));
}

function builtinValidation(attributes: AdmissionAttributes, context: DispatchContext, enabled: ReadonlySet<string> | undefined): Status | undefined {
  if (!context.cluster || !enabled) return undefined;
  const result = runValidationPlugins(attributes, context.cluster, enabled, {
    ...(context.podSecurity ? { podSecurity: context.podSecurity } : {}),
    ...(context.pluginConfiguration ? { configuration: context.pluginConfiguration } : {}),
    ...(context.authorizer ? { authorizer: context.authorizer } : {}),
    ...(context.kindResources ? { kindResources: context.kindResources } : {}),
  });
  for (const warning of result.warnings) context.warnings.add(warning);
  for (const [key, value] of Object.entries(result.auditAnnotations)) context.annotations.add(key, value);
  return result.refusal && pluginStep(context, result.refusal.plugin, result.refusal.status);
}

/**
 * ResourceQuota, the last plugin (after the validating webhooks): the request's usage against the
 * namespace's quotas; admitted, the quotas' `status.used` is raised in the cluster as the plugin does.
 */
function resourceQuota(attributes: AdmissionAttributes, context: DispatchContext): Status | undefined {
  const cluster = context.cluster;
  if (!cluster || !context.builtins?.has('ResourceQuota') || attributes.namespace === '') return undefined;
  const quotas = cluster.list('v1', 'ResourceQuota', attributes.namespace);
  if (quotas.length === 0) return undefined;
  // The time pods past their grace period are judged against: the request's own, as storage stamped it.
  const stamped = attributes.object?.metadata?.creationTimestamp;
  const now = typeof stamped === 'string' ? new Date(stamped) : new Date(0);
  const result = quotaAdmit(
    { ...attributes, object: attributes.object as JsonRecord | null, oldObject: attributes.oldObject as JsonRecord | null },
    quotas as unknown as JsonRecord[],
    { now, cluster },
  );
  if (!result.ok) return pluginStep(context, 'ResourceQuota', result.status);
  for (const update of result.updatedUsage) {
    const quota = quotas.find((q) => q.metadata?.name === update.name);
    if (quota) cluster.put({ ...quota, status: { ...(quota.status as object), used: update.used } });
  }
  return undefined;
}
