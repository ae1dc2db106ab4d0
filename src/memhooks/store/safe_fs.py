"""Opening files of a tree that may come from someone else. Standard library only: the hooks
import this.

Everything under `.claude/memory/` may have been committed by a stranger. So no open made
here follows a symlink, from the `memory` folder itself down to the file (a symlinked
`.claude/memory`, `.cache/` or `context/` is refused, and so is a symlinked file, dangling
or not); a read takes regular files only (a FIFO would hang the hook, `/dev/zero` would fill
its memory) and never more than a cap; and what is created is created in place, never at the
end of a link. A refusal is an UnsafeFileError: an OSError, so every caller that already
skips an unreadable or unwritable file skips this one too.
"""

from __future__ import annotations

import os
import stat

from memhooks import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_READ = os.O_RDONLY | NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_READ |= getattr(os, "O_BINARY", 0)
_MARK = os.sep + os.path.join(".claude", "memory")
#: Bytes read of a tree file when the caller names no cap.
READ_CAP = 4_000_000
#: A memory file bigger than this is reported and skipped (a 200 MB file cost `rebuild` 11 s).
MEMORY_FILE_CAP = 2_000_000


class UnsafeFileError(OSError):
    """A symlink, a FIFO, a device or an over-sized file in the tree: not followed, not read."""


def _tree_folders(path: str) -> Iterable[str]:
    """`.claude/memory` and each folder below it on the way to `path` (nothing outside it)."""
    full = os.path.abspath(path)
    at = (full + os.sep).rfind(_MARK + os.sep)
    if at < 0:
        return ()
    folder = full[: at + len(_MARK)]
    names = full[len(folder) :].strip(os.sep).split(os.sep)[:-1]
    out = [folder]
    for name in names:
        folder = os.path.join(folder, name)
        out.append(folder)
    return out


def check_folders(path: str | os.PathLike[str]) -> None:
    """Raise UnsafeFileError when `.claude/memory` or a folder below it, on the way to
    `path`, is a symlink. A few lstat calls: cheap enough for every open."""
    for folder in _tree_folders(os.fspath(path)):
        if os.path.islink(folder):
            raise UnsafeFileError(
                f"{folder} is a symlink: memhooks does not follow symlinks in .claude/memory/"
            )


def check_target(path: str | os.PathLike[str]) -> None:
    """`path` may be written or replaced: its folders are real, and it is no symlink."""
    check_folders(path)
    if os.path.islink(path):
        raise UnsafeFileError(f"{os.fspath(path)} is a symlink: not followed, not replaced")


def makedirs(folder: str | os.PathLike[str]) -> None:
    """os.makedirs, after checking that no existing folder on the way is a symlink."""
    check_folders(os.path.join(os.fspath(folder), "_"))
    os.makedirs(folder, exist_ok=True)


def read_bytes(path: str | os.PathLike[str], cap: int = READ_CAP, *, whole: bool = False) -> bytes:
    """At most `cap` bytes of a regular file of the tree; with `whole`, a longer file is an
    UnsafeFileError rather than cut. FileNotFoundError as usual for a missing file."""
    target = os.fspath(path)
    check_folders(target)
    if not NOFOLLOW and os.path.islink(target):  # Windows: no O_NOFOLLOW
        raise UnsafeFileError(f"{target} is a symlink: not followed")
    try:
        fd = os.open(target, _READ)
    except FileNotFoundError:
        raise
    except OSError as exc:
        if os.path.islink(target):
            raise UnsafeFileError(f"{target} is a symlink: not followed") from None
        raise exc from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeFileError(f"{target} is not a regular file: not read")
        if whole and info.st_size > cap:
            raise UnsafeFileError(f"{target} is {info.st_size:,} bytes (over {cap:,}): not read")
        chunks: list[bytes] = []
        left = cap + 1 if whole else cap
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if whole and len(data) > cap:
        raise UnsafeFileError(f"{target} grew over {cap:,} bytes while read: not read")
    return data


def read_memory(path: str | os.PathLike[str]) -> bytes:
    """A whole memory file, or UnsafeFileError (reported and skipped, never rewritten)."""
    return read_bytes(path, MEMORY_FILE_CAP, whole=True)


def open_created(path: str | os.PathLike[str], flags: int, mode: int = 0o644) -> int:
    """os.open with O_CREAT for a lock or a log: the folder is checked and made, the name is
    never followed (a dangling symlink does not create its target), and it must be a
    regular file."""
    target = os.fspath(path)
    makedirs(os.path.dirname(target))
    if not NOFOLLOW and os.path.islink(target):
        raise UnsafeFileError(f"{target} is a symlink: not followed")
    try:
        fd = os.open(target, flags | os.O_CREAT | NOFOLLOW | getattr(os, "O_CLOEXEC", 0), mode)
    except OSError as exc:
        if os.path.islink(target):
            raise UnsafeFileError(f"{target} is a symlink: not followed") from None
        raise exc from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UnsafeFileError(f"{target} is not a regular file: not used")
    return fd


def tree_problem(base: str) -> str:
    """Why the tree at `base` must not be used at all (a symlinked `.claude/memory` or
    `.cache/`), or ""."""
    for folder in (base, os.path.join(base, ".cache")):
        if os.path.islink(folder):
            return (
                f"{folder} is a symlink; memhooks does not follow symlinks in .claude/memory/ "
                "and leaves this tree alone (replace the link with a real folder to use it)"
            )
    return ""
