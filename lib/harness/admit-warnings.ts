import type { TraceStep } from '../dispatch/trace';

/**
 * Process warnings for what a test forgot to put in the mock cluster, read from h.admit's trace, each
 * said once and naming the fix: kube-apiserver's refusal is right, the test's setup is what is wrong.
 */
export function admissionSetupWarnings(): (steps: readonly TraceStep[]) => void {
  // A test that forgot to declare its namespace meets NamespaceLifecycle's 404, as in a cluster: said
  // once per namespace, as a process warning naming the fix.
  const undeclared = new Set<string>();
  const warnIfUndeclaredNamespace = (steps: readonly TraceStep[]): void => {
    const namespace = steps.find((step) => step.plugin && step.webhook === 'NamespaceLifecycle' && step.missing?.kind === 'Namespace')?.missing?.name;
    if (namespace === undefined || undeclared.has(namespace)) return;
    undeclared.add(namespace);
    process.emitWarning(
      `h.admit: the namespace ${JSON.stringify(namespace)} does not exist in the mock cluster, so NamespaceLifecycle answers 404 as kube-apiserver would; declare it with createHarness({ namespaces: [{ name: ${JSON.stringify(namespace)} }] })`,
      { code: 'ADMISSION_HARNESS_UNDECLARED_NAMESPACE' },
    );
  };

  // Likewise a pod naming a ServiceAccount the test did not seed meets the ServiceAccount plugin's 403.
  // Only the plugin's first look (round 0) is the test's doing: later ones follow a webhook's rename.
  const missingAccounts = new Set<string>();
  const warnIfMissingServiceAccount = (steps: readonly TraceStep[]): void => {
    const missing = steps.find(
      (step) => step.plugin && step.webhook === 'ServiceAccount' && step.phase === 'mutating' && step.round === 0 && step.missing?.kind === 'ServiceAccount',
    )?.missing;
    if (!missing || missingAccounts.has(`${missing.namespace}/${missing.name}`)) return;
    missingAccounts.add(`${missing.namespace}/${missing.name}`);
    const account = `{ apiVersion: "v1", kind: "ServiceAccount", metadata: { name: ${JSON.stringify(missing.name)}, namespace: ${JSON.stringify(missing.namespace)} } }`;
    process.emitWarning(
      `h.admit: the ServiceAccount ${missing.namespace}/${missing.name} does not exist in the mock cluster (only each namespace's "default" does), so the ServiceAccount plugin refuses the pod as kube-apiserver would; seed it with createHarness({ objects: [${account}] })`,
      { code: 'ADMISSION_HARNESS_MISSING_SERVICE_ACCOUNT' },
    );
  };

  return (steps) => {
    warnIfUndeclaredNamespace(steps);
    warnIfMissingServiceAccount(steps);
  };
}
