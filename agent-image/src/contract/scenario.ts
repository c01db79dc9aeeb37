// Gaia2 scenario JSON as the reference reads it (docs/daemon.md, "Scenario as read").
// The schema is lenient where the reference is (extra keys pass through) and strict where a
// wrong value would silently change behaviour; parseScenario names the failing field.
// zod/mini with named schemas keeps this out of the full zod bundle (~0.6 MB): the world
// daemon parses it at every container boot. Same validation and messages as classic zod.
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

z.config(en());

export const ActionArgSchema = z.looseObject({
  name: z.string(),
  value: z.unknown(),
  value_type: z.nullish(z.string()),
});

export const ActionSchema = z.looseObject({
  action_id: z.nullish(z.string()),
  app: z.string(),
  class_name: z.nullish(z.string()),
  function: z.string(),
  operation_type: z.nullish(z.string()),
  args: z._default(z.array(ActionArgSchema), []),
});

export const ScenarioEventSchema = z.looseObject({
  class_name: z.nullish(z.string()),
  event_type: z.string(),
  event_id: z.string(),
  event_time: z.nullish(z.number()),
  event_relative_time: z.nullish(z.number()),
  dependencies: z._default(z.array(z.string()), []),
  action: z.nullish(ActionSchema),
});

export const ScenarioAppSchema = z.looseObject({
  name: z.string(),
  class_name: z.nullish(z.string()),
  app_state: z.optional(z.unknown()),
});

export const ScenarioSchema = z.looseObject({
  metadata: z.optional(
    z.looseObject({
      definition: z.optional(
        z.looseObject({
          scenario_id: z.optional(z.string()),
          start_time: z.nullish(z.number()),
          duration: z.nullish(z.number()),
          time_increment_in_seconds: z.nullish(z.number()),
          tags: z.nullish(z.array(z.string())),
        }),
      ),
      split: z.nullish(z.string()),
    }),
  ),
  scenario_id: z.optional(z.string()),
  start_time: z.nullish(z.number()),
  apps: z._default(z.array(ScenarioAppSchema), []),
  events: z._default(z.array(ScenarioEventSchema), []),
});

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
