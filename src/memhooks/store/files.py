"""Files of a tree that may come from someone else: safe opens and reads, atomic writes.
Standard library (and `text.controls` when a text is written) only: every hook imports this.
"""

from __future__ import annotations

import os
import stat

from memhooks import TYPE_CHECKING
from memhooks.store.read_once import keep_bytes, keeping, kept_bytes, wrote

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable


# Opening files of a tree that may come from someone else. Standard library only: the hooks import
# this.
#
# Everything under `.claude/memory/` may have been committed by a stranger. So no open made here
# follows a symlink, from the `memory` folder itself down to the file (a symlinked
# `.claude/memory`, `.cache/` or `context/` is refused, and so is a symlinked file, dangling or
# not); a read takes regular files only (a FIFO would hang the hook, `/dev/zero` would fill its
# memory) and never more than a cap; and what is created is created in place, never at the end of
# a link. A refusal is an UnsafeFileError: an OSError, so every caller that already skips an
# unreadable or unwritable file skips this one too.


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
    kept = kept_bytes(target)  # read already while this hook runs (store.read_once)
    if kept is not None:
        return _capped(target, kept, cap, whole=whole)
    return _read(target, cap, whole=whole)


def _read(target: str, cap: int, *, whole: bool) -> bytes:
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
    keep_bytes(target, info, data)
    return data


def _capped(target: str, data: bytes, cap: int, *, whole: bool) -> bytes:
    if whole and len(data) > cap:
        raise UnsafeFileError(f"{target} is {len(data):,} bytes (over {cap:,}): not read")
    return data if whole else data[:cap]


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


# Whole-file I/O for the tree: atomic replacement (a unique temp file in the same folder, fsync,
# os.replace) and the forgiving reads the hooks make.
#
# Temp names are made here rather than with `tempfile`, whose import costs the hooks ~5 ms:
# `O_CREAT | O_EXCL` with a random suffix gives the same uniqueness guarantee.


def _default_mode() -> int:
    """Memory files are shared through git like any other file: honour the umask."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


_MODE = _default_mode()


READ_CAP_BYTES = 4_000_000


_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)


def read_text(path: str | os.PathLike[str], limit: int = -1) -> str:
    """The text of a small file of the tree, at most `limit` characters (-1: at most
    safe_fs.READ_CAP bytes); "" when it cannot be read, is a symlink or is no regular file."""
    try:
        data = read_bytes(path, limit * 4 if limit >= 0 else READ_CAP_BYTES)
    except OSError:
        return ""
    text = data.decode("utf-8", errors="replace")
    if "\r" in text:  # what text mode's universal newlines did
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text if limit < 0 else text[:limit]


def discard(path: str | os.PathLike[str]) -> None:
    """Remove a file if it can be; a failure is ignored (a temp file, an old copy)."""
    # Not contextlib.suppress: contextlib costs every hook ~0.7 ms to import.
    try:
        os.unlink(path)
    except OSError:
        pass


def _temp_file(path: str) -> tuple[int, str]:
    folder, name = os.path.split(path)
    for _ in range(100):
        candidate = os.path.join(folder, f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
        try:
            return os.open(candidate, _FLAGS, _MODE), candidate
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temp name next to {path}")


def _encoded(text: str | bytes) -> bytes:
    """What is written for `text`: a str inert (text.controls), in UTF-8; bytes as they are."""
    if isinstance(text, bytes):
        return text
    from memhooks.text.controls import inert

    return inert(text).encode("utf-8")


def _write_temp(path: str, text: str | bytes, *, durable: bool = True) -> str:
    """A temp file beside `path` holding `text`: a str is written inert (no terminal control
    or bidi override raw: text.controls), bytes as they are (a copy of a file, an archive)."""
    makedirs(os.path.dirname(path))  # refuses a symlinked folder of the tree
    text = _encoded(text)
    fd, tmp = _temp_file(path)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
    except BaseException:
        discard(tmp)
        raise
    return tmp


def write_atomic(path: str | os.PathLike[str], text: str | bytes, *, durable: bool = True) -> None:
    """Replace `path` with `text` so that readers only ever see the old or the new whole file.

    `durable=False` skips the fsync (~2 ms): for machine-local state the hooks rewrite on every
    turn (caches, offsets, activity times), where losing the last write in a power cut is
    harmless but a torn file is not; the replace stays atomic either way.
    """
    target = os.fspath(path)
    check_target(target)
    data = _encoded(text)
    tmp = _write_temp(target, data, durable=durable)
    try:
        written = os.lstat(tmp).st_ino if keeping() else 0
        os.replace(tmp, target)
    except BaseException:
        discard(tmp)
        raise
    wrote(target, written, data)


def append_text(path: str | os.PathLike[str], text: str, size: int) -> bool:
    """Append `text` (inert, UTF-8, as `write_atomic` writes a str) to the regular file
    `path` while it still holds the `size` bytes its caller read under the lock; False, with
    nothing written, when it is not that file any more (the caller replaces it instead).

    One `write` at the end: what the file held is never rewritten; a reader sees it before
    the text or after it (a long text, read at that instant, cut short). Not fsynced (the
    caller says why its text may be lost in a power cut): a crash can cost the text
    appended, not what was there.
    """
    target = os.fspath(path)
    check_target(target)
    flags = os.O_WRONLY | os.O_APPEND | NOFOLLOW | getattr(os, "O_NONBLOCK", 0)
    try:  # non-blocking: a FIFO put in the file's place never holds the hook
        fd = os.open(target, flags | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        return False
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size != size or info.st_nlink != 1:
            return False  # another file now, or a hard link's twin (a replace would break it)
        data = _encoded(text)
        try:
            written = os.write(fd, data)
        except OSError:
            written = -1
        if written != len(data):
            os.ftruncate(fd, size)  # no half entry left for the next rewrite to keep
            raise OSError(f"{target}: appended in part only")
    finally:
        os.close(fd)
    return True


def replace_with_built(
    path: str | os.PathLike[str], build: Callable[[str], None], *, before_replace: str = ""
) -> None:
    """Replace `path` with a file `build(temp_name)` makes beside it (a database, say),
    fsynced first; `before_replace` names a stale companion file to remove just before."""
    target = os.fspath(path)
    check_target(target)
    makedirs(os.path.dirname(target))  # refuses a symlinked folder of the tree
    fd, tmp = _temp_file(target)
    os.close(fd)
    try:
        build(tmp)
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        if before_replace:
            discard(before_replace)
        os.replace(tmp, target)
    except BaseException:
        discard(tmp)
        raise


def discard_derived(path: str | os.PathLike[str], suffixes: Iterable[str] = ()) -> None:
    """Remove a derived file (the search index, say) and its companions `path + suffix`,
    to be made again: a symlink is removed, never its target; the folders are checked."""
    target = os.fspath(path)
    check_folders(target)
    for name in (target, *(target + s for s in suffixes)):
        if os.path.lexists(name):
            os.unlink(name)


def create_exclusive(path: str | os.PathLike[str], text: str) -> None:
    """Create `path` atomically, failing with FileExistsError if the name is taken."""
    target = os.fspath(path)
    check_target(target)
    tmp = _write_temp(target, text)
    try:
        # link() refuses to overwrite, unlike replace(): two writers can never clobber a name.
        os.link(tmp, target)
    finally:
        discard(tmp)
