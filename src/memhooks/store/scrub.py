"""Secrets out of a memory file that was written behind the store's back, in place.

The store redacts what it writes; a file a shell command, an editor or a `git pull` wrote
was never redacted. Before such a file is indexed (and so before any hook injects a line of
it) its frontmatter values and its body are redacted, and the file is rewritten when that
changed anything. The caller holds the store lock and has validated the file.
"""

from __future__ import annotations

from memhooks.store.atomic import write_atomic
from memhooks.store.catalog_entry import ordered
from memhooks.store.memory_file import parse_bytes
from memhooks.store.safe_fs import read_memory
from memhooks.store.yaml_emit import render_document
from memhooks.text.redact import redact


def redact_value(value: object, patterns: tuple[str, ...]) -> object:
    """Every string in a frontmatter value redacted (lists and mappings included)."""
    if isinstance(value, str):
        return redact(value, patterns)
    if isinstance(value, list | tuple):
        return [redact_value(v, patterns) for v in value]
    if isinstance(value, dict):
        return {k: redact_value(v, patterns) for k, v in value.items()}
    return value


def scrub(path: str, patterns: tuple[str, ...]) -> bool:
    """Redact the memory file at `path` in place; True when it was rewritten. A file without
    frontmatter keeps having none."""
    raw = parse_bytes(read_memory(path))
    body = redact(raw.body, patterns)
    meta = {k: redact_value(v, patterns) for k, v in raw.meta.items()}
    if body == raw.body and meta == raw.meta:
        return False
    write_atomic(path, render_document(ordered(meta), body) if raw.meta else body)
    return True
