"""A direct edit of a memory file, allowed by `guard.direct_edits: "allow"`, made whole.

PostToolUse calls `settle` after Claude's Write or Edit: under the store lock the file is
validated like a store write (frontmatter that parses, the category's fields, a name in
the category's scheme for a new file), secrets are redacted, and the catalog, MEMORY.md
and the search index are updated. An invalid edit is undone from the bytes PreToolUse kept.
"""

from __future__ import annotations

import re

from memhooks import TYPE_CHECKING
from memhooks.store import (
    BY_FOLDER,
    MemoryPaths,
    Naming,
    Settings,
    edited_file,
    forget_backup,
    restore_backup,
    was_absent,
)

if TYPE_CHECKING:
    from typing import Any

MAX_MEMORY_BYTES = 1024 * 1024
_NAME_SCHEMES = {
    Naming.DATED_SEQUENCE: re.compile(r"^\d{4}-\d{2}-\d{2}_\d{3}_[a-z0-9-]+(-\d+)?\.md$"),
    Naming.TIMESTAMP: re.compile(r"^\d{4}-\d{2}-\d{2}_\d{6}_[a-z0-9-]+(-\d+)?\.md$"),
    Naming.SLUG: re.compile(r"^[a-z0-9][a-z0-9-]*\.md$"),
    Naming.SESSION_ID: re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,127}\.md$"),
    Naming.PATH: re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\.md$"),
}
_SCHEME_HINT = {
    Naming.DATED_SEQUENCE: "YYYY-MM-DD_NNN_slug.md",
    Naming.TIMESTAMP: "YYYY-MM-DD_HHMMSS_task.md",
    Naming.SLUG: "lower-case-slug.md",
    Naming.SESSION_ID: "<session-id>.md",
    Naming.PATH: "path_to_file.md",
}


class InvalidEditError(ValueError):
    """Why the edited file is not a memory the store would have written."""


def check(relative: str, data: bytes, *, new: bool) -> tuple[dict[str, Any], str]:
    """(frontmatter, body) of a valid edited memory; raises InvalidEditError."""
    from memhooks.store import UnparsableMemoryError, parse_bytes, parse_meta

    folder, _, name = relative.partition("/")
    category = BY_FOLDER[folder]
    if new and not _NAME_SCHEMES[category.naming].match(name):
        hint = _SCHEME_HINT[category.naming]
        raise InvalidEditError(f"the name {name!r} is not in the {folder}/ scheme ({hint})")
    if len(data) > MAX_MEMORY_BYTES:
        raise InvalidEditError(f"the file is larger than {MAX_MEMORY_BYTES:,} bytes")
    try:
        raw = parse_bytes(data)
    except UnparsableMemoryError as exc:
        raise InvalidEditError(str(exc)) from None
    meta = dict(raw.meta)
    if not meta:
        raise InvalidEditError("no YAML frontmatter (`---`, `title: …`, `---` first)")
    if not str(meta.get("title") or "").strip():
        raise InvalidEditError("the frontmatter has no title")
    if str(meta.get("category") or category.name) != category.name:
        raise InvalidEditError(
            f"category {meta.get('category')!r} does not belong in {folder}/ ({category.name})"
        )
    try:
        parse_meta({**meta, "category": category.name})
    except ValueError as exc:  # pydantic's ValidationError is a ValueError
        first = str(exc).splitlines()
        raise InvalidEditError("invalid frontmatter: " + " ".join(first[:3])[:300]) from None
    return meta, raw.body


def settle(paths: MemoryPaths, settings: Settings, relative: str, cli: str) -> tuple[bool, str]:
    """Validate, redact and index an edited memory file, or undo the edit: (undone, what
    happened, '' for a clean edit)."""
    from memhooks.recall.citations import with_hashes
    from memhooks.recall.search_index import SearchIndex
    from memhooks.store import Store, entry_for
    from memhooks.text.clock import iso
    from memhooks.text.redact import redact

    path = edited_file(paths.base, relative)
    if path is None:
        return False, f"memhooks: .claude/memory/{relative} is a symlink; left alone."
    store = Store(paths, settings, search=SearchIndex, cite=with_hashes, lock_timeout=5.0)
    with store.locked():
        try:
            meta, body = check(relative, _read(path), new=_was_new(paths, relative))
        except InvalidEditError as exc:
            outcome = restore_backup(paths, relative)
            store.reindex_locked([], {})
            undone = {
                "restored": "the previous version is back",
                "removed": "the new file was removed",
            }.get(outcome, "it could not be undone (no copy was kept); fix it")
            return True, (
                f"memhooks: the direct edit of .claude/memory/{relative} is invalid ({exc}); "
                f"{undone}. Save memories through `{cli} save <category> …` (see "
                f"`{cli} save --help`), which validates before writing."
            )
        patterns = settings.redact_patterns
        clean_body = redact(body, patterns)
        clean_meta = {k: redact(v, patterns) if isinstance(v, str) else v for k, v in meta.items()}
        clean_meta.setdefault("category", BY_FOLDER[relative.split("/", 1)[0]].name)
        clean_meta.setdefault("created", iso(None))
        redacted = clean_body != body or any(clean_meta.get(k) != v for k, v in meta.items())
        if clean_body != body or clean_meta != meta:
            store.rewrite_locked(path, clean_meta, clean_body)
        entry = entry_for(relative, clean_meta, clean_body)
        store.reindex_locked([entry], {relative: clean_body})
        forget_backup(paths, relative)
    if redacted:
        return False, f"memhooks: secrets in .claude/memory/{relative} were redacted (indexed)."
    return False, ""


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read(MAX_MEMORY_BYTES + 1)
    except FileNotFoundError:
        raise InvalidEditError("the file is gone") from None


def _was_new(paths: MemoryPaths, relative: str) -> bool:
    return was_absent(paths, relative)
