import { HarnessError } from '../../errors';
import { defineCommand } from '../command';
import { seedOf } from '../options';
import { reviewCommand, reviewFromAuditCommand } from '../review';

/** `review`: one AdmissionReview as kube-apiserver would send it, or those of an audit log (lib/cli/review.ts). */
export const reviewCli = defineCommand({
  name: 'review',
  help: `review   print one AdmissionReview as kube-apiserver would send it
           <resource>[/<subresource>] <operation> [--namespace NS] [--name NAME] [--dry-run]
           [--version v1|v1beta1] [--seed N] [--uid UID] [--user NAME --group G...]
           [--object FILE] [--old-object FILE] [--crd FILE] [--out DIR]
           --out DIR: write it as a RecordedAdmission fixture for replay (kubectl get -o yaml output as --object)
           --from-audit AUDIT.LOG [--out DIR] [--crd FILE]: the reviews kube-apiserver would have sent for the
           requests of an audit log (level Request or RequestResponse), as fixture files (or YAML on stdout)`,
  options: {
    namespace: { type: 'string' },
    name: { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
    version: { type: 'string', default: 'v1' },
    seed: { type: 'string', default: '1' },
    uid: { type: 'string' },
    user: { type: 'string' },
    group: { type: 'string', multiple: true },
    object: { type: 'string' },
    'old-object': { type: 'string' },
    crd: { type: 'string' },
    'from-audit': { type: 'string' },
    out: { type: 'string' },
  },
  positionals: true,
  run(values, positionals, out) {
    if (values['from-audit']) {
      if (positionals.length > 0)
        throw new HarnessError(
          'USAGE',
          'review --from-audit takes no <resource> <operation>: the audit log names them',
          'admission-harness review --from-audit audit.log [--out DIR]',
        );
      return reviewFromAuditCommand(
        { audit: values['from-audit'], ...(values.out ? { outDir: values.out } : {}), ...(values.crd ? { crd: values.crd } : {}) },
        out,
      );
    }
    const [target, operation] = positionals;
    if (!target || !operation || positionals.length > 2)
      throw new HarnessError('USAGE', 'review takes <resource>[/<subresource>] <operation>', 'e.g. admission-harness review pods/exec CONNECT');
    const seed = seedOf(values.seed ?? '1');
    return reviewCommand(
      {
        target,
        operation,
        ...(values.namespace ? { namespace: values.namespace } : {}),
        ...(values.name ? { name: values.name } : {}),
        dryRun: values['dry-run'] === true,
        version: values.version ?? 'v1',
        seed,
        ...(values.uid ? { uid: values.uid } : {}),
        ...(values.out ? { outDir: values.out } : {}),
        ...(values.user ? { user: values.user } : {}),
        groups: values.group ?? [],
        ...(values.object ? { object: values.object } : {}),
        ...(values['old-object'] ? { oldObject: values['old-object'] } : {}),
        ...(values.crd ? { crd: values.crd } : {}),
      },
      out,
    );
  },
});
