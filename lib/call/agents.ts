import https from 'node:https';
import { verifyIdentity } from './identity';

/**
 * Keep-alive agents, one per name the serving certificate is verified against. The chain is verified
 * by OpenSSL against the CA; the name is checked against the one kube-apiserver would verify, since the
 * socket goes to a loopback address instead. The check belongs to the agent: Node 22+ never keeps a
 * connection alive that was verified by a per-request checkServerIdentity.
 */
export class AgentPool {
  private readonly agents = new Map<string, https.Agent>();

  get(verifyName: string): https.Agent {
    let agent = this.agents.get(verifyName);
    if (!agent) {
      agent = new https.Agent({ keepAlive: true, checkServerIdentity: (_host, cert) => verifyIdentity(verifyName, cert) });
      this.agents.set(verifyName, agent);
    }
    return agent;
  }

  destroy(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}
