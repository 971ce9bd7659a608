import { defineCommand } from '../command';
import { explainCommand } from '../explain';
import { disabledPlugins, PLUGIN_OPTIONS, pluginFlags } from '../options';

/** `explain`: one request's way through admission (lib/cli/explain.ts). */
export const explainCli = defineCommand({
  name: 'explain',
  help: `explain  a request's way through admission, in order (built-in plugins, policies, webhooks), and why
           --manifests FILE... --review FILE [--namespaces FILE] [--json] [--disable-admission-plugins NAME,...]
           [--enable-admission-plugins NAME,...] [--admission-control-config-file FILE]
           --review FILE: one AdmissionReview (or its request), YAML or JSON, as \`review\` prints it; for an
           object alone make one first: admission-harness review pods CREATE --object pod.yaml > review.json
           --namespaces FILE: the cluster's namespaces and their labels, for namespaceSelectors: Namespace
           objects (or a NamespaceList), or entries \`- name: shop\` with \`labels: {team: shop}\`, YAML or JSON
           --disable-admission-plugins: built-in plugins the cluster runs without, shown as disabled
           --enable-admission-plugins: off-by-default plugins the cluster runs too, shown in their place
           --image-policy-config FILE: ImagePolicyWebhook on (its AdmissionConfiguration), shown in its place`,
  options: {
    manifests: { type: 'string', multiple: true },
    review: { type: 'string' },
    namespaces: { type: 'string' },
    json: { type: 'boolean', default: false },
    ...PLUGIN_OPTIONS,
    'image-policy-config': { type: 'string' },
  },
  run(values, _positionals, out) {
    const disabled = disabledPlugins(values);
    return explainCommand(
      {
        manifests: values.manifests ?? [],
        review: values.review ?? '',
        ...(values.namespaces ? { namespaces: values.namespaces } : {}),
        json: values.json === true,
        ...(disabled.length > 0 ? { disablePlugins: disabled } : {}),
        ...pluginFlags(values),
        ...(values['image-policy-config'] ? { imagePolicyConfig: values['image-policy-config'] } : {}),
      },
      out,
    );
  },
});
