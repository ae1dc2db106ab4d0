"""The per-prompt staleness check of the memories about to be pointed at. Standard library only.

For each memory: one stat of the memory file and one of each file it cites. The memory is read
(its frontmatter's `cites`) only when its mtime changed, and a cited file only when its mtime
or size changed since the last verdict; verdicts live in `paths.citations` (machine-local).

A committed memory chooses its citations, so the check has a budget: CHECK_SECONDS per prompt
for all the memories pointed at. A verdict cut short keeps how many cites it covered, and the
next prompt goes on from there (the files unchanged), so even a memory whose cites take
seconds to check is finished in a few prompts, and no prompt waits more than the budget plus
one cite.
"""

from __future__ import annotations

import json
import os
import time

from memhooks import TYPE_CHECKING
from memhooks.recall.pointer import Pointer
from memhooks.store import load_verdicts, read_text, save_verdicts

if TYPE_CHECKING:
    from memhooks.store import MemoryPaths

MEMORY_CAP = 64_000
NAMED = 3  # stale files named in a pointer line
#: What one prompt spends checking citations; the hook's own timeout is 10 s.
CHECK_SECONDS = 0.2


def cites_in_frontmatter(text: str) -> list[str]:
    """The `cites:` list of a memory file, read without yaml (flow list or block list)."""
    if not text.startswith("---"):
        return []
    end = text.find("\n---", 3)
    lines = text[3 : end if end > 0 else len(text)].splitlines()
    for n, line in enumerate(lines):
        if not line.startswith("cites:"):
            continue
        value = line[6:].strip()
        if value.startswith("["):
            try:
                items = json.loads(value)
            except ValueError:
                return []
            return [str(i) for i in items] if isinstance(items, list) else []
        out = []
        for item in lines[n + 1 :]:
            stripped = item.strip()
            if not stripped.startswith("- "):
                break
            out.append(stripped[2:].strip().strip("'\""))
        return out
    return []


def _stamp(path: str) -> list[int] | None:
    """[mtime, size] of a regular file (never through a symlink), else None."""
    import stat

    try:
        info = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    return [info.st_mtime_ns, info.st_size]


def stale_of(
    paths: MemoryPaths, relatives: list[str], budget: float = CHECK_SECONDS
) -> dict[str, list[str]]:
    """{memory path: the cited files whose cited text is gone}, for the memories that have any
    (as far as `budget` seconds allowed checking them); the verdicts are kept."""
    cache = load_verdicts(paths.citations)
    out, changed = check_stale(paths.base, relatives, cache, budget)
    if changed:
        save_verdicts(paths.citations, cache)
    return out


def check_stale(
    memory_root: str,
    relatives: list[str],
    cache: dict[str, dict[str, object]],
    budget: float = CHECK_SECONDS,
) -> tuple[dict[str, list[str]], bool]:
    """`stale_of` on the verdicts given, which it updates in place: (stale cites by memory,
    whether a verdict changed and is worth writing back). Writes nothing."""
    deadline = time.monotonic() + budget
    started = False  # the first check runs whatever the time: each prompt gets one cite on
    project = ""  # found, with the citations module, only when a memory cites code
    changed = False
    out: dict[str, list[str]] = {}
    for relative in relatives:
        memory = os.path.join(memory_root, *relative.split("/"))
        stamp = _stamp(memory)
        if stamp is None:
            continue
        seen = cache.get(relative)
        if not isinstance(seen, dict) or seen.get("memory") != stamp:
            raw = cites_in_frontmatter(read_text(memory, MEMORY_CAP))
            seen = {"memory": stamp, "cites": raw, "files": None, "stale": []}
            # A memory citing nothing has no verdict to keep: reading its head again costs
            # less than rewriting the cache on every prompt that points at it.
            changed = changed or bool(raw) or cache.pop(relative, None) is not None
        raw_cites = seen.get("cites")
        if not isinstance(raw_cites, list) or not raw_cites:
            continue
        from memhooks.recall import citations
        from memhooks.store import MemoryPaths, project_of

        project = project or project_of(MemoryPaths(memory_root))
        cites = citations.parse_all(raw_cites)
        files = {c.path: _stamp(os.path.join(project, *c.path.split("/"))) for c in cites}
        if seen.get("files") != files:
            seen = {**seen, "files": files, "stale": [], "checked": 0}
            changed = True
        checked = seen.get("checked", len(cites))  # a verdict without it was finished
        due = not started or time.monotonic() < deadline
        if isinstance(checked, int) and checked < len(cites) and due:
            started = True
            stale_so_far = seen.get("stale")
            found, checked = citations.check(
                project,
                cites,
                start=max(0, checked),
                stale=[str(s) for s in stale_so_far] if isinstance(stale_so_far, list) else [],
                deadline=deadline,
            )
            seen = {**seen, "stale": found, "checked": checked}
            changed = True
        cache[relative] = seen
        stale = seen.get("stale")
        if isinstance(stale, list) and stale:
            out[relative] = [str(s) for s in stale]
    return out, changed


def stale_note(files: list[str]) -> str:
    more = len(files) - NAMED
    shown = ", ".join(files[:NAMED]) + (f" (+{more})" if more > 0 else "")
    return f"[STALE: the code it cites changed in {shown}; verify before relying on it]"


def mark_stale(paths: MemoryPaths, pointers: list[Pointer]) -> list[Pointer]:
    """The pointers, a stale one's title followed by the stale note; the verdicts are kept.
    Fails open."""
    if not pointers:
        return pointers
    cache = load_verdicts(paths.citations)
    if mark_with(paths.base, pointers, cache):
        save_verdicts(paths.citations, cache)
    return pointers


def mark_with(
    memory_root: str, pointers: list[Pointer], verdicts: dict[str, dict[str, object]]
) -> bool:
    """Mark the stale `pointers` (a stale one's title followed by the stale note) from the
    `verdicts` given, updated in place; True when they changed and are worth writing back.
    Writes nothing; fails open."""
    if not pointers:
        return False
    try:
        stale, changed = check_stale(memory_root, [p.path for p in pointers], verdicts)
    except (OSError, ValueError, RecursionError):
        return False
    for pointer in pointers:
        files = stale.get(pointer.path)
        if files:
            pointer.title = f"{pointer.title} {stale_note(files)}"
    return changed
