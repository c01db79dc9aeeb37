// A third-party agent's turn on its trace page, from a real run: each command with its output,
// and the answer, whether the page reads the gateway's record or (a run kept without it) the
// trace.jsonl derived from it.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keepAgentTrace } from '../../../../runner/src/run/traffic-trace.js';
import { buildViewer } from '../../../../runner/src/viewer/index.js';
import { copyRecordedRun, THIRD_PARTY_SCENARIO } from '../../../helpers/recorded-runs.js';

let cleanup = (): void => {};
afterEach(() => cleanup());

function pageItems(file: string): Array<Record<string, unknown>> {
  const m = /<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(readFileSync(file, 'utf8'));
  return (JSON.parse(m![1]!) as { items: Array<Record<string, unknown>> }).items;
}

async function turnOf(withRecord: boolean): Promise<Array<Record<string, unknown>>> {
  const copied = copyRecordedRun('third-party-runs/gemini-cli');
  cleanup = copied.cleanup;
  const dir = join(copied.dir, THIRD_PARTY_SCENARIO);
  await keepAgentTrace(dir, readFileSync(join(dir, 'model_traffic.jsonl'), 'utf8'));
  if (!withRecord) rmSync(join(dir, 'model_traffic.jsonl'));
  await buildViewer(copied.dir);
  return pageItems(join(dir, 'trace.html'));
}

describe('a third-party turn on the trace page', () => {
  for (const withRecord of [true, false]) {
    it(`shows three calls, both commands with their outputs and the answer (${withRecord ? 'gateway record' : 'derived trace.jsonl'})`, async () => {
      const items = await turnOf(withRecord);
      expect(items.filter((i) => i.k === 'call')).toHaveLength(3);
      const tools = items.filter((i) => i.k === 'tool');
      expect(tools.map((t) => JSON.stringify(t.input))).toEqual([expect.stringContaining('add-to-cart'), expect.stringContaining('checkout')]);
      expect(String(tools[0]!.result)).toContain('"item_id');
      expect(String(tools[1]!.result)).toContain('order_id');
      const said = items.filter((i) => i.k === 'msg' && i.role === 'assistant').map((i) => JSON.stringify(i.blocks));
      expect(said.join('')).toContain('Ordered two black 750ml bottles with HYDRATE5 applied.');
    });
  }
});
