"""Value pools for generated commands, taken from a seeded state dir (ids, names, paths, …)."""

import json
import os
import re

DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$")
WORD_KEYS = {"title", "subject", "content", "name", "description", "location", "job", "city_living", "product_name"}


def collect_pools(state_dir: str) -> dict[str, list[str]]:
    pools: dict[str, list[str]] = {}

    def add(key, value):
        if value is None or isinstance(value, (dict, list)):
            return
        s = str(value) if not isinstance(value, bool) else ("True" if value else "False")
        lst = pools.setdefault(key, [])
        if s not in lst and len(lst) < 40:
            lst.append(s)

    def walk(node, parent_key=None):
        if isinstance(node, dict):
            for k, v in node.items():
                if isinstance(v, dict) and parent_key is not None:
                    add(parent_key + "_key", k)
                if isinstance(v, list) and v and all(not isinstance(x, (dict, list)) for x in v):
                    for x in v:
                        add(k + "_item", x)
                        add(k.rstrip("s"), x)
                elif isinstance(v, str) or isinstance(v, (int, float)):
                    add(k, v)
                    if isinstance(v, str) and "@" in v:
                        add("email", v)
                    if isinstance(v, str) and DATE_RE.match(v):
                        add("dates", v)
                    if k in WORD_KEYS and isinstance(v, str):
                        for w in re.findall(r"[A-Za-z]{4,}", v)[:3]:
                            add("words", w)
                walk(v, k)
        elif isinstance(node, list):
            for x in node:
                walk(x, parent_key)

    for f in sorted(os.listdir(state_dir)):
        if f.endswith(".json") and f != "app_class_map.json":
            try:
                state = json.load(open(os.path.join(state_dir, f)))
            except ValueError:
                continue
            walk(state, "")
            for m in ("id_to_name",):
                for k, v in (state.get(m) or {}).items():
                    add("user_id", k)
                    add("sender_id", k)
                    add("user_name", v)
            for k in (state.get("name_to_id") or {}):
                add("user_name", k)
            for k in (state.get("crime_data") or {}):
                add("zip_code", k)
            for codes in (state.get("discount_codes") or {}).values():
                for code in codes if isinstance(codes, dict) else []:
                    add("discount_code", code)
                    add("discount_code", code.lower())
            for i, _ in enumerate(state.get("ride_history") or []):
                add("idx", i)
    firsts, lasts = pools.get("first_name", []), pools.get("last_name", [])
    for a, b in zip(firsts, lasts):
        add("full_names", f"{a} {b}")
        add("who_add", f"{a} {b}")
        add("who_delete", f"{a} {b}")
    for name in pools.get("user_name", [])[:4]:
        add("who_add", name)
        add("who_delete", name)
        add("full_names", name)
    for u in pools.get("user_name", [])[:3]:
        add("user_name", u.lower())
        add("user_name", u.split(" ")[0])
    add("idx", -1)
    add("idx", 99)
    fs = os.path.join(state_dir, "filesystem")
    if os.path.isdir(fs):
        for dirpath, dirs, files in os.walk(fs):
            dirs.sort()
            rel = "/" + os.path.relpath(dirpath, fs).replace(".", "", 1 if dirpath == fs else 0)
            rel = "/" if dirpath == fs else rel
            add("drive_paths", rel)
            for fn in sorted(files):
                p = os.path.join(rel, fn)
                add("drive_paths", p)
                add("file_paths", p)
    return pools
