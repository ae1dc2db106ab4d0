"""The files a person keeps beside the memories: `context/` (task, next step, blockers),
`master.md`, and the git conflict markers that make a file unfit to inject. Standard library
only.
"""

from __future__ import annotations

import re

from memhooks.store.files import read_text, write_atomic
from memhooks.store.paths import MemoryPaths
from memhooks.text import clip
from memhooks.text.lazy_re import LazyPattern

# Task, next step and blockers from `context/`: one short line each. Standard library only.


CURRENT_TASK_TEMPLATE = """# Current task

## Task
(none yet)

## Next step
(none yet)

## Progress
(none yet)
"""


BLOCKERS_TEMPLATE = """# Blockers

(none)
"""


ACTIVE_TEMPLATE = """# Active work

(none yet)
"""


COMPLETED_TEMPLATE = """# Completed

(none yet)
"""


#: What a template's empty section says: `(none yet)`, `- n/a`, `TBD.` (any case).
PLACEHOLDERS = frozenset(("none", "none yet", "n/a", "-", "tbd"))


_TICKS = (" ", "x", "X", "~")


LINE_MAX = 200


CONTEXT_CAP = 20_000  # characters read of a context file: a status needs its head only


class Status:
    """Slotted rather than a dataclass: the hooks import this on every prompt."""

    __slots__ = ("blockers", "next_step", "task")

    def __init__(self, task: str = "", next_step: str = "", blockers: tuple[str, ...] = ()) -> None:
        self.task = task
        self.next_step = next_step
        self.blockers = blockers

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Status) and (self.task, self.next_step, self.blockers) == (
            other.task,
            other.next_step,
            other.blockers,
        )

    def __hash__(self) -> int:
        return hash((self.task, self.next_step, self.blockers))

    def __repr__(self) -> str:
        return f"Status({self.task!r}, {self.next_step!r}, {self.blockers!r})"

    @property
    def empty(self) -> bool:
        return not (self.task or self.next_step or self.blockers)


def unbulleted(line: str) -> str:
    """`line` without its list marker: `- `, `* [x] `, `12. ` (string operations: a regex
    compiled here would cost every prompt)."""
    if line[:1] in ("-", "*", "+") and line[1:2].isspace():
        rest = line[1:].lstrip()
        if rest[:1] == "[" and rest[2:3] == "]" and rest[1:2] in _TICKS and rest[3:4].isspace():
            rest = rest[3:].lstrip()
        return rest
    digits = 0
    while digits < len(line) and line[digits].isdecimal():
        digits += 1
    if digits and line[digits : digits + 1] == "." and line[digits + 1 : digits + 2].isspace():
        return line[digits + 1 :].lstrip()
    return line


def is_filler(text: str) -> bool:
    """`(none yet)`, `n/a.`, `- `: a section with nothing in it yet."""
    text = text.removeprefix("(")
    text = text.removesuffix(".")
    text = text.removesuffix(")")
    return text.strip().lower() in PLACEHOLDERS


def _meaningful(line: str) -> str:
    stripped = unbulleted(line.strip())
    return "" if not stripped or is_filler(stripped) else stripped


def section(markdown: str, heading: str) -> list[str]:
    """Meaningful lines under `## heading` (case-insensitive) up to the next heading."""
    lines: list[str] = []
    inside = False
    for line in markdown.splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            inside = title == heading.lower()
            continue
        if inside and (text := _meaningful(line)):
            lines.append(text)
    return lines


def parse_task_status(current_task_md: str, blockers_md: str, *, full: bool = False) -> Status:
    """The status as shown (clipped, three blockers), or `full` for rewriting the files."""
    task = section(current_task_md, "task")
    nxt = section(current_task_md, "next step") or section(current_task_md, "next")
    blocker_lines = [
        text
        for line in blockers_md.splitlines()
        if not line.startswith("#") and (text := _meaningful(line))
    ]
    if full:
        return Status(task[0] if task else "", nxt[0] if nxt else "", tuple(blocker_lines))
    return Status(
        task=clip(task[0], LINE_MAX, fold=True) if task else "",
        next_step=clip(nxt[0], LINE_MAX, fold=True) if nxt else "",
        blockers=tuple(clip(b, 120, fold=True) for b in blocker_lines[:3]),
    )


