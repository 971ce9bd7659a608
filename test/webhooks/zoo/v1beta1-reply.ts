// Breaks review-version: written for old clusters, it always answers admission.k8s.io/v1beta1,
// also to the v1 reviews its manifest asks for.
import { sendJson, webhook } from './kit';

export default webhook((review, res) => {
  sendJson(res, { apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true } });
});
