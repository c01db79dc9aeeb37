#!/usr/bin/env python3
"""Records the CLI differential corpus from the reference CLIs (upstream gaia2-cli, run natively).

Usage (Python 3.11+ with click 8.4, PYTHONHASHSEED=0):
    PYTHONHASHSEED=0 python3 scripts/cli-diff/record.py --upstream /tmp/upstream/gaia2-cli \
        --out test/fixtures/cli-diff/corpus.jsonl.gz [--per-command 12]

For every seed (the golden CLI transcripts' seeds and examples/scenarios) the reference
`gaia2-init` seeds a state dir once; every generated command then runs in-process against a
fresh copy of it, with time.time() pinned to the seed's clock, uuid4() drawing a fixed id
sequence, and the sim-time file replaced by the clock string. Recorded per command: argv, env,
exit code, stdout, the last stderr line and the events.jsonl lines it appended. Nothing of
the reference's code is copied here; it is imported from --upstream at run time.
"""

import argparse
import contextlib
import glob
import gzip
import io
import json
import os
import random
import shutil
import sys
import tempfile
import time
import traceback
import uuid
from datetime import datetime, timezone

from generate import Generator
from preludes import preludes, with_generated_ids
from pools import collect_pools
from normalise import normalise

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MODULES = {"calendar": "calendar", "contacts": "contacts", "emails": "email", "messages": "messages",
           "chats": "chats", "rent-a-flat": "apartment", "cabs": "cab", "city": "city",
           "shopping": "shopping", "cloud-drive": "files"}
# Scenario app names (and aliases) → binary.
APP_TO_BIN = {"Calendar": "calendar", "Contacts": "contacts", "Emails": "emails", "EmailClientV2": "emails",
              "Messages": "messages", "Chats": "chats", "RentAFlat": "rent-a-flat", "Cabs": "cabs",
              "CabApp": "cabs", "City": "city", "CityApp": "city", "Shopping": "shopping", "Files": "cloud-drive"}


