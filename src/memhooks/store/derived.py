"""Everything derived from the memory files, kept in step under the store lock.

The catalog, `MEMORY.md`, `MEMORY-archive.md`, the search index and the stats are never a
source of truth: `DerivedFiles` rewrites them after each write. The writers own one each
(composition): the commands' `Store` first reconciles the catalog with the files and applies
the rolling window (`upkeep`); the hooks' `HookWriter` files one new memory and
settles at once. Standard library only, without dataclasses, typing, pathlib or datetime:
SubagentStop files through this module.

The search index is given, not imported: the store sits below `memhooks.recall`, which
owns the index, so whoever opens a store passes the index's class (`SearchFactory`).
"""

from __future__ import annotations

import os

from memhooks import TYPE_CHECKING
from memhooks.store.catalog import body_of, file_stamp, load_catalog, save_catalog, search_doc
from memhooks.store.context import read_status
from memhooks.store.files import write_atomic
from memhooks.store.pages import IndexCaps, render_archive, render_index
from memhooks.store.session import read_state, write_state
from memhooks.store.watch import record_quick, record_tree
from memhooks.text.clock import iso

if TYPE_CHECKING:
    import datetime as dt
    from collections.abc import Callable, Iterable, Iterator
    from types import TracebackType
    from typing import Any, Protocol

    from typing_extensions import Self

    from memhooks.store.catalog import Catalog, Entry, SearchDoc
    from memhooks.store.config import Settings
    from memhooks.store.paths import MemoryPaths

    class SearchIndexWrites(Protocol):
        """What the store asks of the search index (`recall.search_index.SearchIndex`)."""

        def __enter__(self) -> Self: ...

        def __exit__(
            self,
            exc_type: type[BaseException] | None,
            exc: BaseException | None,
            tb: TracebackType | None,
        ) -> None: ...

        def upsert_many(self, docs: Iterable[SearchDoc]) -> None: ...

        def remove(self, path: str) -> None: ...

        def count(self) -> int: ...

        def rebuild(self, docs: Iterable[SearchDoc]) -> None: ...

    #: Opens the search index at a database path.
    SearchFactory = Callable[[str], SearchIndexWrites]

STAT_KEYS = {"decision": "decisions", "analysis": "analyses", "subagent": "subagentOutputs"}


def safe_state(path: str | os.PathLike[str]) -> dict[str, Any]:
    """`_session.json` as read, or {} when it is missing or unreadable (never rewritten)."""
    try:
        return read_state(path) or {}
    except (ValueError, OSError):
        return {}


