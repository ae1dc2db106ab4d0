"""The tree as the store last left it, and the last known copy of every memory file, kept
OUTSIDE the tree: so that the next hook notices what changed behind the store's back (a
shell command the write guard did not see, an editor, a `git pull`), and a deletion, even
of the whole `.claude/`, can be undone (`memhooks rebuild --recover`).

Kept in `<user cache>/memhooks/trees/<key>/`, the key a checksum of the tree's path:

- `quick`: the tree's path, then one line the cheap check compares: the mtime of each
  category folder (it changes when a file is added, removed or renamed, which `rm`, `mv`,
  `cp`, `sed -i`, editors' saves and git all do) and the (inode, mtime, size) of the
  derived files the hooks inject as they stand (`MEMORY.md`);
- `listing.json`: every memory file's stamp, `mtime_ns:size`, the catalog's own;
- `files/<relative>`: the last known bytes of every memory file. The store's own deletions
  (`gc`) drop their copy; one deleted behind its back keeps it.

Written under the store lock after every change of the derived files. Standard library
only: PostToolUse runs the cheap check after every Bash call.
"""

from __future__ import annotations

import json
import os

from memhooks import TYPE_CHECKING
from memhooks.store.atomic import discard, read_text, write_atomic
from memhooks.store.categories import CATEGORIES
from memhooks.store.safe_fs import read_bytes, read_memory

if TYPE_CHECKING:
    from collections.abc import Container, Iterable

    from memhooks.store.paths import MemoryPaths

#: Derived files a hook injects as they stand: a write into them is healed, not trusted.
WATCHED_FILES = ("MEMORY.md", "MEMORY-archive.md")
LISTING_CAP = 64_000_000
#: Set once a deleted tree has been reported, so that it is reported once.
LOST_REPORTED = "lost-reported"


