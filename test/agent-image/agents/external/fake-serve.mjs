#!/usr/bin/env node
// A serve program for the runtime's tests, built on the real serve kit (what a layer's
// bin/agent-serve uses). It logs what it sees to $FAKE_LOG (JSON lines) and acts on the words
// of each message: "die" exits mid-turn, "fail" fails the turn, anything else is echoed after
// $FAKE_DELAY ms. With FAKE_STEER=1 it takes steers whose text holds "take" into the turn.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { serve, sleep } from '../../../../runner/src/agents/kit/serve-kit.mjs';

const env = process.env;
const note = (o) => appendFileSync(env.FAKE_LOG, JSON.stringify({ pid: process.pid, start: Number(env.GAIA2_SERVE_START), ...o }) + '\n');
const startNo = Number(env.GAIA2_SERVE_START);
let steered = [];

serve({
  async start() {
    note({ ev: 'start', sim: env.GAIA2_SIM_TIME, tools: env.GAIA2_TOOLS, session: readSession() });
    if (startNo <= Number(env.FAKE_START_FAILS ?? 0)) {
      process.stderr.write(`cannot start, attempt ${startNo}\n`);
      process.exit(5);
    }
    await sleep(Number(env.FAKE_START_MS ?? 0));
    writeFileSync(`${env.GAIA2_SESSION_DIR}/fake-session`, `session-of-start-${startNo}`);
    note({ ev: 'ready' });
    return { steer: env.FAKE_STEER === '1' };
  },
  async turn(t) {
    note({ ev: 'turn', turn: t.turn, text: t.text, kind: t.kind });
    steered = [];
    if (t.text.includes('die')) {
      await sleep(Number(env.FAKE_DIE_MS ?? 0));
      process.stderr.write('dying on purpose\n');
      process.exit(7);
    }
    await sleep(Number(env.FAKE_DELAY ?? 0));
    if (t.text.includes('fail')) return { failed: 'model refused: quota exceeded', detail: 'fake failure' };
    return { reply: `echo: ${[t.text, ...steered].join(' + ')}` };
  },
  async steer(s) {
    const taken = s.text.includes('take');
    note({ ev: 'steer', turn: s.turn, seq: s.seq, text: s.text, taken });
    if (taken) steered.push(s.text);
    return taken;
  },
});

function readSession() {
  try {
    return readFileSync(`${env.GAIA2_SESSION_DIR}/fake-session`, 'utf8');
  } catch {
    return null;
  }
}
