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

if TYPE_CHECKING:
    from collections.abc import Container, Iterable

    from memhooks.store.paths import MemoryPaths


# The tree as the store last left it, and the last known copy of every memory file, kept OUTSIDE
# the tree: so that the next hook notices what changed behind the store's back (a shell command
# the write guard did not see, an editor, a `git pull`), and a deletion, even of the whole
# `.claude/`, can be undone (`memhooks rebuild --recover`).
#
# Kept in `<user cache>/memhooks/trees/<key>/`, the key a checksum of the tree's machine-local
# folder (which the checkout's id names, `store.local`):
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
#: Other files of the tree a later hook reads and trusts: one written behind the store's back
#: by a tool call is put aside and its last known copy (`trusted/` here) put back.
TRUSTED_FILES = (
    "config.json",
    "context/current-task.md",
    "context/blockers.md",
    "master.md",
    "checkpoints/latest.md",
)
#: The same in the machine-local folder: the session record (kept), each session's evidence.
LOCAL_TRUSTED = ("session.json",)
LOCAL = "local:"
#: The memory files the hooks wrote themselves since the tree was last recorded (a journal).
OWN_CAP = 1_000_000


LISTING_CAP = 64_000_000


#: Set once a deleted tree has been reported, so that it is reported once.
LOST_REPORTED = "lost-reported"


def user_cache() -> str:
    """The user's cache folder for memhooks (XDG_CACHE_HOME, else ~/.cache)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "memhooks")


def mirror_dir(paths: MemoryPaths) -> str:
    """Keyed by the tree's machine-local folder, so by the checkout's id (`store.local`): a
    new clone at the same path has other copies."""
    import zlib

    name = os.path.normcase(os.path.abspath(paths.cache)).encode("utf-8", "replace")
    key = f"{zlib.crc32(name):08x}{zlib.adler32(name):08x}"
    return os.path.join(user_cache(), "trees", key)


def quick_line(paths: MemoryPaths) -> str:
    """What the cheap check compares: a few dozen stats, no file read."""
    parts = [os.path.abspath(paths.base)]
    parts += [f"{c.folder}={_stat(paths.base, c.folder, full=False)}" for c in CATEGORIES]
    parts += [
        f"{name}={_stat(paths.base, name, full=True)}" for name in (*WATCHED_FILES, *TRUSTED_FILES)
    ]
    local = [*LOCAL_TRUSTED, *_evidence(paths)]
    parts += [f"{LOCAL}{name}={_stat(paths.cache, name, full=True)}" for name in local]
    return "\n".join(parts)


def _evidence(paths: MemoryPaths) -> list[str]:
    try:
        names = sorted(n for n in os.listdir(paths.restore) if n.endswith(".json"))
    except OSError:
        return []
    return ["restore/" + name for name in names]


def _stat(folder: str, name: str, *, full: bool) -> str:
    try:
        info = os.lstat(os.path.join(folder, name))
    except OSError:
        return "-"
    return f"{info.st_ino}:{info.st_mtime_ns}:{info.st_size}" if full else str(info.st_mtime_ns)


def recorded_quick(paths: MemoryPaths) -> str:
    return read_text(os.path.join(mirror_dir(paths), "quick"))


def changed_since(paths: MemoryPaths, recorded: str | None = None) -> list[str]:
    """The watched files (derived, trusted, machine-local: `local:` names) that differ from
    what the store last recorded, or that came or went since."""
    old = _parts(recorded_quick(paths) if recorded is None else recorded)
    new = _parts(quick_line(paths))
    folders = {c.folder for c in CATEGORIES}
    names = sorted((set(old) | set(new)) - folders)
    return [name for name in names if old.get(name, "-") != new.get(name, "-")]


def _parts(line: str) -> dict[str, str]:
    return dict(part.partition("=")[::2] for part in line.split("\n")[1:])


def watched_changed(paths: MemoryPaths) -> list[str]:
    """The watched derived files that differ from what the store last wrote."""
    old = _parts(recorded_quick(paths))
    return [name for name in changed_since(paths) if name in WATCHED_FILES and name in old]


def note_own(paths: MemoryPaths, relative: str) -> None:
    """A hook wrote this memory file itself (a journal entry; the caller holds the lock):
    its stamp counts as recorded, so no look reports it as changed behind the store's back."""
    own = _own(paths)
    try:
        info = os.lstat(os.path.join(paths.base, *relative.split("/")))
    except OSError:
        return
    own[relative] = f"{info.st_mtime_ns}:{info.st_size}"
    write_atomic(paths.watch, json.dumps(own), durable=False)


