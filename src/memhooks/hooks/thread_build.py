"""Render the thread at the end (SessionEnd), read it at the next start (SessionStart).

`build` makes `.cache/thread.json` (`paths.thread`) from the evidence of the newest sessions
(continuity/thread.py chooses and shares the room): per session its header facts, the room
it was given and its part rendered in it, and the evidence file's stamp (`sig`, when it was
last written and its size) it was rendered from. A session's part is kept and used again
while its stamp and its share stay the same. Stop keeps the evidence at every turn and
renders nothing; SessionEnd and `/memory summarize` render the thread. SessionStart shows
the file as it is when it is `current` (every part's stamp is its evidence's stamp now, the
same test `build` uses a part again on), and renders it (the same `build`, bounded) when it
is missing, unreadable or behind the evidence: a session that never reached SessionEnd (a
crash, a killed terminal) or one still live in the same project.
"""

from __future__ import annotations

import time

from memhooks import TYPE_CHECKING
from memhooks.continuity import thread
from memhooks.hooks.thread_room import estimate_room, kept_room
from memhooks.store import (
    StateUnreadableError,
    log_line,
    others_newest_first,
    read_state,
    read_thread,
    save_thread,
)
from memhooks.text.clock import iso

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from memhooks.store import MemoryPaths, Settings

VERSION = 1
#: Evidence files looked at, newest first: more than a thread ever shows in 9,000 characters.
MAX_SESSIONS = 40
#: Seconds a build may spend loading and rendering sessions it has no part for; past them the
#: older sessions are left out (a thread file lost with 40 long sessions behind it).
BUILD_SECONDS = 1.0


class _Build:
    """One build: the sessions found, their states loaded on demand, their renders."""

    def __init__(
        self,
        paths: MemoryPaths,
        current: tuple[str, dict[str, Any]] | None,
        deadline: float,
    ) -> None:
        self.paths = paths
        self.current = current
        self.deadline = deadline
        self.states: dict[str, dict[str, Any] | None] = {}

    def state(self, session_id: str) -> dict[str, Any] | None:
        if self.current is not None and self.current[0] == session_id:
            return self.current[1]
        if session_id not in self.states:
            from memhooks.hooks.evidence_update import load

            self.states[session_id] = load(self.paths, session_id)
        return self.states[session_id]

    def render(
        self, entry: dict[str, Any], budget: int, how: Callable[[dict[str, Any], int], str]
    ) -> str:
        """`how(state, budget)` for the entry's session, kept in the entry by budget."""
        renders = entry.setdefault("renders", {})
        key = str(budget)
        if key not in renders:
            state = self.state(entry["id"])
            renders[key] = how(state, budget) if state else ""
        return str(renders[key])


def ended_marks(paths: MemoryPaths) -> dict[str, str]:
    """Each session's clean end (id: when), from this machine's session record."""
    try:
        state = read_state(paths.session) or {}
    except StateUnreadableError:
        return {}
    records = state.get("sessions")
    return {
        str(r.get("id")): str(r["ended"])
        for r in (records if isinstance(records, list) else [])
        if isinstance(r, dict) and r.get("ended")
    }


def _entries(
    build: _Build, cached: dict[str, dict[str, Any]], found: list[tuple[str, str]]
) -> list[dict[str, Any]]:
    """Each session found with turns, newest first, as its cached entry or a new one."""
    from memhooks.continuity import thread_parts as tp

    entries = []
    for session_id, sig in found:
        entry = cached.get(session_id)
        mine = build.current is not None and build.current[0] == session_id
        if entry is None or entry.get("sig") != sig or mine:
            if not mine and time.monotonic() > build.deadline:
                break
            state = build.state(session_id)
            entry = {"id": session_id, "sig": sig, "empty": not (state and state.get("turns"))}
            if state and not entry["empty"]:
                entry.update(tp.meta(state))
        entries.append(entry)
    return entries


