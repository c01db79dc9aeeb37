// Per-language datasets (Omnilingual-Gaia2) against the Hub double: configs <language>_<split>
// in the Hub, split "test", the four translated splits by default (no `time`), one cache
// directory per language with bare split directories, and a local export per language.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MULTILINGUAL_SPLITS } from '../../../runner/src/plan/plan.js';
import { DatasetError, hfConfigName, hfDatasetDir, resolveDataset } from '../../../runner/src/dataset/index.js';
import { startFakeHub, scenarioParquet, type FakeHub } from '../../helpers/fake-hub/index.js';
import { scenarioJson, writeScenario } from './make-scenario.js';

const REPO = 'facebook/omnilingual-gaia2';
// Translated task texts, as the per-language configs carry them (the API surface stays English).
const TASKS: Record<string, string> = {
  spa_Latn: '¿Puedes enviar a Kenji un mensaje para confirmar la reunión de hoy a las 14:00?',
  jpn_Jpan: 'ケンジに今日14時の打ち合わせの確認メッセージを送ってください。',
};
const rows = (lang: string, split: string, n: number) =>
  Array.from({ length: n }, (_, i) => {
    const id = `${split}_${lang}_${i}`;
    const s = scenarioJson(id);
    (s.events as Array<{ action: { args: Array<{ value: string }> } }>)[0]!.action.args[0]!.value = TASKS[lang]!;
    return { scenario_id: id, scenario: JSON.stringify(s) };
  });

describe('per-language Hugging Face configs', () => {
  let hub: FakeHub;
  let env: Record<string, string>;
  beforeEach(async () => {
    hub = await startFakeHub();
    env = { GAIA2_HF_CACHE: mkdtempSync(join(tmpdir(), 'hf-lang-')), HF_ENDPOINT: hub.url };
    for (const lang of Object.keys(TASKS))
      for (const split of MULTILINGUAL_SPLITS) {
        hub.setFile(REPO, `${hfConfigName(split, lang)}/test-00000-of-00001.parquet`, scenarioParquet(rows(lang, split, 2)));
        // another HF split of the same config is never read
        hub.setFile(REPO, `${hfConfigName(split, lang)}/train-00000-of-00001.parquet`, scenarioParquet(rows(lang, `${split}train`, 1)));
      }
  });
  afterEach(async () => {
    await hub.stop();
  });

  const target = (language: string, splits: string[] | null) => ({ kind: 'hf' as const, repo: REPO, revision: 'main', splits, subset: null, limit: null, language });

  it('the config name is <language>_<split>; without splits the four translated ones, never time', async () => {
    expect(hfConfigName('search', 'spa_Latn')).toBe('spa_Latn_search');
    expect(hfConfigName('search', null)).toBe('search');
    const ds = await resolveDataset(target('spa_Latn', null), { env });
    expect(ds.splits).toEqual(['execution', 'search', 'ambiguity', 'adaptability']);
    const listed = hub.requests.filter((p) => p.includes('/tree/'));
    expect(listed.map((p) => p.split('/tree/main/')[1])).toEqual(['spa_Latn_execution', 'spa_Latn_search', 'spa_Latn_ambiguity', 'spa_Latn_adaptability']);
    expect(hub.requests.some((p) => p.includes('_time'))).toBe(false);
    expect(ds.entries).toHaveLength(8);
    expect(ds.entries.every((e) => e.id.includes('_spa_Latn_') && !e.id.includes('train'))).toBe(true);
  });

  it('each language has its own cache directory with bare split directories; the text is kept as sent', async () => {
    const spa = await resolveDataset(target('spa_Latn', ['search']), { env });
    const jpn = await resolveDataset(target('jpn_Jpan', ['search']), { env });
    expect(spa.cacheDir).toBe(hfDatasetDir(REPO, env, 'spa_Latn'));
    expect(spa.cacheDir!.endsWith('facebook_omnilingual-gaia2_spa_Latn')).toBe(true);
    expect(jpn.cacheDir!.endsWith('facebook_omnilingual-gaia2_jpn_Jpan')).toBe(true);
    expect(readdirSync(spa.cacheDir!).filter((d) => !d.startsWith('.'))).toEqual(['search']);
    expect(jpn.entries.map((e) => e.split)).toEqual(['search', 'search']);
    const text = readFileSync(join(jpn.cacheDir!, 'search', 'search_jpn_Jpan_0.json'), 'utf8');
    expect(text).toContain(TASKS.jpn_Jpan);
    const manifest = JSON.parse(readFileSync(join(spa.cacheDir!, '.gaia2-cache', 'search.json'), 'utf8'));
    expect(manifest).toMatchObject({ repo: REPO, split: 'search', config: 'spa_Latn_search', rows: 2 });
    // the English layout of the same repo is untouched
    expect(existsSync(hfDatasetDir(REPO, env))).toBe(false);
  });

  it('a cached language is reused without the network', async () => {
    await resolveDataset(target('spa_Latn', ['search']), { env });
    const before = hub.requests.length;
    const again = await resolveDataset(target('spa_Latn', ['search']), { env });
    expect(again.entries).toHaveLength(2);
    expect(hub.requests.length).toBe(before);
  });

  it('an unknown language names the config and the setting, lists the configs, and leaves no split behind', async () => {
    const err = await resolveDataset(target('spa', ['search']), { env }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatasetError);
    const msg = (err as Error).message;
    expect(msg).toContain('config "spa_search" (language spa): not found (check [target].language / --language; available configs: ');
    expect(msg).toContain('jpn_Jpan_search');
    expect(msg).toContain('spa_Latn_adaptability');
    expect(existsSync(join(hfDatasetDir(REPO, env, 'spa'), 'search'))).toBe(false);
  });
});

describe('a local export with a language', () => {
  it('<root>/<language>/<split>/…: the language directory is the root; time is not a default split', async () => {
    const root = mkdtempSync(join(tmpdir(), 'omni-export-'));
    for (const split of MULTILINGUAL_SPLITS) writeScenario(join(root, 'deu_Latn', split, `${split}_1.json`), `${split}_deu_1`);
    const { languageRoot } = await import('../../../runner/src/config/resolve-parts.js');
    const path = languageRoot(root, 'deu_Latn');
    expect(path).toBe(join(root, 'deu_Latn'));
    const ds = await resolveDataset({ kind: 'local', path, recursive: true, splits: [...MULTILINGUAL_SPLITS], subset: null, limit: null, language: 'deu_Latn' }, { env: {} });
    expect(ds.entries.map((e) => e.id).sort()).toEqual(['adaptability_deu_1', 'ambiguity_deu_1', 'execution_deu_1', 'search_deu_1']);
    // a root that is already one language's tree is taken as it is
    expect(languageRoot(join(root, 'deu_Latn'), 'deu_Latn')).toBe(join(root, 'deu_Latn'));
  });
});
