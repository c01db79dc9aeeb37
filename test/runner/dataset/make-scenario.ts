// Minimal valid scenario JSON for dataset and orchestrator tests.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function scenarioJson(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    metadata: { definition: { scenario_id: id, start_time: 1760000400, duration: 120 } },
    apps: [],
    events: [
      {
        event_type: 'USER',
        event_id: `${id}-e1`,
        dependencies: [],
        action: { app: 'AgentUserInterface', function: 'send_message_to_agent', args: [{ name: 'content', value: 'hi' }] },
      },
    ],
    ...extra,
  };
}

export function writeScenario(file: string, id: string, extra: Record<string, unknown> = {}): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(scenarioJson(id, extra)));
  return file;
}
