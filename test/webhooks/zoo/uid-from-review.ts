// Breaks uid-echo: copies the uid from the review's top level, where there is none, instead of
// from request.uid, so response.uid is missing.
import { sendJson, webhook } from './kit';

export default webhook((review, res) => {
  const { uid } = review as unknown as { uid?: string };
  sendJson(res, { apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid, allowed: true } });
});