def user_cache() -> str:
    """The user's cache folder for memhooks (XDG_CACHE_HOME, else ~/.cache)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "memhooks")


def mirror_dir(paths: MemoryPaths) -> str:
    import zlib

    name = os.path.normcase(os.path.abspath(paths.base)).encode("utf-8", "replace")
    key = f"{zlib.crc32(name):08x}{zlib.adler32(name):08x}"
    return os.path.join(user_cache(), "trees", key)


def quick_line(paths: MemoryPaths) -> str:
    """What the cheap check compares: a few dozen stats, no file read."""
    parts = [os.path.abspath(paths.base)]
    parts += [f"{c.folder}={_stat(paths, c.folder, full=False)}" for c in CATEGORIES]
    parts += [f"{name}={_stat(paths, name, full=True)}" for name in WATCHED_FILES]
    return "\n".join(parts)


def _stat(paths: MemoryPaths, name: str, *, full: bool) -> str:
    try:
        info = os.lstat(os.path.join(paths.base, name))
    except OSError:
        return "-"
    return f"{info.st_ino}:{info.st_mtime_ns}:{info.st_size}" if full else str(info.st_mtime_ns)


def recorded_quick(paths: MemoryPaths) -> str:
    return read_text(os.path.join(mirror_dir(paths), "quick"))


def watched_changed(paths: MemoryPaths) -> list[str]:
    """The watched derived files that differ from what the store last wrote."""
    old = dict(line.partition("=")[::2] for line in recorded_quick(paths).split("\n")[1:])
    new = dict(line.partition("=")[::2] for line in quick_line(paths).split("\n")[1:])
    return [name for name in WATCHED_FILES if name in old and old[name] != new.get(name)]


def memory_listing(paths: MemoryPaths) -> dict[str, str]:
    """{relative: "mtime_ns:size"} of every memory file: regular `*.md` files directly in a
    category folder, no hidden or temp file, no symlink (never followed, never read)."""
    found: dict[str, str] = {}
    for category in CATEGORIES:
        folder = os.path.join(paths.base, category.folder)
        if os.path.islink(folder):
            continue
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    if entry.name.endswith(".md") and not entry.name.startswith("."):
                        if not entry.is_file(follow_symlinks=False):
                            continue
                        info = entry.stat(follow_symlinks=False)
                        found[f"{category.folder}/{entry.name}"] = (
                            f"{info.st_mtime_ns}:{info.st_size}"
                        )
        except OSError:
            continue
    return found


def recorded_listing(paths: MemoryPaths) -> dict[str, str] | None:
    """The listing as last recorded; None when this tree was never recorded here."""
    try:
        listing = os.path.join(mirror_dir(paths), "listing.json")
        data = json.loads(read_bytes(listing, LISTING_CAP))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("base") != os.path.abspath(paths.base):
        return None  # another tree with the same checksum, or not ours: never trusted
    files = data.get("files")
    if not isinstance(files, dict):
        return None
    return {str(k): str(v) for k, v in files.items() if _plain(k)}


def _plain(relative: object) -> bool:
    if not isinstance(relative, str) or relative.count("/") != 1 or "\\" in relative:
        return False
    folder, name = relative.split("/")
    return folder in {c.folder for c in CATEGORIES} and name not in ("", ".", "..")


def kept_copy(paths: MemoryPaths, relative: str) -> str | None:
    """The last known copy of a memory file, when one is kept."""
    if not _plain(relative):
        return None
    path = os.path.join(mirror_dir(paths), "files", *relative.split("/"))
    return path if os.path.isfile(path) and not os.path.islink(path) else None


def kept_copies(paths: MemoryPaths) -> list[str]:
    """Every memory file a copy is kept of, relative."""
    files = os.path.join(mirror_dir(paths), "files")
    found: list[str] = []
    for category in CATEGORIES:
        try:
            names = sorted(os.listdir(os.path.join(files, category.folder)))
        except OSError:
            continue
        found += [f"{category.folder}/{n}" for n in names if not n.startswith(".")]
    return found


def record(
    paths: MemoryPaths, forget: Iterable[str] = (), valid: Container[str] | None = None
) -> None:
    """Remember the tree as it stands, and copy each memory file that changed since the last
    record; with `valid` (what the catalog holds), only those: a file that does not parse
    never replaces the last good copy. The caller holds the store lock. Best effort: a
    failure only means the next hook looks again."""
    try:
        _record(paths, list(forget), valid)
    except OSError:
        return


def _record(paths: MemoryPaths, forget: list[str], valid: Container[str] | None) -> None:
    if not os.path.isdir(paths.base) or os.path.islink(paths.base):
        return
    mirror = mirror_dir(paths)
    old = recorded_listing(paths) or {}
    listing = memory_listing(paths)
    for relative, stamp in listing.items():
        if valid is not None and relative not in valid:
            continue
        if old.get(relative) == stamp and kept_copy(paths, relative):
            continue
        try:
            data = read_memory(os.path.join(paths.base, *relative.split("/")))
        except OSError:
            continue  # unreadable or too big: no copy, as nothing else reads it either
        write_atomic(os.path.join(mirror, "files", *relative.split("/")), data, durable=False)
    for relative in forget:
        copy = kept_copy(paths, relative)
        if copy:
            discard(copy)
    base = os.path.abspath(paths.base)
    listed = json.dumps({"base": base, "files": listing}, separators=(",", ":"))
    write_atomic(os.path.join(mirror, "listing.json"), listed, durable=False)
    write_atomic(os.path.join(mirror, "quick"), quick_line(paths), durable=False)
    discard(os.path.join(mirror, LOST_REPORTED))


def mark_lost_reported(paths: MemoryPaths) -> None:
    """The deleted tree was reported: not again until the tree is recorded anew."""
    write_atomic(os.path.join(mirror_dir(paths), LOST_REPORTED), "", durable=False)


def record_quick(paths: MemoryPaths) -> None:
    """Only the cheap check's line: the memory files are as recorded (a hook's own write to
    a category folder, say), nothing to copy."""
    try:
        write_atomic(os.path.join(mirror_dir(paths), "quick"), quick_line(paths), durable=False)
    except OSError:
        return
