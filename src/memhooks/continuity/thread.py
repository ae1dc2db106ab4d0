"""The thread of work: a new session's restore made of the project's recent sessions. Pure.

The last session is shown fullest (`handover.next_session`); the sessions before it by
selection (their first prompt, their last turn with Claude's conclusion and question, the
user's other words newest first, what failed, the summaries a model already wrote), each
under a header with its date and age, the newest last. A trivial session (a greeting, no
tool, nothing changed) is one short entry and never takes the last session's place.

`allot` shares the room: the last session what it needs up to LAST_SHARE of it (all of it
when nothing earlier needs room), the earlier sessions the rest in equal shares, each at
least EARLIER_MIN or left out (the oldest first), and what a share does not use goes to the
others. `compose` puts the parts rendered at the end of a session (hooks/thread_build.py)
together at the next start, with ages as of then, within the room it is given.
"""

from __future__ import annotations

from memhooks import TYPE_CHECKING
from memhooks.continuity import handover
from memhooks.continuity.excerpt import head_tail
from memhooks.text.clock import epoch

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

#: The last session's share of the room when earlier sessions need more than the rest.
LAST_SHARE = 0.6
#: An earlier session gets at least this much, or is left out; at most EARLIER_TOP.
EARLIER_MIN = 700
EARLIER_TOP = 3_000
#: Shares are rounded down to this step, so a finished session's part is rendered again
#: only when its share moves by a step (hooks/thread_build.py keeps the renders).
STEP = 300
#: A trivial session's entry, at most.
TRIVIAL_CHARS = 420
TRIVIAL_PROMPTS = 200
TRIVIAL_TURNS = 3
#: Files and checks an earlier session shows at most (the last session shows all it has).
EARLIER_FILES = 4
EARLIER_CHECKS = 4
EARLIER_TODOS = 6
#: Detail of an earlier session's last turn, and its most of the session's share.
LAST_TURN_LEVEL = 3
LAST_TURN_SHARE = 0.4
#: Characters of an earlier session's first prompt (its goal), its other prompts, and Claude's
#: conclusion of a turn (its last words), when there is room.
GOAL_WORDS = 900
PROMPT_WORDS = 320
CONCLUSION_WORDS = 260
GAP_LINE = 40
HEADER_CHARS = 130
EARLIER_MARK = " (as that earlier session left it)"


# ---------------------------------------------------------------- one session


def _size(lines: Sequence[str]) -> int:
    return sum(len(line) + 1 for line in lines)


def trivial(state: dict[str, Any]) -> bool:
    """No tool did anything, nothing was compacted or summarized, and the user said little
    ("Good morning", "ok"): nothing a later session needs beyond a line."""
    turns = state.get("turns") or []
    if state.get("files") or state.get("checks") or state.get("todos"):
        return False
    if state.get("summary") or state.get("summarized") or len(turns) > TRIVIAL_TURNS:
        return False
    if any(turn.get("ran") for turn in turns):
        return False
    return sum(len(turn.get("prompt") or "") for turn in turns) <= TRIVIAL_PROMPTS


def with_summaries(state: dict[str, Any]) -> dict[str, Any]:
    """The state with its newest model-written summary as `summary`: the host's at its last
    compaction, or the one `/memory summarize` saved (`summarized`), whichever came later."""
    own = state.get("summarized")
    host = state.get("summary")
    if not (isinstance(own, dict) and own.get("text")):
        return state
    newer = int(host.get("after_turn") or 0) if isinstance(host, dict) and host.get("text") else -1
    if newer > int(own.get("after_turn") or 0):
        return state
    return {**state, "summary": {**own, "kind": "summarize"}}


def last_part(state: dict[str, Any], budget: int) -> str:
    """The last session, as a single session's restore shows it."""
    return handover.next_session(with_summaries(state), budget=budget)


