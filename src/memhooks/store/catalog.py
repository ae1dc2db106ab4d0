"""The catalog (`local/catalog.json`): a derived list of every memory with what its index line
and the search index need. Standard library only.
"""

from __future__ import annotations

import json
import os

from memhooks import TYPE_CHECKING
from memhooks.store.files import read_bytes, read_memory, write_atomic
from memhooks.store.names import BY_FOLDER
from memhooks.text.clock import iso
from memhooks.text.value import Value, set_field

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any


# The catalog: a derived list of every memory with what its index line needs.
#
# `local/catalog.json` is written under the store lock by the write path and by `rebuild`, and
# read by whoever renders the index. It never holds anything the files do not: `rebuild` makes it
# again from the files alone. Standard library only, without dataclasses, typing or pathlib:
# SubagentStop files through it.


CATALOG_VERSION = 1


CATALOG_CAP = 64_000_000  # bytes: 10,000 memories take about 4 MB


#: The fields of an entry, as catalog.json keeps them.
CATALOG_FIELDS = (
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

    __slots__ = CATALOG_FIELDS

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
        for name, value in zip(CATALOG_FIELDS, values, strict=True):
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
        fields = {k: str(v) for k, v in data.items() if k in CATALOG_FIELDS and k != "tags"}
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


def load_catalog(path: str | os.PathLike[str]) -> Catalog | None:
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


def save_catalog(path: str | os.PathLike[str], catalog: Catalog) -> None:
    entries = [e.as_dict() for e in sorted(catalog.entries.values(), key=lambda e: e.path)]
    write_atomic(
        path,
        json.dumps(
            {"version": CATALOG_VERSION, "entries": entries},
            ensure_ascii=False,
            separators=(",", ":"),
        ),
    )


# What the catalog and the search index keep of one memory file. Standard library only, without
# datetime, typing or pathlib: SubagentStop files through this module.


class SearchDoc:
    """One memory as the search index sees it. A slotted class: dataclasses and typing cost
    milliseconds to import on the hooks' paths. The store hands these to the index it was
    given (`memhooks.recall.search_index.SearchIndex` in the product)."""

    __slots__ = ("body", "category", "description", "path", "tags", "title", "updated")

    def __init__(
        self,
        *,
        path: str,
        category: str,
        title: str,
        description: str,
        tags: tuple[str, ...],
        body: str,
        updated: str,
    ) -> None:
        self.path = path  # relative to the memory root, posix, e.g. "decisions/x.md"
        self.category = category
        self.title = title
        self.description = description
        self.tags = tags
        self.body = body
        self.updated = updated


def entry_for(relative: str, meta: dict[str, Any], body: str) -> Entry:
    from memhooks.store.memory_file import first_heading

    stem = os.path.splitext(relative.rsplit("/", 1)[-1])[0]
    title = str(meta.get("title") or first_heading(body) or stem)
    description = str(meta.get("description") or _derived_description(body, title))
    tags = meta.get("tags") or ()
    category = str(meta.get("category") or BY_FOLDER[relative.split("/", 1)[0]].name)
    return Entry(
        path=relative,
        category=category,
        title=title,
        description=description,
        tags=tuple(str(t) for t in tags) if isinstance(tags, list | tuple) else (str(tags),),
        created=text_of(meta.get("created")),
        updated=text_of(meta.get("updated") or meta.get("created")),
        record_status=str(meta.get("record_status") or "active"),
        retired_at=text_of(meta.get("retired_at")),
    )


def search_doc(entry: Entry, body: str) -> SearchDoc:
    """What the search index keeps of a memory."""
    return SearchDoc(
        path=entry.path,
        category=entry.category,
        title=entry.title,
        description=entry.description,
        tags=entry.tags,
        body=body,
        updated=entry.updated,
    )


def file_stamp(path: str | os.PathLike[str]) -> str:
    """What says a file changed since it was catalogued: its mtime and size."""
    try:
        info = os.stat(path)
    except OSError:
        return ""
    return f"{info.st_mtime_ns}:{info.st_size}"


def text_of(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    import datetime as dt  # YAML's dates: the command path, which has it loaded

    if isinstance(value, dt.datetime):
        return iso(value.astimezone(dt.timezone.utc) if value.tzinfo else value)
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def _derived_description(body: str, title: str) -> str:
    """The body's first sentence, unless it only says the title again (a remembered sentence
    is both): the index line then shows the title alone."""
    from memhooks.store.memory_file import first_sentence

    sentence = first_sentence(_strip_title(body, title))
    same = sentence.rstrip(" .!?:;").casefold() == title.rstrip(" .!?:;").casefold()
    return "" if same else sentence


def _strip_title(body: str, title: str) -> str:
    lines = body.splitlines()
    if lines and lines[0].lstrip("#").strip() == title:
        return "\n".join(lines[1:])
    return body


def body_of(path: str | os.PathLike[str]) -> str:
    from memhooks.store.memory_file import parse_bytes

    try:
        return parse_bytes(read_memory(path)).body
    except (OSError, ValueError):
        return ""


KEY_ORDER = (
    "title",
    "category",
    "description",
    "created",
    "updated",
    "tags",
    "status",
    "record_status",
)


def ordered(meta: dict[str, Any]) -> dict[str, Any]:
    """Stable key order: the common fields first, then the rest as given."""
    head = {k: meta[k] for k in KEY_ORDER if k in meta and meta[k] is not None}
    tail = {k: v for k, v in meta.items() if k not in head and v is not None}
    return {**head, **tail}
