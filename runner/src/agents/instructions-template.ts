// A user's own instructions for a third-party agent ([agent].instructions_file,
// --instructions-file; docs/agents.md "Your own instructions"): a template with the placeholders
// of the reference's prompt renderer (gaia2-cli/shared/render_agent_prompt.py), so the
// reference's own AGENTS_TEMPLATE.md can be given as it is. Checked here, before any container
// starts; rendered in the container by the kit (runner/src/agents/kit/instructions.mjs), which
// knows the scenario's apps and the agent's shell tool.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

/** The placeholders a template may use, and what each becomes (the kit renders them). */
export const INSTRUCTION_PLACEHOLDERS = {
  TOOL_LIST: "the scenario's app CLIs, one `- \\`cli\\` — description` line each, sorted",
  MESSAGING_TOOLS: 'the messaging CLIs of the scenario (messages, chats), comma-separated; "messages, chats" when it has none',
  EXEC_TOOL: "the name of the agent's shell tool (exec for OpenClaw, Bash for Claude Code, …)",
} as const;

/** The variable the template reaches the agent layer in (every backend: a Pod takes no copied files). */
export const INSTRUCTIONS_ENV = 'GAIA2_AGENT_INSTRUCTIONS';

/** Past this, a template does not fit one variable of a process's environment (Linux: 128 KiB). */
export const MAX_TEMPLATE_BYTES = 64 * 1024;

export interface InstructionsFile {
  /** Absolute path of the template on the host. */
  path: string;
  /** sha256 of its bytes (recorded in run_config.json). */
  sha256: string;
  text: string;
}

/**
 * Reads and checks a template: it must exist, be UTF-8 text within MAX_TEMPLATE_BYTES, and use
 * only the known placeholders. Errors name `field` and the file.
 */
export function loadInstructionsFile(file: string, field: string): InstructionsFile {
  const path = resolve(file);
  const fail = (why: string) => new Error(`${field} ${path}: ${why}`);
  if (!existsSync(path)) throw fail('no such file');
  if (!statSync(path).isFile()) throw fail('not a file');
  const bytes = readFileSync(path);
  if (bytes.length > MAX_TEMPLATE_BYTES) throw fail(`${bytes.length} bytes, more than the ${MAX_TEMPLATE_BYTES} an instructions template may have`);
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (text.includes('\uFFFD') || text.includes('\0')) throw fail('not UTF-8 text');
  const unknown = [...new Set([...text.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)].map((m) => m[1]!))].filter((n) => !(n in INSTRUCTION_PLACEHOLDERS));
  if (unknown.length)
    throw fail(`unknown placeholder${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `{{${n}}}`).join(', ')}; the known ones: ${Object.keys(INSTRUCTION_PLACEHOLDERS).map((n) => `{{${n}}}`).join(', ')}`);
  return { path, sha256: createHash('sha256').update(bytes).digest('hex'), text };
}
