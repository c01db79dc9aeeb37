// Image profiles: the reference images take slightly different variables; the image name
// selects the profile (docs/reference-runner.md, "Profiles"; first match wins).

/** The mini-swe-agent image's own settings, passed from the host environment when set. */
export const MINI_SWE_VARS = ['MINI_STEP_LIMIT', 'MINI_COST_LIMIT', 'MINI_COMMAND_TIMEOUT', 'MINI_LOG_LEVEL', 'MINI_TRAJECTORY_FILE'] as const;

export interface ImageProfile {
  name: 'openclaw' | 'hermes' | 'mini-swe' | 'oracle' | 'gaia2-runner';
  defaultProvider: string;
  baseUrlKeys: string[];
  extra: Record<string, string>;
  /** Reference oracle images play the oracle whatever --agent says. */
  oracleOnly: boolean;
  /** Host variables the image reads, copied into the container when set on the host. */
  hostVars: readonly string[];
}

export function detectProfile(image: string): ImageProfile {
  const s = image.toLowerCase();
  const llm = { defaultProvider: 'anthropic', baseUrlKeys: ['BASE_URL'], extra: {}, oracleOnly: false, hostVars: [] };
  if (s.includes('gaia2-oc') || s.includes('openclaw')) return { ...llm, name: 'openclaw', baseUrlKeys: ['BASE_URL', 'OPENROUTER_BASE_URL'], extra: { OPENCLAW_FORCE_RECONFIG: '1' } };
  if (s.includes('gaia2-hermes') || s.includes('hermes')) return { ...llm, name: 'hermes' };
  if (s.includes('gaia2-mini') || s.includes('mini-swe') || s.includes('mini_swe')) return { ...llm, name: 'mini-swe', hostVars: MINI_SWE_VARS };
  if (s.includes('gaia2-oracle') || /(^|[/:_-])oracle/.test(s)) return { name: 'oracle', defaultProvider: '', baseUrlKeys: [], extra: {}, oracleOnly: true, hostVars: [] };
  return { ...llm, name: 'gaia2-runner' };
}
