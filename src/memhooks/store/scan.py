"""Regenerate everything derived from the memory files alone (seed 000's `rebuild`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from memhooks.store.catalog import Catalog, Entry
from memhooks.store.categories import BY_FOLDER
from memhooks.store.memory_file import UnparsableMemoryError, parse_bytes
from memhooks.store.paths import MemoryPaths
from memhooks.store.safe_fs import read_memory


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
    from memhooks.store.catalog_entry import entry_for, file_stamp
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