def build(
    paths: MemoryPaths,
    room: int,
    *,
    current: tuple[str, dict[str, Any]] | None = None,
    exclude: str = "",
    seconds: float = BUILD_SECONDS,
    old: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The thread for a new session, in `room` characters: `current` is the session whose
    state the caller holds (its evidence just saved), `exclude` a session left out; `old`
    the thread as last kept (read when not given), whose parts are used again."""
    old = (read_thread(paths) or {}) if old is None else old
    cached = {
        str(e.get("id")): e
        for e in (old.get("sessions") or [] if old.get("version") == VERSION else [])
        if isinstance(e, dict)
    }
    found = others_newest_first(paths, exclude)[:MAX_SESSIONS]
    work = _Build(paths, current, time.monotonic() + seconds)
    entries = _entries(work, cached, found)
    ended = ended_marks(paths)
    shown = [e for e in entries if not e.get("empty")][::-1]  # oldest first
    for entry in shown:
        entry["ended"] = ended.get(entry["id"], "")
    doc: dict[str, Any] = {
        "version": VERSION,
        "room": room,
        "written": iso(),
        "sessions": entries[::-1],
        "hidden": 0,
        "git": None,
    }
    if shown:
        _allot(work, shown, room, doc)
    return doc


def _allot(work: _Build, sessions: list[dict[str, Any]], room: int, doc: dict[str, Any]) -> None:
    """Roles, shares and texts of the sessions (oldest first), into `doc`."""
    from memhooks.continuity import thread_parts as tp

    real = [i for i, e in enumerate(sessions) if not e.get("trivial")]
    last_at = real[-1] if real else len(sessions) - 1
    for i, entry in enumerate(sessions):
        entry["role"] = "last" if i == last_at else ("after" if i > last_at else "earlier")
        entry["text"] = ""
    after = sessions[last_at + 1 :]
    for entry in after:
        entry["text"] = work.render(entry, 0, _trivial)
    earlier = sessions[:last_at][::-1]  # newest first
    now = time.time()
    last = sessions[last_at]
    avail = room - sum(len(e["text"]) + thread.header_room(e, now) for e in after)
    if earlier or after:  # one session alone has no header
        avail -= thread.header_room(last, now) + (len(thread.hidden_line(99)) if earlier else 0)
    heads = [thread.header_room(entry, now) for entry in earlier]
    needs = [_need(work, entry) + head for entry, head in zip(earlier, heads, strict=True)]
    weights = [int(e.get("stated") or 0) for e in earlier]
    budgets, shown = _last_share(work, last, avail, needs, weights)
    used = [
        {_earlier_text(work, entry, share - head if share > 0 else 0)}
        for entry, share, head in zip(earlier, budgets, heads, strict=True)
    ]
    if shown < avail:  # what the earlier parts left of their shares goes to the last one
        shown = avail - sum(
            len(e["text"]) + head
            for e, share, head in zip(earlier, budgets, heads, strict=True)
            if share > 0
        )
    last["text"] = work.render(last, shown, tp.last_part)
    last["renders"] = {k: v for k, v in last["renders"].items() if k in (str(avail), str(shown))}
    _spare(work, earlier, [b > 0 for b in budgets], heads, avail - len(last["text"]), used=used)
    for entry, keys in zip(earlier, used, strict=True):  # the renders the next build needs
        keys.discard("")
        keep = keys | {str(thread.EARLIER_TOP)} if keys else set()
        entry["renders"] = {k: v for k, v in entry.get("renders", {}).items() if k in keep}
    doc["hidden"] = sum(1 for share in budgets if share <= 0)
    doc["git"] = last["git"]
    for entry in sessions:  # only the last session's files are shown with git's view
        if entry is not last:
            entry.pop("git", None)


def _last_share(
    work: _Build, last: dict[str, Any], avail: int, needs: list[int], weights: list[int]
) -> tuple[list[int], int]:
    """The earlier sessions' shares (newest first) and the last session's room."""
    from memhooks.continuity import thread_parts as tp

    if "rough" not in last or "git" not in last:  # once per version of its evidence
        state = work.state(last["id"]) or {}
        last["rough"] = tp.rough_size(state)
        last["git"] = {key: state.get(key) for key in ("files", "git", "cwd")}
    need = min(avail, int(last["rough"]))
    if need < avail:
        need = len(work.render(last, avail, tp.last_part))
    budget, budgets = thread.allot(avail, need, needs, weights)
    return budgets, avail if budget >= need else budget


def _spare(
    work: _Build,
    earlier: list[dict[str, Any]],
    shown: list[bool],
    heads: list[int],
    room: int,
    *,
    used: list[set[str]],
) -> None:
    """What the parts left of `room` (the last one took what it needs), given in whole steps to
    the earlier parts cut short, the newest first: each rendered again in its length and the
    rest (`used`: the renders each one used; the last part grows at every Stop, and a spare
    that moved with it would render them again each time)."""
    room -= sum(len(e["text"]) + h for e, h, s in zip(earlier, heads, shown, strict=True) if s)
    for entry, keys, show in zip(earlier, used, shown, strict=True):
        spare = room // thread.STEP * thread.STEP
        if spare < thread.SPARE_MIN:
            break
        if not show or entry.get("trivial") or len(entry["text"]) >= entry["need"]:
            continue
        before = len(entry["text"])
        keys.add(_earlier_text(work, entry, before + spare))
        room -= len(entry["text"]) - before


def _earlier_text(work: _Build, entry: dict[str, Any], budget: int) -> str:
    """An earlier session's text in `budget` (0: left out); the key of the render it is."""
    from memhooks.continuity import thread_parts as tp

    if budget <= 0:
        return ""
    if entry.get("trivial"):
        entry["text"] = work.render(entry, 0, _trivial)
        return "0"
    key = thread.EARLIER_TOP if budget >= entry["need"] else budget
    entry["text"] = work.render(entry, key, tp.earlier_part)
    return str(key)


def _need(work: _Build, entry: dict[str, Any]) -> int:
    """What an earlier session fills at most (its part at EARLIER_TOP), found once."""
    from memhooks.continuity import thread_parts as tp

    if entry.get("trivial"):
        return len(work.render(entry, 0, _trivial))
    if "need" not in entry:
        entry["need"] = len(work.render(entry, thread.EARLIER_TOP, tp.earlier_part))
    return int(entry["need"])


def built(
    paths: MemoryPaths,
    room: int,
    *,
    current: tuple[str, dict[str, Any]] | None = None,
    exclude: str = "",
    old: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """`build` with the turn memo on (the turns rendered before, as they were): the thread,
    and the memo to keep beside it (the caller saves both under the hooks' lock)."""
    from memhooks.continuity.turn_memo import keeping
    from memhooks.store import read_memo

    with keeping(read_memo(paths)) as memo:
        doc = build(paths, room, current=current, exclude=exclude, old=old)
    return doc, memo.doc()


def usable(doc: dict[str, Any]) -> bool:
    """A thread of this version (another is rendered again)."""
    return doc.get("version") == VERSION


def current(paths: MemoryPaths, doc: dict[str, Any], exclude: str = "") -> bool:
    """Whether `doc` is the thread the evidence makes now: usable, and its sessions (but
    `exclude`, the starting session) are the kept evidence files, newest first, each with the
    stamp its part was rendered from. That is the test `build` uses a part again on, so a
    current file is what a build now would make of the same room. A Stop since the last
    render (no SessionEnd after it) moved its session's stamp: the file is behind."""
    if not usable(doc):
        return False
    sessions = doc.get("sessions")
    rendered = [
        (e.get("id"), e.get("sig"))
        for e in (sessions[::-1] if isinstance(sessions, list) else [])
        if isinstance(e, dict) and e.get("id") != exclude
    ]
    return rendered == others_newest_first(paths, exclude)[:MAX_SESSIONS]


ROLES = ("earlier", "last", "after")


def parts(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The sessions shown, oldest first (an entry of the wrong shape is passed over)."""
    sessions = doc.get("sessions")
    return [
        e
        for e in (sessions if isinstance(sessions, list) else [])
        if isinstance(e, dict)
        and isinstance(e.get("text"), str)
        and e["text"]
        and e.get("role") in ROLES
        and isinstance(e.get("id"), str)
        and isinstance(e.get("turns", 0), int)
    ]


def hidden(doc: dict[str, Any]) -> int:
    """How many earlier sessions the thread leaves out."""
    count = doc.get("hidden")
    return count if isinstance(count, int) and count > 0 else 0


def _trivial(state: dict[str, Any], _budget: int) -> str:
    """A trivial session's entry (one size, whatever the budget)."""
    from memhooks.continuity import thread_parts as tp

    return tp.trivial_part(state)


def source(paths: MemoryPaths) -> str:
    """How the briefing names the thread's file."""
    from memhooks.store import MEMORY_DIR

    relative = paths.relative(paths.thread)
    if relative.startswith(".."):  # kept outside the checkout: no path to show
        return "the thread of recent sessions (machine-local)"
    return f"{MEMORY_DIR}/{relative}"


def render_thread(
    paths: MemoryPaths,
    settings: Settings,
    current: tuple[str, dict[str, Any]] | None,
    event: str,
) -> None:
    """Build and keep the next session's thread, `current` (id, state) just saved; the
    caller holds the hooks' lock. A restore not rendered costs no more than a line in the
    log: the next SessionStart renders it."""
    from memhooks.store import drop_memo, save_memo

    try:
        old = read_thread(paths) or {}
        room = kept_room(old)
        if not room or event == "SessionEnd":  # none kept, or the index grew since it was
            estimate = estimate_room(paths, settings)
            room = min(room, estimate) if room and estimate else room or estimate
        doc, memo = built(paths, room, current=current, old=old)
        save_thread(paths, doc)
        save_memo(paths, memo)
    except Exception as exc:  # never worth the turn's own record
        log_line(
            paths.log, f"{event}: the next session's restore not rendered: {exc!r}", echo=False
        )  # the log only: the next start renders a missing file
        drop_memo(paths)  # the next build renders every turn
