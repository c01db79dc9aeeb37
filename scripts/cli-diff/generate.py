"""Command generator for the CLI differential test (our code, not the reference's).

Given a Click group (introspected from the reference CLI) and value pools taken from a seeded
state, yields argv lists that exercise every command and option: valid values from the state,
malformed values, every flag alias, `--opt=value`, repeated options, truncated and mis-cased
option and command names, missing values and arguments, extra arguments, case variants of enum
values and the path forms the cloud drive resolves. Deterministic for a given random seed.
"""

import json
import random

import click

MALFORMED = ["", " ", "abc", "-1", "0", "null", "[]", "{}", "[", '{"a": 1}', "Zo\u00eb \u00fcber \U0001f600", "x" * 70, "1.5", "None"]
INTS = ["0", "1", "2", "3", "-1", "10", "100", "abc", "1.5", "", " 2", "0x10", "+3", "1_000"]
FLOATS = ["0", "1.5", "-3", "1e3", "100", "2500.50", "abc", "nan", "inf", "", "1,5", "-0.0"]
DATES = ["2024-10-15 09:00:00", "2024-10-15 07:00:00", "2025-10-09 09:00:00", "2025-10-10 18:30:00",
         "2024-10-15", "2024-10-15T09:00:00", "15/10/2024 09:00", "2024-13-45 99:00:00", "tomorrow", "",
         "2024-10-14 00:00:00", "2026-01-01 00:00:00", "1970-01-01 00:00:00", "2024-10-15 9:00:00"]
FOLDERS = ["INBOX", "inbox", "Inbox", "SENT", "sent", "Sent", "DRAFT", "draft", "TRASH", "trash", "Trash",
           "ARCHIVE", "Spam", "", "INBOX ", "drafts"]
STATUSES = ["DELAYED", "IN_PROGRESS", "ARRIVED_AT_PICKUP", "delayed", "Arrived_At_Pickup", "DELIVERED", "delivered", "Delivered", "IN_PROGRESS", "in_progress", "BOOKED", "booked",
            "ARRIVED_AT_PICKUP", "CANCELLED", "cancelled", "shipped", "SHIPPED", "processing", "Processing",
            "refunded", "unknown", ""]
SERVICE_TYPES = ["Default", "default", "DEFAULT", "Premium", "premium", "Van", "VAN", "van", "Luxury", ""]
BOOLS = ["True", "False", "true", "false", "TRUE", "1", "0", "yes", "no", "maybe", ""]
DRIVE_PATHS = ["/", "", ".", "..", "~", "~/", "~/Documents", "~bob/x", "/..", "/../..", "../etc/passwd",
               "/home", "home/", "/home/userhome", "/home/userhome/", "//", "/nope", "/nope/deeper", "./x", "a/../b"]
DOWNLOAD_PATHS = ["Downloads/", "Downloads", "~/Downloads", "/Downloads/", "out/sub", "../outside", "/", "", "~", "."]
JSON_KEYS = {"updates": ["first_name", "last_name", "age", "email", "phone", "city_living", "job", "status", "gender",
                         "nonexistent_field", "contact_id"]}

LIST_OPTIONS = {"attendees", "recipients", "cc", "attachment_paths", "user_ids", "amenities"}
DATE_OPTIONS = {"start_datetime", "end_datetime", "start_date", "end_date", "min_date", "max_date", "ride_time"}
PATH_OPTIONS = {"path", "file_path", "dir_path", "source", "destination", "path1", "path2"}


def case_variants(value: str) -> list[str]:
    out = [value]
    for v in (value.lower(), value.upper(), value.title(), value.swapcase()):
        if v not in out:
            out.append(v)
    return out


def path_forms(path: str) -> list[str]:
    """Absolute, relative, `~`, `..`, trailing-slash and doubled-slash forms of a drive path."""
    p = "/" + path.strip("/")
    parts = [x for x in p.split("/") if x]
    forms = [p, p.lstrip("/"), p + "/", "/" + "//".join(parts), "/./" + "/".join(parts)]
    if len(parts) >= 1:
        forms.append("/" + "/".join(parts[:-1] + ["..", parts[-1]]))
        forms.append("/" + "/".join(parts + ["..", ".."]))
        forms.append(p + "/..")
        forms.append("/" + "/".join(parts[:-1] + [parts[-1].upper()]))
    if len(parts) >= 2 and parts[0] == "home" and parts[1] == "userhome":
        rest = "/".join(parts[2:])
        forms += ["~/" + rest, "~" + rest if rest else "~", "~/" + rest + "/"]
    return forms


