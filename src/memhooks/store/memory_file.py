"""One memory file: YAML frontmatter plus a markdown body, read (python-frontmatter, the command
path only) and written (a small deterministic emitter, standard library).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

from memhooks import TYPE_CHECKING
from memhooks.text import clip
from memhooks.text.value import Value, set_field

if TYPE_CHECKING:
    from typing import Any


# Reading and writing one memory file: YAML frontmatter plus a markdown body.
#
# Reading uses python-frontmatter with the safe loader (the command path only). Writing uses
# the emitter below, which python-frontmatter reads back unchanged. Loaded at module level: only the
# standard library (SubagentStop names a new memory with `first_heading`).


MAX_META_NODES = 10_000


_FENCE = re.compile(r"\A---[ \t]*\r?\n")


#: An ATX level-1 heading on one line; a closing run of `#` is not part of it.
_H1 = re.compile(r"^#[ \t]+(\S.*?)[ \t#]*\r?$", re.MULTILINE)


class UnparsableMemoryError(ValueError):
    """A file that is not a memory we can read; it is reported and left untouched."""


class RawMemory(Value):
    __slots__ = ("body", "meta")

    def __init__(self, meta: dict[str, Any], body: str) -> None:
        set_field(self, "meta", meta)
        set_field(self, "body", body)

    meta: dict[str, Any]
    body: str


def content_hash(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()[:16]


def parse_text(text: str) -> RawMemory:
    """Split frontmatter from body. A `---` inside the body is not a fence."""
    if not _FENCE.match(text):
        return RawMemory({}, text)
    import yaml

    try:
        # python-frontmatter's YAMLHandler uses SafeLoader; call it the same way directly so
        # that a YAML error surfaces as ours, with no tags or constructors allowed.
        import frontmatter

        # parse(), not loads(): loads() builds a Post(content, handler, **meta), which a
        # `content:` or `handler:` key in the frontmatter breaks. Any key must round-trip.
        meta, body = frontmatter.parse(text)
    except (yaml.YAMLError, ValueError, TypeError, RecursionError) as exc:
        raise UnparsableMemoryError(f"frontmatter: {str(exc).splitlines()[0]}") from None
    if not isinstance(meta, dict):
        raise UnparsableMemoryError("frontmatter is not a mapping")
    if _too_large(meta):
        raise UnparsableMemoryError(
            f"frontmatter holds more than {MAX_META_NODES:,} values (a YAML alias bomb?)"
        )
    return RawMemory({str(k): v for k, v in meta.items()}, body)


def _too_large(meta: dict[str, Any]) -> bool:
    """YAML aliases let a few lines expand into billions of values once rendered or hashed."""
    pending: list[object] = [meta]
    seen = 0
    while pending:
        value = pending.pop()
        seen += 1
        if seen > MAX_META_NODES:
            return True
        if isinstance(value, dict):
            pending.extend(value.values())
        elif isinstance(value, list | tuple):
            pending.extend(value)
    return False


def parse_bytes(data: bytes) -> RawMemory:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UnparsableMemoryError("not UTF-8") from None
    return parse_text(text)


def first_heading(body: str) -> str | None:
    match = _H1.search(body)
    return match.group(1).strip() if match else None


def first_sentence(body: str, limit: int = 160) -> str:
    """A one-line description from the first prose line of a body."""
    for line in body.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "---", "|", "```", "<!--", "**")):
            continue
        stripped = re.sub(r"^[-*+]\s+|^\d+\.\s+", "", stripped)
        stripped = re.sub(r"[*_`\[\]]", "", stripped)
        sentence = re.split(r"(?<=[.!?])\s", stripped, maxsplit=1)[0]
        return clip(sentence, limit)
    return ""


# A small, deterministic YAML emitter for memory frontmatter. Standard library only.
#
# python-frontmatter reads what this writes back to the same values (tested). We emit our own
# subset instead of `yaml.safe_dump` so that hooks can file a memory without importing yaml (~25
# ms), and so that key order and quoting never drift between writers.


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


def split_frontmatter(text: str) -> tuple[str, str]:
    """(frontmatter lines without the fences, body); ('', text) when no closed fence opens it."""
    if text.startswith("---\n"):
        end = text.find("\n---\n", 4)
        if end >= 0:
            return text[4:end], text[end + 5 :]
    return "", text
