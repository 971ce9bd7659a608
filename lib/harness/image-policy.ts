import { imagePolicyCapability } from '../imagepolicy';
import type { Capability } from './capability';
import type { HarnessOptions } from './options';
import type { Harness } from './types';

/**
 * ImagePolicyWebhook (`HarnessOptions.imagePolicy`, lib/imagepolicy): a plugin of h.admit's validation
 * phase, `h.imageReview` alone, its backend served and closed with the harness.
 */
export function imagePolicy(options: HarnessOptions['imagePolicy']): Capability<Pick<Harness, 'imageReview'>> {
  return {
    async start({ authority, seed, timeScale, lifecycle }) {
      const capability = await imagePolicyCapability(options, { authority, seed, timeScale });
      return {
        methods: {
          imageReview: (input) => {
            lifecycle.assertOpen();
            return capability.review(input);
          },
        },
        validationPlugins: capability.plugins,
        close: () => capability.close(),
      };
    },
  };
}
