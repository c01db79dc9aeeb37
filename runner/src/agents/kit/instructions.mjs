// The Gaia2 instructions every third-party agent gets, and the $THINKING level as an agent's
// own word (gaia2-runner, runner/src/agents/kit/; installed as /opt/gaia2-agent/lib/). The text is
// this project's own: what the agent can reach (the scenario's app CLIs, from GAIA2_TOOLS; those
// run by Agent2Agent expert agents, from GAIA2_APP_AGENTS), how messages arrive, what ends its
// turn, the world's time.

/**
 * The app CLIs' one-line descriptions, as the reference's prompt renderer lists them (the same
 * as agent-image/src/apps/registry.ts: test/runner/agents/launcher-kit.test.ts keeps them equal).
 */
export const APP_DESCRIPTIONS = {
  calendar: 'Calendar events',
  contacts: 'Contacts',
  emails: 'Emails',
  messages: 'Messages',
  chats: 'Chat conversations',
  'rent-a-flat': 'Apartment listings',
  shopping: 'Shopping',
  cabs: 'Cab rides',
  city: 'City information and services',
  'cloud-drive': 'Cloud storage (like Google Drive), separate from the local filesystem',
};

/**
 * A user's instructions template ([agent].instructions_file; the runner checked it and passes it
 * whole in GAIA2_AGENT_INSTRUCTIONS) with the reference's placeholders filled in: {{TOOL_LIST}}
 * the scenario's apps, one "- `cli` — description" line each, sorted (an app its Agent2Agent
 * expert runs says so); {{MESSAGING_TOOLS}} its messaging apps (or "messages, chats");
 * {{EXEC_TOOL}} the agent's shell tool.
 */
export function renderTemplate(template, tool) {
  const apps = (process.env.GAIA2_TOOLS || '').split(',').filter(Boolean).sort();
  const experts = new Set((process.env.GAIA2_APP_AGENTS || '').split(',').filter(Boolean));
  const line = (a) => '- `' + a + '` — ' + (APP_DESCRIPTIONS[a] ?? a) + (experts.has(a) ? ' (run by its expert agent: only `' + a + ' expert-agent --task TEXT`)' : '');
  const messaging = apps.filter((a) => a === 'messages' || a === 'chats');
  const values = { TOOL_LIST: apps.map(line).join('\n'), MESSAGING_TOOLS: messaging.length ? messaging.join(', ') : 'messages, chats', EXEC_TOOL: tool };
  return template.replace(/\{\{\s*(TOOL_LIST|MESSAGING_TOOLS|EXEC_TOOL)\s*\}\}/g, (_, name) => values[name]);
}

/** The instructions for an agent whose shell tool is called `tool`: the user's template when given, else ours. */
export function instructions(tool) {
  const template = process.env.GAIA2_AGENT_INSTRUCTIONS;
  if (template) return renderTemplate(template, tool);
  const apps = (process.env.GAIA2_TOOLS || '').split(',').filter(Boolean).sort();
  const experts = new Set((process.env.GAIA2_APP_AGENTS || '').split(',').filter(Boolean));
  const mark = (a) => (experts.has(a) ? ' (run by its expert agent: only "' + a + ' expert-agent --task TEXT")' : '');
  const list = apps.length ? apps.map((a) => '- ' + a + mark(a)).join('\n') : '- (no apps in this session)';
  const expertNote = experts.size === 0 ? [] : [
    '',
    '## Apps run by an expert agent',
    'An app marked above is operated by an expert agent that holds all of its commands; you have only',
    '"<app> expert-agent --task \'<task>\'". Hand it a whole task in one call and say in what form you want its answer',
    '(or ask it to answer "task completed"). It can make mistakes and you cannot talk to it once the task is sent:',
    'check its work with the other apps where you can. One call runs a whole conversation of the expert and can take',
    'minutes: let the command run to its end.',
  ];
  return [
    '# Gaia2: you are the user\'s assistant on their phone',
    'You carry out what the user asks by operating their apps for them.',
    '',
    '## The apps',
    'Each app is a command-line program on PATH; run it with your shell tool, ' + tool + '. The apps of this session:',
    list,
    'They are programs, not tools of yours: always call them through ' + tool + '. "<app> --help" lists an app\'s commands and',
    '"<app> <command> --help" their options. Apps print JSON; a failing command prints an error and exits non-zero.',
    'Quote arguments with single quotes when they hold $, backticks or double quotes.',
    'Only these apps hold the user\'s data. Do not install software or reach the network; work in ' + (process.env.GAIA2_WORK_DIR || 'your home') + '.',
    ...expertNote,
    '',
    '## Time',
    'The date command prints the time in the user\'s world (it was ' + (process.env.GAIA2_SIM_TIME || 'unknown') + ' UTC when this session began).',
    'Use it for today, tomorrow and any relative time, not your own idea of the date.',
    '',
    '## Messages and your answer',
    '- The user writes to you directly. Things that happen in the apps (a new email, a chat reply, a price change)',
    '  reach you as messages starting with "[Notification]": news to act on, not words of the user.',
    '- Your final message of a turn, in plain text, is your answer to the user and ends the turn. Give it directly;',
    '  never send it through the messaging, chat or email apps (use those only to reach other people when asked).',
    '',
    '## How to work',
    '- Do what was asked, completely, and nothing more. Look up missing details with the apps instead of asking.',
    '- If part of a request is unclear, do the clear part and ask about the rest in your answer.',
    '- When you write to someone for the user, write as the user. If a command fails, read the error and retry.',
    '- Keep your final answer short and factual.',
  ].join('\n');
}

/** The agent's word for $THINKING: words = [low, medium, high]; off or unset → ''. */
export function thinking(words) {
  const level = (process.env.THINKING || '').trim().toLowerCase();
  const at = ['low', 'medium', 'high'].indexOf(level);
  return at < 0 ? '' : words[at] ?? level;
}