def brief_state(state: dict[str, Any]) -> dict[str, Any]:
    """An earlier session's state with its proofs cut to what a later session may need: its
    last files, its failures before its passes, its unfinished todos."""
    files = dict(list((state.get("files") or {}).items())[-EARLIER_FILES:])
    checks = list((state.get("checks") or {}).items())
    failing = [(k, v) for k, v in checks if not v.get("ok")][-EARLIER_CHECKS:]
    passing = [(k, v) for k, v in checks if v.get("ok")][-max(0, EARLIER_CHECKS - len(failing)) :]
    kept = {k for k, _ in failing + passing}
    todos = [t for t in state.get("todos") or [] if t.get("status") != "completed"]
    return {
        **with_summaries(state),
        "files": files,
        "checks": {k: v for k, v in checks if k in kept},
        "todos": todos[:EARLIER_TODOS],
    }


def _variant(turn: dict[str, Any], prompt: int, conclusion: int) -> list[str]:
    """A turn's lines with the user's words cut to `prompt` characters and Claude's last
    words to `conclusion` (0: left out), nothing else."""
    final = turn.get("last") or turn.get("first") or ""
    shown = {
        **turn,
        "prompt": head_tail(turn.get("prompt") or "", prompt, head_share=0.6),
        "first": "",
        "mid": [],
        "ran": [],
        "last": head_tail(final, conclusion) if conclusion else "",
    }
    return handover.turn_lines(shown, len(handover.LEVELS) - 1)


def said_brief(turns: Sequence[dict[str, Any]], budget: int) -> str:
    """What was said in an earlier session, by selection: its last turn (Claude's conclusion
    and question) first in the room, then its goal (the first prompt), the user's other
    words newest first, then Claude's conclusions of those turns, newest first; oldest first
    on the page, a line counting the turns left out."""
    if not turns:
        return ""
    room = budget - len(handover.RECORD_HEADING) - 1
    last: list[str] = []
    for level in range(LAST_TURN_LEVEL, -1, -1):
        last = handover.turn_lines(turns[-1], level)
        if _size(last) <= room * LAST_TURN_SHARE:
            break
    chosen: dict[int, list[str]] = {len(turns) - 1: last}
    used = _size(last)
    before = range(len(turns) - 2, -1, -1)
    goal = next((i for i in range(len(turns) - 1) if turns[i].get("prompt")), None)
    passes = [(i, GOAL_WORDS, 0) for i in ([goal] if goal is not None else [])]
    passes += [(i, PROMPT_WORDS, 0) for i in before if i != goal and turns[i].get("prompt")]
    passes += [(i, GOAL_WORDS if i == goal else PROMPT_WORDS, CONCLUSION_WORDS) for i in before]
    for i, prompt, conclusion in passes:
        lines = _variant(turns[i], prompt, conclusion)
        grown = used - _size(chosen.get(i, [])) + _size(lines)
        if lines and grown <= room - GAP_LINE:
            chosen[i], used = lines, grown
    out: list[str] = []
    for i, turn in enumerate(turns):
        if i in chosen:
            out += chosen[i]
        elif i - 1 in chosen or i == 0:
            gap = next((j for j in range(i, len(turns)) if j in chosen), len(turns)) - i
            out.append(f"[… {gap} more turn{'s' if gap != 1 else ''} not shown]")
        del turn
    return "\n".join([handover.RECORD_HEADING, *out])


#: An earlier session's headings, shorter and marked as that session's (others get the mark).
_EARLIER_HEADINGS = {
    handover.PROVEN_HEADING: "## What its record proved at its end (an earlier session)",
    handover.CHECKS_HEADING: "## Its checks' last outcomes (an earlier session)",
    handover.RECORD_HEADING: (
        "## What was said in it, oldest first (later turns and sessions supersede earlier ones)"
    ),
}


def earlier_part(state: dict[str, Any], budget: int) -> str:
    """An earlier session by selection, its headings marked as that session's."""
    brief = brief_state(state)
    text = handover.next_session(brief, budget=budget, said=said_brief)
    lines = [
        _EARLIER_HEADINGS.get(line, line + EARLIER_MARK) if line.startswith("## ") else line
        for line in text.splitlines()
    ]
    out = "\n".join(lines)
    while len(out) > budget and len(lines) > 1:  # a heading grew past the budget
        lines.pop(-1)
        out = "\n".join(lines)
    return out


def trivial_part(state: dict[str, Any]) -> str:
    """A trivial session's few words."""
    return "\n".join(handover.record_lines(state.get("turns") or [], TRIVIAL_CHARS))


