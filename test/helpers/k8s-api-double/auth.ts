// Authentication (bearer tokens from the kubeconfig) and an RBAC-lite: every token may do
// everything except the verb/resource pairs a test denies it, so a test can reproduce
// "the runner's ServiceAccount lacks `delete pods`" without writing Roles. Also counts
// requests by verb and resource for the scale bench.
import { forbidden, unauthorized } from './status.js';

export interface Attributes { verb: string; resource: string; namespace: string; name?: string }

export class Auth {
  /** token → user name */
  private readonly users = new Map<string, string>();
  /** user → denied "verb resource" pairs ("*" matches any verb or resource) */
  private readonly denied = new Map<string, Set<string>>();
  readonly requests = new Map<string, number>();

  constructor(tokens: Record<string, string>) {
    for (const [t, u] of Object.entries(tokens)) this.users.set(t, u);
  }

  addToken(token: string, user: string): void { this.users.set(token, user); }

  /** Replaces the denials of `user`: entries like "delete pods", "* secrets", "create pods/proxy". */
  deny(user: string, rules: string[]): void {
    this.denied.set(user, new Set(rules.map((r) => r.trim().replace(/\s+/g, ' '))));
  }

  /** The user a request's Authorization header names; 401 without a known bearer token. */
  authenticate(header: string | undefined): string {
    const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
    const user = m ? this.users.get(m[1]!.trim()) : undefined;
    if (!user) throw unauthorized();
    return user;
  }

  authorize(user: string, a: Attributes): void {
    const key = `${a.verb} ${a.resource}`;
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    const d = this.denied.get(user);
    if (!d) return;
    if (d.has(key) || d.has(`* ${a.resource}`) || d.has(`${a.verb} *`) || d.has('* *')) {
      throw forbidden(user, a.verb, a.resource, a.namespace, a.name);
    }
  }
}

/** RBAC verb for an HTTP method on a subresource such as pods/proxy. */
export function verbOf(method: string): string {
  return ({ GET: 'get', HEAD: 'get', POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete' } as Record<string, string>)[method] ?? method.toLowerCase();
}
