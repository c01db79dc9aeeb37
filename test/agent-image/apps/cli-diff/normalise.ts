// The corpus's normalisation (scripts/cli-diff/normalise.py), applied to our outputs: the state
// dir path, cloud-drive file times and directory sizes (file-system dependent) become
// placeholders; stderr keeps its last non-blank line.
const TIME_RE = /"(created|modified)": -?[0-9][0-9.e+-]*/g;
const DIR_SIZE_RE = /"size": [0-9]+(,\s*"type": "directory")/g;
const TIME_NAMES: Record<string, string> = { created: '<FILE_CTIME>', modified: '<FILE_MTIME>' };

export function normText(text: string, stateDir: string): string {
  return text
    .split(stateDir)
    .join('<STATE_DIR>')
    .replace(TIME_RE, (_m, key: string) => `"${key}": "${TIME_NAMES[key]}"`)
    .replace(DIR_SIZE_RE, (_m, rest: string) => `"size": "<DIR_SIZE>"${rest}`);
}

export function lastLine(stderr: string): string {
  const lines = stderr
    .trimEnd()
    .split('\n')
    .filter((l) => l.trim() !== '');
  return lines.length ? lines[lines.length - 1]!.trimEnd() : '';
}
