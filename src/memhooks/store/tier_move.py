"""`promote` and `demote`: one memory moved between a project's tree and the user tier.

A move files the memory in the other tree under the same file name, with its frontmatter
kept (created, tags, session, citations) and its provenance added (`moved_from`, `moved_at`,
and one line per move in `moves`), then deletes it from the tree it left, each tree's
derived files (index, catalog, search) updated by its own store, and redacted with the
patterns of the tree it enters. A duplicate is refused
before anything is written: the same file name, or an active memory of the same category
and title, in the other tree. Moving it back is the reverse move (reversible by construction).

Which memories move: the typed ones a person states (decisions, constraints, runbooks,
preferences, tech debt). Session summaries, analyses and sub-agent notes are about one
project's work and stay in it.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Any

from memhooks import TYPE_CHECKING
from memhooks.store.files import read_memory
from memhooks.store.memory_file import content_hash, parse_bytes
from memhooks.store.names import ConflictError, DuplicateError, StoreError
from memhooks.store.upkeep import catalog_or_scan
from memhooks.text.clock import iso, utc_now
from memhooks.text.redact import redact, redact_field

if TYPE_CHECKING:
    import datetime as dt

    from memhooks.store.catalog import Entry
    from memhooks.store.writer import Store

MOVABLE = ("decision", "constraint", "runbook", "preference", "tech_debt")
#: How many past moves a memory's `moves` list keeps.
MOVES_KEPT = 10


def move_between(
    source: Store,
    target: Store,
    relative: str,
    *,
    origin: str,
    destination: str,
    now: dt.datetime | None = None,
) -> Entry:
    """Move the memory at `relative` in `source`'s tree to `target`'s; returns its new
    entry. `origin` and `destination` name the two trees in the provenance lines."""
    meta, body, digest = source.read(relative)
    category = str(meta.get("category") or "")
    if category not in MOVABLE:
        raise StoreError(
            f"{relative} is a {category or 'memory without a category'}: only "
            f"{', '.join(MOVABLE)} move between the project and the user tier"
        )
    name = PurePosixPath(relative).name
    stamp = iso(now or utc_now())
    patterns = target.settings.redact_patterns  # the tree it enters may redact more
    body = redact(body, patterns)
    moved = {
        **{key: redact_field(key, value, patterns) for key, value in meta.items()},
        "moved_from": f"{origin}: {relative}",
        "moved_at": stamp,
        "moves": _history(meta.get("moves"), f"{stamp[:10]} {origin} -> {destination}"),
    }
    from memhooks.store.writer import NewMemory

    with target.locked():
        _refuse_duplicate(target, category, name, str(meta.get("title") or ""))
    (saved,) = target.create_many([NewMemory(category, moved, body, name=name)], now=now)
    _remove(source, relative, digest, now)
    return saved.entry


def _history(previous: object, line: str) -> list[str]:
    kept = [str(item) for item in previous] if isinstance(previous, list) else []
    return [*kept, line][-MOVES_KEPT:]


def _refuse_duplicate(target: Store, category: str, name: str, title: str) -> None:
    """Under `target`'s lock: the same file name, or an active memory of this category with
    this title, is already there."""
    cat = catalog_or_scan(target.derived)
    folder_name = f"{_folder(category)}/{name}"
    same: list[dict[str, Any]] = [
        {"path": entry.path, "title": entry.title}
        for entry in cat.entries.values()
        if entry.path == folder_name
        or (
            entry.active
            and entry.category == category
            and entry.title.casefold() == title.casefold()
        )
    ]
    there = Path(target.paths.base) / folder_name
    if (there.exists() or there.is_symlink()) and not any(s["path"] == folder_name for s in same):
        same.append({"path": folder_name, "title": title})
    if same:
        raise DuplicateError(same)


def _folder(category: str) -> str:
    from memhooks.store.names import BY_NAME

    return BY_NAME[category].folder


def _remove(source: Store, relative: str, digest: str, now: dt.datetime | None) -> None:
    """Delete the moved memory from the tree it left, if it is still as it was read."""
    with source.locked():
        path = Path(source.paths.base) / relative
        data = read_memory(path)
        if content_hash(data) != digest:
            raise ConflictError(
                f"{relative} changed while it was being moved; both trees now hold it: "
                "retire one copy"
            )
        parse_bytes(data)  # still a memory file
        path.unlink()
        source.after_write([], [relative], bodies={}, now=now)
