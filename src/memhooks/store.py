"""The one write path into `.claude/memory/`.

Every change follows the same steps: take the store lock, write the file through a unique
temp file in the same folder (fsync, os.replace), then update the catalog, `MEMORY.md`, the
archive, the search index and the stats, still under the lock. Readers never lock.

This module imports only the standard library, so that a hook can file a memory; the
operations that must parse existing frontmatter (update, retire, gc, rebuild) import
`memory_file` lazily and are used from the command path.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memhooks import citations
from memhooks.atomic import create_exclusive, write_atomic
from memhooks.catalog import Entry
from memhooks.categories import BY_FOLDER, BY_NAME, Category, Naming
from memhooks.clock import iso, parse_iso, utc_now
from memhooks.config import Settings
from memhooks.derived import DerivedFiles, StoreError
from memhooks.locking import command_lock, quick_lock
from memhooks.memory_entry import entry_for, ordered, text_of
from memhooks.naming import UnsafePathError, candidate_name, contained
from memhooks.paths import MemoryPaths
from memhooks.safe_fs import read_memory
from memhooks.session_journal import journal_part
from memhooks.yaml_emit import render_document

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: SubagentStop files through this module


class ConflictError(StoreError):
    """Optimistic concurrency: the file changed since the caller read it."""


class ResurrectionError(StoreError):
    """A retired slug cannot be created again so soon."""


class DuplicateError(StoreError):
    """`create`'s `unless` check found the memory already there (checked under the lock)."""

    def __init__(self, found: object) -> None:
        super().__init__("a memory like this one exists already")
        self.found = found


class NotFoundError(StoreError):
    pass


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


LockFactory = Callable[[Path, float], AbstractContextManager[None]]