class DerivedFiles:
    """catalog.json, MEMORY.md, MEMORY-archive.md, the search index and the stats of one
    tree. Every method expects the caller to hold the store lock."""

    __slots__ = ("paths", "search", "settings")

    def __init__(self, paths: MemoryPaths, settings: Settings, search: SearchFactory) -> None:
        self.paths = paths
        self.settings = settings
        self.search = search

    def file_of(self, relative: str) -> str:
        """The memory file at `relative` (as the catalog names it), as a plain path."""
        return os.path.join(self.paths.base, *relative.split("/"))

    def load_catalog(self) -> Catalog | None:
        """The catalog as last written, or None when it is missing or unreadable."""
        return load_catalog(self.paths.catalog)

    def record(self, cat: Catalog, changed: list[Entry], removed: list[str]) -> list[Entry]:
        """Put what a writer changed into the catalog, each entry stamped with its file's
        mtime and size; returns the stamped entries."""
        stamped = [e.replace(stamp=file_stamp(self.file_of(e.path))) for e in changed]
        for entry in stamped:
            cat.upsert(entry)
        for path in removed:
            cat.remove(path)
        return stamped

    def settle(
        self,
        cat: Catalog,
        changed: list[Entry],
        removed: list[str],
        *,
        bodies: dict[str, str],
        now: dt.datetime | None,
        retired: tuple[str, ...] = (),
        heal_index: bool = False,
    ) -> None:
        """Write the index files, update the search index and the stats after a change.

        `heal_index` rebuilds the search index from the files when it does not hold every
        active memory (a fresh clone, a damaged file): the commands' path, never a hook's.
        """
        state = self.read_session()
        self.write_derived(cat, state, now=now)
        self.update_search(changed, [*removed, *retired], bodies, cat, heal=heal_index)
        self.update_stats(changed, cat, now, state)

    def read_session(self) -> dict[str, Any] | None:
        """`_session.json`, read once per write step (the index's header and the stats), or
        None when it is missing or unreadable (then the stats are not written)."""
        try:
            return read_state(self.paths.session)
        except (ValueError, OSError):
            return None

    def write_derived(
        self,
        cat: Catalog,
        state: dict[str, Any] | None,
        *,
        now: dt.datetime | None = None,
        forget: Iterable[str] = (),
    ) -> None:
        """MEMORY.md, the archive and the catalog; `state` is `read_session()`; `forget`:
        memory files this writer itself deleted, whose last known copy is dropped (one
        deleted behind its back keeps it)."""
        state = state or {}
        s = self.settings
        rendered = render_index(
            cat.active(),
            read_status(self.paths),
            active=bool(state.get("active")),
            started=str(state.get("started") or ""),
            caps=IndexCaps(s.index_max_lines, s.index_max_bytes, s.index_max_entries),
        )
        cat.mark_index_archived((e.path for e in rendered.cut), iso(now)[:10])
        cut = [cat.entries[e.path] for e in rendered.cut]
        sessions = state.get("archived_sessions")
        archive = render_archive(cut, sessions if isinstance(sessions, list) else [])
        save_catalog(self.paths.catalog, cat)
        write_atomic(self.paths.index, rendered.text)
        write_atomic(self.paths.archive, archive)
        # The tree as the store leaves it, outside the tree: what the next hook compares.
        record_tree(self.paths, forget, cat.entries)

    def update_search(
        self,
        changed: list[Entry],
        removed: list[str],
        bodies: dict[str, str],
        cat: Catalog,
        *,
        heal: bool,
    ) -> None:
        try:
            with self.search(self.paths.search_db) as index:
                docs = []
                for entry in changed:
                    if not entry.active:
                        index.remove(entry.path)
                        continue
                    body = bodies.get(entry.path)
                    if body is None:
                        body = body_of(self.file_of(entry.path))
                    docs.append(search_doc(entry, body))
                index.upsert_many(docs)
                for path in removed:
                    index.remove(path)
                active = cat.active()
                missing = not os.path.lexists(self.paths.search_db)
                if heal and (missing or index.count() != len(active)):
                    # A fresh clone (`.cache/` is not committed) or a damaged index: make
                    # it again from the files, so recall and the pointers work at once.
                    # A new tree gets its empty index too: SessionStart would otherwise
                    # start a background rebuild, which holds the lock the hooks wait for,
                    # once the first journal is on disk (hooks.search_check).
                    index.rebuild(
                        search_doc(e, bodies.get(e.path) or body_of(self.file_of(e.path)))
                        for e in active
                    )
        except Exception as exc:  # the search index is derived: rebuild heals it
            from memhooks.store.problem_log import log_line

            log_line(self.paths.log, f"search index not updated ({exc}); run `memhooks rebuild`")

    def rebuild_search(
        self,
        cat: Catalog,
        bodies: dict[str, str],
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        """The search index made again from these active memories alone (`rebuild`)."""
        active = cat.active()

        def docs() -> Iterator[SearchDoc]:
            for number, entry in enumerate(active, 1):
                if progress is not None:
                    progress(number, len(active))
                yield search_doc(entry, bodies.get(entry.path, ""))

        with self.search(self.paths.search_db) as index:
            index.rebuild(docs())

    def update_stats(
        self,
        changed: list[Entry],
        cat: Catalog,
        now: dt.datetime | None,
        state: dict[str, Any] | None,
    ) -> None:
        """The counts into `state` (`read_session()`, under the same lock turn), written
        back; nothing when it was missing or could not be parsed (never overwritten)."""
        if state is None:
            return
        counts = cat.counts()
        stats = state.get("stats")
        if not isinstance(stats, dict):
            stats = state["stats"] = {}
        for category, key in STAT_KEYS.items():
            stats[key] = counts.get(category, 0)
        stats["memories"] = sum(counts.values())
        stats["indexArchived"] = sum(
            1 for e in cat.entries.values() if e.active and e.index_archived_at
        )
        if changed:
            state["lastMemoryWrite"] = iso(now)
        write_state(self.paths.session, state)
        record_quick(self.paths)  # after `write_derived` recorded the tree: its own write too
