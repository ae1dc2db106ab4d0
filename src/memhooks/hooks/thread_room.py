"""The room the next SessionStart gives the restore: the one it gave last (kept in the thread,
`note_room`) or, before any, an estimate made the way SessionStart makes the briefing. The
thread's builds (hooks/thread_build.py) render the sessions' parts in it.
"""

from __future__ import annotations

import time

from memhooks import TYPE_CHECKING
from memhooks.continuity import thread
from memhooks.store import read_thread, save_thread
from memhooks.text.clock import iso

if TYPE_CHECKING:
    from typing import Any

    from memhooks.store import MemoryPaths, Settings

INDEX_READ = 60_000  # as SessionStart reads MEMORY.md
#: SessionStart keeps its room in the thread when it differs from the one it was built for by
#: more than this.
ROOM_SLACK = 100
#: A host session id's length, for the estimate of the room (the briefing names the session).
_SAMPLE_ID = "00000000-0000-4000-8000-000000000000"


def kept_room(doc: dict[str, Any] | None) -> int:
    """The room the last SessionStart gave the restore (`note_room`), or the one the thread
    was last built for; 0 when there is none (a first build estimates it)."""
    room = (doc or {}).get("room")
    return room if isinstance(room, int) and room > 0 else 0


def room_changed(doc: dict[str, Any], room: int | None) -> bool:
    """Whether SessionStart's `room` differs from what the thread was built for by more than
    the slack (then the thread keeps it: `note_room`)."""
    return room is not None and abs(kept_room(doc) - room) > ROOM_SLACK


def note_room(paths: MemoryPaths, doc: dict[str, Any], room: int) -> None:
    """SessionStart's room, kept in the thread when it differs from what the thread was built
    for: the next builds use it (the index, the status or the user tier changed), which
    costs them nothing. The caller holds the store lock (SessionStart's write step)."""
    if not room_changed(doc, room):
        return
    current = read_thread(paths)
    if current is not None and current.get("written") == doc.get("written"):
        save_thread(paths, {**current, "room": room})


def estimate_room(paths: MemoryPaths, settings: Settings) -> int:
    """The room the next SessionStart will give the restore, as far as it can be known now
    (used until a SessionStart says: `note_room`):
    the briefing made with this tree's index, status and user tier, the longer of the
    titles (one session's or several's) and no restore (what changes at each start, a note
    on the tree, is left out)."""
    from memhooks.continuity import briefing
    from memhooks.hooks.thread_build import source
    from memhooks.hooks.user_memory import share, user_block
    from memhooks.install.invocation import cli_command
    from memhooks.store import read_status, read_text, without_native

    index = without_native(paths, read_text(paths.index, INDEX_READ))[0]
    budget = settings.session_start_chars
    user = user_block(paths, share(budget))
    rooms: list[int] = []

    def restore(room: int) -> str:
        rooms.append(room)
        return ""

    briefing.session_start(
        session_id=_SAMPLE_ID,
        status=read_status(paths),
        index=index,
        budget=budget - (len(user) + 2 if user else 0),
        handover=restore,
        handover_title=max(thread.title([{}, {}], 0.0), _single_title(), key=len),
        handover_source=source(paths),
        cli=cli_command(),
    )
    return rooms[0] if rooms else 0


def _single_title() -> str:
    """A one-session thread's title at its longest (an ended session, its id and date)."""
    end = iso()
    entry = {"id": _SAMPLE_ID, "end": end, "ended": end}
    return thread.single_title(entry, time.time() + 99 * 86_400)