class Store(DerivedFiles):
    def __init__(
        self,
        paths: MemoryPaths,
        settings: Settings,
        *,
        hook: bool = False,
        lock_timeout: float | None = None,
    ) -> None:
        self.paths = paths
        self.settings = settings
        self._lock_factory: LockFactory = quick_lock if hook else command_lock
        self._lock_timeout = lock_timeout if lock_timeout is not None else (0.5 if hook else 15.0)
        self._hook = hook

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        with self._lock_factory(self.paths.lock, self._lock_timeout):
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
        then: Callable[[], None] | None = None,
    ) -> Saved:
        """File a new memory. `meta` holds validated frontmatter fields (title at least).

        Under the lock, before anything is written, `unless()` may find the memory already
        there: then nothing is written and DuplicateError carries what it found (parallel
        identical calls file one memory). `then()` runs under the lock after the write (a
        dedupe marker set only once the memory is safely on disk).
        """
        item = NewMemory(category, meta, body, source_path=source_path)
        with self.locked():
            found = unless() if unless is not None else None
            if found:
                raise DuplicateError(found)
            entry = self._write_new(item, now, session_id=session_id, agent=agent)
            retired = self._after_write([entry], [], body_by_path={entry.path: body}, now=now)
            if then is not None:
                then()
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
                retired = self._after_write(entries, [], body_by_path=bodies, now=now)
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
        cat = BY_NAME[item.category]
        stamp = iso(now or utc_now())
        meta = {**item.meta, "category": item.category}
        meta.setdefault("created", stamp)
        meta.setdefault("updated", meta["created"])
        meta.setdefault("record_status", "active")
        meta = citations.with_hashes(citations.project_of(self.paths.base), meta, item.body)
        target = self._named_path(cat, item.name) if item.name else None
        if target is None:
            target = self._new_path(
                cat,
                str(meta["title"]),
                stamp,
                source_path=item.source_path,
                session_id=session_id,
                agent=agent,
            )
        create_exclusive(target, render_document(ordered(meta), item.body))
        return entry_for(self.paths.relative(target), meta, item.body)

    def _named_path(self, cat: Category, name: str) -> Path | None:
        """`<folder>/<name>` when `name` is a plain free `.md` name inside the tree, else None."""
        if "/" in name or "\\" in name or not name.endswith(".md") or name.startswith("."):
            raise StoreError(f"not a memory file name: {name!r}")
        folder = self.paths.root / cat.folder
        folder.mkdir(parents=True, exist_ok=True)
        target = contained(self.paths.root, f"{cat.folder}/{name}")
        return None if target.exists() or target.is_symlink() else target

    def _new_path(
        self,
        cat: Category,
        title: str,
        stamp: str,
        *,
        source_path: str | None,
        session_id: str | None,
        agent: str | None,
    ) -> Path:
        folder = self.paths.root / cat.folder
        folder.mkdir(parents=True, exist_ok=True)
        sequence = 1
        if cat.naming is Naming.DATED_SEQUENCE:
            day = stamp[:10]
            taken = [p.name for p in folder.glob(f"{day}_*.md")]
            numbers = [int(n[11:14]) for n in taken if n[11:14].isdigit()]
            sequence = max(numbers, default=0) + 1
        name = candidate_name(
            cat,
            title=title,
            when=stamp,
            sequence=sequence,
            source_path=source_path,
            session_id=session_id,
            agent=agent,
        )
        target = contained(self.paths.root, f"{cat.folder}/{name}")
        if not target.exists():
            return target
        if cat.naming is Naming.SESSION_ID:
            raise StoreError(f"{self.paths.relative(target)} exists: update it instead")
        self._refuse_resurrection(target)
        stem = target.stem
        for n in range(2, 1000):
            alternative = target.with_name(f"{stem}-{n}.md")
            if not alternative.exists():
                return alternative
        raise StoreError(f"no free name for {target.name}")

    def _refuse_resurrection(self, target: Path) -> None:
        if self._hook:
            return
        from memhooks.memory_file import UnparsableMemoryError, parse_bytes

        try:
            raw = parse_bytes(read_memory(target))
        except (OSError, UnparsableMemoryError):
            return
        if raw.meta.get("record_status") != "retired":
            return
        retired = parse_iso(str(raw.meta.get("retired_at") or ""))
        window = dt.timedelta(hours=self.settings.anti_resurrection_hours)
        if retired is not None and utc_now() - retired < window:
            raise ResurrectionError(
                f"{self.paths.relative(target)} was retired at {iso(retired)}; it cannot be "
                f"created again for {self.settings.anti_resurrection_hours} h. Restore it with "
                "`memhooks restore` if it is still true."
            )

    # ------------------------------------------------------ update / lifecycle

    def read(self, relative: str) -> tuple[dict[str, Any], str, str]:
        """(frontmatter, body, content hash) of a memory; raises NotFoundError."""
        from memhooks.memory_file import content_hash, parse_bytes

        target = self._existing(relative)
        data = read_memory(target)
        raw = parse_bytes(data)
        return raw.meta, raw.body, content_hash(data)

    def _existing(self, relative: str) -> Path:
        try:
            target = contained(self.paths.root, relative)
        except UnsafePathError as exc:
            raise StoreError(str(exc)) from None
        if target.suffix != ".md" or not target.is_file():
            raise NotFoundError(f"no memory at {relative}")
        if target.relative_to(self.paths.root).parts[0] not in BY_FOLDER:
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
        from memhooks.memory_file import content_hash, parse_bytes

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
                or BY_FOLDER[target.relative_to(self.paths.root).parts[0]].name
            )
            new_body = current.body if body is None else body
            merged = citations.with_hashes(citations.project_of(self.paths.base), merged, new_body)
            write_atomic(target, render_document(ordered(merged), new_body))
            entry = entry_for(self.paths.relative(target), merged, new_body)
            self._after_write([entry], [], body_by_path={entry.path: new_body}, now=now)
        return Saved(entry, False)

    def set_record_status(
        self, relative: str, status: str, reason: str, now: dt.datetime | None = None
    ) -> Saved:
        """Retire, archive or restore: the file stays; only its lifecycle fields change."""
        with self.locked():
            entry, body = self._set_status(self._existing(relative), status, reason, iso(now))
            self._after_write([entry], [], body_by_path={entry.path: body}, now=now)
        return Saved(entry, False)

    def _set_status(self, target: Path, status: str, reason: str, stamp: str) -> tuple[Entry, str]:
        """Rewrite one file's lifecycle fields; the caller holds the lock and reindexes."""
        from memhooks.memory_file import parse_bytes

        current = parse_bytes(read_memory(target))
        meta = dict(current.meta)
        meta["record_status"] = status
        if status == "retired":
            meta.update(retired_at=stamp, retired_reason=reason)
        elif status == "archived":
            meta.update(archived_at=stamp, archived_reason=reason)
        else:
            for key in ("retired_at", "retired_reason", "archived_at", "archived_reason"):
                meta.pop(key, None)
            meta["updated"] = stamp
        write_atomic(target, render_document(ordered(meta), current.body))
        return entry_for(self.paths.relative(target), meta, current.body), current.body

    def _still_retired(self, relative: str, before: dt.datetime) -> bool:
        """The file itself, read again just before deleting it, says retired before `before`."""
        from memhooks.memory_file import UnparsableMemoryError, parse_bytes

        try:
            meta = parse_bytes(read_memory(self.paths.root / relative)).meta
        except (OSError, UnparsableMemoryError):
            return False  # never delete what we cannot read
        retired = parse_iso(text_of(meta.get("retired_at")))
        return meta.get("record_status") == "retired" and retired is not None and retired <= before

    def expire(self, now: dt.datetime | None = None, *, dry_run: bool = False) -> list[str]:
        """Retire active memories older than their category's `retention_days` (seed 003)."""
        moment = now or utc_now()
        expired: list[Entry] = []
        with self.locked():
            cat = self._catalog()
            self.reconcile(cat)
            for entry in cat.active():
                days = self.settings.retention_days(entry.category)
                written = parse_iso(entry.updated or entry.created)
                if days and written is not None and moment - written > dt.timedelta(days=days):
                    expired.append(entry)
            if dry_run or not expired:
                return [e.path for e in expired]
            changed: list[Entry] = []
            for entry in expired:
                days = self.settings.retention_days(entry.category)
                key = f"categories.{entry.category}.retention_days"
                reason = f"Retention: not updated for {days} days ({key})"
                with contextlib.suppress(OSError, ValueError):
                    changed.append(
                        self._set_status(
                            self.paths.root / entry.path, "retired", reason, iso(moment)
                        )[0]
                    )
            self._after_write(changed, [], body_by_path={}, now=moment)
        return [e.path for e in changed]

    def gc(self, now: dt.datetime | None = None, *, dry_run: bool = False) -> list[str]:
        """Delete retired memories past the grace period. Archived ones are kept for good."""
        moment = now or utc_now()
        grace = dt.timedelta(days=self.settings.grace_period_days)
        removed: list[str] = []
        with self.locked():
            cat = self._catalog()
            # Decide on what the files say now, not on a stale catalog (git pull, restore).
            found, vanished, _ = self.reconcile(cat)
            for entry in list(cat.entries.values()):
                retired = parse_iso(entry.retired_at)
                if entry.record_status != "retired" or retired is None or moment - retired < grace:
                    continue
                if not self._still_retired(entry.path, moment - grace):
                    continue
                if not dry_run:
                    with contextlib.suppress(FileNotFoundError):
                        (self.paths.root / entry.path).unlink()
                removed.append(entry.path)
            if (removed or found or vanished) and not dry_run:
                self._after_write([], removed, body_by_path={}, now=moment)
        return removed

    # ------------------------------------------------------- session files

    def write_session_file(
        self,
        session_id: str,
        meta: dict[str, Any],
        summary_body: str,
        now: dt.datetime | None = None,
    ) -> Saved:
        """`/memory summarize`: create or replace the summary, keeping the automatic journal."""
        from memhooks.memory_file import parse_bytes

        cat = BY_NAME["session_summary"]
        stamp = iso(now)
        with self.locked():
            name = candidate_name(
                cat, title=str(meta.get("title", "")), when=stamp, session_id=session_id
            )
            target = contained(self.paths.root, f"{cat.folder}/{name}")
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
            retired = self._after_write([entry], [], body_by_path={entry.path: body}, now=now)
        return Saved(entry, created, retired)


__all__ = [
    "ConflictError",
    "NewMemory",
    "NotFoundError",
    "ResurrectionError",
    "Saved",
    "Store",
    "StoreError",
]
