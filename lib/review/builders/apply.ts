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
import { apiDefaults } from '../../registry/defaults';

export interface ApplyOptions extends RequestOptions {
  /** The object as stored when it exists: the apply then arrives as UPDATE, else as CREATE. */
  existing?: KubeObject;
  /** Built-in admission plugins the cluster runs without, for a configuration that creates the object (see GenerateOptions). */
  plugins?: { disable?: readonly string[] };
}

/**
 * `kubectl apply --server-side` of `config`, the configuration as the file has it (fieldManager
 * "kubectl" unless given): a CREATE with CreateOptions when nothing exists, an UPDATE with
 * UpdateOptions merging `config` into `existing` otherwise. Webhooks see the configuration decoded
 * with the API defaults; the manager's Apply entry owns exactly the fields the configuration sets.
 */
export function apply(config: KubeObject, options: ApplyOptions = {}): Review {
  const fields = appliedFields(config);
  const { plugins, ...rest } = options;
  const unstructured = isUnstructured(config.apiVersion);
  if (!options.existing) return createAs(unstructured ? config : (asAdmitted(config, plugins) as KubeObject), rest, 'apply', fields);
  // An update: the create-only plugins (a pod's token volume, its tolerations) do not run; the
  // configuration is decoded with the API's defaults and merged into what is stored.
  const decoded = unstructured ? config : (apiDefaults(config) as KubeObject);
  const stored = asStored(options.existing);
  return updateAs(stored, strategicMergeOf(stored, decoded), rest, updateWriter('apply', rest), '', fields);
}
