// A universe chain on the Kubernetes backend, against the API-server double whose Pods run in
// podman (scripts/k8s-sandbox.sh): the runner reads the carry out of scenario 1's Pod through
// its adapter (GET /carry, by the pod proxy) and hands it to scenario 2's Pod through the
// adapter before its agent starts (the home moved into place by the entrypoint, the agent's
// own). A probe agent layer says each turn what it finds: a file of its home and its owner, a
// contact it added (the contacts app's state), a credential it left (never carried).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRunConfig } from '../../runner/src/config/resolve-toml.js';
import { DEFAULT_IMAGE } from '../../runner/src/image/index.js';
import { prepareDataset, runSession } from '../../runner/src/orchestrator/session.js';

const root = join(import.meta.dirname, '..', '..');
const world = process.env.GAIA2_TEST_IMAGE ?? DEFAULT_IMAGE;
const probe = `localhost/gaia2-k8s-chain-probe:${world.split(':').pop() ?? 'latest'}`;
const work = mkdtempSync(join(tmpdir(), 'gaia2-k8s-chain-e2e-'));
const sandbox = (cmd: string) => execFileSync('bash', [join(root, 'scripts/k8s-sandbox.sh'), cmd], { env: { ...process.env, K8SD_STATE_DIR: join(work, 'sandbox') }, encoding: 'utf8' }).trim();
const FIRST = 'search/search_cab_cheapest_airport.json';
const SECOND = 'time/time_calendar_boat_trip.json';

// Each turn: the home's tally, the probe contacts the apps hold, and what the unit held before
// its first turn (the tally's owner, a credential of an earlier scenario); then one more of each.
const PROBE = `#!/bin/bash
cat >/dev/null
h=/home/agent t=/home/agent/tally/count.txt
seen=$(cat "$t" 2>/dev/null || echo 0)
# what the unit held before its first turn (a later turn sees its own turns' files)
f=/tmp/k8s-probe-first
if [[ ! -f $f ]]; then
  token=absent; [[ -f $h/.git-credentials ]] && token=present
  echo "owner=$(stat -c %U "$t" 2>/dev/null || echo none) token=$token private=$(cat "$h/.private/note" 2>/dev/null || echo none) empty=$([[ -d $h/empty ]] && echo yes || echo no) link=$(readlink "$h/latest" || echo none)" >"$f"
fi
# an empty folder and a link, as a program's cache folder and its \`latest\` pointer
mkdir -p "$h/empty" && ln -sfn tally/count.txt "$h/latest"
# a file only the agent may read (0600 in a 0700 folder), as a program's session store is
mkdir -p -m 700 "$h/.private" && (umask 077; echo kept >"$h/.private/note")
k=$(contacts search-contacts --query Kubeprobe 2>/dev/null | grep -o 'Turn[0-9]*' | sort -u | wc -l)
mkdir -p "$h/tally" && echo $((seen + 1)) >"$t"
echo "https://u:p@example.com" >"$h/.git-credentials"
contacts add-new-contact --first-name Kubeprobe --last-name "Turn$seen" >/dev/null 2>&1 || true
echo "tally=$seen contacts=$k $(cat $f)"
`;

let kubeconfig = '';

beforeAll(() => {
  kubeconfig = sandbox('start');
  const ctx = join(work, 'probe');
  mkdirSync(ctx);
  writeFileSync(join(ctx, 'agent'), PROBE, { mode: 0o755 });
  writeFileSync(join(ctx, 'Dockerfile'), `FROM ${world}\nCOPY agent /opt/gaia2-agent/bin/agent\nLABEL gaia2.agent.name=k8s-chain-probe gaia2.agent.version=0.1.0\nENV GAIA2_AGENT=external\n`);
  execFileSync('podman', ['build', '-q', '-t', probe, ctx], { stdio: 'ignore' });
}, 300_000);

afterAll(() => {
  sandbox('stop');
});

describe('universe chains on kubernetes (API-server double, Pods in podman)', () => {
  it('scenario 2 starts from the home and the app state scenario 1 left', async () => {
    const data = join(work, 'data');
    for (const f of [FIRST, SECOND]) {
      mkdirSync(join(data, f.split('/')[0]!), { recursive: true });
      cpSync(join(root, 'examples/scenarios', f), join(data, f));
    }
    const id = (f: string) => f.split('/')[1]!.replace('.json', '');
    const seq = join(work, 'chains.jsonl');
    writeFileSync(seq, JSON.stringify({ universe_id: 'u-k8s', scenarios: [FIRST, SECOND].map((f) => ({ scenario_id: id(f) })) }) + '\n');
    const file = join(work, 'c.toml');
    writeFileSync(
      file,
      `[target]\ndataset_root = ${JSON.stringify(data)}\nsequences = ${JSON.stringify(seq)}\n` +
        `[run]\noutput_dir = "out"\nhealth_timeout = 120\ntimeout = 180\nbackend = "kubernetes"\n` +
        `[kubernetes]\nkubeconfig = ${JSON.stringify(kubeconfig)}\nimage_pull_policy = "Never"\npending_timeout = 300\n` +
        `[agent]\nname = "external"\nimage = ${JSON.stringify(probe)}\n`,
    );
    const output: string[] = [];
    const io = { out: (t: string) => void output.push(t), err: (t: string) => void output.push(t), env: process.env };
    const plan = loadRunConfig(file, process.env);
    const { code } = await runSession(plan, await prepareDataset(plan, io), io);
    expect(code, output.join('')).toBe(0);
    const dir = (f: string) => join(work, 'out', f.split('/')[0]!, id(f));
    const said = (f: string) => /tally=\d+ contacts=\d+ owner=\w+ token=\w+ private=\w+ empty=\w+ link=\S+/.exec(readFileSync(join(dir(f), 'agent_response.txt'), 'utf8'))?.[0];
    const result = (f: string) => JSON.parse(readFileSync(join(dir(f), 'result.json'), 'utf8')) as Record<string, unknown>;
    expect(said(FIRST)).toBe('tally=0 contacts=0 owner=none token=absent private=none empty=no link=none');
    // Scenario 2's unit starts with scenario 1's tally as the agent's own file, its contact, its
    // private file, empty folder and link, and not its credential (every turn adds one to the
    // tally and one contact).
    expect(said(SECOND)).toMatch(/^tally=[1-9]\d* contacts=[1-9]\d* owner=agent token=absent private=kept empty=yes link=tally\/count\.txt$/);
    const [tally, contacts] = /tally=(\d+).*contacts=(\d+)/.exec(said(SECOND)!)!.slice(1).map(Number);
    expect(contacts).toBe(tally);
    expect(result(SECOND).carry_error).toBeUndefined();
    expect([result(FIRST).universe_position, result(SECOND).universe_position]).toEqual([0, 1]);
    expect(output.join('')).not.toMatch(/cannot carry/);
  }, 300_000);
});
