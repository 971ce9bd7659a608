/**
 * What a built-in plugin says of a request before it reads the cluster: whether it acts on it and, in a
 * short phrase, what it does or why it is not involved. Each plugin states this once, next to its code;
 * its admission code takes `involved` as its entry test and `explain` shows the phrase.
 */

/** Where in kube-apiserver's chain a plugin step runs. */
export type AdmissionPhase = 'mutation' | 'validation';

/** Whether a plugin handles a request, and in a short phrase what it does to it or why it is not involved. */
export interface Involvement {
  involved: boolean;
  reason: string;
  /** The attributes alone make the plugin refuse: nothing after it sees the request. */
  refuses?: boolean;
}

/** What a plugin's involvement may know of the cluster besides the request. */
export interface InvolvementContext {
  /** Whether a namespace exists; without it NamespaceLifecycle is judged as if it did. */
  namespaceExists?: (name: string) => boolean;
}

export const acts = (reason: string): Involvement => ({ involved: true, reason });
export const notInvolved = (reason: string): Involvement => ({ involved: false, reason });
