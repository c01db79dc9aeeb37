// Tool augmentation at the CLI boundary: seeded failures with the reference's probability and
// text, renamed commands and rewritten help that keep the ARE function name.
import { describe, expect, it } from 'vitest';
import { DEFAULT_TOOL_AUGMENTATION, type ToolAugmentationSettings } from '../../../agent-image/src/contract/noise.js';
import { ToolNoise, toolFailureMessage } from '../../../agent-image/src/noise/index.js';
import { appForCli } from '../../../agent-image/src/apps/catalog.js';
import { readGolden } from '../world/golden.js';

const scenario = JSON.parse(readGolden('scenarios/ambiguity/ambig_email_forward_invoice.json'));
const emails = appForCli('emails')!;
const ta = (over: Partial<ToolAugmentationSettings> = {}): ToolAugmentationSettings => ({ ...DEFAULT_TOOL_AUGMENTATION, ...over });
const draws = (t: ToolNoise, n: number, argv = ['emails', 'list-emails']) => Array.from({ length: n }, () => t.draw(argv, emails));

describe('tool failures', () => {
  it('fail with the reference text, named <scenario app>__<function>', () => {
    const f = new ToolNoise(ta({ tool_failure_probability: 1 }), scenario).draw(['emails', 'list-emails'], emails);
    expect(f).toEqual({ tool: 'Emails__list_emails', argv: ['emails', 'list-emails'], message: toolFailureMessage('Emails__list_emails') });
    expect(f!.message).toBe('Calling Emails__list_emails failed with error: Internal error - Retry again later');
  });

  it('probability 0 never fails; the default 0.1 fails about one call in ten', () => {
    expect(draws(new ToolNoise(ta({ tool_failure_probability: 0 }), scenario), 200).every((d) => d === null)).toBe(true);
    const failures = draws(new ToolNoise(ta(), scenario), 2000).filter(Boolean).length;
    expect(failures).toBeGreaterThan(140);
    expect(failures).toBeLessThan(260);
  });

  it('help, schema, unknown and ENV-only commands never fail', () => {
    const t = new ToolNoise(ta({ tool_failure_probability: 1 }), scenario);
    for (const argv of [['emails', '--help'], ['emails', 'send-email', '--help'], ['emails', 'schema'], ['emails', 'nope'], ['emails', 'create-and-add-email']])
      expect(t.draw(argv, emails)).toBeNull();
  });

  it('same seed → same failure pattern; each tool has its own stream', () => {
    const pattern = (seed: number, argv?: string[]) => draws(new ToolNoise(ta({ seed, tool_failure_probability: 0.5 }), scenario), 64, argv).map(Boolean);
    expect(pattern(3)).toEqual(pattern(3));
    expect(pattern(4)).not.toEqual(pattern(3));
    expect(pattern(3, ['emails', 'search-emails'])).not.toEqual(pattern(3));
  });
});

describe('renamed commands and rewritten help', () => {
  const withMapping = {
    ...scenario,
    augmentation_data: {
      tool_names_mapping: { EmailClientV2__forward_email: 'EmailClientV2__relay_message' },
      tool_descriptions_mapping: { EmailClientV2__forward_email: 'Passes an existing message on to other people.' },
    },
  };

  it('the agent sees the new name and help; the command keeps its ARE function', () => {
    const t = new ToolNoise(ta(), withMapping);
    const cmds = t.surface(emails).commands;
    const relay = cmds.find((c) => c.name === 'relay-message')!;
    expect(relay.fn).toBe('forward_email');
    expect(relay.help).toBe('Passes an existing message on to other people.');
    expect(cmds.find((c) => c.name === 'forward-email')).toBeUndefined();
    expect(emails.commands.find((c) => c.name === 'forward-email')).toBeDefined(); // the app itself is unchanged
  });

  it('switches off per setting', () => {
    const t = new ToolNoise(ta({ apply_tool_name_augmentation: false, apply_tool_description_augmentation: false }), withMapping);
    expect(t.changesSurface).toBe(false);
    expect(t.surface(emails)).toBe(emails);
  });

  it('failures of a renamed command are named by the original tool, as the reference does', () => {
    const f = new ToolNoise(ta({ tool_failure_probability: 1 }), withMapping).draw(['emails', 'relay-message'], emails);
    expect(f?.tool).toBe('Emails__forward_email');
  });
});
