"""Whole-file I/O for the tree: atomic replacement (a unique temp file in the same folder,
fsync, os.replace) and the forgiving reads the hooks make.

Temp names are made here rather than with `tempfile`, whose import costs the hooks ~5 ms:
`O_CREAT | O_EXCL` with a random suffix gives the same uniqueness guarantee.
"""

from __future__ import annotations

import os

from memhooks.store.safe_fs import check_folders, check_target, makedirs, read_bytes

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: the hooks import this module
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable


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


def _write_temp(path: str, text: str | bytes, *, durable: bool = True) -> str:
    makedirs(os.path.dirname(path))  # refuses a symlinked folder of the tree
    fd, tmp = _temp_file(path)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(text if isinstance(text, bytes) else text.encode("utf-8"))
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
    tmp = _write_temp(target, text, durable=durable)
    try:
        os.replace(tmp, target)
    except BaseException:
        discard(tmp)
        raise


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
