#!/usr/bin/env node
/**
 * Writes `column-docs.json` beside this script: the field descriptions kube-apiserver's Table columns carry,
 * read from the installed npm packages `kubernetes-models` and `@kubernetes-models/apimachinery` (the same
 * declarations the schema table is built from, lib/registry/schema/build-table.mjs) — never typed by hand.
 *
 *   node lib/mockapi/tables/build-column-docs.mjs [--check]
 *
 * kube's printers (kubernetes pkg/printers/internalversion/printers.go, AddHandlers) describe a column with
 * `<GoType>{}.SwaggerDoc()["<field>"]`, the field's Go doc comment, which is what OpenAPI publishes as the
 * field's description and what the packages carry as each property's JSDoc. FIELDS names, per declaration file,
 * the fields the mock API's printers read; a field the packages lack fails the build.
 * `--check` exits 1 when the committed file differs from what the installed packages give.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.join(here, 'column-docs.json');
const require = createRequire(import.meta.url);

/** `<package>:<declaration path without .d.ts>` → the properties whose descriptions columns use. */
const FIELDS = {
  '@kubernetes-models/apimachinery:apis/meta/v1/ObjectMeta': ['name', 'creationTimestamp'],
  'kubernetes-models:v1/ConfigMap': ['data'],
  'kubernetes-models:v1/Secret': ['type', 'data'],
  'kubernetes-models:v1/ServiceAccount': ['secrets'],
  'kubernetes-models:v1/PodStatus': ['podIP', 'nominatedNodeName'],
  'kubernetes-models:v1/PodSpec': ['nodeName', 'readinessGates', 'nodeSelector'],
  'kubernetes-models:v1/ServiceSpec': ['type', 'clusterIP', 'externalIPs', 'ports', 'selector'],
  'kubernetes-models:v1/NodeSystemInfo': ['kubeletVersion', 'osImage', 'kernelVersion', 'containerRuntimeVersion'],
  'kubernetes-models:v1/NodeStatus': ['addresses'],
  'kubernetes-models:v1/Event': ['lastTimestamp', 'type', 'reason', 'involvedObject', 'source', 'message', 'firstTimestamp', 'count'],
  'kubernetes-models:v1/ObjectReference': ['fieldPath'],
  'kubernetes-models:v1/PersistentVolumeClaimStatus': ['phase', 'capacity', 'accessModes'],
  'kubernetes-models:v1/PersistentVolumeClaimSpec': ['volumeName', 'volumeMode'],
  'kubernetes-models:extensions/v1beta1/ReplicaSetSpec': ['replicas', 'selector'],
  'kubernetes-models:extensions/v1beta1/ReplicaSetStatus': ['replicas', 'readyReplicas'],
  'kubernetes-models:extensions/v1beta1/DaemonSetStatus': [
    'desiredNumberScheduled',
    'currentNumberScheduled',
    'numberReady',
    'updatedNumberScheduled',
    'numberAvailable',
  ],
  'kubernetes-models:extensions/v1beta1/DaemonSetSpec': ['selector'],
  'kubernetes-models:extensions/v1beta1/DeploymentStatus': ['updatedReplicas', 'availableReplicas'],
  'kubernetes-models:extensions/v1beta1/DeploymentSpec': ['selector'],
  'kubernetes-models:batch/v1/JobStatus': ['succeeded'],
  'kubernetes-models:batch/v1/JobSpec': ['selector'],
  'kubernetes-models:batch/v1beta1/CronJobSpec': ['schedule', 'timeZone', 'suspend'],
  'kubernetes-models:batch/v1beta1/CronJobStatus': ['active', 'lastScheduleTime'],
  'kubernetes-models:coordination.k8s.io/v1/LeaseSpec': ['holderIdentity'],
  'kubernetes-models:v1/ReplicationControllerSpec': ['replicas', 'selector'],
  'kubernetes-models:v1/ReplicationControllerStatus': ['replicas', 'readyReplicas'],
  'kubernetes-models:v1/PersistentVolumeSpec': ['capacity', 'accessModes', 'persistentVolumeReclaimPolicy', 'claimRef', 'volumeMode'],
  'kubernetes-models:v1/PersistentVolumeStatus': ['phase', 'reason'],
  'kubernetes-models:extensions/v1beta1/NetworkPolicySpec': ['podSelector'],
  'kubernetes-models:rbac.authorization.k8s.io/v1beta1/RoleBinding': ['roleRef'],
  'kubernetes-models:rbac.authorization.k8s.io/v1beta1/ClusterRoleBinding': ['roleRef'],
  'kubernetes-models:storage.k8s.io/v1/StorageClass': ['provisioner', 'reclaimPolicy', 'volumeBindingMode', 'allowVolumeExpansion'],
  'kubernetes-models:scheduling.k8s.io/v1/PriorityClass': ['value', 'globalDefault', 'preemptionPolicy'],
  'kubernetes-models:v1/Endpoints': ['subsets'],
  'kubernetes-models:discovery.k8s.io/v1beta1/EndpointSlice': ['addressType', 'ports', 'endpoints'],
  'kubernetes-models:apps/v1beta1/ControllerRevision': ['revision'],
  'kubernetes-models:autoscaling/v2beta1/HorizontalPodAutoscalerSpec': ['scaleTargetRef', 'metrics', 'minReplicas', 'maxReplicas'],
  'kubernetes-models:autoscaling/v2beta1/HorizontalPodAutoscalerStatus': ['currentReplicas'],
  'kubernetes-models:certificates.k8s.io/v1beta1/CertificateSigningRequestSpec': ['signerName', 'request'],
  // The packages' v1beta1 declaration predates expirationSeconds (added to v1 and v1beta1 together, same text).
  'kubernetes-models:certificates.k8s.io/v1/CertificateSigningRequestSpec': ['expirationSeconds'],
  'kubernetes-models:certificates.k8s.io/v1beta1/CertificateSigningRequestStatus': ['conditions'],
  'kubernetes-models:flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfigurationReference': ['name'],
  'kubernetes-models:flowcontrol.apiserver.k8s.io/v1/FlowSchemaSpec': ['matchingPrecedence', 'distinguisherMethod'],
  'kubernetes-models:flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfigurationSpec': ['type'],
  'kubernetes-models:flowcontrol.apiserver.k8s.io/v1/LimitedPriorityLevelConfiguration': ['nominalConcurrencyShares'],
  'kubernetes-models:flowcontrol.apiserver.k8s.io/v1/QueuingConfiguration': ['queues', 'handSize', 'queueLengthLimit'],
  'kubernetes-models:storage.k8s.io/v1/VolumeAttachmentSpec': ['attacher', 'nodeName'],
  'kubernetes-models:storage.k8s.io/v1/VolumeAttachmentSource': ['persistentVolumeName'],
  'kubernetes-models:storage.k8s.io/v1/VolumeAttachmentStatus': ['attached'],
  'kubernetes-models:storage.k8s.io/v1/CSIDriverSpec': [
    'attachRequired',
    'podInfoOnMount',
    'storageCapacity',
    'tokenRequests',
    'requiresRepublish',
    'volumeLifecycleModes',
  ],
  'kubernetes-models:storage.k8s.io/v1/CSIStorageCapacity': ['storageClassName', 'capacity'],
  // printers.go reads networking/v1beta1's, which the packages do not declare; v1 carries the same comments.
  'kubernetes-models:networking.k8s.io/v1/ServiceCIDRSpec': ['cidrs'],
  'kubernetes-models:networking.k8s.io/v1/IPAddressSpec': ['parentRef'],
};

