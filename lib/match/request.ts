import type { AdmissionAttributes } from '../kube/attributes';

/**
 * What the predicates read of a request: kube-apiserver's admission.Attributes. userInfo, dryRun and
 * options are read by matchConditions' `request` variable only, so callers may leave them out.
 */
export type MatchAttributes = Omit<AdmissionAttributes, 'userInfo' | 'dryRun' | 'options'> &
  Partial<Pick<AdmissionAttributes, 'userInfo' | 'dryRun' | 'options'>>;
