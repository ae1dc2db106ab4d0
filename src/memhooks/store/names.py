"""What a memory is called: its category (folder, naming scheme, index heading), its file name,
and why the store refused a write. Standard library only.
"""

from __future__ import annotations

import os
import re
from enum import Enum

from memhooks import TYPE_CHECKING
from memhooks.errors import Exit, MemhooksError
from memhooks.store.paths import UnsafePathError, resolves_inside, session_file_stem
from memhooks.text.lazy_re import LazyPattern

if TYPE_CHECKING:
    from pathlib import Path


# The memory categories: folder, naming scheme and index heading. Standard library only.


class Naming(Enum):
    DATED_SEQUENCE = "dated_sequence"  # decisions/YYYY-MM-DD_NNN_slug.md (seed 000)
    PATH = "path"  # analysis/path_to_file.md (seed 000)
    TIMESTAMP = "timestamp"  # subagent/YYYY-MM-DD_HHMMSS_task.md (seed 000)
    SESSION_ID = "session_id"  # sessions/<session-id>.md (seed 002)
    SLUG = "slug"  # runbooks/<slug>.md and the like (seed 003)


class Category:
    __slots__ = ("folder", "heading", "name", "naming")

    def __init__(self, name: str, folder: str, heading: str, naming: Naming) -> None:
        self.name = name
        self.folder = folder
        self.heading = heading
        self.naming = naming

    def __repr__(self) -> str:
        return f"Category({self.name!r})"


CATEGORIES: tuple[Category, ...] = (
    Category("decision", "decisions", "Decisions", Naming.DATED_SEQUENCE),
    Category("constraint", "constraints", "Constraints", Naming.SLUG),
    Category("runbook", "runbooks", "Runbooks", Naming.SLUG),
    Category("preference", "preferences", "Preferences", Naming.SLUG),
    Category("tech_debt", "tech-debt", "Tech debt", Naming.SLUG),
    Category("analysis", "analysis", "Analyses", Naming.PATH),
    Category("session_summary", "sessions", "Sessions", Naming.SESSION_ID),
    Category("subagent", "subagent", "Sub-agent outputs", Naming.TIMESTAMP),
)


BY_NAME: dict[str, Category] = {c.name: c for c in CATEGORIES}


BY_FOLDER: dict[str, Category] = {c.folder: c for c in CATEGORIES}


ALIASES = {
    "decisions": "decision",
    "constraints": "constraint",
    "runbooks": "runbook",
    "preferences": "preference",
    "tech-debt": "tech_debt",
    "techdebt": "tech_debt",
    "tech_debt": "tech_debt",
    "analyses": "analysis",
    "session": "session_summary",
    "sessions": "session_summary",
    "summary": "session_summary",
    "subagents": "subagent",
}


def resolve_category(name: str) -> Category:
    """A category from its name, folder or a common alias; KeyError when unknown."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    return BY_NAME[key]


# File names for new memories (seed 000), sanitised so that no name can leave the tree.


SLUG_MAX = 60


_NON_SLUG = LazyPattern(r"[^a-z0-9]+")  # compiled when a name is made, not by every hook


def slugify(text: str, *, limit: int = SLUG_MAX) -> str:
    """Lower-case ASCII words joined by '-': never empty, never a dot or a separator."""
    import unicodedata

    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = _NON_SLUG.compiled.sub("-", ascii_text.lower()).strip("-")
    slug = slug[:limit].rstrip("-")
    return slug or "untitled"


def path_slug(source_path: str) -> str:
    """`src/services/Auth.py` -> `src_services_Auth.py` (seed 000's analysis naming), made safe."""
    parts = [p for p in re.split(r"[\\/]+", source_path) if p not in ("", ".", "..")]
    joined = "_".join(parts)
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", joined).strip("._-")
    return (safe[:100] or "untitled").removesuffix(".md")


def candidate_name(
    category: Category,
    *,
    title: str,
    when: str,
    sequence: int = 1,
    source_path: str | None = None,
    session_id: str | None = None,
    agent: str | None = None,
) -> str:
    """The file name (not path) a new memory gets; `when` is an ISO UTC timestamp."""
    day = when[:10]
    if category.naming is Naming.DATED_SEQUENCE:
        return f"{day}_{sequence:03d}_{slugify(title)}.md"
    if category.naming is Naming.PATH:
        return f"{path_slug(source_path or title)}.md"
    if category.naming is Naming.TIMESTAMP:
        clock = when[11:19].replace(":", "")
        return f"{day}_{clock}_{slugify(agent or title, limit=40)}.md"
    if category.naming is Naming.SESSION_ID:
        return f"{session_file_stem(session_id or slugify(title))}.md"
    return f"{slugify(title)}.md"


def contained(root: Path, relative: str) -> Path:
    """`root/relative`, refusing anything that resolves outside `root` (symlinks included)."""
    from pathlib import Path

    return Path(contained_file(os.fspath(root), relative))


def contained_file(base: str, relative: str) -> str:
    """`contained` as a plain string, without pathlib (SubagentStop names files with it)."""
    posix = relative.replace("\\", "/")
    parts = [part for part in posix.split("/") if part not in ("", ".")]
    if posix.startswith("/") or ".." in parts or not parts or "\x00" in relative:
        raise UnsafePathError(f"path escapes the memory tree: {relative!r}")
    target = os.path.join(base, *parts)
    if not resolves_inside(base, target):
        raise UnsafePathError(f"path escapes the memory tree: {relative!r}")
    return target


# Why the store refused a write: each error carries its exit code (`memhooks.errors`).


class StoreError(MemhooksError):
    """A write that was refused; the message says why and what to do."""

    code = Exit.REFUSED


class ConflictError(StoreError):
    """Optimistic concurrency: the file changed since the caller read it."""

    code = Exit.CONFLICT


class ResurrectionError(StoreError):
    """A retired slug cannot be created again so soon."""


class DuplicateError(StoreError):
    """`create`'s `unless` check found the memory already there (checked under the lock)."""

    def __init__(self, found: object) -> None:
        super().__init__("a memory like this one exists already")
        self.found = found


class NotFoundError(StoreError):
    code = Exit.NOT_FOUND
