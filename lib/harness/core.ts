import type { AgentPool } from '../call/agents';
import type { WebhookEntry } from '../config/load';
import type { ResourceCatalog } from '../kube/catalog';
import type { SeededRandom } from '../random';
import type { Registry } from '../registry';
import type { Targets } from '../target/targets';
import type { CertificateAuthority } from '../tls';
import type { MockCluster } from './cluster';
import type { Lifecycle } from './lifecycle';
import type { HarnessOptions } from './options';

/** What every capability of a harness shares once its targets serve: the cluster, the transport, the clock, the seed. */
export interface HarnessCore {
  readonly options: HarnessOptions;
  readonly seed: number;
  /** Draws every generated value (uids, storage's names and timestamps) from the seed, in call order. */
  readonly random: SeededRandom;
  /** Real time per configured second. */
  readonly timeScale: number;
  readonly authority: CertificateAuthority;
  readonly catalog: ResourceCatalog;
  readonly registry: Registry;
  /** The webhooks of the manifests. */
  readonly webhooks: readonly WebhookEntry[];
  readonly cluster: MockCluster;
  /** Where each webhook is served (target, stubs) and how to reach it. */
  readonly targets: Targets;
  /** Keep-alive connections to the targets, shared by every kind of webhook call. */
  readonly agents: AgentPool;
  readonly lifecycle: Lifecycle;
}
