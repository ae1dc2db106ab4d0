"""The pages made from the catalog: `MEMORY.md` and `MEMORY-archive.md` as pure functions, and the
memory view's page. Standard library only.
"""

from __future__ import annotations

import os

from memhooks import TYPE_CHECKING
from memhooks.store.files import check_target, write_atomic
from memhooks.store.names import BY_NAME, CATEGORIES
from memhooks.store.paths import MemoryPaths
from memhooks.text import clip
from memhooks.text.value import Value, set_field

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from memhooks.store.catalog import Entry
    from memhooks.store.context import Status


# `MEMORY.md` and `MEMORY-archive.md` as pure functions of the catalog. Standard library only.
#
# The index holds a three-line status header and pointer lines, `- [Title](path.md) —
# description`, grouped by category, newest first, never content (seed 001). It stays within the
# line, byte and entry caps; what does not fit goes to the archive, and a visible note says how
# many entries were cut and where they are.


LINE_MAX_CHARS = 220


_ORDER = {c.name: i for i, c in enumerate(CATEGORIES)}


class IndexCaps(Value):
    __slots__ = ("max_bytes", "max_entries", "max_lines")

    def __init__(
        self, max_lines: int = 200, max_bytes: int = 25_000, max_entries: int | None = None
    ) -> None:
        set_field(self, "max_lines", max_lines)
        set_field(self, "max_bytes", max_bytes)
        set_field(self, "max_entries", max_entries)

    max_lines: int
    max_bytes: int
    max_entries: int | None


class RenderedIndex(Value):
    __slots__ = ("cut", "shown", "text")

    def __init__(self, text: str, shown: tuple[str, ...], cut: tuple[Entry, ...]) -> None:
        set_field(self, "text", text)
        set_field(self, "shown", shown)
        set_field(self, "cut", cut)

    text: str
    shown: tuple[str, ...]
    cut: tuple[Entry, ...]


def _escape(text: str) -> str:
    return " ".join(text.replace("[", "(").replace("]", ")").split())


def index_line(entry: Entry) -> str:
    line = f"- [{_escape(entry.title)}]({entry.path})"
    if entry.description:
        line += f" — {_escape(entry.description)}"
    return clip(line, LINE_MAX_CHARS)


def header_lines(status: Status, *, active: bool, started: str) -> list[str]:
    state = (
        f"ACTIVE since {started}" if active and started else ("ACTIVE" if active else "INACTIVE")
    )
    blockers = "; ".join(status.blockers) if status.blockers else "none"
    return [
        "# Memory Index",
        "<!-- Derived by memhooks from the files in .claude/memory/. Do not edit: "
        "`memhooks rebuild` regenerates it. -->",
        "",
        f"- **Status**: {state}",
        f"- **Task**: {_escape(status.task) or '(not set)'}"
        + (f" — next: {_escape(status.next_step)}" if status.next_step else ""),
        f"- **Blockers**: {_escape(blockers)}",
        "- **Quick lookup**: context/current-task.md, context/blockers.md, "
        "checkpoints/latest.md, master.md",
    ]


def _cut_note(count: int, caps: IndexCaps) -> list[str]:
    if not count:
        return []
    limit = f"{caps.max_lines} lines / {caps.max_bytes:,} bytes"
    if caps.max_entries is not None:
        limit += f" / {caps.max_entries} entries"
    return [
        "",
        f"> {count} older entries are not shown here (index cap: {limit}); "
        "they are listed in MEMORY-archive.md.",
    ]


def _group(entries: Sequence[Entry]) -> list[str]:
    lines: list[str] = []
    by_category: dict[str, list[Entry]] = {}
    for entry in entries:
        by_category.setdefault(entry.category, []).append(entry)
    for category in sorted(by_category, key=lambda c: (_ORDER.get(c, 99), c)):
        heading = BY_NAME[category].heading if category in BY_NAME else category
        lines += ["", f"## {heading}"]
        lines += [index_line(e) for e in by_category[category]]
    return lines


def _size(lines: Sequence[str]) -> tuple[int, int]:
    return len(lines), sum(len(line.encode("utf-8")) + 1 for line in lines)


def render_index(
    entries: Sequence[Entry], status: Status, *, active: bool, started: str, caps: IndexCaps
) -> RenderedIndex:
    """`entries` are the active memories, newest first."""
    head = header_lines(status, active=active, started=started)
    limit = len(entries) if caps.max_entries is None else min(caps.max_entries, len(entries))
    # The biggest prefix that fits, found by bisection: the group layout depends on the set.
    low, high = 0, limit
    while low < high:
        mid = (low + high + 1) // 2
        lines = head + _group(entries[:mid]) + _cut_note(len(entries) - mid, caps)
        count, size = _size(lines)
        if count <= caps.max_lines and size <= caps.max_bytes:
            low = mid
        else:
            high = mid - 1
    shown = entries[:low]
    lines = head + _group(shown) + _cut_note(len(entries) - low, caps)
    if not entries:
        lines += ["", "_No memories yet. Save one with `memhooks save` or `/memory remember`._"]
    return RenderedIndex(
        "\n".join(lines) + "\n", tuple(e.path for e in shown), tuple(entries[low:])
    )


def render_archive(cut: Sequence[Entry], sessions: Sequence[dict[str, object]]) -> str:
    """Seed 000's archive: the session table, then every entry the index cap pushed out."""
    lines = [
        "# Memory Index Archive",
        "<!-- Derived by memhooks; `memhooks rebuild` regenerates it. -->",
        "",
        "## Archived Sessions",
        "| Session Started | Session Ended | Entries Archived |",
        "|-----------------|---------------|------------------|",
    ]
    lines += [
        f"| {s.get('started', '')} | {s.get('ended', '')} | {s.get('entries_archived', 0)} |"
        for s in sessions
    ]
    lines += [
        "",
        "## Archived Entries",
        "| Category | File | Updated | Summary | Archived |",
        "|----------|------|---------|---------|----------|",
    ]
    for entry in cut:
        summary = _escape(entry.description or entry.title).replace("|", "/")[:160]
        label = BY_NAME[entry.category].heading if entry.category in BY_NAME else entry.category
        lines.append(
            f"| {label} | [{entry.path}]({entry.path}) | {entry.updated or entry.created} "
            f"| {summary} | {entry.index_archived_at or '-'} |"
        )
    return "\n".join(lines) + "\n"


# The memory view's page (`memhooks view`): machine-local, by default `paths.view_page`.
# Written whole and atomically, without fsync (it is made again on every run); the default place
# is refused when the machine-local folder or the page is a symlink.


def default_page(paths: MemoryPaths) -> Path:
    """`paths.view_page`; UnsafeFileError when it or a folder on the way is a symlink."""
    from pathlib import Path

    target = Path(paths.view_page)
    check_target(target)
    return target


def write_page(path: str | os.PathLike[str], page: str) -> None:
    write_atomic(path, page, durable=False)
