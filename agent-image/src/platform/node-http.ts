// node:http, loaded when first used instead of at import time. Two reasons: the world
// daemon's V8 startup snapshot (scripts/image-bundles.mjs, agent-image/setup.sh) cannot contain node:http, and an
// ESM `import` of it builds the module's facade, which reads every export, including the lazy
// getters that load all of undici. process.getBuiltinModule does neither.
import type * as Http from 'node:http';

export type { IncomingMessage, Server, ServerResponse } from 'node:http';

let http: typeof Http | undefined;

export function nodeHttp(): typeof Http {
  return (http ??= process.getBuiltinModule('node:http'));
}