def seeds():
    """(source path relative to the repo, scenario dict, fs_backing, clock)."""
    out = []
    for f in sorted(glob.glob(os.path.join(ROOT, "test/fixtures/golden/cli/*.json"))):
        t = json.load(open(f))
        apps = [{"name": n, "class_name": (t.get("class_names") or {}).get(n, n), "app_state": s}
                for n, s in t["seed"].items()]
        out.append((os.path.relpath(f, ROOT), {"apps": apps}, t.get("fs_backing") or {}, t["clock"]))
    for f in sorted(glob.glob(os.path.join(ROOT, "examples/scenarios/*/*.json"))):
        sc = json.load(open(f))
        start = sc["metadata"]["definition"]["start_time"]
        clock = datetime.fromtimestamp(start, timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
        out.append((os.path.relpath(f, ROOT), sc, {}, clock))
    return out


class Reference:
    """The reference CLIs imported in-process, with clock, ids and sim-time file pinned."""

    def __init__(self, upstream: str, work: str):
        sys.path.insert(0, os.path.join(upstream, "cli"))
        os.environ["GAIA2_STATE_DIR"] = work  # read at import time by set_app()
        import gaia2_cli.shared as shared
        import gaia2_cli.init_cmd as init_cmd
        import importlib
        self.shared = shared
        self.init_cmd = init_cmd
        self.mods = {b: importlib.import_module("gaia2_cli.apps." + m) for b, m in MODULES.items()}
        self.simfile = os.path.join(work, "faketime.rc")
        real_open = open

        def pinned_open(path, *a, **k):
            return real_open(self.simfile if path == "/tmp/faketime.rc" else path, *a, **k)
        shared.open = pinned_open
        # gaia2-init also writes decoded attachment copies to /workspace/attachments (nothing
        # reads them; our init does not write them either): kept off the host.
        init_cmd._decode_attachments_in_state = lambda *a, **k: None
        self.ids = 0
        uuid.uuid4 = self._next_uuid
        self.now = 0.0
        time.time = lambda: self.now

    def _next_uuid(self):
        self.ids += 1
        return uuid.UUID(int=(0xC0DE << 112) | self.ids)

    def init(self, scenario: dict, fs_backing: dict, state_dir: str, clock: str):
        backing = state_dir + "-backing"
        for rel, content in fs_backing.items():
            p = os.path.join(backing, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            data = content.encode() if isinstance(content, str) else __import__("base64").b64decode(content["base64"])
            open(p, "wb").write(data)
        sc = state_dir + ".json"
        json.dump(scenario, open(sc, "w"))
        self.init_cmd.main.main(["--scenario", sc, "--state-dir", state_dir, "--fs-backing-dir", backing],
                                standalone_mode=False)
        with open(self.simfile, "w") as f:
            f.write(clock)
        self.now = datetime.strptime(clock, "%Y-%m-%d %H:%M:%S").replace(tzinfo=timezone.utc).timestamp()

    def run(self, argv, env, state_dir, keep_ids=False):
        bin_name = argv[0]
        mod = self.mods[bin_name]
        os.environ["GAIA2_STATE_DIR"] = state_dir
        os.environ.pop("GAIA2_EVENT_ID", None)
        os.environ.pop("GAIA2_FS_ROOT", None)
        for k, v in (env or {}).items():
            os.environ[k] = v
        self.shared._APP_CLASS_MAP = None
        self.shared.set_app(mod.APP_NAME)
        if not keep_ids:
            self.ids = 0
        ev = os.path.join(state_dir, "events.jsonl")
        before = os.path.getsize(ev) if os.path.exists(ev) else 0
        out, err = io.StringIO(), io.StringIO()
        code = 0
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                mod.cli.main(args=argv[1:], prog_name=bin_name, standalone_mode=True)
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
                if isinstance(e.code, str):
                    print(e.code, file=sys.stderr)
            except Exception:
                traceback.print_exc()
                code = 1
        for path in list(self.shared._active_locks):
            self.shared._release_lock(path)
        with open(ev, "rb") as f:
            f.seek(before)
            lines = f.read().decode().splitlines()
        for k in (env or {}):
            os.environ.pop(k, None)
        return code, out.getvalue(), err.getvalue(), lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--upstream", required=True, help="gaia2-cli folder of the reference's source")
    ap.add_argument("--out", default=os.path.join(ROOT, "test/fixtures/cli-diff/corpus.jsonl.gz"))
    ap.add_argument("--per-command", type=int, default=12, help="random commands per command and seed")
    ap.add_argument("--seed", type=int, default=2024)
    a = ap.parse_args()
    if os.environ.get("PYTHONHASHSEED") != "0":
        sys.exit("set PYTHONHASHSEED=0 (set-ordered lists must come out as the golden transcripts' did)")
    work = tempfile.mkdtemp(prefix="cli-diff-")
    ref = Reference(a.upstream, work)
    rng = random.Random(a.seed)
    records = []
    for si, (source, scenario, fs_backing, clock) in enumerate(seeds()):
        pristine = os.path.join(work, f"seed{si}")
        with contextlib.redirect_stdout(io.StringIO()):
            ref.init(scenario, fs_backing, pristine, clock)
        pools = collect_pools(pristine)
        records.append({"seed": si, "source": source, "clock": clock})
        bins = sorted({APP_TO_BIN[x["name"]] for x in scenario["apps"] if x["name"] in APP_TO_BIN})
        for b in bins:
            gen = Generator(ref.mods[b].cli, pools, rng)
            cmds = list(gen.for_group(b))
            for name, cmd in ref.mods[b].cli.commands.items():
                if name != "schema":
                    cmds += list(gen.for_command(b, name, cmd, a.per_command))
            cmds = [(argv, env, None) for argv, env in cmds]
            gen_after = Generator(ref.mods[b].cli, with_generated_ids(pools), rng)
            for pre in preludes(b, pools):
                cmds += list(gen_after.after_prelude(b, pre, 3))
            for argv, env, pre in cmds:
                state = os.path.join(work, "run")
                shutil.rmtree(state, ignore_errors=True)
                shutil.copytree(pristine, state, symlinks=True)
                ref.ids = 0
                for p in pre or []:
                    ref.run(p, None, state, keep_ids=True)
                code, out, err, lines = ref.run(argv, env, state, keep_ids=True)
                rec = {"s": si, "argv": argv}
                if pre:
                    rec["pre"] = pre
                if env:
                    rec["env"] = env
                rec.update(normalise(code, out, err, lines, state))
                records.append(rec)
        print(f"{source}: {sum(1 for r in records if r.get('s') == si)} commands", file=sys.stderr)
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    body = "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in records)
    with open(a.out, "wb") as f:  # mtime 0: the same corpus gives the same bytes
        f.write(gzip.compress(body.encode("utf-8"), compresslevel=9, mtime=0))
    shutil.rmtree(work, ignore_errors=True)
    print(f"{sum(1 for r in records if 'argv' in r)} commands -> {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
