"""Settings from `config.json`, with the documented defaults.

Hooks read the file with `load_settings` (standard library, lenient: a bad key is logged and
its default used). Commands validate it strictly with `validate_config` (pydantic), so a typo
is a clear error where a person can fix it.
"""

from __future__ import annotations

import json
import os

from memhooks import TYPE_CHECKING

CONFIG_CAP = 1_000_000  # bytes: a settings file is a few hundred

if TYPE_CHECKING:
    from typing import Any

HOST_CONTEXT_CAP = 10_000
SESSION_RETENTION_DEFAULT = 5


class Settings:
    """Resolved settings. Class attributes are the defaults; an instance overrides some.

    A plain class rather than a dataclass: the hooks build one on every run.
    """

    index_max_lines: int = 200
    index_max_bytes: int = 25_000
    index_max_entries: int | None = None
    session_start_chars: int = 9_000
    prompt_chars: int = 1_500
    max_inject: int = 5
    min_score: float | None = None
    grace_period_days: int = 30
    anti_resurrection_hours: int = 24
    checkpoints_keep: int = 10
    stale_minutes: int = 30
    nudge: str = "remind"
    nudge_interval_minutes: int = 60
    capture_subagents: bool = True
    capture_journal: bool = True
    capture_prompts: bool = True
    redact_patterns: tuple[str, ...] = ()
    direct_edits: str = "deny"  # guard.direct_edits: "deny" or "allow" (then validated after)
    semantic: str = "auto"  # retrieval.semantic: "auto", "on" or "off" (SEMANTIC_MODES)
    categories: dict[str, dict[str, Any]] = {}  # noqa: RUF012 - read-only, never mutated
    problems: tuple[str, ...] = ()

    def __init__(self, **values: object) -> None:
        for name, value in values.items():
            if not hasattr(Settings, name) or name.startswith("_"):
                raise TypeError(f"unknown setting {name!r}")
            setattr(self, name, value)

    def __repr__(self) -> str:
        return f"Settings({vars(self)!r})"

    def category_enabled(self, name: str) -> bool:
        return bool(self.categories.get(name, {}).get("enabled", True))

    def auto_capture(self, name: str) -> bool:
        return bool(self.categories.get(name, {}).get("auto_capture", True))

    def max_retained(self, name: str) -> int | None:
        value = self.categories.get(name, {}).get("max_retained")
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
        return SESSION_RETENTION_DEFAULT if name == "session_summary" else None

    def retention_days(self, name: str) -> int:
        value = self.categories.get(name, {}).get("retention_days")
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
        return 90 if name == "session_summary" else 0


NUDGES = ("off", "remind", "save")
DIRECT_EDITS = ("deny", "allow")
#: retrieval.semantic: "auto" uses the token table once installed (the lexical gate serves
#: alone until then), "on" the same but `doctor` fails while it is missing, "off" never.
SEMANTIC_MODES = ("auto", "on", "off")
#: `config.json`'s settings, described once, in the file's order: (section, key) ->
#: (Settings field, kind, allowed). `kind` is int, float (an int or a float), bool or str;
#: `allowed` is (lowest, highest) for a number, the values for a str, () for a bool. The
#: default is the `Settings` class attribute; a setting whose default is None may be null.
#: The hooks read config.json with this table (`settings_from_dict`) and `models.ConfigModel`
#: is generated from it, so a new setting is a row here and its typed attribute in Settings.
#: Only the structured settings (`categories`, `redact.extra_patterns`) are read by hand.
FIELDS: dict[tuple[str, str], tuple[str, type, tuple[Any, ...]]] = {
    ("index", "max_lines"): ("index_max_lines", int, (20, 10_000)),
    ("index", "max_bytes"): ("index_max_bytes", int, (2_000, 1_000_000)),
    ("index", "max_entries"): ("index_max_entries", int, (1, 1e9)),
    ("briefing", "session_start_chars"): ("session_start_chars", int, (500, HOST_CONTEXT_CAP)),
    ("briefing", "prompt_chars"): ("prompt_chars", int, (100, HOST_CONTEXT_CAP)),
    ("retrieval", "max_inject"): ("max_inject", int, (0, 20)),
    ("retrieval", "min_score"): ("min_score", float, (0, 1e9)),
    ("retrieval", "semantic"): ("semantic", str, SEMANTIC_MODES),
    ("delete", "grace_period_days"): ("grace_period_days", int, (0, 1e9)),
    ("delete", "anti_resurrection_hours"): ("anti_resurrection_hours", int, (0, 1e9)),
    ("checkpoints", "keep"): ("checkpoints_keep", int, (1, 1_000)),
    ("stop", "stale_minutes"): ("stale_minutes", int, (1, 1e9)),
    ("stop", "nudge"): ("nudge", str, NUDGES),
    ("stop", "nudge_interval_minutes"): ("nudge_interval_minutes", int, (1, 1e9)),
    ("capture", "subagents"): ("capture_subagents", bool, ()),
    ("capture", "journal"): ("capture_journal", bool, ()),
    ("capture", "prompts"): ("capture_prompts", bool, ()),
    ("guard", "direct_edits"): ("direct_edits", str, DIRECT_EDITS),
}
#: Settings with which a committed `config.json` would make more run, by `Settings` field:
#: a custom pattern is a regular expression run over every text kept, a save nudge keeps
#: Claude working after a Stop, direct edits let Claude's tools write memory files. They are
#: honoured only once the user turned memory on for the checkout (store.consent).
WIDENING = {
    "redact_patterns": "redact.extra_patterns",
    "nudge": "stop.nudge",
    "direct_edits": "guard.direct_edits",
}


