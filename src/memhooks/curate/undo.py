"""Undo a rewrite `consolidate --apply` made: its diff, read back from the log, reversed.

Retirements are undone with `memhooks restore`; a body rewrite (relative dates) is undone
here, through the store with the content-hash check, and only when the lines the rewrite
wrote are still there as written.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from memhooks.store import StoreError

if TYPE_CHECKING:
    from memhooks.store import Store

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class UndoError(StoreError):
    pass


def last_diff(log: str, relative: str) -> str:
    """The newest logged diff of `relative` ("" when there is none)."""
    marker = f"```diff\n--- a/{relative}\n"
    start = log.rfind(marker)
    if start < 0:
        return ""
    body = log[start + len("```diff\n") :]
    end = body.find("\n```")
    return body[: end if end >= 0 else len(body)] + "\n"


def reverse(text: str, diff: str) -> str:
    """`text` (the rewritten body) with a zero-context unified diff taken back."""
    lines = (text.rstrip("\n") + "\n").splitlines(keepends=True)
    hunks: list[tuple[int, int, list[str], list[str]]] = []
    current: tuple[int, int, list[str], list[str]] | None = None
    for line in diff.splitlines(keepends=True):
        match = _HUNK.match(line)
        if match:
            new_start, new_count = int(match[3]), int(match[4] if match[4] is not None else 1)
            current = (new_start, new_count, [], [])
            hunks.append(current)
        elif current is not None and line.startswith("-") and not line.startswith("---"):
            current[2].append(line[1:])
        elif current is not None and line.startswith("+") and not line.startswith("+++"):
            current[3].append(line[1:])
    if not hunks:
        raise UndoError("the logged diff has no hunk to undo")
    for new_start, new_count, old, new in reversed(hunks):
        at = new_start - 1 if new_count else new_start
        if [x.rstrip("\n") for x in lines[at : at + new_count]] != [x.rstrip("\n") for x in new]:
            raise UndoError(
                f"line {new_start} changed since consolidation rewrote it: undo by hand"
            )
        lines[at : at + new_count] = [x if x.endswith("\n") else x + "\n" for x in old]
    return "".join(lines)


def undo(store: Store, relative: str, log: str) -> str:
    """Take back the newest logged rewrite of `relative`; returns the diff undone."""
    diff = last_diff(log, relative)
    if not diff:
        raise UndoError(f"no rewrite of {relative} in the consolidation log")
    _meta, body, digest = store.read(relative)
    store.update(relative, {}, reverse(body, diff), expected_hash=digest)
    return diff
