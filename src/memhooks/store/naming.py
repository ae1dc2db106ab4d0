"""File names for new memories (seed 000), sanitised so that no name can leave the tree."""

from __future__ import annotations

import os
import re
import unicodedata

from memhooks.store.categories import Category, Naming
from memhooks.store.paths import UnsafePathError, resolves_inside, session_file_stem

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: the Stop hook imports this module
if TYPE_CHECKING:
    from pathlib import Path

SLUG_MAX = 60
_NON_SLUG = re.compile(r"[^a-z0-9]+")


def slugify(text: str, *, limit: int = SLUG_MAX) -> str:
    """Lower-case ASCII words joined by '-': never empty, never a dot or a separator."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = _NON_SLUG.sub("-", ascii_text.lower()).strip("-")
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


__all__ = [
    "UnsafePathError",
    "candidate_name",
    "contained",
    "path_slug",
    "session_file_stem",
    "slugify",
]
