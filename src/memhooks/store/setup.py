"""New things the commands make: a memory tree (`memhooks start`, undone when it fails half-way),
and a draft memory checked before it is filed.
"""

from __future__ import annotations

import contextlib
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memhooks.errors import Exit, UserError
from memhooks.store.context import (
    ACTIVE_TEMPLATE,
    BLOCKERS_TEMPLATE,
    COMPLETED_TEMPLATE,
    CURRENT_TASK_TEMPLATE,
)
from memhooks.store.files import write_atomic
from memhooks.store.names import CATEGORIES
from memhooks.store.paths import MemoryPaths

# A new memory tree (seed 000): the folders and placeholders `memhooks start` creates, and taking
# back what a start that failed half-way made.


GITIGNORE = """# memhooks: an atomic write's temporary files. What only this machine uses is kept
# outside the checkout (~/.local/state/memhooks/checkouts/); the two lines below are for the
# older memhooks of a teammate, which kept it here.
*.tmp
.cache/
_session.json
"""


def create_tree(paths: MemoryPaths, created: list[str] | None = None) -> list[str]:
    """Folders and placeholders; returns what was created (also appended to `created`)."""
    created = [] if created is None else created
    for folder in [c.folder for c in CATEGORIES] + ["context", "progress", "checkpoints"]:
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


# A memory before it is filed: its category, frontmatter and body, and the check every way in
# makes (`save`, `remember`, `import`): the frontmatter as the category's model accepts it.


@dataclass
class Draft:
    category: str
    meta: dict[str, Any] = field(default_factory=dict)
    body: str = ""
    source_path: str | None = None


def validate_draft(draft: Draft, *, partial: bool = False) -> dict[str, Any]:
    """The frontmatter as the category's model accepts it (a partial one for updates)."""
    from pydantic import ValidationError

    from memhooks.store.models import meta_to_dict, parse_meta

    probe = dict(draft.meta)
    if partial:
        probe.setdefault("title", "placeholder")
    try:
        model = parse_meta({**probe, "category": draft.category})
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()
        )
        raise UserError(f"invalid {draft.category}: {problems}", Exit.INVALID_INPUT) from None
    validated = meta_to_dict(model)
    validated.pop("category", None)
    if partial:
        return {k: v for k, v in validated.items() if k in draft.meta}
    return validated
