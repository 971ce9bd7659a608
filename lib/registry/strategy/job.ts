import { objectAt, type JsonRecord } from '../../kube/record';
import { objectMeta } from '../defaults/meta';

/** jobStrategy.PrepareForCreate (generateSelector): the job selects its pods by its uid and labels the template with it. */
export function generateJobSelector(spec: JsonRecord, uid: string, name: string): JsonRecord {
  const template = objectAt(spec, 'template');
  const metadata = objectAt(template, 'metadata');
  const labels = {
    ...objectAt(metadata, 'labels'),
    'batch.kubernetes.io/controller-uid': uid,
    'batch.kubernetes.io/job-name': name,
    'controller-uid': uid,
    'job-name': name,
  };
  return {
    ...spec,
    selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } },
    template: { ...template, metadata: objectMeta({ ...metadata, labels }) },
  };
}