def rough_size(state: dict[str, Any]) -> int:
    """An upper bound of what a session's record could fill, without rendering it."""
    turns = state.get("turns") or []
    said = sum(
        len(t.get("prompt") or "")
        + len(t.get("first") or "")
        + len(t.get("last") or "")
        + sum(len(m) for m in t.get("mid") or ())
        + 120 * len(t.get("ran") or ())
        + 40
        for t in turns
    )
    summaries = sum(
        len(s.get("text") or "")
        for s in (state.get("summary"), state.get("summarized"))
        if isinstance(s, dict)
    )
    proofs = 200 * (len(state.get("checks") or {}) + len(state.get("todos") or []))
    return said + summaries + proofs + 60 * len(state.get("files") or {}) + 600


def meta(state: dict[str, Any]) -> dict[str, Any]:
    """What a session's header says of it: when it began and was last written, its turns."""
    turns = state.get("turns") or []
    begun = next((t.get("at") for t in turns if t.get("at")), "")
    return {
        "start": begun or state.get("updated") or "",
        "end": state.get("updated") or "",
        "turns": len(turns),
        "trivial": trivial(state),
    }


# ---------------------------------------------------------------- the room


def _down(value: float) -> int:
    return int(value) // STEP * STEP


def allot(avail: int, last_need: int, needs: Sequence[int]) -> tuple[int, list[int]]:
    """(the last session's budget, each earlier session's, newest first; 0: left out).

    `needs`: what each earlier session would fill at most. The last gets what it needs up
    to LAST_SHARE of `avail`, more when the earlier ones need less; the earlier ones share
    the rest equally (water-filling), each at least EARLIER_MIN (the oldest left out first);
    what is left over goes back to the last session."""
    shown = len(needs)
    while True:
        wanted = sum(min(need, EARLIER_TOP) for need in needs[:shown])
        last = min(last_need, max(int(avail * LAST_SHARE), avail - wanted))
        rest = avail - last
        if not shown or rest // shown >= min(EARLIER_MIN, *needs[:shown]):
            break
        shown -= 1
    budgets = _fill(rest, [min(need, EARLIER_TOP) for need in needs[:shown]])
    last = min(last_need, avail - sum(budgets))
    return last, budgets + [0] * (len(needs) - shown)


def _fill(room: int, needs: Sequence[int]) -> list[int]:
    """`room` shared by water-filling: equal shares, a need below its share fully met and
    the rest shared again among the others; shares in STEPs, a full need exact."""
    budgets = [0] * len(needs)
    open_ = list(range(len(needs)))
    while open_:
        share = room // len(open_)
        met = [i for i in open_ if needs[i] <= share]
        if not met:
            for i in open_:
                budgets[i] = max(min(EARLIER_MIN, needs[i]), _down(share))
            break
        for i in met:
            budgets[i] = needs[i]
            room -= needs[i]
            open_.remove(i)
    return budgets


# ---------------------------------------------------------------- at the next start


def replace_files(text: str, before: Sequence[str], after: Sequence[str]) -> str:
    """The last part with its lines of files changed (`before`, the tools' record) made
    `after` (git's view at the start): in place, else first among its proofs."""
    if list(before) == list(after):
        return text
    old, new = "\n".join(before), "\n".join(after)
    if before and old + "\n" in text + "\n":
        return (text + "\n").replace(old + "\n", new + "\n" if new else "", 1)[:-1]
    if not after:
        return text
    heading = handover.PROVEN_HEADING
    if heading + "\n" in text:
        return text.replace(heading + "\n", f"{heading}\n{new}\n", 1)
    return f"{heading}\n{new}\n\n{text}"


