// result.json's `usage` read back, role by role: the one reading of it for the report (so
// the leaderboard) and the viewer, so both count the same roles of the same runs.
import type { RoleUsage, RunUsage } from '@gaia2/contract';

export interface UsageRoles {
  agent: RoleUsage | null;
  app_agents: RoleUsage | null;
  judge: RoleUsage | null;
}

/**
 * Each role's part of result.json's usage as runner/src/usage/run-usage.ts wrote it. A result
 * from before the roles were split holds the agent's totals at the top.
 */
export function usageRolesOf(result: Readonly<Record<string, unknown>> | null | undefined): UsageRoles {
  const u = result?.usage as RunUsage | undefined;
  if (!u || typeof u !== 'object') return { agent: null, app_agents: null, judge: null };
  const old = !u.agent && !u.judge && !u.app_agents && typeof u.input_tokens === 'number';
  const agent = u.agent ?? (old ? { ...u, model: typeof result?.model === 'string' ? result.model : null, source: 'agent_report' as const } : null);
  return { agent, app_agents: u.app_agents ?? null, judge: u.judge ?? null };
}
