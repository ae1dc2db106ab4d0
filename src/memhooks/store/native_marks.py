"""Which memories came from Claude Code's own auto memory, and from which native file. Standard
library only: SessionStart reads it.

`memhooks import --native` files the project's native topic files as memories (their frontmatter
keeps `native_path` and `native_hash`) and writes this machine's map in `local/native-
imports.json`: memory path -> the native file's absolute path. It is derived and machine-local,
like the rest of `local/`: the next `import --native` writes it again from the memories'
frontmatter. SessionStart leaves out of the index lines it injects the memories whose native
file is still there, since the host already loads its own index (`MEMORY.md` of the native
folder) into the same context.
"""

from __future__ import annotations

import json
import os

from memhooks import TYPE_CHECKING
from memhooks.store.files import write_atomic

if TYPE_CHECKING:
    from memhooks.store.paths import MemoryPaths


MARKS_CAP = 1_000_000


def read_marks(paths: MemoryPaths) -> dict[str, str]:
    """memory path (relative to `.claude/memory/`) -> native file; {} when none or unreadable."""
    try:
        with open(paths.native_marks, encoding="utf-8") as handle:
            data = json.loads(handle.read(MARKS_CAP))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def write_marks(paths: MemoryPaths, marks: dict[str, str]) -> None:
    write_atomic(paths.native_marks, json.dumps(marks, indent=1, sort_keys=True) + "\n")


def without_native(paths: MemoryPaths, index: str) -> tuple[str, int]:
    """The index text less the pointer lines of memories imported from native files that are
    still there (the host injects its own index of them), and how many lines were left out."""
    marks = read_marks(paths) if index else {}
    if not marks:
        return index, 0
    kept: list[str] = []
    dropped = 0
    for line in index.splitlines(keepends=True):
        path = _pointer(line)
        if path in marks and os.path.isfile(marks[path]):
            dropped += 1
            continue
        kept.append(line)
    return "".join(kept), dropped


def _pointer(line: str) -> str:
    """The memory path of a pointer line `- [Title](path.md) — description`, or ""."""
    if not line.startswith("- ["):
        return ""
    start = line.find("](")
    end = line.find(")", start + 2) if start > 0 else -1
    return line[start + 2 : end] if end > start else ""
