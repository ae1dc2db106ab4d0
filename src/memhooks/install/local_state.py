"""Moving a tree's machine-local state out of the checkout (an upgrade from a memhooks that
kept it in `.claude/memory/.cache/` and `_session.json`). Standard library only: SessionStart
calls it before its gate, the commands when they find their tree.

An existing user's state must not be lost, and a repository's must never be adopted. So a tree
is moved only when all of these hold: the checkout has no id yet (`store.local`); this
machine's consent record for it is one an older memhooks wrote and still fits (the checkout's
path and identity), or, for a linked worktree, its repository's record vouches for it; and
`_session.json` is not tracked by git (a repository ships its files tracked). Each file under
`.cache/` that git tracks is left where it is, unread; the rest move, and the crash-recovery
copies with them. After a move the tree's `_session.json` is gone, so this costs a hook one
`lstat` from then on.
"""

from __future__ import annotations

import os

from memhooks import TYPE_CHECKING
from memhooks.store import (
    LEGACY_CACHE,
    LEGACY_SESSION,
    MEMORY_DIR,
    MemoryPaths,
    checkout_id,
    checkout_of,
    folder_identity,
    git_dirs,
    is_linked_worktree,
    log_line,
    read_record,
    record_file,
    repository_file,
)

if TYPE_CHECKING:
    from typing import Any

    #: (record file, the path it names, the record)
    Record = tuple[str, str, dict[str, Any]]


def migrate(paths: MemoryPaths) -> MemoryPaths | None:
    """The tree's paths after its machine-local state moved out, or None (nothing moved)."""
    legacy = os.path.join(paths.base, LEGACY_SESSION)
    if not os.path.isfile(legacy) or os.path.islink(legacy):
        return None
    checkout = os.path.realpath(checkout_of(paths.base))
    if checkout_id(checkout) is not None:
        return None  # moved already: a `_session.json` there now is not ours
    dirs = git_dirs(checkout)
    records = _legacy_records(checkout, dirs)
    if not records:
        return None
    tracked = _tracked(checkout, dirs)
    if tracked is None or f"{MEMORY_DIR}/{LEGACY_SESSION}" in tracked:
        return None
    try:
        moved = _move(paths, checkout, records, tracked)
    except OSError as exc:
        log_line(None, f"could not move {paths.base}'s machine-local state: {exc}")
        return None
    log_line(moved.log, f"machine-local state moved out of the checkout to {moved.cache}")
    return moved


def _legacy_records(checkout: str, dirs: tuple[str, str] | None) -> list[Record]:
    """(record file, named path, record) of the records to carry over."""
    found: list[Record] = []
    own = read_record(record_file(checkout), checkout)
    if own is not None and "id" not in own and own.get("identity") == folder_identity(checkout):
        found.append((record_file(checkout), checkout, own))
    if dirs is not None:
        shared = read_record(repository_file(dirs[1]), dirs[1])
        if shared is not None and "id" not in shared:
            if shared.get("identity") == folder_identity(dirs[1]):
                found.append((repository_file(dirs[1]), dirs[1], shared))
        elif shared is not None and found == [] and is_linked_worktree(checkout):
            found.append(("", dirs[1], shared))  # moved already by another worktree
    return found


def _tracked(checkout: str, dirs: tuple[str, str] | None) -> set[str] | None:
    """The tree's machine-local files git tracks ({} outside git); None when git cannot say."""
    if dirs is None:
        return set()
    from memhooks.continuity.git_run import Git

    listed = Git(checkout).run(
        "ls-files",
        "-z",
        operands=(f"{MEMORY_DIR}/{LEGACY_SESSION}", f"{MEMORY_DIR}/{LEGACY_CACHE}"),
    )
    return None if listed is None else {name for name in listed.split("\0") if name}


def _move(
    paths: MemoryPaths, checkout: str, records: list[Record], tracked: set[str]
) -> MemoryPaths:
    from memhooks.store import carry_over, move_out

    skip = {name.removeprefix(f"{MEMORY_DIR}/") for name in tracked}
    new_id = move_out(paths.base, checkout, skip)
    carry_over([(target, named, record) for target, named, record in records if target], new_id)
    return MemoryPaths(paths.base)
