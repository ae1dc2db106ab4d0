"""Export and import between projects: what a bundle holds, and what an import would do.

A memory travels as its file: the frontmatter validated by its category's model (the same
`validate` that `memhooks save` uses) and redacted again, the body redacted again. Two
memories are the same when their frontmatter (less the provenance keys an import adds) and
their body are equal: `identity`. That is how an import skips what is already there, and why
importing a bundle twice changes nothing the second time.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memhooks.store import (
    BY_FOLDER,
    PROVENANCE_KEYS,
    TREE_PREFIX,
    MemoryPaths,
    Naming,
    NewMemory,
    read_memory,
    render_document,
)
from memhooks.text.redact import redact, redact_field

#: Exported unless --category narrows it; sessions and sub-agent outputs need --sessions.
KNOWLEDGE = ("decision", "constraint", "runbook", "preference", "tech_debt", "analysis")
SESSION_CATEGORIES = ("session_summary", "subagent")


class InvalidMemoryError(ValueError):
    """A file that its category's model refuses; the message names the file."""


@dataclass(frozen=True)
class CleanMemory:
    category: str
    meta: dict[str, Any]  # validated, in the file's own key order, without `category`
    body: str
    redacted: int  # how many values the redaction changed

    def identity(self) -> str:
        return identity(self.meta, self.body)

    def render(self) -> bytes:
        from memhooks.store import ordered

        meta = {**self.meta, "category": self.category}
        return render_document(ordered(meta), self.body).encode("utf-8")


#: What the store fills in when it writes a new memory (store.tree.completed): the dates
#: when a file has none, and the citations' hashes of this project's code. A bundle file
#: without them is still the memory its import wrote.
STORE_FILLED = ("created", "updated", "cites")


def identity(meta: dict[str, Any], body: str) -> str:
    """What makes two memories the same: their frontmatter (provenance and what the store
    fills in aside) and body."""
    ignored = (*PROVENANCE_KEYS, *STORE_FILLED, "category")
    core = {k: v for k, v in meta.items() if k not in ignored}
    text = json.dumps([core, body.strip("\n")], sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def clean(
    relative: str,
    data: bytes,
    patterns: Sequence[str],
    *,
    defaults: dict[str, Any] | None = None,
) -> CleanMemory:
    """Parse, redact and validate one memory file as `memhooks save` would accept it.

    `defaults` fills fields the file lacks (export: the title and date the index shows).
    Raises InvalidMemoryError naming `relative`.
    """
    from memhooks.errors import UserError
    from memhooks.store import Draft, UnparsableMemoryError, parse_bytes, validate_draft

    category = BY_FOLDER[relative.split("/", 1)[0]].name
    try:
        raw = parse_bytes(data)
    except UnparsableMemoryError as exc:
        raise InvalidMemoryError(f"{relative}: {exc}") from None
    given = raw.meta.get("category")
    if given is not None and given != category:
        raise InvalidMemoryError(f"{relative}: category {given!r} does not match its folder")
    meta = {k: v for k, v in raw.meta.items() if k != "category"}
    for key, value in (defaults or {}).items():
        if value and not meta.get(key):
            meta[key] = value
    redacted_meta = {k: redact_field(k, v, patterns) for k, v in meta.items()}
    body = redact(raw.body, patterns)
    changed = sum(1 for k in meta if redacted_meta[k] != meta[k]) + (body != raw.body)
    try:
        validated = validate_draft(Draft(category, redacted_meta, body))
    except UserError as exc:
        raise InvalidMemoryError(f"{relative}: {exc}") from None
    in_order = {k: validated[k] for k in redacted_meta if k in validated}
    in_order.update({k: v for k, v in validated.items() if k not in in_order})
    return CleanMemory(category, in_order, body, changed)


# ------------------------------------------------------------------ export


@dataclass(frozen=True)
class Selection:
    categories: tuple[str, ...]
    state: str = "active"  # active, retired, archived or all
    since: dt.datetime | None = None
    query_paths: frozenset[str] | None = None  # from --query: only these


def select(paths: MemoryPaths, selection: Selection) -> tuple[list[str], list[tuple[str, str]]]:
    """(paths of the chosen memories, (path, why) of files that do not parse) — from the
    files themselves, not the catalog, so a stale `.cache/` cannot hide or invent one."""
    from memhooks.store import scan_tree
    from memhooks.text.clock import parse_iso

    scan = scan_tree(paths)
    chosen = []
    for entry in sorted(scan.catalog.entries.values(), key=lambda e: e.path):
        if entry.category not in selection.categories:
            continue
        if selection.state not in ("all", entry.record_status):
            continue
        if selection.query_paths is not None and entry.path not in selection.query_paths:
            continue
        written = parse_iso(entry.updated or entry.created)
        if selection.since is not None and (written is None or written < selection.since):
            continue
        chosen.append(entry.path)
    return chosen, scan.problems


# ------------------------------------------------------------------ import


@dataclass
class Planned:
    """What an import does with one bundle file."""

    path: str  # in the bundle (its path in the source project's .claude/memory/)
    category: str
    title: str
    action: str  # import, present, similar, name-taken, disabled
    target: str = ""  # import: where it goes; otherwise the memory it matches
    detail: str = ""
    redacted: int = 0
    memory: NewMemory | None = field(default=None, repr=False)

    def as_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "category": self.category,
            "title": self.title,
            "action": self.action,
            "target": self.target,
            "detail": self.detail,
            "redacted": self.redacted,
        }


