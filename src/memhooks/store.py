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
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from memhooks import catalog as catalog_io
from memhooks.atomic import create_exclusive, write_atomic
from memhooks.catalog import Catalog, Entry
from memhooks.categories import BY_FOLDER, BY_NAME, Category, Naming
from memhooks.clock import iso, parse_iso, utc_now
from memhooks.config import Settings
from memhooks.index_render import IndexCaps, render_archive, render_index
from memhooks.locking import command_lock, quick_lock
from memhooks.naming import UnsafePathError, candidate_name, contained
from memhooks.paths import MemoryPaths
from memhooks.session_journal import journal_part
from memhooks.session_state import bump_stat, read_state, write_state
from memhooks.status_line import read_status
from memhooks.yaml_emit import render_document

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: SubagentStop files through this module
if TYPE_CHECKING:
    from memhooks.rebuild import ScanResult
    from memhooks.search_index import IndexedDoc

STAT_KEYS = {"decision": "decisions", "analysis": "analyses", "subagent": "subagentOutputs"}


class StoreError(Exception):
    """A write that was refused; the message says why and what to do."""


class ConflictError(StoreError):
    """Optimistic concurrency: the file changed since the caller read it."""


class ResurrectionError(StoreError):
    """A retired slug cannot be created again so soon."""


class NotFoundError(StoreError):
    pass


@dataclass(frozen=True)
class Saved:
    entry: Entry
    created: bool
    retired_by_window: tuple[str, ...] = ()


LockFactory = Callable[[Path, float], AbstractContextManager[None]]


