// Scripted runtime (GAIA2_AGENT=scripted): parseScript(GAIA2_SCRIPT) + runScripted(conn, script).
export { parseScript, ScriptError, type Script, type ScriptTurn } from './script.js';
export { runScripted, type ScriptedOutcome } from './run.js';
