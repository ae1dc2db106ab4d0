"""Reading and writing one memory file: YAML frontmatter plus a markdown body.

Reading uses python-frontmatter with the safe loader (the command path only). Writing uses
`yaml_emit`, which python-frontmatter reads back unchanged. Loaded at module level: only
the standard library (SubagentStop names a new memory with `first_heading`).
"""

from __future__ import annotations

import re

from memhooks.text import clip
from memhooks.text.value import Value, set_field

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: SubagentStop imports this module
if TYPE_CHECKING:
    from typing import Any

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
