"""The commands' write path into `.claude/memory/`: `Store`.

Every change follows the same steps: take the store lock, write the file through a unique
temp file in the same folder (fsync, os.replace), then bring the catalog in line with the
files and update `MEMORY.md`, the archive, the search index and the stats, still under the
lock. Readers never lock. `Store` is a `tree.TreeWriter`, as the hooks' `HookWriter` is
(standard library only, the quick lock): both name and write a new file with `file_new` and
keep the derived files with a `derived.DerivedFiles` of their own; the rules only the
commands apply (reconcile, the rolling window, anti-resurrection) are `Store`'s.

A store is composed, not configured: whoever opens one gives it the search index
(`SearchFactory`) and the citation hasher (`CiteHasher`), which live above the store in
`memhooks.recall`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memhooks.store.catalog import Entry, entry_for, ordered
from memhooks.store.files import read_memory, write_atomic
from memhooks.store.journal import journal_part
from memhooks.store.locking import command_lock
from memhooks.store.memory_file import content_hash, parse_bytes, render_document
from memhooks.store.names import (
    BY_FOLDER,
    BY_NAME,
    ConflictError,
    DuplicateError,
    NotFoundError,
    ResurrectionError,
    StoreError,
    candidate_name,
    contained,
)
from memhooks.store.paths import UnsafePathError
from memhooks.store.tree import TreeWriter, file_new, project_of
from memhooks.store.trusted import tree_turn
from memhooks.store.upkeep import (
    ScanResult,
    behind,
    catalog_or_scan,
    collect_retired,
    expire_old,
    rebuild_all,
    reconcile,
    refuse_resurrection,
    rolling_window,
    set_status,
)
from memhooks.text.clock import iso, utc_now
from memhooks.text.progress import Progress


@dataclass(frozen=True)
class NewMemory:
    """A memory to file: validated frontmatter, body, and optionally the file name to keep."""

    category: str
    meta: dict[str, Any]
    body: str
    name: str | None = None
    source_path: str | None = None


@dataclass(frozen=True)
class Saved:
    entry: Entry
    created: bool
    retired_by_window: tuple[str, ...] = ()


class Store(TreeWriter):
    """The commands' store, built on the tree's writer: the command lock, validation against
    the files, every change, and the rules a hook's writer does not apply (reconcile, the
    rolling window, anti-resurrection, the conflict check)."""

    lock_wait = 15.0

    @contextmanager
    def locked(self) -> Iterator[None]:
        with tree_turn(self.paths, self._lock_timeout, command_lock):
            yield

    # ---------------------------------------------------------------- create

    def create(
        self,
        category: str,
        meta: dict[str, Any],
        body: str,
        *,
        source_path: str | None = None,
        session_id: str | None = None,
        agent: str | None = None,
        now: dt.datetime | None = None,
        unless: Callable[[], object] | None = None,
    ) -> Saved:
        """File a new memory. `meta` holds validated frontmatter fields (title at least).

        Under the lock, before anything is written, `unless()` may find the memory already
        there: then nothing is written and DuplicateError carries what it found (parallel
        identical calls file one memory).
        """
        item = NewMemory(category, meta, body, source_path=source_path)
        with self.locked():
            found = unless() if unless is not None else None
            if found:
                raise DuplicateError(found)
            entry = self._write_new(item, now, session_id=session_id, agent=agent)
            retired = self.after_write([entry], [], bodies={entry.path: body}, now=now)
        return Saved(entry, True, retired)

    def create_many(
        self, items: Sequence[NewMemory], *, now: dt.datetime | None = None
    ) -> list[Saved]:
        """File several new memories under one lock, then update the derived files once.

        An item with `name` keeps that file name when it is free (an import keeps the
        source's names, so the index lines match); otherwise it is named as `create` names.
        """
        entries: list[Entry] = []
        with self.locked():
            try:
                for item in items:
                    entries.append(self._write_new(item, now))  # noqa: PERF401 - keep what was written if one fails
            finally:
                # Even when one write fails, the files already written reach the index.
                bodies = {e.path: i.body for e, i in zip(entries, items, strict=False)}
                retired = self.after_write(entries, [], bodies=bodies, now=now)
        return [Saved(entry, True, retired) for entry in entries]

    def _write_new(
        self,
        item: NewMemory,
        now: dt.datetime | None,
        *,
        session_id: str | None = None,
        agent: str | None = None,
    ) -> Entry:
        """Write one new file; the caller holds the lock and updates the derived files."""
        return file_new(
            self.paths,
            item.category,
            item.meta,
            item.body,
            iso(now or utc_now()),
            cite=self._cite,
            name=item.name,
            source_path=item.source_path,
            session_id=session_id,
            agent=agent,
            before_renaming=lambda taken: refuse_resurrection(self, taken),
        )

    # ------------------------------------------------------ update / lifecycle

    def read(self, relative: str) -> tuple[dict[str, Any], str, str]:
        """(frontmatter, body, content hash) of a memory; raises NotFoundError."""
        target = self._existing(relative)
        data = read_memory(target)
        raw = parse_bytes(data)
        return raw.meta, raw.body, content_hash(data)

    def _existing(self, relative: str) -> Path:
        try:
            target = contained(Path(self.paths.base), relative)
        except UnsafePathError as exc:
            raise StoreError(str(exc)) from None
        if target.suffix != ".md" or not target.is_file():
            raise NotFoundError(f"no memory at {relative}")
        if target.relative_to(self.paths.base).parts[0] not in BY_FOLDER:
            raise StoreError(f"{relative} is not in a memory folder")
        return target

    def update(
        self,
        relative: str,
        meta: dict[str, Any],
        body: str | None,
        *,
        expected_hash: str | None,
        now: dt.datetime | None = None,
    ) -> Saved:
        """Replace a memory's fields and body, refused if it changed since `expected_hash`."""
        with self.locked():
            target = self._existing(relative)
            data = read_memory(target)
            if expected_hash is not None and content_hash(data) != expected_hash:
                raise ConflictError(
                    f"{relative} changed since it was read (hash {content_hash(data)}, "
                    f"expected {expected_hash}); read it again and retry"
                )
            current = parse_bytes(data)
            merged = {**current.meta, **meta, "updated": iso(now)}
            merged["category"] = (
                current.meta.get("category")
                or BY_FOLDER[target.relative_to(self.paths.base).parts[0]].name
            )
            new_body = current.body if body is None else body
            merged = self._cite(project_of(self.paths), merged, new_body)
            write_atomic(target, render_document(ordered(merged), new_body))
            entry = entry_for(self.paths.relative(target), merged, new_body)
            self.after_write([entry], [], bodies={entry.path: new_body}, now=now)
        return Saved(entry, False)

    def rewrite_locked(self, path: str, meta: dict[str, Any], body: str) -> None:
        """Write a memory file the caller validated and cleaned (a direct edit made whole),
        in place; the caller holds the lock and reindexes."""
        write_atomic(path, render_document(ordered(meta), body))

    def set_record_status(
        self, relative: str, status: str, reason: str, now: dt.datetime | None = None
    ) -> Saved:
        """Retire, archive or restore: the file stays; only its lifecycle fields change."""
        with self.locked():
            checked = self.paths.relative(self._existing(relative))
            entry, body = set_status(self.paths, checked, status, reason, iso(now))
            self.after_write([entry], [], bodies={entry.path: body}, now=now)
        return Saved(entry, False)

    def expire(self, now: dt.datetime | None = None, *, dry_run: bool = False) -> list[str]:
        """Retire active memories older than their category's `retention_days` (seed 003)."""
        return expire_old(self, now, dry_run=dry_run)

    def gc(self, now: dt.datetime | None = None, *, dry_run: bool = False) -> list[str]:
        """Delete retired memories past the grace period. Archived ones are kept for good."""
        return collect_retired(self, now, dry_run=dry_run)

    # ------------------------------------------------------- session files

    def write_session_file(
        self,
        session_id: str,
        meta: dict[str, Any],
        summary_body: str,
        now: dt.datetime | None = None,
    ) -> Saved:
        """`/memory summarize`: create or replace the summary, keeping the automatic journal."""
        cat = BY_NAME["session_summary"]
        stamp = iso(now)
        with self.locked():
            name = candidate_name(
                cat, title=str(meta.get("title", "")), when=stamp, session_id=session_id
            )
            target = contained(Path(self.paths.base), f"{cat.folder}/{name}")
            journal = ""
            merged: dict[str, Any] = {
                "category": "session_summary",
                "session_id": session_id,
                "created": stamp,
            }
            created = not target.exists()
            if not created:
                current = parse_bytes(read_memory(target))
                merged.update(current.meta)
                journal = journal_part(current.body)
            merged.update(meta)
            merged.update(
                category="session_summary",
                session_id=session_id,
                updated=stamp,
                record_status="active",
            )
            body = summary_body.strip("\n") + ("\n\n" + journal if journal else "")
            write_atomic(target, render_document(ordered(merged), body))
            entry = entry_for(self.paths.relative(target), merged, body)
            retired = self.after_write([entry], [], bodies={entry.path: body}, now=now)
        return Saved(entry, created, retired)

    # ------------------------------------------------------- derived files

    def after_write(
        self,
        changed: list[Entry],
        removed: list[str],
        *,
        bodies: dict[str, str],
        now: dt.datetime | None,
    ) -> tuple[str, ...]:
        """Still under the lock: catalog, files changed behind our back, rolling window,
        index, archive, search, stats. Returns the sessions the rolling window retired."""
        cat = catalog_or_scan(self.derived)
        changed = self.derived.record(cat, changed, removed)
        found, vanished, read = reconcile(self.derived, cat)
        retired = rolling_window(self, cat, changed, now)
        derived = self.derived
        state = derived.read_session()
        derived.write_derived(cat, state, now=now, forget=removed)
        derived.update_search(
            changed + found,
            [*removed, *vanished, *retired],
            {**read, **bodies},
            cat,
            heal=True,
        )
        # Only what this writer changed is a memory write (the Stop hook's nudge): files a
        # `git pull` brought are not.
        derived.update_stats(changed, cat, now, state)
        return retired

    def refresh(self, now: dt.datetime | None = None) -> None:
        """Re-render the derived files under the lock (status changes, files changed on disk)."""
        with self.locked():
            self.after_write([], [], bodies={}, now=now)

    def catch_up(self) -> bool:
        """Index what changed behind the store's back, if anything did (a hook's journal
        entries, a `git pull`, a fresh clone without `.cache/`): True when the derived files
        were brought up to date."""
        with self.locked():
            made = Path(self.paths.catalog).is_file() and Path(self.paths.search_db).is_file()
            if made and not behind(self.derived, catalog_or_scan(self.derived)):
                return False
            self.after_write([], [], bodies={}, now=None)
            return True

    def reindex_locked(self, changed: list[Entry], bodies: dict[str, str]) -> None:
        """The derived files after a change the caller made itself, holding the lock (a direct
        edit settled by PostToolUse); files changed behind our back are reconciled too."""
        self.after_write(changed, [], bodies=bodies, now=None)

    def rebuild(self, progress: Progress | None = None) -> ScanResult:
        """Everything derived, regenerated from the memory files alone, under the lock."""
        with self.locked():
            return rebuild_all(self.derived, progress)


__all__ = [
    "ConflictError",
    "DuplicateError",
    "NewMemory",
    "NotFoundError",
    "ResurrectionError",
    "Saved",
    "Store",
    "StoreError",
]
