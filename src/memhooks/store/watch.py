"""Changes behind the store's back: the tree as the store last left it, the last known copy of
every memory, a direct edit's backup, and the repairs (put aside, put back). Standard library
only.
"""

from __future__ import annotations

import json
import os
import time

from memhooks import TYPE_CHECKING
from memhooks.store.files import (
    check_target,
    discard,
    makedirs,
    read_bytes,
    read_memory,
    read_text,
    write_atomic,
)
from memhooks.store.names import CATEGORIES
from memhooks.store.paths import inside

if TYPE_CHECKING:
    from collections.abc import Container, Iterable

    from memhooks.store.paths import MemoryPaths


# ------------------------------------------------------------------ tree_marks
# The tree as the store last left it, and the last known copy of every memory file, kept OUTSIDE
# the tree: so that the next hook notices what changed behind the store's back (a shell command
# the write guard did not see, an editor, a `git pull`), and a deletion, even of the whole
# `.claude/`, can be undone (`memhooks rebuild --recover`).
#
# Kept in `<user cache>/memhooks/trees/<key>/`, the key a checksum of the tree's path:
#
# - `quick`: the tree's path, then one line the cheap check compares: the mtime of each
#   category folder (it changes when a file is added, removed or renamed, which `rm`, `mv`,
#   `cp`, `sed -i`, editors' saves and git all do) and the (inode, mtime, size) of the
#   derived files the hooks inject as they stand (`MEMORY.md`);
# - `listing.json`: every memory file's stamp, `mtime_ns:size`, the catalog's own;
# - `files/<relative>`: the last known bytes of every memory file. The store's own deletions
#   (`gc`) drop their copy; one deleted behind its back keeps it.
#
# Written under the store lock after every change of the derived files. Standard library only:
# PostToolUse runs the cheap check after every Bash call.


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


def record_tree(
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


# ------------------------------------------------------------------ tree_repair
# Repairs after a change behind the store's back: an invalid memory file put aside where no hook
# reads, a memory file put back from its last known copy (`tree_marks`). The caller holds the
# store lock. Standard library only.


#: Where invalid files are put aside: machine-local, gitignored, never read by a hook.
QUARANTINE = ".cache/quarantine"


def put_aside(paths: MemoryPaths, relative: str) -> str:
    """Move a memory file into the quarantine folder; returns its path there, relative to
    the tree. Moved, never rewritten: what was written is kept as it was."""
    source = os.path.join(paths.base, *relative.split("/"))
    check_target(source)
    folder = os.path.join(paths.base, *QUARANTINE.split("/"))
    makedirs(folder)
    stem = time.strftime("%Y%m%d-%H%M%S") + "_" + relative.replace("/", "__")
    name, number = stem, 1
    while os.path.lexists(os.path.join(folder, name)):
        number += 1
        name = f"{stem}.{number}"
    os.replace(source, os.path.join(folder, name))
    return f"{QUARANTINE}/{name}"


def put_back(paths: MemoryPaths, relative: str) -> bool:
    """Write a memory file's last known copy back into the tree; False when none is kept."""
    copy = kept_copy(paths, relative)
    if copy is None:
        return False
    try:
        data = read_memory(copy)
    except OSError:
        return False
    write_atomic(os.path.join(paths.base, *relative.split("/")), data)
    return True


def recover_missing(paths: MemoryPaths) -> list[str]:
    """Put back every memory file a copy is kept of and the tree lacks (`rebuild
    --recover`); an existing file is never overwritten. Returns what was put back."""

    present = {_bytes_of(os.path.join(paths.base, *r.split("/"))) for r in memory_listing(paths)}
    restored: list[str] = []
    for relative in kept_copies(paths):
        if os.path.lexists(os.path.join(paths.base, *relative.split("/"))):
            continue
        copy = kept_copy(paths, relative)
        if copy is None or _bytes_of(copy) in present:
            continue  # renamed since: the same bytes are in the tree (or put back) already
        if put_back(paths, relative):
            restored.append(relative)
            present.add(_bytes_of(copy))
    return restored


def _bytes_of(path: str) -> bytes | None:
    try:
        return read_memory(path)
    except OSError:
        return None


def quarantined(paths: MemoryPaths) -> list[str]:
    """The files put aside so far, oldest first (`memhooks status`)."""
    try:
        return sorted(os.listdir(os.path.join(paths.base, *QUARANTINE.split("/"))))
    except OSError:
        return []


# ------------------------------------------------------------------ edit_backup
# The bytes a memory file had before a direct edit, so an invalid edit can be undone.
#
# Only used when `guard.direct_edits` is "allow": PreToolUse keeps the file's bytes (or notes that
# it did not exist) in `.cache/guard/`, and PostToolUse restores them when the edited file fails
# validation (`memhooks.guard`). Standard library only.


MAX_KEPT_BYTES = 4 * 1024 * 1024


_ABSENT = b"memhooks-guard: the file did not exist\n"


def slot_of(base: str, relative: str) -> str:
    import hashlib

    key = hashlib.sha256(relative.encode("utf-8", "replace")).hexdigest()[:24]
    return os.path.join(base, ".cache", "guard", key)


def edited_file(base: str, relative: str) -> str | None:
    """The file's path, or None when it is a symlink or its folder leaves the tree."""
    path = os.path.join(base, *relative.split("/"))
    return path if inside(base, path) else None


def keep_backup(base: str, relative: str) -> None:
    path = edited_file(base, relative)
    if path is None:
        return
    try:
        data: bytes | None = read_bytes(path, MAX_KEPT_BYTES + 1)  # a FIFO is not waited on
    except FileNotFoundError:
        data = None
    except OSError:
        return  # a FIFO, a device: nothing to keep, the edit is then reported, not undone
    if data is not None and len(data) > MAX_KEPT_BYTES:
        return  # too big to keep: an invalid edit is then reported, not undone
    slot = slot_of(base, relative)
    os.makedirs(os.path.dirname(slot), exist_ok=True)
    kept, stale = (".absent", ".bak") if data is None else (".bak", ".absent")
    write_atomic(slot + kept, _ABSENT if data is None else data)
    try:
        os.unlink(slot + stale)
    except FileNotFoundError:
        pass


def restore_backup(base: str, relative: str) -> str:
    """Undo the edit: 'restored', 'removed' (the file was new) or 'kept' (nothing to undo)."""
    path = edited_file(base, relative)
    slot = slot_of(base, relative)
    if path is None:
        return "kept"
    if os.path.exists(slot + ".absent"):
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        os.unlink(slot + ".absent")
        return "removed"
    try:
        with open(slot + ".bak", "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        return "kept"
    write_atomic(path, data)
    os.unlink(slot + ".bak")
    return "restored"


def was_absent(base: str, relative: str) -> bool:
    """The file did not exist before the edit (the edit made it)."""
    return os.path.exists(slot_of(base, relative) + ".absent")


def forget_backup(base: str, relative: str) -> None:
    """The edit was valid: its backup is no longer needed."""
    slot = slot_of(base, relative)
    for suffix in (".bak", ".absent"):
        try:
            os.unlink(slot + suffix)
        except FileNotFoundError:  # noqa: PERF203 - two files at most
            pass