def read_status(paths: MemoryPaths, *, full: bool = False) -> Status:
    """The status from `context/`; a file a merge left conflict markers in counts as unset
    (its lines would show up as the task and the blockers)."""
    task_md = read_text(paths.current_task, CONTEXT_CAP)
    blockers_md = read_text(paths.blockers, CONTEXT_CAP)
    return parse_task_status(
        "" if _conflicted(task_md) else task_md,
        "" if _conflicted(blockers_md) else blockers_md,
        full=full,
    )


def _conflicted(text: str) -> bool:
    # The module that reads markers is loaded only for a text that may hold one (every
    # prompt reads these two files).
    if "<<<<<<<" not in text and ">>>>>>>" not in text:
        return False

    return has_markers(text)


def status_line(status: Status) -> str:
    blockers = "; ".join(status.blockers) if status.blockers else "none"
    return (
        f"task: {status.task or '(not set)'} | next: {status.next_step or '(not set)'}"
        f" | blockers: {blockers}"
    )


# Writing `context/current-task.md` and `context/blockers.md` (`memhooks task`); reading them is
# above.


def render_current_task(task: str, next_step: str, progress: list[str]) -> str:
    lines = [
        "# Current task",
        "",
        "## Task",
        task or "(none yet)",
        "",
        "## Next step",
        next_step or "(none yet)",
        "",
        "## Progress",
    ]
    lines += [f"- {p}" for p in progress] or ["(none yet)"]
    return "\n".join(lines) + "\n"


def render_blockers(blockers: list[str]) -> str:
    if not blockers:
        return "# Blockers\n\n" + BLOCKERS_TEMPLATE.split("\n\n", 1)[1]
    return "# Blockers\n\n" + "\n".join(f"- {b}" for b in blockers) + "\n"


def write_task(
    paths: MemoryPaths, task: str, next_step: str, progress: list[str], blockers: list[str]
) -> None:
    """Replace both files (one-line, redacted values); the caller holds the store lock."""
    write_atomic(paths.current_task, render_current_task(task, next_step, progress))
    write_atomic(paths.blockers, render_blockers(blockers))


# Replacing `master.md` (`memhooks synthesize --save`), keeping the version it replaces.


def replace_master(paths: MemoryPaths, new: str, old: str | None) -> None:
    """Write `new` as master.md, first keeping `old` (what it held, read by the caller under
    the same lock; None when there was none) as `paths.previous_master`, machine-local: one
    step back, never committed."""
    if old is not None:
        write_atomic(paths.previous_master, old)
    write_atomic(paths.master, new)


# Git conflict markers: a merge that left them makes a file unfit to inject or to trust.
#
# Standard library only: SessionStart and the status line check what they read with it.


#: Compiled only for a text that holds seven `<` or `>` in a row (see `has_markers`).
_MARKER = LazyPattern(r"^(?:<{7}|>{7})(?: |$)|^\|{7}(?: |$)|^={7}$", re.MULTILINE)


#: Files outside the memory folders that people merge by hand.
TOP_FILES = ("MEMORY.md", "MEMORY-archive.md", "master.md", "context", "progress", "checkpoints")


SCAN_CAP = 4_000_000  # bytes read of one file when looking for markers


def has_markers(text: str) -> bool:
    """True when `text` holds a conflict block's opening or closing line."""
    return ("<<<<<<<" in text or ">>>>>>>" in text) and _MARKER.search(text) is not None


def conflicted_files(root: str, folders: tuple[str, ...]) -> list[str]:
    """Markdown files of the tree (relative paths) that hold conflict markers. Command path
    only (pathlib)."""
    from pathlib import Path

    from memhooks.store.files import read_bytes

    base = Path(root)
    found: list[str] = []
    for name in (*TOP_FILES, *folders):
        path = base / name
        if path.is_dir() and not path.is_symlink():
            files = sorted(path.glob("*.md"))
        elif name.endswith(".md"):
            files = [path]
        else:
            continue
        for file in files:
            try:
                text = read_bytes(file, SCAN_CAP).decode("utf-8", "replace")
            except OSError:
                continue
            if has_markers(text):
                found.append(file.relative_to(base).as_posix())
    return found
