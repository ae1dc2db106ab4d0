"""Filing a new memory the hooks' way: `HookWriter` (the quick lock, no reconcile, no rolling
window, no anti-resurrection), the new file both writers name and write, and the marks of filed
sub-agent results. Standard library only.
"""

from __future__ import annotations

import os

from memhooks import TYPE_CHECKING
from memhooks.store.catalog import entry_for, ordered
from memhooks.store.derived import DerivedFiles
from memhooks.store.files import create_exclusive
from memhooks.store.local import checkout_of
from memhooks.store.memory_file import render_document
from memhooks.store.names import (
    BY_NAME,
    DuplicateError,
    Naming,
    StoreError,
    candidate_name,
    contained_file,
)
from memhooks.store.trusted import tree_turn
from memhooks.text.clock import iso

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, ClassVar

    from memhooks.store.catalog import Entry
    from memhooks.store.config import Settings
    from memhooks.store.derived import SearchFactory
    from memhooks.store.names import Category
    from memhooks.store.paths import MemoryPaths


# A new memory file: its frontmatter completed, its name chosen, written exclusively.
#
# Shared by the commands' `Store` and the hooks' `HookWriter`, so both name and write a new memory
# the same way. Standard library only, without pathlib, typing or datetime: SubagentStop files
# through it. The caller holds the store lock and settles the derived files after.


if TYPE_CHECKING:
    #: `with_hashes(project, meta, body)`: the frontmatter with the body's code citations
    #: hashed (`memhooks.recall.citations.with_hashes` in the product).
    CiteHasher = Callable[[str, dict[str, Any], str], dict[str, Any]]


def project_of(paths: MemoryPaths) -> str:
    """`<project>/.claude/memory` -> `<project>`: where cited code is read."""
    return checkout_of(paths.base)


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
    # the write itself refuses any symlinked folder (`files.check_target`).
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


# The hooks' way to file a new memory: `HookWriter`. Standard library only, and none of
# dataclasses, typing, pathlib, datetime or contextlib: SubagentStop runs it on the hot path.
#
# It takes the quick lock (`locking.quick_lock`), names and writes the file as the commands'
# `Store` does (`file_new` above), and settles the derived files with what the catalog says: no
# scan of the tree, no frontmatter parsing, no rolling window. Files changed behind our back
# and an index that needs healing are left to the next command. Without a catalog it refuses
# (run `memhooks rebuild`), after the memory itself is safely on disk and marked filed.


#: The hooks' usual wait for the lock: a hook skips its write rather than hold up a turn.
LOCK_TIMEOUT = 0.5


class TreeWriter:
    """What both writers are: the tree's paths, settings and derived files, the citation
    hasher, and how long a write waits for the lock (`lock_wait` unless told).

    Which rules a write follows is decided by the subclass: `HookWriter` (below, standard
    library only: the quick lock, the catalog as it stands) or the commands' `Store`
    (`store.writer`: the command lock, reconcile, the rolling window, anti-resurrection, the
    conflict check). Those rules live in the store half, which no module of the tree half
    imports (tests/system/test_structure.py), so a hook's writer cannot apply them. Both name and
    write a new memory with `file_new`.
    """

    __slots__ = ("_cite", "_lock_timeout", "derived", "paths", "settings")
    lock_wait: ClassVar[float]

    def __init__(
        self,
        paths: MemoryPaths,
        settings: Settings,
        *,
        search: SearchFactory,
        cite: CiteHasher,
        lock_timeout: float | None = None,
    ) -> None:
        self.paths = paths
        self.settings = settings
        self.derived = DerivedFiles(paths, settings, search)
        self._cite = cite
        self._lock_timeout = self.lock_wait if lock_timeout is None else lock_timeout


class HookWriter(TreeWriter):
    """The hooks' writer: the quick lock, no scan of the tree, no frontmatter parsing."""

    __slots__ = ()
    lock_wait = LOCK_TIMEOUT

    def create(
        self,
        category: str,
        meta: dict[str, Any],
        body: str,
        *,
        agent: str | None = None,
        session_id: str | None = None,
        unless: Callable[[], object] | None = None,
        then: Callable[[], None] | None = None,
    ) -> Entry:
        """File a new memory under the lock; LockTimeoutError when the lock stays taken.

        Under the lock, before anything is written, `unless()` may find the memory already
        there: then nothing is written and DuplicateError carries what it found. `then()`
        runs under the lock once the memory and its derived files are written (a dedupe
        marker set only once the memory is safely on disk).
        """
        with tree_turn(self.paths, self._lock_timeout):
            found = unless() if unless is not None else None
            if found:
                raise DuplicateError(found)
            entry = file_new(
                self.paths,
                category,
                meta,
                body,
                iso(),
                cite=self._cite,
                session_id=session_id,
                agent=agent,
            )
            cat = self.derived.load_catalog()
            if cat is None:
                # The memory is on disk (the next command's reconcile or `rebuild` catalogs
                # it): mark it filed, or a re-delivered event would file it a second time.
                if then is not None:
                    then()
                raise StoreError("the catalog is missing or stale; run `memhooks rebuild`")
            changed = self.derived.record(cat, [entry], [])
            self.derived.settle(cat, changed, [], bodies={entry.path: body}, now=None)
            if then is not None:
                then()
        return entry
