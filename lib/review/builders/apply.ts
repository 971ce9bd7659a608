import type { KubeObject } from '../../kube/admission';
import { asAdmitted } from '../objects/admitted';
import { isUnstructured } from '../../kube/unstructured';
import type { Review } from '../review';
import { createAs } from './create';
import { strategicMergeOf } from './merge-patch';
import { updateWriter, type RequestOptions } from './options';
import { updateAs } from './update';
import { appliedFields } from './write';
import { asStored } from '../../registry/stored';

export interface ApplyOptions extends RequestOptions {
  /** The object as stored when it exists: the apply then arrives as UPDATE, else as CREATE. */
  existing?: KubeObject;
}

/**
 * `kubectl apply --server-side` of `config`, the configuration as the file has it (fieldManager
 * "kubectl" unless given): a CREATE with CreateOptions when nothing exists, an UPDATE with
 * UpdateOptions merging `config` into `existing` otherwise. Webhooks see the configuration decoded
 * with the API defaults; the manager's Apply entry owns exactly the fields the configuration sets.
 */
export function apply(config: KubeObject, options: ApplyOptions = {}): Review {
  const fields = appliedFields(config);
  const decoded = isUnstructured(config.apiVersion) ? config : (asAdmitted(config) as KubeObject);
  if (!options.existing) return createAs(decoded, options, 'apply', fields);
  const stored = asStored(options.existing);
  return updateAs(stored, strategicMergeOf(stored, decoded), options, updateWriter('apply', options), '', fields);
}
