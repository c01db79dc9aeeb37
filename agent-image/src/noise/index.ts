// The Noise phase inside the image: background ENV events added to the scenario, and tool
// augmentation at the app-CLI boundary. See docs/protocol.md.
import type { NoiseSettings } from '../contract/noise.js';
import { expandWithNoiseEvents } from './expand.js';
import { NoiseRecorder, type NoiseRecord } from './record.js';
import { ToolNoise } from './tool-noise.js';

export { NOISE_EVENT_PREFIX } from '../contract/events.js';
export { planNoiseEvents, type PlannedNoiseEvent } from './env-events.js';
export { expandWithNoiseEvents } from './expand.js';
export { ToolNoise, toolFailureMessage, type ToolFailure } from './tool-noise.js';
export { NoiseRecorder, type NoiseRecord } from './record.js';
export { NoiseRng } from './rng.js';

export interface AppliedNoise {
  /** The scenario with the noise events added (the input when there are none). */
  scenario: unknown;
  /** Ids of the added events: background, they never hold a run open. */
  backgroundIds: Set<string>;
  tools: ToolNoise | null;
  recorder: NoiseRecorder;
}

/** Applies noise settings to a raw scenario and records what was planned in `recordFile`. */
export function applyNoise(scenario: unknown, settings: NoiseSettings, recordFile: string | null): AppliedNoise {
  const recorder = new NoiseRecorder(recordFile);
  const records: NoiseRecord[] = [{ kind: 'settings', settings }];
  let out = scenario;
  const backgroundIds = new Set<string>();
  if (settings.env_events) {
    const x = expandWithNoiseEvents(scenario, settings.env_events);
    out = x.scenario;
    for (const p of x.planned) {
      backgroundIds.add(p.id);
      records.push({ kind: 'env_event', event_id: p.id, app: p.app, fn: p.fn, offset: p.offset });
    }
  }
  recorder.write(records);
  const tools = settings.tool_augmentation ? new ToolNoise(settings.tool_augmentation, scenario) : null;
  return { scenario: out, backgroundIds, tools, recorder };
}