class Generator:
    def __init__(self, group: click.Group, pools: dict[str, list[str]], rng: random.Random):
        self.group = group
        self.pools = pools
        self.rng = rng

    # ---- values --------------------------------------------------------------------------
    def pool(self, name: str) -> list[str]:
        for key in (name, name.rstrip("s"), name.removesuffix("_id") + "_id", name.removeprefix("new_")):
            if self.pools.get(key):
                return self.pools[key]
        return []

    def valid_values(self, opt: click.Option) -> list[str]:
        name = opt.name or ""
        tname = opt.type.name
        if tname == "integer":
            return self.pool(name)[:6] + INTS[:6]
        if tname == "float":
            return self.pool(name)[:6] + FLOATS[:6]
        if name in DATE_OPTIONS:
            return DATES[:4] + self.pool("dates")[:4]
        if name in PATH_OPTIONS:
            return self.pool("drive_paths") or DRIVE_PATHS[:4]
        if name == "path_to_save" or name == "download_path":
            return DOWNLOAD_PATHS[:3]
        if name == "attachment_path":
            return self.pool("file_paths")[:4] or ["/nope.txt"]
        if "folder" in name:
            return FOLDERS[:3]
        if name.endswith("status"):
            return STATUSES[:4]
        if name == "service_type":
            return SERVICE_TYPES[:6]
        if name in ("available", "new_availability"):
            return BOOLS[:4]
        if name in LIST_OPTIONS:
            base = self.list_pool(name)
            lists = [json.dumps(base[:1]), json.dumps(base[:3]), json.dumps(base[1:3])] if base else ["[]"]
            return lists
        if name in JSON_KEYS:
            return [json.dumps({k: v}) for k, v in self.json_updates(name)]
        if name == "options":
            return ["{}", '{"color": "red"}', '{"size": "M", "color": "blue"}']
        got = self.pool(name)
        return got or self.pool("words") or ["x"]

    def list_pool(self, name: str) -> list[str]:
        if name in ("attendees",):
            return self.pool("full_names") + self.pool("first_name")
        if name in ("recipients", "cc"):
            return self.pool("email") or ["someone@example.com"]
        if name == "attachment_paths":
            return self.pool("file_paths") or ["/nope.txt"]
        if name == "user_ids":
            return self.pool("user_id") or ["u1"]
        if name == "amenities":
            return self.pool("amenities_item") or ["Gym", "Pool"]
        return []

    def json_updates(self, name: str):
        out = []
        for k in JSON_KEYS[name]:
            vals = self.pool(k) or ["new value"]
            out.append((k, self.rng.choice(vals)))
        out.append(("age", "thirty"))
        out.append(("age", 41))
        return out

    def bad_values(self, opt: click.Option) -> list[str]:
        name = opt.name or ""
        tname = opt.type.name
        if tname == "integer":
            return INTS[6:]
        if tname == "float":
            return FLOATS[6:]
        if name in DATE_OPTIONS:
            return DATES[4:]
        if name in PATH_OPTIONS:
            forms = [f for p in self.pool("drive_paths")[:6] for f in path_forms(p)]
            return forms + DRIVE_PATHS
        if name in ("path_to_save", "download_path"):
            return DOWNLOAD_PATHS[3:]
        if name == "attachment_path":
            return [f for p in self.pool("file_paths")[:3] for f in path_forms(p)] + ["", "/", "~", "../x"]
        if "folder" in name:
            return FOLDERS[3:]
        if name.endswith("status"):
            return STATUSES[4:]
        if name == "service_type":
            return SERVICE_TYPES[6:]
        if name in ("available", "new_availability"):
            return BOOLS[4:]
        if name in LIST_OPTIONS:
            base = self.list_pool(name)
            one = base[0] if base else "x"
            forms = [json.dumps([f]) for f in path_forms(one)] if name == "attachment_paths" else []
            return ["not json", one, ",".join(base[:2]), '"' + one + '"', '{"a": 1}', "[1, 2]", "[", "[null]",
                    json.dumps([b.upper() for b in base[:2]])] + forms + MALFORMED[:4]
        if name in JSON_KEYS:
            return ["not json", "[]", '"str"', "{", "{}", '{"age": "x"}', '{"email": "nope"}'] + MALFORMED[:2]
        if name == "options":
            return ["[]", "not json", '"x"', "{"]
        vals = [v for x in (self.pool(name) or self.pool("words"))[:4] for v in case_variants(str(x))[1:]]
        return vals + MALFORMED

    # ---- commands --------------------------------------------------------------------------
    def options(self, cmd: click.Command) -> list[click.Option]:
        return [p for p in cmd.params if isinstance(p, click.Option) and "--help" not in p.opts]

    def pick(self, opt: click.Option, bad_rate: float = 0.0) -> list[str]:
        flag = self.rng.choice(opt.opts)
        if opt.is_flag:
            return [flag]
        pool = self.bad_values(opt) if self.rng.random() < bad_rate else self.valid_values(opt)
        return [flag, self.rng.choice(pool)] if pool else [flag, "x"]

    def base(self, cmd: click.Command) -> list[str]:
        out: list[str] = []
        for o in self.options(cmd):
            if o.required:
                out += self.pick(o)
        return out

    def for_command(self, bin_name: str, name: str, cmd: click.Command, budget: int):
        """Yields (argv, env) pairs for one command: systematic cases first, then random ones."""
        opts = self.options(cmd)
        head = [bin_name, name]
        cases: list[list[str]] = [head + self.base(cmd)]
        for o in opts:
            others = [x for p in opts if p.required and p is not o for x in self.pick(p)]
            values = [] if o.is_flag else self.valid_values(o)[:5] + self.bad_values(o)[:8]
            if o.is_flag:
                cases.append(head + others + [o.opts[0]])
                cases.append(head + others + [o.opts[0] + "=true"])
                cases.append(head + others + [o.opts[0], o.opts[0]])
            for v in values:
                cases.append(head + others + [o.opts[0], v])
            for alias in o.opts + o.secondary_opts:
                v = self.pick(o)[1:] if not o.is_flag else []
                cases.append(head + others + [alias] + v)
                if v:
                    cases.append(head + others + [alias + "=" + v[0]])
            short = o.opts[0][: max(3, len(o.opts[0]) // 2)]
            cases.append(head + others + [short, "x"])
            cases.append(head + others + [o.opts[0].upper(), "x"])
            cases.append(head + others + [o.opts[0].replace("-", "_", 3)] + ([] if o.is_flag else ["x"]))
            if not o.is_flag:
                cases.append(head + others + [o.opts[0]])  # value missing
                vals = self.valid_values(o)
                if len(vals) >= 2:
                    cases.append(head + others + [o.opts[0], vals[0], o.opts[0], vals[1]])  # last wins
            if o.required:
                cases.append(head + others)  # required one missing
        cases.append(head + self.base(cmd) + ["--bogus", "1"])
        cases.append(head + self.base(cmd) + ["extra"])
        cases.append(head + self.base(cmd) + ["extra", "two"])
        cases.append(head + self.base(cmd) + ["-x"])
        cases.append(head + self.base(cmd) + ["--"])
        cases.append(head + ["--", "extra"])
        for _ in range(max(0, budget - len(cases))):
            chosen = [o for o in opts if o.required or self.rng.random() < 0.4]
            argv = head[:]
            for o in chosen:
                argv += self.pick(o, bad_rate=0.25)
            cases.append(argv)
        for argv in cases:
            yield argv, self.env_for(cmd)

    def env_for(self, cmd: click.Command):
        if self.rng.random() < (0.5 if cmd.hidden else 0.05):
            return {"GAIA2_EVENT_ID": "Event-ENV-" + format(self.rng.getrandbits(32), "08x")}
        return None

    def after_prelude(self, bin_name: str, pre: list[list[str]], per_command: int):
        """A few commands of every kind run after `pre`: its base form plus random combinations."""
        for name, cmd in self.group.commands.items():
            if name == "schema":
                continue
            opts = self.options(cmd)
            cases = [[bin_name, name] + self.base(cmd)]
            for _ in range(per_command):
                argv = [bin_name, name]
                for o in opts:
                    if o.required or self.rng.random() < 0.4:
                        argv += self.pick(o, bad_rate=0.15)
                cases.append(argv)
            for argv in cases:
                yield argv, self.env_for(cmd), pre

    def for_group(self, bin_name: str):
        """Mistyped command names: prefixes, case variants, underscores, near misses, nothing."""
        names = [n for n in self.group.commands if n != "schema"]
        out = [[bin_name, "nope"], [bin_name, "--bogus"], [bin_name, ""], [bin_name, "SCHEMA"]]
        for n in names:
            out.append([bin_name, n[: max(2, len(n) // 2)]])
            out.append([bin_name, n.upper()])
            out.append([bin_name, n.replace("-", "_")])
            out.append([bin_name, n + "s"])
            out.append([bin_name, n[:-1]])
        return [(argv, None) for argv in out]