function fail(message) {
  process.stderr.write(`build-column-docs: ${message}\n`);
  process.exit(2);
}

function packageRoot(name) {
  return path.dirname(require.resolve(`${name}/package.json`));
}

/** The JSDoc text of each property of `I<Type>` in one declaration file. */
function propertyDocs(ts, file, typeName) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const docs = new Map();
  for (const statement of source.statements) {
    if (!ts.isInterfaceDeclaration(statement) || statement.name.text !== `I${typeName}`) continue;
    for (const member of statement.members) {
      if (!ts.isPropertySignature(member) || !member.name) continue;
      const name = ts.isStringLiteral(member.name) || ts.isIdentifier(member.name) ? member.name.text : undefined;
      const doc = ts.getJSDocCommentsAndTags(member).find((node) => ts.isJSDoc(node));
      if (name !== undefined && doc) docs.set(name, ts.getTextOfJSDocComment(doc.comment) ?? '');
    }
  }
  return docs;
}

async function build() {
  const ts = (await import('typescript')).default;
  const out = {};
  for (const [key, fields] of Object.entries(FIELDS)) {
    const [pkg, declaration] = key.split(':');
    const file = path.join(packageRoot(pkg), `${declaration}.d.ts`);
    if (!fs.existsSync(file)) fail(`${pkg} has no ${declaration}.d.ts`);
    const docs = propertyDocs(ts, file, path.basename(declaration));
    out[declaration] = {};
    for (const field of fields) {
      if (!docs.has(field)) fail(`${pkg} ${declaration}: no description for ${field}`);
      out[declaration][field] = docs.get(field);
    }
  }
  return `${JSON.stringify(out, null, 2)}\n`;
}

const text = await build();
if (process.argv.includes('--check')) {
  const committed = fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '';
  if (committed !== text) {
    process.stderr.write(
      `build-column-docs: ${path.relative(process.cwd(), OUT)} is out of date: run node ${path.relative(process.cwd(), fileURLToPath(import.meta.url))}\n`,
    );
    process.exit(1);
  }
} else {
  fs.writeFileSync(OUT, text);
}
