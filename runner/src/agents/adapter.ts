// What one third-party agent is to the runner: the npm package that holds the program, the
// launcher script that runs one turn of it (docs/agents.md, "The launcher contract"), the
// providers it speaks and the options it takes. Adding an agent is one file exporting an
// AgentAdapter plus one line in registry.ts. Adapters are plain data: no engine, no config.

/** How the agent's npm package goes into the layer (fetched on the host, never in the build). */
export interface AgentPackage {
  /** npm package name, e.g. "@google/gemini-cli". */
  name: string;
  /** Exact version used unless [agent].version / --agent-version pins another. */
  version: string;
  /**
   * "pack": the package alone (`npm pack`), unpacked into /opt/gaia2-agent/pkg — for a
   * self-contained package (a native binary, a bundled CLI).
   * "install": the package with its production dependencies (`npm install`, no install
   * scripts, linux x64), as /opt/gaia2-agent/pkg/node_modules/<name> and node_modules/.bin.
   */
  install: 'pack' | 'install';
  /** The npm spec for a version (default `${name}@${version}`), e.g. for platform-suffixed versions. */
  spec?: (version: string) => string;
}

/** One documented entry of the [agent.options] table. */
export interface AgentOption {
  description: string;
  type: 'string' | 'number' | 'boolean';
  /** What the launcher uses when the option is not set (documentation only). */
  default?: string | number | boolean;
}

export interface AgentAdapter {
  /** --agent / [agent].name value: lower case letters, digits and dashes. */
  name: string;
  /** One line for --help, doctor and docs/agents.md. */
  summary: string;
  package: AgentPackage;
  /** PROVIDER values the agent speaks natively; the first is the default. */
  providers: readonly string[];
  /** The agent has a reasoning-effort setting the launcher maps THINKING onto. */
  thinking: boolean;
  /**
   * The agent has a context-window setting of its own, which its layer sets from
   * [agent].context_window (GAIA2_AGENT_CONTEXT_WINDOW); absent: it has none.
   */
  contextWindow?: boolean;
  /**
   * The layer's own files: a directory relative to the gaia2-runner package directory (e.g.
   * "runner/src/agents/claude-code/layer"), copied as it is under /opt/gaia2-agent. It holds
   * bin/agent-serve (the program kept up for the whole run: docs/agents.md, "Programs that stay
   * up") and/or bin/agent (one turn per run: "The launcher contract"), and config templates.
   * Every layer also gets the kit (launcher-kit.ts) as lib/.
   */
  layerDir?: string;
  /**
   * An inline per-turn launcher (bash), installed as /opt/gaia2-agent/bin/agent, for adapters
   * without a layer directory.
   */
  launcher?: string;
  /** Further files of the layer, relative to /opt/gaia2-agent (e.g. "etc/settings.json"). */
  files?: Readonly<Record<string, string>>;
  /** The [agent.options] the launcher reads (as GAIA2_AGENT_OPT_<NAME>). */
  options?: Readonly<Record<string, AgentOption>>;
  /**
   * An adapter whose program its options name (`acp`): the adapter of that program (its
   * package, its layer's name), or an Error naming the option at fault (`field`: how the
   * user wrote the table). Every use of the adapter past the config goes through it.
   */
  fromOptions?: (options: Readonly<Record<string, unknown>>, field: string) => AgentAdapter;
  /** The layer image's name when it is not the agent's (default: `name`). */
  layerName?: string;
}

/** Exact versions only: the version is a label of the image and a field of every result. */
export const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/**
 * What `--agent-version` may say instead of an exact version: the newest release on the npm
 * registry, resolved to its exact version before anything is built or recorded.
 */
export const LATEST_VERSION = 'latest';

/** The agent's npm spec for a version. */
export function packageSpec(pkg: AgentPackage, version: string): string {
  return pkg.spec ? pkg.spec(version) : `${pkg.name}@${version}`;
}