def _own(paths: MemoryPaths) -> dict[str, str]:
    try:
        data = json.loads(read_text(paths.watch, OWN_CAP) or "{}")
    except ValueError:
        return {}
    return {str(k): str(v) for k, v in data.items() if _plain(k)} if isinstance(data, dict) else {}


def keep_trusted(paths: MemoryPaths) -> None:
    """Copy each trusted file (and the session record) that changed since its kept copy into
    `trusted/` here: what a put back restores. A copy carries its file's mtime, so a few
    stats find what changed; only that is read."""
    for source, name in trusted_sources(paths):
        copy = trusted_copy(paths, name)
        try:
            info = os.lstat(source)
        except OSError:
            continue
        try:
            if _stamp(info) == _stamp(os.lstat(copy)):
                continue
        except OSError:
            pass  # no copy yet
        try:
            data = read_bytes(source, LISTING_CAP)
        except OSError:
            continue
        write_atomic(copy, data, durable=False)
        # The file's mtime as it was stat'ed: a change since (this read or not) differs.
        os.utime(copy, ns=(info.st_atime_ns, info.st_mtime_ns))


def _stamp(info: os.stat_result) -> tuple[int, int]:
    return info.st_mtime_ns, info.st_size


def trusted_sources(paths: MemoryPaths) -> list[tuple[str, str]]:
    """(path, watched name) of each trusted file the last known copy is kept of."""
    found = [(os.path.join(paths.base, *n.split("/")), n) for n in TRUSTED_FILES]
    return found + [(os.path.join(paths.cache, n), LOCAL + n) for n in LOCAL_TRUSTED]


def trusted_copy(paths: MemoryPaths, name: str) -> str:
    return os.path.join(mirror_dir(paths), "trusted", name.replace("/", "__"))


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
    return {**{str(k): str(v) for k, v in files.items() if _plain(k)}, **_own(paths)}


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
    keep_trusted(paths)
    discard(os.path.join(mirror, LOST_REPORTED))
    discard(paths.watch)


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


# Repairs after a change behind the store's back: an invalid memory file put aside where no hook
# reads, a memory file put back from its last known copy (`tree_marks`). The caller holds the
# store lock. Standard library only.


def put_aside(paths: MemoryPaths, relative: str, *, local: bool = False) -> str:
    """Move a file of the tree (`local`: of the machine-local folder) into the quarantine
    folder (`paths.quarantine`, never read by a hook); returns its path there. Moved, never
    rewritten: what was written is kept as it was (copied then removed across file systems)."""
    source = os.path.join(paths.cache if local else paths.base, *relative.split("/"))
    check_target(source)
    folder = paths.quarantine
    makedirs(folder)
    stem = time.strftime("%Y%m%d-%H%M%S") + "_" + relative.replace("/", "__")
    name, number = stem, 1
    while os.path.lexists(os.path.join(folder, name)):
        number += 1
        name = f"{stem}.{number}"
    target = os.path.join(folder, name)
    try:
        os.replace(source, target)
    except OSError:  # another file system: the bytes as they are, then the file goes
        write_atomic(target, read_memory(source), durable=False)
        os.unlink(source)
    return target


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
        return sorted(os.listdir(paths.quarantine))
    except OSError:
        return []
