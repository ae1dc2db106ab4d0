"""The write guard's second layer beyond the memory files: the other files a later hook reads
and trusts (`config.json`, `context/`, `master.md`, the latest checkpoint; the session record
and each session's evidence in the machine-local folder), and one write step of memhooks, which
tells the watch what it wrote. Standard library only: every hook's write step goes through it.

Every write memhooks makes to a watched file happens inside a `tree_turn` (the store lock),
which records the watched stamps as it leaves (`store.watch.quick_line`), and a journal entry is
noted as the hooks' own (`note_own`). So what differs from the record after a tool call was
written by something else: the tool call. A turn that finds such a change pending records
nothing, so the next look sees it.
"""

from __future__ import annotations

import os

from memhooks import TYPE_CHECKING
from memhooks.store.files import read_bytes, write_atomic
from memhooks.store.locking import quick_lock
from memhooks.store.watch import (
    LISTING_CAP,
    LOCAL,
    TRUSTED_FILES,
    keep_trusted,
    put_aside,
    quick_line,
    record_quick,
    recorded_quick,
    trusted_copy,
)

if TYPE_CHECKING:
    from memhooks.store.paths import MemoryPaths


class tree_turn:  # noqa: N801 - a context manager used like a function
    """One write step under the store lock (`lock`: the hooks' `quick_lock` or the commands'
    `command_lock`); on a clean exit the watch records what the step wrote."""

    __slots__ = ("_lock", "_paths", "_pending")

    def __init__(
        self, paths: MemoryPaths, timeout: float, lock: type[quick_lock] = quick_lock
    ) -> None:
        self._paths = paths
        self._lock = lock(paths.lock, timeout)
        self._pending = True

    def __enter__(self) -> None:
        self._lock.__enter__()
        try:  # no record yet: nothing to keep apart (the first look takes its baseline)
            recorded = recorded_quick(self._paths)
            self._pending = bool(recorded) and recorded != quick_line(self._paths)
        except OSError:
            self._pending = True

    def __exit__(self, *exc_info: object) -> None:
        try:
            if exc_info[0] is None and not self._pending:
                try:
                    keep_trusted(self._paths)
                    record_quick(self._paths)
                except OSError:
                    pass  # the next look finds a difference and settles it
        finally:
            self._lock.__exit__(*exc_info)


def settle_trusted(paths: MemoryPaths, changed: list[str], *, from_claude: bool) -> list[str]:
    """Undo a tool call's write into a trusted file (the caller holds the lock): the file is
    put aside in the quarantine folder and its last known copy put back; a session's evidence
    is put aside (it will not be restored). A change made outside Claude (an editor, a `git
    pull`, seen at SessionStart) is kept. Returns the messages."""
    if not from_claude:
        return []
    messages = []
    for name in changed:
        local = name.startswith(LOCAL)
        relative = name.removeprefix(LOCAL)
        if not local and relative not in TRUSTED_FILES:
            continue
        target = os.path.join(paths.cache if local else paths.base, *relative.split("/"))
        aside = put_aside(paths, relative, local=local) if os.path.isfile(target) else ""
        back = not relative.startswith("restore/") and _put_back(paths, name, target)
        where = ("this checkout's machine-local " if local else ".claude/memory/") + relative
        messages.append(
            f"memhooks: {where} was written behind the store's back by a tool call; "
            + (f"it was put aside in {aside}" if aside else "it was deleted")
            + ("; its last known version is back." if back else ".")
        )
    return messages


def _put_back(paths: MemoryPaths, name: str, target: str) -> bool:
    try:
        data = read_bytes(trusted_copy(paths, name), LISTING_CAP)
    except OSError:
        return False
    write_atomic(target, data)
    return True
