"""SessionStart's user-tier block: what the person asked to keep for every project.

The user tier (`memhooks.store.user_tier`) is injected after the project's own memory, in
its own frame and within its own small budget, carved out of SessionStart's: a large user
tier is cut to its share (with a line saying how many more it holds), and the project's
memory keeps the rest. SessionStart runs its handler only where memory is on for the
project (consent), so nothing of the user tier reaches a project where memory is off.

Each memory is one line, its title and description (`- Title — description`): the file
paths of the user's folder say nothing a reader needs. Standard library only.
"""

from __future__ import annotations

from memhooks.continuity.briefing import index_excerpt, index_pointers
from memhooks.store import (
    HOST_CONTEXT_CAP,
    MemoryPaths,
    checkout_of,
    display,
    has_markers,
    inside_project,
    read_text,
    user_paths,
)
from memhooks.text.frame import frame, overhead

#: The user tier's share of SessionStart, at most: a dozen preferences take ~600 characters
#: with the frame and the title (tests/store/test_user_tier.py measures it).
USER_TIER_CHARS = 1_000
#: ... and never more than this part of a smaller SessionStart budget.
USER_TIER_PART = 5
READ_CAP = 40_000
MIN_ROOM = 120
TITLE = (
    "About the user, from the memhooks user tier (kept for every project in {where}; "
    "`memhooks remember --user`, `promote`, `demote`):"
)


def share(budget: int) -> int:
    """The user tier's budget inside a SessionStart budget of `budget` characters."""
    return min(USER_TIER_CHARS, min(budget, HOST_CONTEXT_CAP) // USER_TIER_PART)


def user_block(project: MemoryPaths, budget: int) -> str:
    """The framed user tier in at most `budget` characters, or "" (no user tier, nothing in
    it, conflict markers, or a user folder inside this project, which the project's own
    memory already covers)."""
    paths = user_paths()
    if inside_project(checkout_of(project.base), paths):
        return ""
    index = read_text(paths.index, READ_CAP)
    if has_markers(index):
        return ""
    lines = [_plain(line) for line in index_pointers(index).splitlines()]
    if not any(line.startswith("- ") for line in lines):
        return ""
    where = display(paths)
    title = TITLE.format(where=where)
    source = where + "MEMORY.md"
    room = budget - len(title) - 1 - overhead(source)
    if room < MIN_ROOM:
        return ""
    excerpt = index_excerpt(
        "\n".join(lines) + "\n", room, lambda count: _more(count, source), bullet="- "
    )
    body = frame(source, excerpt, room + overhead(source))
    return f"{title}\n{body}" if body else ""


def _plain(line: str) -> str:
    """`- [Title](folder/name.md) — description` -> `- Title — description`."""
    if not line.startswith("- [") or "](" not in line:
        return line
    head, _, rest = line[3:].rpartition("](")
    target, close, tail = rest.partition(")")
    if not close or " " in target:
        return line
    return f"- {head}{tail}"


def _more(count: int, source: str) -> str:
    return f"[memhooks] … {count} more about the user: {source} lists all."