FLAGGED = ("similar", "name-taken")


def existing_identities(paths: MemoryPaths, patterns: Sequence[str]) -> dict[str, str]:
    """identity -> path of every memory already in the tree (files that do not parse aside)."""
    from memhooks.store import memory_files

    found: dict[str, str] = {}
    for target in memory_files(paths):
        relative = paths.relative(target)
        try:
            memory = clean(relative, read_memory(target), patterns)
        except (OSError, InvalidMemoryError):
            continue
        found.setdefault(memory.identity(), relative)
    return found


def plan_import(
    paths: MemoryPaths,
    files: dict[str, bytes],
    *,
    source_project: str,
    patterns: Sequence[str],
    enabled: Iterable[str],
    keep_both: Iterable[str] = (),
    now: str,
) -> list[Planned]:
    """Decide for each bundle file: import it, skip it (already present, category disabled)
    or flag it for the user (a near-duplicate, or its name taken by a different memory).
    Raises InvalidMemoryError when one file fails validation: the bundle is refused whole."""
    from memhooks.recall.lookup import similar

    cleaned = {path: clean(path, files[path], patterns) for path in sorted(files)}
    present = existing_identities(paths, patterns)
    allowed = set(enabled)
    forced = {p.removeprefix(TREE_PREFIX) for p in keep_both}
    planned: list[Planned] = []
    taken: set[str] = set()
    for path, memory in cleaned.items():
        title = str(memory.meta.get("title", ""))
        item = Planned(path, memory.category, title, "import", redacted=memory.redacted)
        planned.append(item)
        key = memory.identity()
        if key in present:
            item.action, item.target = "present", present[key]
            item.detail = "the same memory is already there"
            continue
        if memory.category not in allowed:
            item.action = "disabled"
            item.detail = f"the {memory.category} category is disabled in config.json"
            continue
        name_free = not (Path(paths.base) / path).exists() and path not in taken
        renamable = BY_FOLDER[path.split("/", 1)[0]].naming is not Naming.SESSION_ID
        if path not in forced or not (name_free or renamable):
            if not name_free:
                item.action, item.target = "name-taken", path
                item.detail = "a different memory already has this file name" + (
                    "" if renamable else " (a session file keeps its session id: merge by hand)"
                )
                continue
            text = f"{title} {memory.meta.get('description') or ''}"
            close = similar(paths, text, memory.category)
            if close:
                item.action, item.target = "similar", str(close[0]["path"])
                item.detail = f"looks like {close[0]['path']} — {close[0]['title']}"
                continue
        present[key] = path
        name = path.split("/", 1)[1] if name_free else None
        if name_free:
            taken.add(path)
        meta = {
            **memory.meta,
            "imported_from": source_project,
            "imported_path": path,
            "imported_at": now,
        }
        item.target = path if name_free else "(a new name)"
        item.memory = NewMemory(memory.category, meta, memory.body, name=name)
    return planned
