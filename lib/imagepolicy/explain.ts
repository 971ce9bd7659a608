import type { AdmissionAttributes } from '../kube/attributes';
import { backendUrl } from './backend';
import { imagePolicySettings, pluginConfiguration, type ImagePolicySettings } from './config';
import { buildImageReview, ignoredBecause } from './image-review';
import { backendConnection } from './kubeconfig';

export { BEFORE_IMAGE_POLICY } from '../plugins/image-policy-order';

/** The plugin as `explain --image-policy-config` knows it: its settings and the backend URL of its kubeconfig. */
export interface ImagePolicyView {
  settings: ImagePolicySettings;
  url: string;
}

/** Reads the AdmissionConfiguration (or ImagePolicyWebhookConfiguration) and the kubeconfig it names. */
export function imagePolicyView(file: string): ImagePolicyView {
  const { document, source } = pluginConfiguration(file);
  const settings = imagePolicySettings(document, source);
  return { settings, url: backendUrl(backendConnection(settings.kubeConfigFile).server) };
}

/** What ImagePolicyWebhook does with a request: whether it sends an ImageReview, of which images, and what a failure does. */
export function imagePolicyInvolvement(attributes: AdmissionAttributes, view: ImagePolicyView): { involved: boolean; reason: string; refuses?: boolean } {
  const ignored = ignoredBecause(attributes);
  if (ignored) return { involved: false, reason: ignored };
  const pod = attributes.object;
  if (pod?.kind !== 'Pod')
    return { involved: true, refuses: true, reason: 'the object is no Pod: 400 Resource was marked with kind Pod but was unable to be converted' };
  const review = buildImageReview(pod, attributes.subResource, attributes.namespace);
  const images = (review.spec.containers ?? []).map((c) => c.image ?? '""');
  const which = attributes.subResource === 'ephemeralcontainers' ? 'the ephemeral containers’ images' : 'containers then initContainers';
  const annotations = Object.keys(review.spec.annotations ?? {});
  const { allowTtlMs, denyTtlMs, defaultAllow } = view.settings;
  return {
    involved: true,
    reason: [
      `sends an ImageReview (${which}: ${images.join(', ') || 'none'}${annotations.length > 0 ? `; annotations ${annotations.join(', ')}` : ''}) to ${view.url}`,
      'a denial refuses the request (403)',
      `answers cached by spec (allow ${allowTtlMs / 1000} s, deny ${denyTtlMs / 1000} s)`,
      `a backend failure ${defaultAllow ? 'admits it (defaultAllow: true, audit annotation failed-open)' : 'refuses it (defaultAllow: false)'}`,
    ].join('; '),
  };
}
