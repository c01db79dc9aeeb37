// Helpers of the Gaia2 agent launchers for bash (gaia2-runner, runner/src/agents/kit/; installed
// in every third-party layer as /opt/gaia2-agent/lib/), run with the world image's Node:
//   node gaia2-kit.mjs instructions TOOL      the Gaia2 instructions for an agent whose shell tool is TOOL
//   node gaia2-kit.mjs field FILE KEY…        a field of a JSON file (or of the first JSON line that has it), dotted keys
//   node gaia2-kit.mjs thinking LOW MED HIGH  the word for $THINKING (off → empty), for agents with levels
import { readFileSync } from 'node:fs';
import { instructions, thinking } from './instructions.mjs';

const [cmd, ...args] = process.argv.slice(2);

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

if (cmd === 'instructions') process.stdout.write(instructions(args[0] || 'your shell tool') + '\n');
else if (cmd === 'field') process.stdout.write(field(args[0], args.slice(1)));
else if (cmd === 'thinking') process.stdout.write(thinking(args));
else {
  process.stderr.write('gaia2-kit: unknown command ' + cmd + '\n');
  process.exit(2);
}
