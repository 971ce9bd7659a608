import type { JsonObject } from '../../lib/kube/json';
import * as admission from '../../lib/mockapi/tables/printers-admission';
import * as legacy from '../../lib/mockapi/tables/printers-legacy';
import * as policy from '../../lib/mockapi/tables/printers-policy';
import { cells, header, meta } from './printer-fixtures';

/*
 * kube's printers (kubernetes pkg/printers/internalversion/printers.go) for the admission configuration, access,
 * policy and storage kinds, as the mock API runs them: columns, and the cells of objects kubectl get shows.
 */

describe('admission configuration', () => {
  it('webhook configurations count their webhooks', () => {
    expect(header(admission.validatingWebhookConfigurations)).toEqual(['Name:string', 'Webhooks:integer', 'Age:string']);
    expect(cells(admission.mutatingWebhookConfigurations, { metadata: meta('m'), webhooks: [{}, {}] })).toEqual(['m', 2, '3d1h']);
  });

  it('admission policies count their rules and name their param kind; bindings name the policy and the param', () => {
    expect(header(admission.validatingAdmissionPolicies)).toEqual(['Name:string', 'Validations:integer', 'ParamKind:string', 'Age:string']);
    const policy = { metadata: meta('p'), spec: { validations: [{}], paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } } };
    expect(cells(admission.validatingAdmissionPolicies, policy)).toEqual(['p', 1, 'v1/ConfigMap', '3d1h']);
    expect(cells(admission.mutatingAdmissionPolicies, { metadata: meta('m'), spec: { mutations: [] } })).toEqual(['m', 0, '<unset>', '3d1h']);
    const binding = (paramRef?: JsonObject) =>
      cells(admission.validatingAdmissionPolicyBindings, { metadata: meta('b'), spec: { policyName: 'p', ...(paramRef ? { paramRef } : {}) } })[2];
    expect([binding(), binding({ name: 'cfg', namespace: 'ns' }), binding({ name: 'cfg' })]).toEqual(['<unset>', 'ns/cfg', '*/cfg']);
    expect(binding({ selector: { matchLabels: { a: 'b' } } })).toBe(
      '&LabelSelector{MatchLabels:map[string]string{a: b,},MatchExpressions:[]LabelSelectorRequirement{},}',
    );
  });
});

describe('access, policy and storage kinds', () => {
  it('role bindings: the role, and the wide users, groups and service accounts', () => {
    expect(header(policy.roleBindings)).toEqual(['Name:string', 'Role:string', 'Age:string', 'Users*:string', 'Groups*:string', 'ServiceAccounts*:string']);
    const binding: JsonObject = {
      metadata: meta('read'),
      roleRef: { kind: 'ClusterRole', name: 'view' },
      subjects: [
        { kind: 'User', name: 'alice' },
        { kind: 'User', name: 'bob' },
        { kind: 'Group', name: 'devs' },
        { kind: 'ServiceAccount', namespace: 'ci', name: 'runner' },
      ],
    };
    expect(cells(policy.roleBindings, binding)).toEqual(['read', 'ClusterRole/view', '3d1h', 'alice, bob', 'devs', 'ci/runner']);
    expect(policy.clusterRoleBindings.columns[3]?.description).toBe('Users in the clusterRoleBinding');
  });

  it('pod disruption budgets, network policies, ingress classes, priority classes and storage classes', () => {
    expect(cells(policy.podDisruptionBudgets, { metadata: meta('pdb'), spec: { minAvailable: '50%' }, status: { disruptionsAllowed: 1 } })).toEqual([
      'pdb',
      '50%',
      'N/A',
      1,
      '3d1h',
    ]);
    expect(cells(policy.networkPolicies, { metadata: meta('deny'), spec: { podSelector: {} } })).toEqual(['deny', '<none>', '3d1h']);
    expect(cells(policy.networkPolicies, { metadata: meta('web'), spec: { podSelector: { matchLabels: { app: 'web' } } } })[1]).toBe('app=web');
    const parameters = { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'external-lb' };
    expect(cells(policy.ingressClasses, { metadata: meta('nginx'), spec: { controller: 'example.com/ingress', parameters } })).toEqual([
      'nginx',
      'example.com/ingress',
      'IngressParameters.k8s.example.com/external-lb',
      '3d1h',
    ]);
    expect(cells(policy.priorityClasses, { metadata: meta('high'), value: 1000, globalDefault: false, preemptionPolicy: 'Never' })).toEqual([
      'high',
      1000,
      false,
      '3d1h',
      'Never',
    ]);
    const standard = { metadata: meta('standard', { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }), provisioner: 'csi.example.com' };
    expect(cells(policy.storageClasses, standard)).toEqual(['standard (default)', 'csi.example.com', 'Delete', 'Immediate', false, '3d1h']);
  });

  it('pod templates, replication controllers and persistent volumes', () => {
    const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'a', image: 'nginx' }] } };
    expect(cells(legacy.podTemplates, { metadata: meta('t'), template })).toEqual(['t', 'a', 'nginx', 'app=web']);
    const controller = { metadata: meta('rc'), spec: { replicas: 2, selector: { app: 'web' }, template }, status: { replicas: 2, readyReplicas: 1 } };
    expect(cells(legacy.replicationControllers, controller)).toEqual(['rc', 2, 2, 1, '3d1h', 'a', 'nginx', 'app=web']);
    const volume = {
      metadata: meta('pv-1'),
      spec: {
        capacity: { storage: '10Gi' },
        accessModes: ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Retain',
        claimRef: { namespace: 'team', name: 'data' },
        storageClassName: 'fast',
      },
      status: { phase: 'Bound' },
    };
    expect(cells(legacy.persistentVolumes, volume)).toEqual(['pv-1', '10Gi', 'RWO', 'Retain', 'Bound', 'team/data', 'fast', '<unset>', '', '3d1h', '<unset>']);
  });
});
