"""Everything derived from the memory files, kept in step under the store lock.

The catalog, `MEMORY.md`, `MEMORY-archive.md`, the search index and the stats are never a
source of truth: `DerivedFiles` rewrites them after each write, reconciles them with the
files (git pulls and hand edits change those behind our back) and rebuilds them on demand.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from memhooks import catalog as catalog_io
from memhooks.atomic import write_atomic
from memhooks.catalog import Catalog, Entry
from memhooks.clock import iso
from memhooks.config import Settings
from memhooks.index_render import IndexCaps, render_archive, render_index
from memhooks.memory_entry import body_of, file_stamp, indexed_doc, ordered
from memhooks.paths import MemoryPaths
from memhooks.safe_fs import read_memory
from memhooks.session_state import read_state, write_state
from memhooks.status_line import read_status
from memhooks.yaml_emit import render_document

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: SubagentStop files through this module
if TYPE_CHECKING:
    from memhooks.rebuild import ScanResult

STAT_KEYS = {"decision": "decisions", "analysis": "analyses", "subagent": "subagentOutputs"}


class StoreError(Exception):
    """A write that was refused; the message says why and what to do."""


def safe_state(path: str | os.PathLike[str]) -> dict[str, Any]:
    """`_session.json` as read, or {} when it is missing or unreadable (never rewritten)."""
    try:
        return read_state(path) or {}
    except (ValueError, OSError):
        return {}


class DerivedFiles:
    """The half of the store that keeps the derived files; `Store` adds the writes."""

    paths: MemoryPaths
    settings: Settings
    _hook: bool

    def locked(self) -> contextlib.AbstractContextManager[None]:
        raise NotImplementedError

    def refresh(self, now: dt.datetime | None = None) -> None:
        """Re-render the derived files under the lock (status changes, files changed on disk)."""
        with self.locked():
            self._after_write([], [], body_by_path={}, now=now)

    def reindex_locked(self, changed: list[Entry], bodies: dict[str, str]) -> None:
        """The derived files after a change the caller made itself, holding the lock (a direct
        edit settled by PostToolUse); files changed behind our back are reconciled too."""
        self._after_write(changed, [], body_by_path=bodies, now=None)

    def rebuild(self, progress: Callable[[int, int], None] | None = None) -> ScanResult:
        """Everything derived, regenerated from the memory files alone, under the lock."""
        from memhooks.rebuild import scan_tree
        from memhooks.search_index import SearchIndex

        with self.locked():
            result = scan_tree(self.paths, progress)
            self.write_derived(result.catalog)
            with SearchIndex(self.paths.search_db) as index:
                index.rebuild(
                    indexed_doc(e, result.bodies.get(e.path, "")) for e in result.catalog.active()
                )
            self.update_stats([], result.catalog, None)
        return result

    def _catalog(self) -> Catalog:
        loaded = catalog_io.load(self.paths.catalog)
        if loaded is not None:
            return loaded
        if self._hook:
            raise StoreError("the catalog is missing or stale; run `memhooks rebuild`")
        from memhooks.rebuild import scan_tree

        return scan_tree(self.paths).catalog

    def _after_write(
        self,
        changed: list[Entry],
        removed: list[str],
        *,
        body_by_path: dict[str, str],
        now: dt.datetime | None,
    ) -> tuple[str, ...]:
        """Still under the lock: catalog, rolling window, index, archive, search, stats."""
        cat = self._catalog()
        changed = [replace(e, stamp=file_stamp(self.paths.root / e.path)) for e in changed]
        for entry in changed:
            cat.upsert(entry)
        for path in removed:
            cat.remove(path)
        found, vanished, bodies = self.reconcile(cat)
        retired = self._apply_rolling_window(cat, changed, now)
        self.write_derived(cat, now=now)
        self._update_search(
            changed + found, removed + vanished, retired, {**bodies, **body_by_path}, cat
        )
        self.update_stats(changed, cat, now)
        return retired

    def reconcile(self, cat: Catalog) -> tuple[list[Entry], list[str], dict[str, str]]:
        """Bring the catalog in line with the files: git pulls, merges and hand edits add,
        change and remove memory files behind our back. (Found, vanished, bodies read.)

        The command path only: it lists the category folders and stats every file (~20 ms
        at 10,000 memories); a file that does not parse is left out, never touched.
        """
        if self._hook:
            return [], [], {}
        from memhooks.memory_file import UnparsableMemoryError
        from memhooks.rebuild import memory_files, read_entry

        on_disk = {self.paths.relative(p): p for p in memory_files(self.paths)}
        vanished = [path for path in cat.entries if path not in on_disk]
        for path in vanished:
            cat.remove(path)
        found: list[Entry] = []
        bodies: dict[str, str] = {}
        for relative, target in on_disk.items():
            stamp = file_stamp(target)
            known = cat.entries.get(relative)
            if known is not None and known.stamp == stamp:
                continue
            try:
                entry, body = read_entry(self.paths, target, stamp)
            except (OSError, UnparsableMemoryError, ValueError):
                if known is not None:
                    cat.remove(relative)
                    vanished.append(relative)
                continue
            cat.upsert(entry)  # keeps the date the index cap first archived it
            found.append(entry)
            bodies[relative] = body
        return found, vanished, bodies

    def write_derived(self, cat: Catalog, *, now: dt.datetime | None = None) -> None:
        state = safe_state(self.paths.session)
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
        catalog_io.save(self.paths.catalog, cat)
        write_atomic(self.paths.index, rendered.text)
        write_atomic(self.paths.archive, archive)

    def _apply_rolling_window(
        self, cat: Catalog, changed: list[Entry], now: dt.datetime | None
    ) -> tuple[str, ...]:
        """Seed 003: keep the newest N session summaries active, retire the oldest."""
        if self._hook or not any(e.category == "session_summary" for e in changed):
            return ()
        limit = self.settings.max_retained("session_summary")
        sessions = sorted(
            (e for e in cat.entries.values() if e.category == "session_summary" and e.active),
            key=lambda e: (e.created, e.path),
        )
        excess = sessions[: max(0, len(sessions) - (limit or len(sessions)))]
        from memhooks.memory_file import parse_bytes

        stamp = iso(now)
        for entry in excess:
            target = self.paths.root / entry.path
            with contextlib.suppress(OSError, ValueError):
                raw = parse_bytes(read_memory(target))
                meta = {
                    **raw.meta,
                    "record_status": "retired",
                    "retired_at": stamp,
                    "retired_reason": "Session rolling window: exceeded max_retained limit",
                }
                write_atomic(target, render_document(ordered(meta), raw.body))
                cat.upsert(replace(entry, record_status="retired", retired_at=stamp))
        return tuple(e.path for e in excess)

    def _update_search(
        self,
        changed: list[Entry],
        removed: list[str],
        retired: tuple[str, ...],
        body_by_path: dict[str, str],
        cat: Catalog,
    ) -> None:
        from memhooks.search_index import SearchIndex

        try:
            with SearchIndex(self.paths.search_db) as index:
                docs = []
                for entry in changed:
                    if not entry.active:
                        index.remove(entry.path)
                        continue
                    body = body_by_path.get(entry.path)
                    if body is None:
                        body = body_of(self.paths.root / entry.path)
                    docs.append(indexed_doc(entry, body))
                index.upsert_many(docs)
                for path in (*removed, *retired):
                    index.remove(path)
                active = cat.active()
                if not self._hook and index.count() != len(active):
                    # A fresh clone (`.cache/` is not committed) or a damaged index: make
                    # it again from the files, so recall and the pointers work at once.
                    index.rebuild(
                        indexed_doc(
                            e, body_by_path.get(e.path) or body_of(self.paths.root / e.path)
                        )
                        for e in active
                    )
        except Exception as exc:  # the search index is derived: rebuild heals it
            from memhooks.logsink import log_line

            log_line(self.paths.log, f"search index not updated ({exc}); run `memhooks rebuild`")

    def update_stats(self, changed: list[Entry], cat: Catalog, now: dt.datetime | None) -> None:
        try:
            state = read_state(self.paths.session)
        except ValueError:
            return  # never overwrite a state file we could not parse
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
