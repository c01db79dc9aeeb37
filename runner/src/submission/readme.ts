// README.md of a submission dataset: the Hub's YAML front matter (configs with their data
// files, dataset_info with the features) that the reference writes, then a summary.
import { SUBMISSION_COLUMNS } from './format.js';

export interface ReadmeInput {
  model: string;
  provider: string;
  dataset: string;
  split: string;
  /** Config name → its data file glob. */
  configs: string[];
  /** Markdown table of the results (the overall phases report). */
  results: string;
  runsPerScenario: number;
}

// Names here are identifiers (configs, columns, splits); quoting keeps any other text valid YAML.
const q = (s: string): string => JSON.stringify(s);

export function submissionReadme(i: ReadmeInput): string {
  const y: string[] = ['configs:'];
  for (const c of i.configs) y.push(`- config_name: ${q(c)}`, '  data_files:', `  - split: ${q(i.split)}`, `    path: ${q(`${c}/${i.split}-*`)}`);
  y.push('dataset_info:');
  for (const c of i.configs) {
    y.push(`- config_name: ${q(c)}`, '  features:');
    for (const [name, dtype] of SUBMISSION_COLUMNS) y.push(`  - name: ${q(name)}`, `    dtype: ${q(dtype)}`);
    y.push('  splits:', `  - name: ${q(i.split)}`);
  }
  return [
    '---',
    ...y,
    '---',
    '',
    '# Gaia2 leaderboard submission',
    '',
    `- Model: ${i.model}`,
    `- Provider: ${i.provider}`,
    `- Dataset: ${i.dataset}`,
    `- Split: ${i.split}`,
    `- Runs per scenario: ${i.runsPerScenario}`,
    '- Made with gaia2-runner (container world); each row\'s `data` holds that run\'s result and event, agent-trace and noise files.',
    '',
    '## Results',
    '',
    i.results,
    '',
    '## Columns',
    '',
    SUBMISSION_COLUMNS.map(([n, t]) => `- \`${n}\` (${t})`).join('\n'),
    '',
  ].join('\n');
}
