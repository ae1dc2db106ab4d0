"""A new memory file: its frontmatter completed, its name chosen, written exclusively.

Shared by the commands' `Store` and the hooks' `HookWriter`, so both name and write a
new memory the same way. Standard library only, without pathlib, typing or datetime:
SubagentStop files through it. The caller holds the store lock and settles the derived
files after.
"""

from __future__ import annotations

import os

from memhooks.store.atomic import create_exclusive
from memhooks.store.catalog_entry import entry_for, ordered
from memhooks.store.categories import BY_NAME, Naming
from memhooks.store.naming import candidate_name, contained_file
from memhooks.store.write_errors import StoreError
from memhooks.store.yaml_emit import render_document

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: SubagentStop files through this module
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from memhooks.store.catalog import Entry
    from memhooks.store.categories import Category
    from memhooks.store.paths import MemoryPaths

    #: `with_hashes(project, meta, body)`: the frontmatter with the body's code citations
    #: hashed (`memhooks.recall.citations.with_hashes` in the product).
    CiteHasher = Callable[[str, dict[str, Any], str], dict[str, Any]]


def project_of(paths: MemoryPaths) -> str:
    """`<project>/.claude/memory` -> `<project>`: where cited code is read."""
    return os.path.dirname(os.path.dirname(os.path.abspath(paths.base)))


def file_new(
    paths: MemoryPaths,
    category: str,
    meta: dict[str, Any],
    body: str,
    stamp: str,
    *,
    cite: CiteHasher,
    name: str | None = None,
    source_path: str | None = None,
    session_id: str | None = None,
    agent: str | None = None,
    before_renaming: Callable[[str], None] | None = None,
) -> Entry:
    """One new memory as both writers file it: its frontmatter completed, its name chosen
    (`name` is kept when it is free), the file written. The caller holds the lock."""
    meta = completed(category, meta, body, stamp, project=project_of(paths), cite=cite)
    target = named_target(paths, category, name) if name else None
    if target is None:
        target = new_target(
            paths,
            category,
            str(meta["title"]),
            stamp,
            source_path=source_path,
            session_id=session_id,
            agent=agent,
            before_renaming=before_renaming,
        )
    return write_new(paths, target, meta, body)


def completed(
    category: str, meta: dict[str, Any], body: str, stamp: str, *, project: str, cite: CiteHasher
) -> dict[str, Any]:
    """The frontmatter a new memory is written with: its category, dates and status, and
    its citations hashed."""
    meta = {**meta, "category": category}
    meta.setdefault("created", stamp)
    meta.setdefault("updated", meta["created"])
    meta.setdefault("record_status", "active")
    return cite(project, meta, body)


def write_new(paths: MemoryPaths, target: str, meta: dict[str, Any], body: str) -> Entry:
    """Create `target` (never over an existing file) and return its catalog entry."""
    create_exclusive(target, render_document(ordered(meta), body))
    return entry_for(paths.relative(target), meta, body)


def named_target(paths: MemoryPaths, category: str, name: str) -> str | None:
    """`<folder>/<name>` when `name` is a plain free `.md` name inside the tree, else None."""
    if "/" in name or "\\" in name or not name.endswith(".md") or name.startswith("."):
        raise StoreError(f"not a memory file name: {name!r}")
    folder = BY_NAME[category].folder
    _make_folder(paths, folder)
    target = contained_file(paths.base, f"{folder}/{name}")
    return None if os.path.lexists(target) else target


def new_target(
    paths: MemoryPaths,
    category: str,
    title: str,
    stamp: str,
    *,
    source_path: str | None = None,
    session_id: str | None = None,
    agent: str | None = None,
    before_renaming: Callable[[str], None] | None = None,
) -> str:
    """A free file name for a new memory, in its category's scheme. When the name is taken,
    `before_renaming(taken)` may refuse (the commands refuse a recently retired slug)
    before a `-2`, `-3`, ... suffix is tried."""
    cat = BY_NAME[category]
    folder = _make_folder(paths, cat.folder)
    name = candidate_name(
        cat,
        title=title,
        when=stamp,
        sequence=_next_sequence(cat, folder, stamp[:10]),
        source_path=source_path,
        session_id=session_id,
        agent=agent,
    )
    target = contained_file(paths.base, f"{cat.folder}/{name}")
    if not os.path.exists(target):
        return target
    if cat.naming is Naming.SESSION_ID:
        raise StoreError(f"{paths.relative(target)} exists: update it instead")
    if before_renaming is not None:
        before_renaming(target)
    stem = os.path.splitext(target)[0]
    for n in range(2, 1000):
        alternative = f"{stem}-{n}.md"
        if not os.path.exists(alternative):
            return alternative
    raise StoreError(f"no free name for {os.path.basename(target)}")


def _make_folder(paths: MemoryPaths, folder: str) -> str:
    full = os.path.join(paths.base, folder)
    # A symlinked category folder is refused by the containment check that follows, and
    # the write itself refuses any symlinked folder (`atomic.check_target`).
    os.makedirs(full, exist_ok=True)
    return full


def _next_sequence(cat: Category, folder: str, day: str) -> int:
    """The day's next number in a dated-sequence folder (decisions: `YYYY-MM-DD_NNN_`)."""
    if cat.naming is not Naming.DATED_SEQUENCE:
        return 1
    prefix = f"{day}_"
    numbers = [
        int(n[11:14])
        for n in os.listdir(folder)
        if n.startswith(prefix) and n.endswith(".md") and n[11:14].isdigit()
    ]
    return max(numbers, default=0) + 1
