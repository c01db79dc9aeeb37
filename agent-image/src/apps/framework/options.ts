// Builders for option definitions: `--foo-bar` from the ARE parameter name `foo_bar`.
import type { OptionDef } from './types.js';

export const flagFor = (name: string): string => `--${name.replace(/_/g, '-')}`;

/** A text option named after its ARE parameter; `extra` overrides anything (type, flags, default…). */
export const opt = (name: string, help: string, extra: Partial<OptionDef> = {}): OptionDef => ({
  name,
  flags: [flagFor(name)],
  type: 'text',
  help,
  ...extra,
});

export const intOpt = (name: string, dflt: number | undefined, help: string, extra: Partial<OptionDef> = {}): OptionDef =>
  opt(name, help, { type: 'integer', ...(dflt === undefined ? {} : { default: dflt }), ...extra });
