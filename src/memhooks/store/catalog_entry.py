"""What the catalog and the search index keep of one memory file. Standard library only,
without datetime, typing or pathlib: SubagentStop files through this module."""

from __future__ import annotations

import os

from memhooks import TYPE_CHECKING
from memhooks.store.catalog import Entry
from memhooks.store.categories import BY_FOLDER
from memhooks.store.safe_fs import read_memory
from memhooks.text.clock import iso

if TYPE_CHECKING:
    from typing import Any


class IndexedDoc:
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


def indexed_doc(entry: Entry, body: str) -> IndexedDoc:
    """What the search index keeps of a memory."""
    return IndexedDoc(
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
