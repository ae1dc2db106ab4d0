"""A small, deterministic YAML emitter for memory frontmatter. Standard library only.

python-frontmatter reads what this writes back to the same values (tested). We emit our
own subset instead of `yaml.safe_dump` so that hooks can file a memory without importing
yaml (~25 ms), and so that key order and quoting never drift between writers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

Scalar = str | int | float | bool | None

_PLAIN_SAFE = re.compile(r"^[A-Za-z_./(][A-Za-z0-9 _./()+,'-]*$")
# YAML rejects these raw (C1 controls, surrogates, noncharacters) or reads them as line
# breaks (NEL, LS, PS); JSON's dumps leaves them raw with ensure_ascii=False.
_NOT_YAML_PRINTABLE = re.compile("[\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]")
_LOOKS_TYPED = re.compile(
    r"^(?:[-+]?[0-9][0-9_.:eE+-]*|\.[0-9_][0-9_.eE+-]*|~|null|true|false|yes|no|on|off|y|n|\.inf|\.nan)$",
    re.IGNORECASE,
)


def scalar(value: Scalar) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return json.dumps(value)
    return _string(value)


def _string(text: str) -> str:
    plain = (
        _PLAIN_SAFE.fullmatch(text) is not None
        and not _LOOKS_TYPED.match(text)
        and not text.endswith((" ", ":"))
        and ": " not in text
        and " #" not in text
    )
    return text if plain else _quoted(text)


def _quoted(value: object) -> str:
    """JSON is a YAML flow scalar or sequence, once what YAML will not read is escaped."""
    return _NOT_YAML_PRINTABLE.sub(
        lambda m: f"\\u{ord(m.group()):04x}", json.dumps(value, ensure_ascii=False)
    )


def _flow_list(items: Sequence[Scalar]) -> str:
    return "[" + ", ".join(_quoted(i) if isinstance(i, str) else scalar(i) for i in items) + "]"


def dump_mapping(data: Mapping[str, object]) -> str:
    """One `key: value` line per key, in order; lists as flow sequences; one level of nesting."""
    lines: list[str] = []
    for key, value in data.items():
        lines.extend(_entry(key, value, indent=""))
    return "\n".join(lines) + ("\n" if lines else "")


def _entry(key: str, value: object, indent: str) -> list[str]:
    if isinstance(value, Mapping):
        if not value:
            return [f"{indent}{_string(key)}: {{}}"]
        out = [f"{indent}{_string(key)}:"]
        for sub_key, sub_value in value.items():
            out.extend(_entry(str(sub_key), sub_value, indent + "  "))
        return out
    if isinstance(value, list | tuple):
        if all(not isinstance(v, Mapping | list | tuple) for v in value):
            return [f"{indent}{_string(key)}: {_flow_list(list(value))}"]
        return [f"{indent}{_string(key)}: {_quoted(value)}"]
    if isinstance(value, str | int | float | bool) or value is None:
        return [f"{indent}{_string(key)}: {scalar(value)}"]
    return [f"{indent}{_string(key)}: {_quoted(str(value))}"]


def render_document(meta: Mapping[str, object], body: str) -> str:
    """A markdown file with a YAML frontmatter fence."""
    text = "---\n" + dump_mapping(meta) + "---\n"
    if body:
        text += "\n" + body.strip("\n") + "\n"
    return text
