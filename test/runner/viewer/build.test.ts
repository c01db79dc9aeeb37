// Generator tests on synthetic run directories: layout, incremental rebuilds, pass@N roots,
// escaping of embedded data, robustness to broken artifacts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildViewer, buildViewerDetailed, buildComparison } from '../../../runner/src/viewer/index.js';
import { jsonForScript, CONTENT_SECURITY_POLICY } from '../../../runner/src/viewer/pages/html.js';
import { writeRun, writeScenario } from './synthetic.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'viewer-build-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function pageData(file: string): any {
  const html = readFileSync(file, 'utf8');
  const m = /<script type="application\/json" id="page-data">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error(`no page data in ${file}`);
  return JSON.parse(m[1]!);
}

describe('run dir', () => {
  it('writes an index and one trace page per scenario run, with statuses, splits and counters', async () => {
    writeRun(dir, [
      { id: 'search/sc_1', split: 'search', status: 'pass' },
      { id: 'search/sc_10', split: 'search', status: 'fail' },
      { id: 'execution/sc_2', split: 'execution', status: 'error' },
      { id: 'execution/sc_3', split: 'execution', status: 'running' },
    ]);
    const r = await buildViewer(dir);
    expect(r).toEqual({ pages: 5, rebuilt: 5 });
    expect(existsSync(join(dir, '_viewer.js')) && existsSync(join(dir, '_viewer.css'))).toBe(true);
    const index = pageData(join(dir, 'index.html'));
    expect(index.page).toBe('run');
    expect(index.rows.map((x: any) => [x.id, x.status])).toEqual([
      ['execution/sc_2', 'error'],
      ['execution/sc_3', 'running'],
      ['search/sc_1', 'pass'],
      ['search/sc_10', 'fail'],
    ]);
    expect(index.splits.map((s: any) => s.name)).toEqual(['execution', 'search']);
    const pass = index.rows.find((x: any) => x.id === 'search/sc_1');
    expect(pass).toMatchObject({ llmCalls: 3, tokensIn: 3300, tokensOut: 150, toolCalls: 2, href: 'search/sc_1/trace.html', durationS: 12.5 });
    expect(pass.costUsd).toBeGreaterThan(0);
    expect(index.rows.find((x: any) => x.id === 'execution/sc_2').errorKind).toBe('container_exited');

    const trace = pageData(join(dir, 'search', 'sc_10', 'trace.html'));
    expect(trace.prevHref).toBe('../../search/sc_1/trace.html');
    expect(trace.nextHref).toBe('');
    expect(trace.homeHref).toBe('../../index.html');
    const kinds = trace.items.map((i: any) => i.k);
    expect(kinds.filter((k: string) => k === 'call')).toHaveLength(3);
    // tool calls are paired with their results by id
    const tools = trace.items.filter((i: any) => i.k === 'tool');
    expect(tools.map((t: any) => [t.id, t.result?.startsWith(`result ${t.id.slice(-1)}`)])).toEqual([['toolu_0', true], ['toolu_1', true]]);
    // the verdict follows the agent's reply; it compares agent and oracle arguments
    const reply = kinds.lastIndexOf('event');
    expect(kinds[reply + 1]).toBe('verdict');
    const verdict = trace.items[reply + 1];
    expect(verdict.comparisons[0]).toMatchObject({ oracleTool: 'EmailClientV2__send_email', matched: false, oracleArgs: { subject: 'Hello' } });
    // ENV notification sits between the second and third LLM call (time order)
    const env = trace.items.findIndex((i: any) => i.k === 'event' && i.kind === 'env');
    const calls = trace.items.map((i: any, n: number) => (i.k === 'call' ? n : -1)).filter((n: number) => n >= 0);
    expect(env).toBeGreaterThan(calls[1]);
    expect(env).toBeLessThan(calls[2]);
  });

  it('rebuilds only the scenario runs whose artifacts changed, and their neighbours when one is added', async () => {
    writeRun(dir, Array.from({ length: 6 }, (_, i) => ({ id: `search/sc_${i}`, status: 'pass' as const })));
    expect((await buildViewer(dir)).rebuilt).toBe(7);
    expect((await buildViewer(dir)).rebuilt).toBe(0);
    const res = join(dir, 'search', 'sc_3', 'result.json');
    writeFileSync(res, JSON.stringify({ success: false, status: 'fail', failure_reasons: ['changed'] }));
    const r = buildViewerDetailed(dir);
    expect(r.written.map((f) => f.slice(dir.length))).toEqual(['/search/sc_3/trace.html', '/index.html']);
    writeScenario(dir, { id: 'search/sc_3b', status: 'pass' });
    const r2 = buildViewerDetailed(dir);
    expect(r2.written.map((f) => f.slice(dir.length)).sort()).toEqual(['/index.html', '/search/sc_3/trace.html', '/search/sc_3b/trace.html', '/search/sc_4/trace.html']);
    expect((await buildViewer(dir, { incremental: false })).rebuilt).toBe(0); // same content: files untouched
  });

  it('URL-encodes every path segment of scenario ids', async () => {
    writeRun(dir, [{ id: 'search/we#ird %id?', status: 'pass' }, { id: 'search/z', status: 'pass' }]);
    await buildViewer(dir);
    expect(pageData(join(dir, 'index.html')).rows[0].href).toBe('search/we%23ird%20%25id%3F/trace.html');
    expect(pageData(join(dir, 'search', 'z', 'trace.html')).prevHref).toBe('../../search/we%23ird%20%25id%3F/trace.html');
  });

  it('with change hints from a watcher, rebuilds the touched run without scanning the others', () => {
    writeRun(dir, Array.from({ length: 4 }, (_, i) => ({ id: `sc_${i}`, status: 'pass' as const })));
    buildViewerDetailed(dir);
    // sc_1 changes but the hint names only sc_2: sc_1 is (deliberately) not looked at
    writeFileSync(join(dir, 'sc_1', 'result.json'), JSON.stringify({ status: 'fail', success: false }));
    writeFileSync(join(dir, 'sc_2', 'result.json'), JSON.stringify({ status: 'error', success: null, error: 'boom' }));
    const r = buildViewerDetailed(dir, { changed: [join(dir, 'sc_2', 'result.json')] });
    expect(r.written.map((f) => f.slice(dir.length)).sort()).toEqual(['/index.html', '/sc_2/trace.html']);
    // a new scenario run in the hints falls back to a full scan, which also catches sc_1
    writeScenario(dir, { id: 'sc_9', status: 'pass' });
    const r2 = buildViewerDetailed(dir, { changed: [join(dir, 'sc_9', 'result.json')] });
    expect(r2.written.map((f) => f.slice(dir.length)).sort()).toEqual(['/index.html', '/sc_1/trace.html', '/sc_3/trace.html', '/sc_9/trace.html']);
  });

  it('interleaves approximately, and says so, when events.jsonl runs on a faked clock', async () => {
    writeRun(dir, [{ id: 'sc', status: 'pass' }]);
    const file = join(dir, 'sc', 'events.jsonl');
    const YEAR = 365 * 86400;
    const shifted = readFileSync(file, 'utf8').trim().split('\n').map((l) => {
      const e = JSON.parse(l);
      return JSON.stringify({ ...e, t: e.t - YEAR });
    });
    writeFileSync(file, shifted.join('\n') + '\n');
    await buildViewer(dir);
    const items = pageData(join(dir, 'sc', 'trace.html')).items;
    expect(items.some((i: any) => i.k === 'context' && /different clocks/.test(i.note))).toBe(true);
    const lastCall = items.map((i: any) => i.k).lastIndexOf('call');
    const firstCall = items.findIndex((i: any) => i.k === 'call');
    const events = items.flatMap((i: any, n: number) => (i.k === 'event' ? [n] : []));
    expect(events.some((n: number) => n > firstCall && n < lastCall)).toBe(true);
  });

  it('writes a waiting page for an empty run and survives garbage artifacts', async () => {
    writeFileSync(join(dir, 'run_config.json'), JSON.stringify({ model: 'm', num_scenarios: 3 }));
    await buildViewer(dir);
    expect(pageData(join(dir, 'index.html'))).toMatchObject({ page: 'waiting', expected: 3 });
    const bad = join(dir, 'search', 'broken');
    mkdirSync(bad, { recursive: true });
    writeFileSync(join(bad, 'result.json'), '{not json');
    writeFileSync(join(bad, 'trace.jsonl'), '\u0000garbage\n{"seq":1,"raw_response":"data: {\\"type\\":\\"message_start\\""}\n');
    writeFileSync(join(bad, 'events.jsonl'), '{"t":1,"app":"X","fn":"y","args":{},"w":true,"ret":null}\n{"torn');
    writeScenario(dir, { id: 'search/good', status: 'pass' });
    await buildViewer(dir);
    const index = pageData(join(dir, 'index.html'));
    expect(index.rows.map((r: any) => [r.id, r.status])).toEqual([['search/broken', 'error'], ['search/good', 'pass']]);
    const broken = pageData(join(bad, 'trace.html'));
    expect(broken.badLines).toHaveLength(1);
    expect(broken.items.filter((i: any) => i.k === 'event')).toHaveLength(1);
  });

  it('embeds hostile strings inertly and ships a strict CSP without network sources', async () => {
    const canary = '</script><img src=x onerror=alert(1)>\u2028';
    writeRun(dir, [{ id: 'sc_x', status: 'fail', task: canary, toolArg: canary, reply: canary }]);
    await buildViewer(dir);
    const html = readFileSync(join(dir, 'sc_x', 'trace.html'), 'utf8');
    expect(html.match(/<\/script>/g)).toHaveLength(2); // the two real closing tags only
    expect(html).not.toContain('<img');
    expect(html).not.toMatch(/https?:\/\//);
    expect(pageData(join(dir, 'sc_x', 'trace.html')).items.some((i: any) => i.k === 'msg' && i.blocks[0]?.text === canary)).toBe(true);
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
    expect(jsonForScript({ a: '</script>&\u2029' })).toBe('{"a":"\\u003c/script\\u003e\\u0026\\u2029"}');
  });
});

describe('pass@N root', () => {
  it('builds each run and a dashboard with the run matrix, pass@k and pass^k; never flattens', async () => {
    writeRun(join(dir, 'run_1'), [{ id: 'search/a', status: 'pass' }, { id: 'search/b', status: 'fail' }, { id: 'time/c', status: 'pass' }]);
    writeRun(join(dir, 'run_2'), [{ id: 'search/a', status: 'fail' }, { id: 'search/b', status: 'fail' }, { id: 'time/c', status: 'pass' }]);
    const r = await buildViewer(dir);
    expect(r.pages).toBe(3 + 1 + 3 + 1 + 1 + 1); // traces, run indexes, dashboard, compare
    const d = pageData(join(dir, 'index.html'));
    expect(d.page).toBe('experiment');
    expect(d.runs.map((x: any) => [x.name, x.pass, x.fail])).toEqual([['run_1', 2, 1], ['run_2', 1, 2]]);
    expect(d.scenarios.map((s: any) => s.cells.map((c: any) => c.status))).toEqual([['pass', 'fail'], ['fail', 'fail'], ['pass', 'pass']]);
    expect(d.scenarios[0].cells[1].href).toBe('run_2/search/a/trace.html');
    // pass@1 = mean(1/2, 0, 1) = 0.5; pass@2 = mean(1, 0, 1); pass^2 = mean(0, 0, 1)
    expect(d.passK[0].passAt).toBeCloseTo(0.5);
    expect(d.passK[1].passAt).toBeCloseTo(2 / 3);
    expect(d.passK[1].passHat).toBeCloseTo(1 / 3);
    expect(pageData(join(dir, 'run_1', 'index.html')).crumbs[0]).toEqual({ label: expect.any(String), href: '../index.html' });
    expect(existsSync(join(dir, 'run_1', 'search', 'a', 'trace.html'))).toBe(true);
    const cmp = pageData(join(dir, 'compare.html'));
    expect(cmp.rows[0]).toMatchObject({ id: 'search/a', a: { status: 'pass', href: 'run_1/search/a/trace.html' }, b: { status: 'fail' } });
  });

  it('a folder of runs and pass@N roots gets a landing page; nothing is flattened', async () => {
    writeRun(join(dir, 'exp', 'run_1'), [{ id: 'a', status: 'pass' }]);
    writeRun(join(dir, 'exp', 'run_2'), [{ id: 'a', status: 'fail' }]);
    writeRun(join(dir, 'single'), [{ id: 'b', status: 'error' }, { id: 'c', status: 'running' }]);
    mkdirSync(join(dir, 'notes'));
    await buildViewer(dir);
    const landing = pageData(join(dir, 'index.html'));
    expect(landing.page).toBe('landing');
    expect(landing.entries.map((e: any) => [e.name, e.kind, e.pass, e.fail, e.error, e.running, e.href])).toEqual([
      ['exp', 'pass@2', 1, 1, 0, 0, 'exp/index.html'],
      ['single', 'run', 0, 0, 1, 1, 'single/index.html'],
    ]);
    expect(pageData(join(dir, 'exp', 'index.html')).crumbs[0]).toMatchObject({ href: '../index.html' });
    expect(pageData(join(dir, 'exp', 'run_1', 'index.html')).crumbs.map((c: any) => c.href)).toEqual(['../../index.html', '../index.html', undefined]);
    expect(existsSync(join(dir, 'exp', 'run_1', 'a', 'trace.html'))).toBe(true);
  });

  it('compare finds the first diverging write action', () => {
    writeRun(join(dir, 'a'), [{ id: 's1', status: 'pass' }]);
    writeRun(join(dir, 'b'), [{ id: 's1', status: 'fail', reply: 'Different reply' }]);
    const out = buildComparison(join(dir, 'a'), join(dir, 'b'), join(dir, 'cmp.html'));
    const row = pageData(out).rows[0];
    expect(row.a.href).toBe('a/s1/trace.html');
    expect(row.divergence.index).toBe(1); // send_email is equal, the reply differs
    expect(row.divergence.b).toContain('Different reply');
  });
});