def age(seconds: float) -> str:
    minutes = int(max(0.0, seconds) // 60)
    if minutes < 90:  # noqa: PLR2004
        return f"{minutes} min"
    hours = minutes // 60
    return f"{hours} h" if hours < 48 else f"{hours // 24} days"  # noqa: PLR2004


def _when(entry: dict[str, Any], now: float) -> str:
    end = str(entry.get("end") or "")
    at = epoch(end)
    day = end[:16].replace("T", " ")
    return f"{day} UTC, {age(now - at)} ago" if at is not None and day else "date unknown"


def _ended(entry: dict[str, Any], *, short: bool = False) -> str:
    if entry.get("ended"):
        return "it ended cleanly" if short else f"it ended cleanly at {entry['ended']}"
    return "no clean end was recorded" + ("" if short else " (it may have been cut off)")


def header(entry: dict[str, Any], k: int, n: int, now: float) -> str:
    """`# Session k of n`, its role, when it was last written (and how long ago), its turns,
    whether it ended cleanly."""
    role = {
        "last": ", the last one (the fullest)",
        "after": ", a short one after it (no tool, nothing changed)",
    }.get(str(entry.get("role")), "")
    if entry.get("role") == "earlier" and entry.get("trivial"):
        role = ", a short one (no tool, nothing changed)"
    turns = int(entry.get("turns") or 0)
    ended = _ended(entry, short=entry.get("role") != "last")
    return (
        f"# Session {k} of {n}{role}: {str(entry.get('id'))[:8]}, last written "
        f"{_when(entry, now)}, {turns} turn{'s' if turns != 1 else ''}; {ended}"
    )


def single_title(entry: dict[str, Any], now: float) -> str:
    at = epoch(str(entry.get("end") or ""))
    when = f"last written {age(now - at)} ago" if at is not None else "date unknown"
    return (
        f"Where the last session on this project stood (session {str(entry.get('id'))[:8]}, "
        f"{when}; {_ended(entry)}). Continue from it only if the user's request is about the "
        "same work:"
    )


def title(parts: Sequence[dict[str, Any]], now: float) -> str:
    """The restore's title: one session's as before, or the thread's."""
    if len(parts) == 1:
        return single_title(parts[0], now)
    return (
        f"The recent work on this project, {len(parts)} sessions, oldest first (the last one "
        "fullest; later sessions supersede earlier ones). Continue from it only if the "
        "user's request is about the same work:"
    )


def hidden_line(count: int) -> str:
    return (
        f"[… {count} earlier session{'s' if count != 1 else ''} not shown: `memhooks recall` "
        "with a few words finds their journals]"
    )


def compose(parts: Sequence[dict[str, Any]], hidden: int, now: float, room: int) -> str:
    """The thread's text in `room` characters: each part under its header, oldest first;
    the oldest earlier parts left out (counted in one line) while it does not fit, then the
    last part's older lines."""
    if len(parts) == 1 and not hidden:
        return _trimmed(str(parts[0]["text"]), room)
    parts = list(parts)
    while True:
        n = len(parts)
        blocks = [hidden_line(hidden)] if hidden else []
        blocks += [f"{header(p, k, n, now)}\n{p['text']}" for k, p in enumerate(parts, 1)]
        text = "\n\n".join(blocks)
        droppable = [i for i, p in enumerate(parts) if p.get("role") == "earlier"]
        if len(text) <= room or not droppable:
            break
        del parts[droppable[0]]
        hidden += 1
    return _trimmed(text, room)


def _trimmed(text: str, room: int) -> str:
    """`text` in `room`: the said lines of its last section dropped from the oldest (the
    first turn shown, the goal, stays), one line counting them; then cut at a line."""
    if len(text) <= room:
        return text
    lines = text.splitlines()
    start = max((i for i, line in enumerate(lines) if line.startswith("# ")), default=0)
    said = [i for i in range(start, len(lines)) if lines[i].startswith("[")]
    first = lines[said[0]].split("]", 1)[0] if said else ""
    drop = [i for i in said if not lines[i].startswith(first + "]")][:-1]
    excess = len(text) - room + 40
    gone: set[int] = set()
    for i in drop:
        if excess <= 0:
            break
        gone.add(i)
        excess -= len(lines[i]) + 1
    if gone:
        at = min(gone)
        lines = [line for i, line in enumerate(lines) if i not in gone]
        lines.insert(at, f"[… {len(gone)} more lines not shown]")
    out = "\n".join(lines)
    while len(out) > room and "\n" in out:
        out = out[: out.rfind("\n")]
    return out if len(out) <= room else ""
