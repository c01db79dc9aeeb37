// What every third-party launcher shares, installed in each layer as
// /opt/gaia2-agent/lib/gaia2-kit.mjs (run with the world image's Node):
//   node gaia2-kit.mjs instructions TOOL   the Gaia2 instructions for an agent whose shell tool is TOOL
//   node gaia2-kit.mjs field FILE KEY…     a field of a JSON file (or of the first JSON line that has it), dotted keys
//   node gaia2-kit.mjs thinking LOW MED HIGH   the word for $THINKING (off → empty), for agents with levels
// The instructions are this project's own text: what the agent can reach (the scenario's app
// CLIs, from GAIA2_TOOLS; those run by Agent2Agent expert agents, from GAIA2_APP_AGENTS), how
// messages arrive, what ends its turn, the world's time.

const KIT_JS = String.raw`// Helpers of the Gaia2 agent launchers (gaia2-runner, runner/src/agents/launcher-kit.ts).
import { readFileSync } from 'node:fs';

const [cmd, ...args] = process.argv.slice(2);

function instructions(tool) {
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

function pick(doc, keys) {
  for (const k of keys) {
    let v = doc;
    for (const part of k.split('.')) v = v == null ? undefined : v[part];
    if (v !== undefined && v !== null) return typeof v === 'string' ? v : JSON.stringify(v);
  }
  return '';
}

function field(file, keys) {
  const text = readFileSync(file, 'utf8').trim();
  try {
    return pick(JSON.parse(text), keys);
  } catch {
    // JSON lines: the first line that has one of the keys.
    for (const line of text.split('\n')) {
      let doc;
      try {
        doc = JSON.parse(line);
      } catch {
        continue;
      }
      const v = pick(doc, keys);
      if (v !== '') return v;
    }
    return '';
  }
}

function thinking(words) {
  const level = (process.env.THINKING || '').trim().toLowerCase();
  const at = ['low', 'medium', 'high'].indexOf(level);
  return at < 0 ? '' : words[at] ?? level;
}

if (cmd === 'instructions') process.stdout.write(instructions(args[0] || 'your shell tool') + '\n');
else if (cmd === 'field') process.stdout.write(field(args[0], args.slice(1)));
else if (cmd === 'thinking') process.stdout.write(thinking(args));
else {
  process.stderr.write('gaia2-kit: unknown command ' + cmd + '\n');
  process.exit(2);
}
`;

/** The kit's path relative to the layer's home. */
export const KIT_FILE = 'lib/gaia2-kit.mjs';

/** How a launcher calls the kit (bash). */
export const KIT = `node "$GAIA2_AGENT_HOME/${KIT_FILE}"`;

/** Files every third-party layer carries (merged into an adapter's `files`). */
export const KIT_FILES: Readonly<Record<string, string>> = { [KIT_FILE]: KIT_JS };
