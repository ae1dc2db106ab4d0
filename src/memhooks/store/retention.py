"""A memory's lifecycle (seed 003): retire, archive, restore, expire, and delete for good.

A retired or archived memory keeps its file; only its lifecycle fields change. `gc`
deletes retired files past the grace period, after reading each file again. The command
path only (it parses frontmatter); the functions that take a `Store` lock it themselves,
the others expect the caller to hold the lock.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from pathlib import Path

from memhooks import TYPE_CHECKING
from memhooks.store.atomic import write_atomic
from memhooks.store.catalog import Catalog, Entry
from memhooks.store.catalog_entry import entry_for, ordered, text_of
from memhooks.store.memory_file import UnparsableMemoryError, parse_bytes
from memhooks.store.safe_fs import read_memory
from memhooks.store.upkeep import catalog_or_scan, reconcile
from memhooks.store.write_errors import ResurrectionError
from memhooks.store.yaml_emit import render_document
from memhooks.text.clock import iso, parse_iso, utc_now

if TYPE_CHECKING:
    from memhooks.store.paths import MemoryPaths
    from memhooks.store.writer import Store

_LIFECYCLE_KEYS = ("retired_at", "retired_reason", "archived_at", "archived_reason")


def set_status(
    paths: MemoryPaths, relative: str, status: str, reason: str, stamp: str
) -> tuple[Entry, str]:
    """Rewrite one file's lifecycle fields: (its new entry, its body)."""
    target = Path(paths.base) / relative
    current = parse_bytes(read_memory(target))
    meta = dict(current.meta)
    meta["record_status"] = status
    if status == "retired":
        meta.update(retired_at=stamp, retired_reason=reason)
    elif status == "archived":
        meta.update(archived_at=stamp, archived_reason=reason)
    else:
        for key in _LIFECYCLE_KEYS:
            meta.pop(key, None)
        meta["updated"] = stamp
    write_atomic(target, render_document(ordered(meta), current.body))
    return entry_for(relative, meta, current.body), current.body


def refuse_resurrection(store: Store, target: str) -> None:
    """A recently retired memory is not filed again under a new name (`-2`): it is
    restored, or left retired. Raises ResurrectionError inside the window."""
    try:
        raw = parse_bytes(read_memory(target))
    except (OSError, UnparsableMemoryError):
        return
    if raw.meta.get("record_status") != "retired":
        return
    retired = parse_iso(str(raw.meta.get("retired_at") or ""))
    hours = store.settings.anti_resurrection_hours
    if retired is not None and utc_now() - retired < dt.timedelta(hours=hours):
        raise ResurrectionError(
            f"{store.paths.relative(target)} was retired at {iso(retired)}; it cannot be "
            f"created again for {hours} h. Restore it with `memhooks restore` if it is "
            "still true."
        )


def rolling_window(
    store: Store, cat: Catalog, changed: list[Entry], now: dt.datetime | None
) -> tuple[str, ...]:
    """Seed 003: keep the newest N session summaries active, retire the oldest."""
    if not any(e.category == "session_summary" for e in changed):
        return ()
    limit = store.settings.max_retained("session_summary")
    sessions = sorted(
        (e for e in cat.entries.values() if e.category == "session_summary" and e.active),
        key=lambda e: (e.created, e.path),
    )
    excess = sessions[: max(0, len(sessions) - (limit or len(sessions)))]
    stamp = iso(now)
    reason = "Session rolling window: exceeded max_retained limit"
    for entry in excess:
        with contextlib.suppress(OSError, ValueError):
            set_status(store.paths, entry.path, "retired", reason, stamp)
            cat.upsert(entry.replace(record_status="retired", retired_at=stamp))
    return tuple(e.path for e in excess)


def expire(store: Store, now: dt.datetime | None, *, dry_run: bool) -> list[str]:
    """Retire active memories older than their category's `retention_days` (seed 003)."""
    moment = now or utc_now()
    expired: list[Entry] = []
    with store.locked():
        cat = catalog_or_scan(store.derived)
        reconcile(store.derived, cat)
        for entry in cat.active():
            days = store.settings.retention_days(entry.category)
            written = parse_iso(entry.updated or entry.created)
            if days and written is not None and moment - written > dt.timedelta(days=days):
                expired.append(entry)
        if dry_run or not expired:
            return [e.path for e in expired]
        changed: list[Entry] = []
        for entry in expired:
            days = store.settings.retention_days(entry.category)
            key = f"categories.{entry.category}.retention_days"
            reason = f"Retention: not updated for {days} days ({key})"
            with contextlib.suppress(OSError, ValueError):
                changed.append(
                    set_status(store.paths, entry.path, "retired", reason, iso(moment))[0]
                )
        store.after_write(changed, [], bodies={}, now=moment)
    return [e.path for e in changed]


def _still_retired(paths: MemoryPaths, relative: str, before: dt.datetime) -> bool:
    """The file itself, read again just before deleting it, says retired before `before`."""
    try:
        meta = parse_bytes(read_memory(Path(paths.base) / relative)).meta
    except (OSError, UnparsableMemoryError):
        return False  # never delete what we cannot read
    retired = parse_iso(text_of(meta.get("retired_at")))
    return meta.get("record_status") == "retired" and retired is not None and retired <= before


def gc(store: Store, now: dt.datetime | None, *, dry_run: bool) -> list[str]:
    """Delete retired memories past the grace period. Archived ones are kept for good."""
    moment = now or utc_now()
    grace = dt.timedelta(days=store.settings.grace_period_days)
    removed: list[str] = []
    with store.locked():
        cat = catalog_or_scan(store.derived)
        # Decide on what the files say now, not on a stale catalog (git pull, restore).
        found, vanished, _ = reconcile(store.derived, cat)
        for entry in list(cat.entries.values()):
            retired = parse_iso(entry.retired_at)
            if entry.record_status != "retired" or retired is None or moment - retired < grace:
                continue
            if not _still_retired(store.paths, entry.path, moment - grace):
                continue
            if not dry_run:
                with contextlib.suppress(FileNotFoundError):
                    (Path(store.paths.base) / entry.path).unlink()
            removed.append(entry.path)
        if (removed or found or vanished) and not dry_run:
            store.after_write([], removed, bodies={}, now=moment)
    return removed
