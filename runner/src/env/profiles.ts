// Image profiles: the reference images take slightly different variables; the image name
// selects the profile (docs/reference-runner.md, "Profiles"; first match wins).

export interface ImageProfile {
  name: 'openclaw' | 'hermes' | 'oracle' | 'gaia2-runner';
  defaultProvider: string;
  baseUrlKeys: string[];
  extra: Record<string, string>;
  /** Reference oracle images play the oracle whatever --agent says. */
  oracleOnly: boolean;
}

export function detectProfile(image: string): ImageProfile {
  const s = image.toLowerCase();
  if (s.includes('gaia2-oc') || s.includes('openclaw'))
    return { name: 'openclaw', defaultProvider: 'anthropic', baseUrlKeys: ['BASE_URL', 'OPENROUTER_BASE_URL'], extra: { OPENCLAW_FORCE_RECONFIG: '1' }, oracleOnly: false };
  if (s.includes('gaia2-hermes') || s.includes('hermes'))
    return { name: 'hermes', defaultProvider: 'anthropic', baseUrlKeys: ['BASE_URL'], extra: {}, oracleOnly: false };
  if (s.includes('gaia2-oracle') || /(^|[/:_-])oracle/.test(s))
    return { name: 'oracle', defaultProvider: '', baseUrlKeys: [], extra: {}, oracleOnly: true };
  return { name: 'gaia2-runner', defaultProvider: 'anthropic', baseUrlKeys: ['BASE_URL'], extra: {}, oracleOnly: false };
}
