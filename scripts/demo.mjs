// `npm run demo`: engine set up if needed, agent image built if missing or stale, then the
// oracle demo config on the bundled sample scenarios (one or more per split).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'bin', 'gaia2-runner.mjs');
const sh = (cmd, args) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit' }).status ?? 1;

if (sh('bash', [join(root, 'scripts/setup-engine.sh')]) !== 0) process.exit(1);
if (sh(process.execPath, [cli, 'build-image', '--if-changed']) !== 0) process.exit(1);
process.exit(sh(process.execPath, [cli, 'run-config', join(root, 'examples/demo.toml'), ...process.argv.slice(2)]));
