"""A new memory tree (seed 000): the folders and placeholders `memhooks start` creates,
and taking back what a start that failed half-way made."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

from memhooks.store.atomic import write_atomic
from memhooks.store.categories import CATEGORIES
from memhooks.store.context_files import (
    ACTIVE_TEMPLATE,
    BLOCKERS_TEMPLATE,
    COMPLETED_TEMPLATE,
    CURRENT_TASK_TEMPLATE,
)
from memhooks.store.paths import MemoryPaths

GITIGNORE = """# memhooks: derived and machine-local files (rebuild with `memhooks rebuild`)
.cache/
_session.json
*.tmp
"""


def create_tree(paths: MemoryPaths, created: list[str] | None = None) -> list[str]:
    """Folders and placeholders; returns what was created (also appended to `created`)."""
    created = [] if created is None else created
    for folder in [c.folder for c in CATEGORIES] + ["context", "progress", "checkpoints", ".cache"]:
        target = Path(paths.base) / folder
        if not target.is_dir():
            target.mkdir(parents=True, exist_ok=True)
            created.append(folder + "/")
    placeholders = {
        Path(paths.current_task): CURRENT_TASK_TEMPLATE,
        Path(paths.blockers): BLOCKERS_TEMPLATE,
        Path(paths.progress) / "active.md": ACTIVE_TEMPLATE,
        Path(paths.progress) / "completed.md": COMPLETED_TEMPLATE,
        Path(paths.gitignore): GITIGNORE,
    }
    for path, text in placeholders.items():
        if not path.exists():
            write_atomic(path, text)
            created.append(paths.relative(path))
    return created


def undo_created(paths: MemoryPaths, created: list[str], *, fresh: bool) -> None:
    """Remove what this run created: the whole tree when it made it, else its own files
    (then the folders it made, if still empty)."""
    if fresh:
        shutil.rmtree(paths.base, ignore_errors=True)  # ours entirely; never follows links
        return
    for name in reversed(created):
        target = Path(paths.base) / name.rstrip("/")
        with contextlib.suppress(OSError):
            if name.endswith("/"):
                target.rmdir()
            else:
                target.unlink()
