// Per-container credentials: a container gets one token per role (agent, app agents, judge),
// each bound to the run, the container and the upstream that role may use. A token is valid
// from its container's creation until the runner revokes it (the container's run ended), and
// means nothing to any provider: the real key stays in the gateway.
import { randomBytes } from 'node:crypto';
import { GATEWAY_TOKEN_PREFIX } from '../plan/gateway.js';

export const ROLES = ['agent', 'app_agent', 'judge'] as const;
export type Role = (typeof ROLES)[number];

export interface Grant {
  runId: string;
  /** The unit the token belongs to: the task label (scenario key, with run index for pass@N). */
  container: string;
  role: Role;
  /** The upstream (provider endpoint) this token may use. */
  upstream: string;
  /** Scenario output directory (where its record goes); null without an output directory. */
  dir: string | null;
  scenario: string;
  runIndex: number | null;
  /** The scenario directory relative to the run's output directory (where --replay finds its record). */
  recordKey: string;
}

const PREFIX = GATEWAY_TOKEN_PREFIX;

/** A new gateway token: the prefix and 24 random bytes, naming nothing (the grant it opens is the gateway's). */
export const newToken = (): string => `${PREFIX}${randomBytes(24).toString('base64url')}`;

export class TokenBook {
  private readonly byToken = new Map<string, Grant>();

  issue(g: Grant): string {
    const token = newToken();
    this.byToken.set(token, g);
    return token;
  }

  /**
   * Accepts a token issued elsewhere (the runner issues tokens and hands them to an in-cluster
   * gateway, docs/gateway.md "Kubernetes"); refused unless it has the tokens' shape.
   */
  register(token: string, g: Grant): void {
    if (!token.startsWith(PREFIX) || token.length < PREFIX.length + 32) throw new Error('model gateway: not a gateway token');
    this.byToken.set(token, g);
  }

  /** The grant of a presented token; null when unknown or revoked. */
  check(presented: string | null): Grant | null {
    if (!presented || !presented.startsWith(PREFIX)) return null;
    // 192 random bits: a guess is hopeless, so a plain lookup is enough.
    return this.byToken.get(presented) ?? null;
  }

  /** Revokes every token of a container. */
  revoke(container: string): void {
    for (const [t, g] of this.byToken) if (g.container === container) this.byToken.delete(t);
  }

  get size(): number {
    return this.byToken.size;
  }
}
