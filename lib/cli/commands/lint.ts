import { defineCommand } from '../command';
import { lintCommand } from '../lint';

/** `lint`: good-practice findings for webhook configurations (lib/cli/lint.ts). */
export const lintCli = defineCommand({
  name: 'lint',
  help: `lint     good-practice findings for webhook configurations (exit 1 on an error finding)
           --manifests FILE... [--json]`,
  options: { manifests: { type: 'string', multiple: true }, json: { type: 'boolean', default: false } },
  run(values, _positionals, out) {
    return lintCommand({ manifests: values.manifests ?? [], json: values.json === true }, out);
  },
});
