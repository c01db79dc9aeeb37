"""Normalisation of one command's outcome for the CLI differential corpus.

The same rules run on our side (test/agent-image/apps/cli-diff/normalise.ts): the state dir
path becomes <STATE_DIR>, file times of `cloud-drive info` become <FILE_CTIME>/<FILE_MTIME>
and directory sizes <DIR_SIZE> (file-system dependent). stderr keeps only its last line.
"""

import re

TIME_RE = re.compile(r'"(created|modified)": -?[0-9][0-9.e+-]*')
DIR_SIZE_RE = re.compile(r'"size": [0-9]+(,\s*"type": "directory")')
TIME_NAMES = {"created": "<FILE_CTIME>", "modified": "<FILE_MTIME>"}


def norm_text(text: str, state_dir: str) -> str:
    text = text.replace(state_dir, "<STATE_DIR>")
    text = TIME_RE.sub(lambda m: f'"{m.group(1)}": "{TIME_NAMES[m.group(1)]}"', text)
    return DIR_SIZE_RE.sub(lambda m: '"size": "<DIR_SIZE>"' + m.group(1), text)


def normalise(code, out, err, lines, state_dir):
    err_lines = [l for l in err.rstrip().split("\n") if l.strip()]
    rec = {"code": code, "out": norm_text(out, state_dir), "err": norm_text(err_lines[-1].rstrip(), state_dir) if err_lines else ""}
    if err.startswith("Traceback"):
        rec["crash"] = True
    rec["ev"] = [norm_text(l, state_dir) for l in lines]
    return rec
