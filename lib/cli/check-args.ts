import type { TargetArgs } from './target';

/** The options of `admission-harness check`, which check-conversion.ts and check-image-policy.ts read too. */
export interface CheckArgs extends TargetArgs {
  manifests: string[];
  /** `i/n`: run the i-th of n deterministic parts of the scenarios. */
  shard?: string;
  seed?: number;
  json: boolean;
  junit?: string;
  only?: string[];
  /** Every check but these. */
  skip?: string[];
  failFast: boolean;
  /** Show patches' base64 as received too, not only decoded. */
  verbose?: boolean;
  /** Real time per configured second, for webhook timeouts and every delay the harness controls. */
  timeScale?: number;
  /** Scenarios in flight at once. */
  concurrency?: number;
  /** Built-in admission plugins the cluster runs without (`--disable-admission-plugins`). */
  disablePlugins?: string[];
  /** Off-by-default plugins the cluster runs too (`--enable-admission-plugins`). */
  enablePlugins?: string[];
  /** Their AdmissionConfiguration (`--admission-control-config-file`). */
  admissionConfigFile?: string;
  /** Exit 1 when a webhook's admission coverage is below this percentage. */
  coverageThreshold?: number;
  /** Write the report as one self-contained HTML file here too. */
  html?: string;
  /** Serve the webhook a mock Kubernetes API (`--mock-api`): a command target gets its KUBECONFIG. */
  mockApi?: boolean;
  /** Check an ImagePolicyWebhook backend instead: the AdmissionConfiguration (or ImagePolicyWebhookConfiguration). */
  imagePolicyConfig?: string;
}
