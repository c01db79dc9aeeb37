import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { DEFAULT_TITLE } from '../../leaderboard/defaults.js';

interface LeaderboardFlags {
  out: string;
  format: 'md' | 'json' | 'html' | 'none';
  title: string;
  commonScenarios?: boolean;
  viewer: boolean;
  prices?: string;
  errorsAsFailures?: boolean;
}

export function register(program: Command): void {
  program
    .command('leaderboard')
    .description('agents × models side by side: success ± 95% CI per capability, pass@k/pass^k, tokens, cost and time per run, each row linked to its viewer → leaderboard.html, .md, .json')
    .argument('<run-dirs...>', 'runs to rank: run directories, pass@N roots, gaia2-run roots (one row per phase)')
    .option('--out <dir>', 'folder for leaderboard.html, leaderboard.md and leaderboard.json', 'leaderboard')
    .addOption(new Option('--format <format>', 'what to print on stdout').choices(['md', 'json', 'html', 'none']).default('md'))
    .option('--title <text>', 'the page title', DEFAULT_TITLE)
    .option('--common-scenarios', 'restrict every row to the scenarios all rows of its setting ran (a fair comparison when the runs differ)')
    .option('--no-viewer', "do not build the runs' viewer pages (rows link to a viewer only where one was built before)")
    .option('--errors-as-failures', "count runs that ended in errors as failed runs (default: each run's own choice)")
    .option('--no-errors-as-failures', 'leave errors out of every denominator even for runs started with --errors-as-failures')
    .option('--prices <file>', 'price table (JSON) whose entries replace the built-in prices per model (default: $GAIA2_PRICES)')
    .addHelpText('after', '\nExamples:\n  $ gaia2-runner leaderboard runs/claude-code runs/codex runs/gemini-cli --out site/\n  $ gaia2-runner leaderboard runs/*/ --common-scenarios --format none')
    .action(async (dirs: string[], f: LeaderboardFlags) => {
      const [{ buildLeaderboard, LEADERBOARD_FILES, resolveSources, saveLeaderboard }, { loadPriceTable }, { buildViewer }] = await Promise.all([
        import('../../leaderboard/index.js'),
        import('../../tokens/index.js'),
        import('../../viewer/index.js'),
      ]);
      const prices = loadPriceTable(f.prices);
      const out = resolve(f.out);
      // Every row links to its run's viewer: build it first (incremental: a built run is only checked).
      if (f.viewer) for (const root of new Set(resolveSources(dirs).map((s) => s.viewerRoot))) await buildViewer(root);
      const lb = buildLeaderboard(dirs, {
        outDir: out,
        prices,
        title: f.title,
        commonOnly: Boolean(f.commonScenarios),
        warn: (l) => process.stderr.write(l + '\n'),
        ...(f.errorsAsFailures !== undefined ? { errorsAsFailures: f.errorsAsFailures } : {}),
      });
      const texts = await saveLeaderboard(out, lb);
      if (f.format !== 'none') process.stdout.write(texts[f.format]);
      process.stderr.write(`Leaderboard written to ${Object.values(LEADERBOARD_FILES).map((n) => resolve(out, n)).join(', ')}\n`);
    });
}
