"""The commands' care for the tree: a memory's lifecycle (retire, archive, restore, expire, gc,
the rolling window, anti-resurrection); the catalog made from the files, reconciled with files
changed behind our back, or rebuilt; secrets scrubbed from a file written behind the store's
back.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from memhooks import TYPE_CHECKING
from memhooks.store.catalog import Catalog, Entry, entry_for, file_stamp, ordered, text_of
from memhooks.store.derived import DerivedFiles
from memhooks.store.files import read_memory, write_atomic
from memhooks.store.memory_file import UnparsableMemoryError, parse_bytes, render_document
from memhooks.store.names import BY_FOLDER, ResurrectionError
from memhooks.store.paths import MemoryPaths
from memhooks.text.clock import iso, parse_iso, utc_now
from memhooks.text.progress import Progress
from memhooks.text.redact import redact, redact_value

if TYPE_CHECKING:
    from memhooks.store.writer import Store


# Regenerate everything derived from the memory files alone (seed 000's `rebuild`).


@dataclass
class ScanResult:
    catalog: Catalog = field(default_factory=Catalog)
    bodies: dict[str, str] = field(default_factory=dict)
    problems: list[tuple[str, str]] = field(default_factory=list)  # (path, why)

    def counts(self) -> dict[str, int]:
        return self.catalog.counts()


def memory_files(paths: MemoryPaths) -> list[Path]:
    """Every candidate memory file: markdown in a category folder, no hidden or temp files."""
    found: list[Path] = []
    for folder in sorted(BY_FOLDER):
        base = Path(paths.base) / folder
        if not base.is_dir() or base.is_symlink():
            continue
        found.extend(
            p
            for p in sorted(base.glob("*.md"))
            if not p.name.startswith(".") and p.is_file() and not p.is_symlink()
        )
    return found


def _check_category(meta: dict[str, object], folder_category: str) -> None:
    if meta.get("category", folder_category) != folder_category:
        raise UnparsableMemoryError(f"category {meta.get('category')!r} does not match folder")


def read_entry(paths: MemoryPaths, path: Path, stamp: str | None = None) -> tuple[Entry, str]:
    """One memory file as the catalog keeps it, and its body: what `rebuild` and the
    write path's reconcile both read. Raises OSError, UnparsableMemoryError or ValueError
    (an invalid frontmatter) for a file that is to be reported and left alone."""
    from memhooks.store.catalog import entry_for, file_stamp
    from memhooks.store.models import parse_meta

    relative = paths.relative(path)
    folder_category = BY_FOLDER[relative.split("/", 1)[0]].name
    raw = parse_bytes(read_memory(path))
    meta = dict(raw.meta)
    if meta:
        _check_category(meta, folder_category)
        parse_meta({**meta, "title": meta.get("title") or "untitled"}, folder_category)
    meta.setdefault("category", folder_category)
    if not meta.get("created"):
        written = dt.datetime.fromtimestamp(path.stat().st_mtime, dt.timezone.utc)
        meta["created"] = written.strftime("%Y-%m-%dT%H:%M:%SZ")
    entry = entry_for(relative, meta, raw.body)
    return entry.replace(stamp=stamp if stamp is not None else file_stamp(path)), raw.body


def scan_tree(paths: MemoryPaths, progress: Callable[[int, int], None] | None = None) -> ScanResult:
    result = ScanResult()
    files = memory_files(paths)
    for number, path in enumerate(files, 1):
        if progress is not None:
            progress(number, len(files))
        try:
            entry, body = read_entry(paths, path)
        except (OSError, UnparsableMemoryError, ValueError) as exc:
            result.problems.append((paths.relative(path), str(exc).splitlines()[0][:300]))
            continue
        result.catalog.upsert(entry)
        result.bodies[entry.path] = body
    return result


# Secrets out of a memory file that was written behind the store's back, in place.
#
# The store redacts what it writes; a file a shell command, an editor or a `git pull` wrote was
# never redacted. Before such a file is indexed (and so before any hook injects a line of it) its
# frontmatter values and its body are redacted, and the file is rewritten when that changed
# anything. The caller holds the store lock and has validated the file.


def scrub(path: str, patterns: tuple[str, ...]) -> bool:
    """Redact the memory file at `path` in place; True when it was rewritten. A file without
    frontmatter keeps having none."""
    raw = parse_bytes(read_memory(path))
    body = redact(raw.body, patterns)
    meta = {k: redact_value(v, patterns) for k, v in raw.meta.items()}
    if body == raw.body and meta == raw.meta:
        return False
    write_atomic(path, render_document(ordered(meta), body) if raw.meta else body)
    return True


# The commands' care for the derived files: the catalog made from the files when missing, brought
# in line with files changed behind our back, or made again with everything else.
#
# The command path only (it parses frontmatter): a hook files with what the catalog says and
# leaves the rest to the next command. The caller holds the store lock.


def catalog_or_scan(derived: DerivedFiles) -> Catalog:
    """The catalog as last written, or made from the files when it is missing or stale."""
    loaded = derived.load_catalog()
    return loaded if loaded is not None else scan_tree(derived.paths).catalog


def behind(derived: DerivedFiles, cat: Catalog) -> bool:
    """Whether a memory file was added, changed or removed since the catalog was written
    (stats only, nothing parsed): the Stop hook appends to a session's journal without
    indexing it. A file that does not parse keeps this true; it is reported, never touched."""
    paths = derived.paths
    on_disk = {paths.relative(p): p for p in memory_files(paths)}
    if on_disk.keys() != cat.entries.keys():
        return True
    return any(file_stamp(target) != cat.entries[rel].stamp for rel, target in on_disk.items())


def reconcile(derived: DerivedFiles, cat: Catalog) -> tuple[list[Entry], list[str], dict[str, str]]:
    """Bring the catalog in line with the files: git pulls, merges and hand edits add,
    change and remove memory files behind our back. (Found, vanished, bodies read.)

    It lists the category folders and stats every file (~20 ms at 10,000 memories); a file
    that does not parse is left out, never touched. One that does is redacted in place
    before it is indexed: nothing written behind the store's back was redacted.
    """
    paths = derived.paths
    on_disk = {paths.relative(p): p for p in memory_files(paths)}
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
            entry, body = read_entry(paths, target, stamp)
            if scrub(str(target), derived.settings.redact_patterns):
                entry, body = read_entry(paths, target)
        except (OSError, UnparsableMemoryError, ValueError):
            if known is not None:
                cat.remove(relative)
                vanished.append(relative)
            continue
        cat.upsert(entry)  # keeps the date the index cap first archived it
        found.append(entry)
        bodies[relative] = body
    return found, vanished, bodies


def rebuild_all(derived: DerivedFiles, progress: Progress | None) -> ScanResult:
    """Everything derived, regenerated from the memory files alone."""
    result = scan_tree(derived.paths, progress.step("reading memory files") if progress else None)
    state = derived.read_session()
    derived.write_derived(result.catalog, state)
    indexing = progress.step("indexing (each memory's vector too)") if progress else None
    derived.rebuild_search(result.catalog, result.bodies, indexing)
    derived.update_stats([], result.catalog, None, state)
    return result


# A memory's lifecycle (seed 003): retire, archive, restore, expire, and delete for good.
#
# A retired or archived memory keeps its file; only its lifecycle fields change. `gc` deletes
# retired files past the grace period, after reading each file again. The command path only (it
# parses frontmatter); the functions that take a `Store` lock it themselves, the others expect the
# caller to hold the lock.


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


def expire_old(store: Store, now: dt.datetime | None, *, dry_run: bool) -> list[str]:
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


def collect_retired(store: Store, now: dt.datetime | None, *, dry_run: bool) -> list[str]:
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