class Store:
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
    ) -> Saved:
        """File a new memory. `meta` holds validated frontmatter fields (title at least)."""
        cat = BY_NAME[category]
        moment = now or utc_now()
        stamp = iso(moment)
        meta = {**meta, "category": category}
        meta.setdefault("created", stamp)
        meta.setdefault("updated", meta["created"])
        meta.setdefault("record_status", "active")
        with self.locked():
            target = self._new_path(
                cat,
                str(meta["title"]),
                stamp,
                source_path=source_path,
                session_id=session_id,
                agent=agent,
            )
            create_exclusive(target, render_document(_ordered(meta), body))
            entry = entry_for(self.paths.relative(target), meta, body)
            retired = self._after_write([entry], [], body_by_path={entry.path: body}, now=moment)
        return Saved(entry, True, retired)

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
            raw = parse_bytes(target.read_bytes())
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
        data = target.read_bytes()
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
            data = target.read_bytes()
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
            write_atomic(target, render_document(_ordered(merged), new_body))
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

        current = parse_bytes(target.read_bytes())
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
        write_atomic(target, render_document(_ordered(meta), current.body))
        return entry_for(self.paths.relative(target), meta, current.body), current.body

    def _still_retired(self, relative: str, before: dt.datetime) -> bool:
        """The file itself, read again just before deleting it, says retired before `before`."""
        from memhooks.memory_file import UnparsableMemoryError, parse_bytes

        try:
            meta = parse_bytes((self.paths.root / relative).read_bytes()).meta
        except (OSError, UnparsableMemoryError):
            return False  # never delete what we cannot read
        retired = parse_iso(_text(meta.get("retired_at")))
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
                current = parse_bytes(target.read_bytes())
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
            write_atomic(target, render_document(_ordered(merged), body))
            entry = entry_for(self.paths.relative(target), merged, body)
            retired = self._after_write([entry], [], body_by_path={entry.path: body}, now=now)
        return Saved(entry, created, retired)

    # ------------------------------------------------------------ derived

    def refresh(self, now: dt.datetime | None = None) -> None:
        """Re-render the derived files under the lock (status changes, files changed on disk)."""
        with self.locked():
            self._after_write([], [], body_by_path={}, now=now)

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
        from memhooks.memory_file import UnparsableMemoryError, parse_bytes
        from memhooks.rebuild import memory_files

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
                raw = parse_bytes(target.read_bytes())
            except (OSError, UnparsableMemoryError):
                if known is not None:
                    cat.remove(relative)
                    vanished.append(relative)
                continue
            entry = replace(entry_for(relative, raw.meta, raw.body), stamp=stamp)
            if known is not None and known.index_archived_at:
                entry = replace(entry, index_archived_at=known.index_archived_at)
            cat.upsert(entry)
            found.append(entry)
            bodies[relative] = raw.body
        return found, vanished, bodies

    def write_derived(self, cat: Catalog, *, now: dt.datetime | None = None) -> None:
        state = _safe_state(self.paths.session)
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
                raw = parse_bytes(target.read_bytes())
                meta = {
                    **raw.meta,
                    "record_status": "retired",
                    "retired_at": stamp,
                    "retired_reason": "Session rolling window: exceeded max_retained limit",
                }
                write_atomic(target, render_document(_ordered(meta), raw.body))
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
                for entry in changed:
                    if not entry.active:
                        index.remove(entry.path)
                        continue
                    body = body_by_path.get(entry.path)
                    if body is None:
                        body = _body_of(self.paths.root / entry.path)
                    index.upsert(indexed_doc(entry, body))
                for path in (*removed, *retired):
                    index.remove(path)
                active = cat.active()
                if not self._hook and index.count() != len(active):
                    # A fresh clone (`.cache/` is not committed) or a damaged index: make
                    # it again from the files, so recall and the pointers work at once.
                    index.rebuild(
                        indexed_doc(
                            e, body_by_path.get(e.path) or _body_of(self.paths.root / e.path)
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
        for entry in changed:
            key = STAT_KEYS.get(entry.category)
            if key and entry.created == entry.updated and entry.active:
                bump_stat(state, key, 0)  # ensure the key exists; counts come from the catalog
        counts = cat.counts()
        stats = state.setdefault("stats", {})
        if isinstance(stats, dict):
            stats["decisions"] = counts.get("decision", 0)
            stats["analyses"] = counts.get("analysis", 0)
            stats["subagentOutputs"] = counts.get("subagent", 0)
            stats["memories"] = sum(counts.values())
            stats["indexArchived"] = sum(
                1 for e in cat.entries.values() if e.active and e.index_archived_at
            )
        if changed:
            state["lastMemoryWrite"] = iso(now)
        write_state(self.paths.session, state)


def entry_for(relative: str, meta: dict[str, Any], body: str) -> Entry:
    from memhooks.memory_file import first_heading, first_sentence

    title = str(meta.get("title") or first_heading(body) or Path(relative).stem)
    description = str(meta.get("description") or first_sentence(_strip_title(body, title)))
    tags = meta.get("tags") or ()
    category = str(meta.get("category") or BY_FOLDER[relative.split("/", 1)[0]].name)
    return Entry(
        path=relative,
        category=category,
        title=title,
        description=description,
        tags=tuple(str(t) for t in tags) if isinstance(tags, list | tuple) else (str(tags),),
        created=_text(meta.get("created")),
        updated=_text(meta.get("updated") or meta.get("created")),
        record_status=str(meta.get("record_status") or "active"),
        retired_at=_text(meta.get("retired_at")),
    )


def indexed_doc(entry: Entry, body: str) -> IndexedDoc:
    """What the search index keeps of a memory."""
    from memhooks.search_index import IndexedDoc

    return IndexedDoc(
        path=entry.path,
        category=entry.category,
        title=entry.title,
        description=entry.description,
        tags=entry.tags,
        body=body,
        updated=entry.updated,
    )


def file_stamp(path: Path) -> str:
    """What says a file changed since it was catalogued: its mtime and size."""
    try:
        info = path.stat()
    except OSError:
        return ""
    return f"{info.st_mtime_ns}:{info.st_size}"


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return iso(value.astimezone(dt.timezone.utc) if value.tzinfo else value)
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def _strip_title(body: str, title: str) -> str:
    lines = body.splitlines()
    if lines and lines[0].lstrip("#").strip() == title:
        return "\n".join(lines[1:])
    return body


def _body_of(path: Path) -> str:
    from memhooks.memory_file import parse_bytes

    try:
        return parse_bytes(path.read_bytes()).body
    except (OSError, ValueError):
        return ""


def _safe_state(path: Path) -> dict[str, Any]:
    try:
        return read_state(path) or {}
    except (ValueError, OSError):
        return {}


_KEY_ORDER = (
    "title",
    "category",
    "description",
    "created",
    "updated",
    "tags",
    "status",
    "record_status",
)


def _ordered(meta: dict[str, Any]) -> dict[str, Any]:
    """Stable key order: the common fields first, then the rest as given."""
    head = {k: meta[k] for k in _KEY_ORDER if k in meta and meta[k] is not None}
    tail = {k: v for k, v in meta.items() if k not in head and v is not None}
    return {**head, **tail}


def stamp_now() -> str:
    return iso()


__all__ = [
    "ConflictError",
    "NotFoundError",
    "ResurrectionError",
    "Saved",
    "Store",
    "StoreError",
    "entry_for",
]
