"""Git conflict markers: a merge that left them makes a file unfit to inject or to trust.

Standard library only: SessionStart and the status line check what they read with it.
"""

from __future__ import annotations

import re

from memhooks.text.lazy_re import LazyPattern

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

    from memhooks.store.safe_fs import read_bytes

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
