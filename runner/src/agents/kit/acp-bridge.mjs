// What a bridge that keeps an ACP program up (bin/agent-serve of gemini-cli, opencode, …) does the
// same way whatever the program (gaia2-runner, runner/src/agents/kit/; installed as
// /opt/gaia2-agent/lib/acp-bridge.mjs): the session of the run (new at the first start, loaded
// again after a restart), one session/prompt per turn turned into the serve contract's answer,
// and the bridge ending with the program. The program's own part (its settings, variables,
// command line, words for its stop reasons) stays in the bridge.
import { readFileSync, writeFileSync } from 'node:fs';

/** The stop reasons of ACP (protocol version 1) other than end_turn, in words. */
export const ACP_STOPPED = {
  max_turn_requests: 'it reached its limit of model requests in one turn',
  max_tokens: "the conversation would overflow the model's context window",
  refusal: 'the model refused',
  cancelled: 'the turn was cancelled',
};

const savedId = (file) => {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
};

/**
 * The session of the run: after a restart (start > 1) the id saved in `savedFile` is loaded
 * (session/load) when the program can; else, or when that fails, a new session, whose id is
 * saved. `beforeStart(id)` runs with the saved id before the program starts (a program's own
 * repair of its session files). Resolves with whether the session was resumed.
 */
export async function openSession(acp, ctx, { start, savedFile, cwd, label, beforeStart }) {
  const id = start > 1 ? savedId(savedFile) : '';
  if (id) beforeStart?.(id);
  await acp.start();
  let resumed = false;
  if (id && acp.canLoad) {
    try {
      await acp.loadSession(id, cwd);
      resumed = true;
    } catch (e) {
      ctx.log(`${label} could not resume session ${id} (${e.message}); starting a new one`, 'warn');
    }
  }
  if (!resumed) {
    await acp.newSession(cwd);
    writeFileSync(savedFile, acp.sessionId + '\n');
  }
  acp.note({ start, pid: acp.pid, sessionId: acp.sessionId, resumed });
  ctx.log(`${label} ${acp.init?.agentInfo?.version ?? ''} up (pid ${acp.pid}), session ${acp.sessionId}${resumed ? ' resumed' : ''}`);
  return resumed;
}

/**
 * One turn as one prompt, its messages in `traceFile` (headed by `note`, then back to `idleTrace`): the reply at
 * end_turn; another stop reason is the turn's failure in the program's words (`stopped`, over
 * ACP_STOPPED); the program's error answer is the failure with its text. When the program died
 * the promise never settles: exitWithProgram ends the bridge, and the runtime fails the turn.
 */
export async function promptTurn(acp, text, { label, stopped = {}, traceFile, idleTrace, note }) {
  acp.setTrace(traceFile);
  if (note) acp.note(note);
  try {
    const r = await acp.prompt(text);
    if (r.stopReason === 'end_turn') return { reply: r.reply };
    const why = stopped[r.stopReason] ?? ACP_STOPPED[r.stopReason] ?? 'it ended the turn';
    return { failed: `${label} stopped the turn: ${why} (stopReason ${r.stopReason})`, detail: r.reply ? `its last text: ${r.reply.slice(0, 1500)}` : `stopReason ${r.stopReason}` };
  } catch (e) {
    if (acp.exit) return new Promise(() => {});
    return { failed: String(e.message).replace(/^session\/prompt: /, ''), detail: `ACP error ${e.code ?? ''} ${e.data ? JSON.stringify(e.data).slice(0, 1000) : ''}`.trim() };
  } finally {
    acp.setTrace(idleTrace);
  }
}

/**
 * The AcpClient's onExit for a bridge: the program died, so the bridge exits with it, its last
 * stderr line saying how (with the program's own last line when it left one; some hold their
 * stderr until they exit, and a killed process leaves none). The runtime fails a running turn
 * with that line and starts the bridge again, clock held, before the next turn. (A `failed`
 * answer first would race the runtime, which could hand the next turn to this process.)
 */
export function exitWithProgram(getAcp, label) {
  return (code, signal) => {
    const acp = getAcp();
    if (acp.stopping) return;
    const how = signal ? `signal ${signal}` : `code ${code}`;
    const done = () => {
      const said = acp.lastStderr();
      process.stderr.write(`agent-serve: ${label} exited (${how})${said ? `: ${said}` : ''}\n`);
      process.exit(1);
    };
    if (acp.child.stderr.readableEnded) return done();
    acp.child.stderr.once('end', done);
    setTimeout(done, 1000);
  };
}
