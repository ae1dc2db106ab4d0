"""The catalog: a derived list of every memory with what its index line needs.

`.cache/catalog.json` is written under the store lock by the write path and by `rebuild`,
and read by whoever renders the index. It never holds anything the files do not: `rebuild`
makes it again from the files alone. Standard library only, without dataclasses, typing or
pathlib: SubagentStop files through it.
"""

from __future__ import annotations

import json
import os

from memhooks.store.atomic import write_atomic
from memhooks.store.safe_fs import read_bytes
from memhooks.text.value import Value, set_field

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: SubagentStop files through this module
if TYPE_CHECKING:
    from collections.abc import Iterable

CATALOG_VERSION = 1
CATALOG_CAP = 64_000_000  # bytes: 10,000 memories take about 4 MB

#: The fields of an entry, as catalog.json keeps them.
FIELDS = (
    "path",  # relative to the memory root, forward slashes
    "category",
    "title",
    "description",
    "tags",
    "created",
    "updated",
    "record_status",
    "retired_at",
    "content_hash",
    "index_archived_at",  # when the index cap first pushed it into MEMORY-archive.md
    "stamp",  # "mtime_ns:size" of the file when catalogued: a change means re-read it
)


class Entry(Value):
    """One memory as the catalog keeps it (frozen; `replace` makes a changed copy)."""

    __slots__ = FIELDS

    def __init__(
        self,
        *,
        path: str,
        category: str,
        title: str,
        description: str = "",
        tags: tuple[str, ...] = (),
        created: str = "",
        updated: str = "",
        record_status: str = "active",
        retired_at: str = "",
        content_hash: str = "",
        index_archived_at: str = "",
        stamp: str = "",
    ) -> None:
        values = (
            path,
            category,
            title,
            description,
            tags,
            created,
            updated,
            record_status,
            retired_at,
            content_hash,
            index_archived_at,
            stamp,
        )
        for name, value in zip(FIELDS, values, strict=True):
            set_field(self, name, value)

    path: str
    category: str
    title: str
    description: str
    tags: tuple[str, ...]
    created: str
    updated: str
    record_status: str
    retired_at: str
    content_hash: str
    index_archived_at: str
    stamp: str

    @property
    def active(self) -> bool:
        return self.record_status == "active"

    def sort_key(self) -> tuple[str, str, str]:
        return (self.updated or self.created, self.created, self.path)

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Entry:
        fields = {k: str(v) for k, v in data.items() if k in FIELDS and k != "tags"}
        given = data.get("tags", ())
        tags = tuple(str(t) for t in given) if isinstance(given, list | tuple) else ()
        return cls(**fields, tags=tags)


class Catalog:
    """Every memory by path (a plain class: dataclasses cost SubagentStop ~10 ms)."""

    __slots__ = ("entries",)

    def __init__(self, entries: dict[str, Entry] | None = None) -> None:
        self.entries: dict[str, Entry] = {} if entries is None else entries

    def upsert(self, entry: Entry) -> None:
        old = self.entries.get(entry.path)
        if old is not None and old.index_archived_at and not entry.index_archived_at:
            entry = entry.replace(index_archived_at=old.index_archived_at)
        self.entries[entry.path] = entry

    def remove(self, path: str) -> None:
        self.entries.pop(path, None)

    def active(self) -> list[Entry]:
        """Active memories, newest first."""
        return sorted(
            (e for e in self.entries.values() if e.active), key=Entry.sort_key, reverse=True
        )

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for entry in self.entries.values():
            if entry.active:
                out[entry.category] = out.get(entry.category, 0) + 1
        return out

    def mark_index_archived(self, paths: Iterable[str], when: str) -> None:
        for path in paths:
            entry = self.entries.get(path)
            if entry is not None and not entry.index_archived_at:
                self.entries[path] = entry.replace(index_archived_at=when)


def load(path: str | os.PathLike[str]) -> Catalog | None:
    """None when missing or unreadable: the caller rebuilds it from the files."""
    try:
        data = json.loads(read_bytes(path, CATALOG_CAP, whole=True).decode("utf-8"))
        if data.get("version") != CATALOG_VERSION:
            return None
        entries = [Entry.from_dict(e) for e in data["entries"]]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if not all(_plain_relative(e.path) for e in entries):
        return None  # not one we wrote (a path out of the tree): rebuilt from the files
    return Catalog({e.path: e for e in entries})


def _plain_relative(path: object) -> bool:
    """A path as the catalog writes them: relative, forward slashes, no `..`, no NUL."""
    if not isinstance(path, str) or not path or "\x00" in path or "\\" in path:
        return False
    return not path.startswith("/") and ".." not in path.split("/")


def save(path: str | os.PathLike[str], catalog: Catalog) -> None:
    entries = [e.as_dict() for e in sorted(catalog.entries.values(), key=lambda e: e.path)]
    write_atomic(
        path,
        json.dumps(
            {"version": CATALOG_VERSION, "entries": entries},
            ensure_ascii=False,
            separators=(",", ":"),
        ),
    )
