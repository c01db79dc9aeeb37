// Gaia2 scenario JSON as the reference reads it (spec/container.md §3.2, golden/README.md).
// The schema is lenient where the reference is (extra keys pass through) and strict where a
// wrong value would silently change behaviour; parseScenario names the failing field.
import { z } from 'zod';

export const ActionArgSchema = z
  .object({
    name: z.string(),
    value: z.unknown(),
    value_type: z.string().nullish(),
  })
  .passthrough();

export const ActionSchema = z
  .object({
    action_id: z.string().nullish(),
    app: z.string(),
    class_name: z.string().nullish(),
    function: z.string(),
    operation_type: z.string().nullish(),
    args: z.array(ActionArgSchema).default([]),
  })
  .passthrough();

export const ScenarioEventSchema = z
  .object({
    class_name: z.string().nullish(),
    event_type: z.string(),
    event_id: z.string(),
    event_time: z.number().nullish(),
    event_relative_time: z.number().nullish(),
    dependencies: z.array(z.string()).default([]),
    action: ActionSchema.nullish(),
  })
  .passthrough();

export const ScenarioAppSchema = z
  .object({
    name: z.string(),
    class_name: z.string().nullish(),
    app_state: z.unknown().optional(),
  })
  .passthrough();

export const ScenarioSchema = z
  .object({
    metadata: z
      .object({
        definition: z
          .object({
            scenario_id: z.string().optional(),
            start_time: z.number().nullish(),
            duration: z.number().nullish(),
            time_increment_in_seconds: z.number().nullish(),
            tags: z.array(z.string()).nullish(),
          })
          .passthrough()
          .optional(),
        split: z.string().nullish(),
      })
      .passthrough()
      .optional(),
    scenario_id: z.string().optional(),
    start_time: z.number().nullish(),
    apps: z.array(ScenarioAppSchema).default([]),
    events: z.array(ScenarioEventSchema).default([]),
  })
  .passthrough();

export type ActionArg = z.infer<typeof ActionArgSchema>;
export type ScenarioAction = z.infer<typeof ActionSchema>;
export type ScenarioEvent = z.infer<typeof ScenarioEventSchema>;
export type ScenarioApp = z.infer<typeof ScenarioAppSchema>;
export type Scenario = z.infer<typeof ScenarioSchema>;

export const SPLITS = ['execution', 'search', 'adaptability', 'time', 'ambiguity'] as const;
export type Split = (typeof SPLITS)[number];

export class ScenarioError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    detail: string,
  ) {
    super(`${file}: ${field ? `field "${field}": ` : ''}${detail}`);
    this.name = 'ScenarioError';
  }
}

/** Validates parsed JSON as a scenario; `file` is only used in error messages. */
export function parseScenario(data: unknown, file = '<scenario>'): Scenario {
  const r = ScenarioSchema.safeParse(data);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new ScenarioError(file, issue.path.join('.'), issue.message);
  }
  return r.data;
}

/** Parses scenario JSON text, naming the file on syntax errors. */
export function parseScenarioText(text: string, file = '<scenario>'): Scenario {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ScenarioError(file, '', `invalid JSON (${(e as Error).message})`);
  }
  return parseScenario(data, file);
}

export function scenarioId(s: Scenario, fallback = 'scenario'): string {
  return s.metadata?.definition?.scenario_id ?? s.scenario_id ?? fallback;
}

export function scenarioStartTime(s: Scenario): number | null {
  const t = s.metadata?.definition?.start_time ?? s.start_time;
  return typeof t === 'number' && t > 0 ? t : null;
}

export function scenarioSplit(s: Scenario): string | null {
  return s.metadata?.split ?? s.metadata?.definition?.tags?.[0] ?? null;
}
