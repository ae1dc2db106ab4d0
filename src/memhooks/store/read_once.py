"""Each file read once while a hook or a command runs (`hooks.entry`, `cli.main`). Standard
library only.

The bytes of every file read (or written) whole are kept with its stamp, and a later read of the
same path whose `lstat` still gives that stamp takes them without opening the file again
(`store.files.read_bytes`, `store.local.read_id`). The stamp holds the inode, size, mtime and
ctime: a write of memhooks replaces the file (a new inode), under the lock or not, but for a
journal entry appended at its end (`store.files.append_text`), which keeps the inode and changes
its size, so a read under the lock still sees what another writer wrote before it. Outside a
run (a library call, a test) nothing is kept.
"""

from __future__ import annotations

import os

_Stamp = tuple[int, int, int, int, int, int]
#: path -> (stamp, bytes); None outside a run.
_KEPT: dict[str, tuple[_Stamp, bytes]] | None = None
#: A file bigger than this is read again rather than held (a hook's files are small).
KEEP_CAP = 4_000_000


def keep_reads(*, on: bool) -> None:
    """Start (`on`) or end a run: what it read is kept until the end, then dropped."""
    global _KEPT  # noqa: PLW0603 - one hook's run, one process
    _KEPT = {} if on else None


def keeping() -> bool:
    return _KEPT is not None


def _stamp(info: os.stat_result) -> _Stamp:
    return (
        info.st_dev,
        info.st_ino,
        info.st_mode,
        info.st_size,
        info.st_mtime_ns,
        info.st_ctime_ns,
    )


def kept_bytes(target: str) -> bytes | None:
    """The bytes this run already read of `target`, if the file is unchanged since."""
    if _KEPT is None or target not in _KEPT:
        return None
    try:
        same = _stamp(os.lstat(target)) == _KEPT[target][0]
    except OSError:
        same = False
    if not same:
        del _KEPT[target]
        return None
    return _KEPT[target][1]


def keep_bytes(target: str, info: os.stat_result, data: bytes) -> None:
    """Keep what was read of `target` (whole: `data` is all `info` says it holds)."""
    if _KEPT is not None and len(data) == info.st_size <= KEEP_CAP:
        _KEPT[target] = (_stamp(info), data)


def wrote(target: str, inode: int, data: bytes) -> None:
    """This run replaced `target` with `data` (the temp file's `inode`): no need to read it
    back, unless another writer replaced it since."""
    if _KEPT is None:
        return
    _KEPT.pop(target, None)
    try:
        info = os.lstat(target)
    except OSError:
        return
    if info.st_ino == inode:
        keep_bytes(target, info, data)