def untrusted(settings: Settings) -> tuple[Settings, list[str]]:
    """`settings` without what widens what runs, and the config keys that were dropped."""
    values = dict(vars(settings))
    dropped = [key for name, key in WIDENING.items() if values.pop(name, None) is not None]
    return Settings(**values), dropped


def load_settings(path: str | os.PathLike[str]) -> Settings:
    """Lenient: a missing or broken file gives the defaults; problems are listed, not raised."""
    from memhooks.store.files import read_bytes

    try:
        raw = read_bytes(path, CONFIG_CAP, whole=True).decode("utf-8")
    except FileNotFoundError:
        return Settings()
    except (OSError, UnicodeDecodeError) as exc:
        return Settings(problems=(f"{os.path.basename(path)}: {exc}",))
    try:
        data = json.loads(raw) if raw.strip() else {}
    except ValueError as exc:
        return Settings(problems=(f"{os.path.basename(path)}: not JSON ({exc})",))
    if not isinstance(data, dict):
        return Settings(problems=(f"{os.path.basename(path)}: must hold a JSON object",))
    return settings_from_dict(data)


def settings_from_dict(data: dict[str, Any]) -> Settings:
    values: dict[str, Any] = {}
    problems: list[str] = []
    for (section, key), (name, kind, allowed) in FIELDS.items():
        block = data.get(section)
        if not isinstance(block, dict) or key not in block:
            continue
        value = block[key]
        if value is None and getattr(Settings, name) is None:
            continue
        if not fits(value, kind, allowed):
            problems.append(f"{section}.{key}: ignored bad value {value!r}")
            continue
        values[name] = value
    redact = data.get("redact")
    if isinstance(redact, dict) and isinstance(redact.get("extra_patterns"), list):
        patterns = redact["extra_patterns"]
        values["redact_patterns"] = tuple(p for p in patterns if isinstance(p, str))
        if patterns:
            from memhooks.text.redact_custom import refused

            problems.extend(refused(patterns))
    categories = data.get("categories")
    if isinstance(categories, dict):
        values["categories"] = {
            k: v for k, v in categories.items() if isinstance(k, str) and isinstance(v, dict)
        }
    return Settings(**values, problems=tuple(problems))


def fits(value: object, kind: type, allowed: tuple[Any, ...]) -> bool:
    """`value` is of FIELDS' `kind` (a bool is no number) and within `allowed`."""
    if kind is bool:
        return isinstance(value, bool)
    if kind is str:
        return isinstance(value, str) and value in allowed
    number = (int, float) if kind is float else kind
    if not isinstance(value, number) or isinstance(value, bool):
        return False
    low, high = allowed
    return bool(low <= value <= high)


def validate_config(data: object) -> Settings:
    """Strict: raises ValueError with every problem, for the commands and `doctor`."""
    from pydantic import ValidationError

    from memhooks.store.models import ConfigModel

    try:
        ConfigModel.model_validate(data)
    except ValidationError as exc:
        lines = [
            f"{'.'.join(str(p) for p in err['loc']) or '(root)'}: {err['msg']}"
            for err in exc.errors()
        ]
        raise ValueError("config.json: " + "; ".join(lines)) from None
    assert isinstance(data, dict)  # noqa: S101 - ConfigModel accepted it, so it is an object
    return settings_from_dict(data)
