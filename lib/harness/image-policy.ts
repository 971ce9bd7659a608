import { ImageReviewCoverage } from '../admission-coverage/kind-coverage';
import type { ImageReviewAnswer } from '../admission-coverage/cell';
import { imagePolicyCapability, type ImageReviewOutcome } from '../imagepolicy';
import type { Capability } from './capability';
import type { HarnessOptions } from './options';
import type { Harness } from './types';

/**
 * What the backend's answer was, for coverage: undefined when the backend was not asked (the request is
 * no review's, the pod would not decode, or the plugin's cache answered).
 */
export function imageReviewAnswer(outcome: ImageReviewOutcome): ImageReviewAnswer | undefined {
  if (!outcome.reviewed || !outcome.review || outcome.fromCache) return undefined;
  // A backend failure (an error reply, a 5xx after the retries, unreachable), whatever defaultAllow made of it.
  if (outcome.error !== undefined || outcome.failedOpen) return 'error';
  return outcome.review.status.allowed ? 'allowed' : 'denied';
}

/**
 * ImagePolicyWebhook (`HarnessOptions.imagePolicy`, lib/imagepolicy): a plugin of h.admit's validation
 * phase, `h.imageReview` alone, its backend served and closed with the harness, and the coverage of the
 * reviews it was sent (request kind × answer).
 */
export function imagePolicy(options: HarnessOptions['imagePolicy']): Capability<Pick<Harness, 'imageReview'>> {
  return {
    async start({ authority, seed, timeScale, lifecycle }) {
      let coverage: ImageReviewCoverage | undefined;
      const capability = await imagePolicyCapability(options, {
        authority,
        seed,
        timeScale,
        observe: (attributes, outcome) => {
          const answer = imageReviewAnswer(outcome);
          if (answer) coverage?.record({ operation: attributes.operation, subResource: attributes.subResource, answer });
        },
      });
      if (capability.server !== undefined) coverage = new ImageReviewCoverage(capability.server);
      return {
        methods: {
          imageReview: (input) => {
            lifecycle.assertOpen();
            return capability.review(input);
          },
        },
        validationPlugins: capability.plugins,
        ...(coverage ? { coverage: [coverage] } : {}),
        close: () => capability.close(),
      };
    },
  };
}
