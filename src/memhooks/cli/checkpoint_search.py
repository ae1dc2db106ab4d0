# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""`memhooks recall QUERY` over the sessions' checkpoints, which the search index does not hold.

A checkpoint is state saved before a compaction, not a memory: it is never indexed, so the
hooks never point a session at it. A person asking `/memory recall` still reaches it. Each
session's checkpoint (`checkpoints/sessions/<id>.md`, at most a few dozen: PreCompact
prunes them) is read capped and matched on the query's terms, the index's tokenizer on both
sides. Command path only.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from memhooks.recall.tokenize import query_terms, tokens
from memhooks.store import TREE_PREFIX, MemoryPaths, read_text, resolves_inside

#: Checkpoints read at most (the newest first) and characters read of each.
MAX_FILES = 50
READ_CHARS = 200_000


def search(paths: MemoryPaths, query: str, limit: int) -> list[dict[str, Any]]:
    """The checkpoints holding at least half the query's terms (`enough`), the
    most terms first, then the newest: {path, title, matched}."""
    terms = query_terms(query)
    folder = Path(paths.session_checkpoints)
    if not terms or folder.is_symlink() or not folder.is_dir():
        return []
    if not resolves_inside(paths.base, folder):
        return []
    found: list[tuple[int, float, dict[str, Any]]] = []
    for name, mtime in _newest(folder)[:MAX_FILES]:
        text = read_text(folder / name, READ_CHARS)  # "" for a link or no file
        matched = set(terms) & set(tokens(text))
        if enough(terms, matched):
            relative = f"checkpoints/sessions/{name}"
            row = {
                "path": TREE_PREFIX + relative,
                "title": _title(text) or relative,
                "matched": [t for t in terms if t in matched],
            }
            found.append((len(matched), mtime, row))
    found.sort(key=lambda item: (-item[0], -item[1]))
    return [row for _, _, row in found[:limit]]


def enough(terms: list[str], matched: set[str]) -> bool:
    """Whether `matched` holds at least half the query's `terms`, rounded up (one of one or
    two, two of three)."""
    return len(matched) >= max(1, (len(terms) + 1) // 2)


def _newest(folder: Path) -> list[tuple[str, float]]:
    out = []
    for entry in os.scandir(folder):
        if entry.name.endswith(".md") and not entry.name.startswith("."):
            try:
                if entry.is_file(follow_symlinks=False):
                    out.append((entry.name, entry.stat(follow_symlinks=False).st_mtime))
            except OSError:
                continue
    return sorted(out, key=lambda item: -item[1])


def _title(text: str) -> str:
    """The frontmatter's title, unquoted ("" when there is none)."""
    if not text.startswith("---"):
        return ""
    for line in text.splitlines()[1:20]:
        if line.strip() == "---":
            break
        if line.startswith("title:"):
            return line[len("title:") :].strip().strip('"')
    return ""
