"""The thread of work: a new session's restore made of the project's recent sessions. Pure.

The last session is shown fullest; the sessions before it by selection (continuity/
thread_parts.py renders each session's part), each under a header with its date and age, the
newest last. A trivial session (a greeting, no tool, nothing changed) is one short entry and
never takes the last session's place. Standard library only, and light: SessionStart imports
it to put the parts rendered at the end of the last session together.

`allot` shares the room: the last session what it needs up to LAST_SHARE of it (all of it
when nothing earlier needs room), the earlier sessions the rest in shares by how often their
user stated something (a session of rulings gets more than one of go-aheads and questions),
each at least EARLIER_MIN or left out (the oldest first), and what a share does not use goes to the
others (hooks/thread_build.py gives the last session what the earlier parts left unused).
`compose` puts the parts rendered at the end of a session (hooks/thread_build.py) together
at the next start, with ages as of then, within the room it is given.
"""

from __future__ import annotations

from memhooks import TYPE_CHECKING
from memhooks.text.clock import epoch

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

#: The last session's share of the room when earlier sessions need more than the rest (0.45
#: kept more of the week scenarios' live facts than 0.4 and 0.5 once each earlier prompt
#: shown came with Claude's answer; 0.5 more than 0.6, tests/benchmark/week_eval.py).
LAST_SHARE = 0.45
#: An earlier session gets at least this much, or is left out; at most EARLIER_TOP.
EARLIER_MIN = 700
EARLIER_TOP = 3_000
#: Shares are rounded down to this step, so a finished session's part is rendered again
#: only when its share moves by a step (hooks/thread_build.py keeps the renders); 300 left
#: a room's last few hundred characters unused once the earlier parts filled their shares
#: closely (each prompt with its answer).
STEP = 200
#: What the parts leave of the room goes to the earlier ones cut short when it is at least this
#: (each of them rendered again in its share and the rest).
SPARE_MIN = 60
#: Room kept for a session's header beyond its length now (its age may grow a digit), and the
#: step it is rounded up to (a finished session's share stays the same while its age grows).
HEADER_SLACK = 8
HEADER_STEP = 20


# ---------------------------------------------------------------- the room


def _down(value: float) -> int:
    return int(value) // STEP * STEP


def allot(
    avail: int, last_need: int, needs: Sequence[int], weights: Sequence[int] | None = None
) -> tuple[int, list[int]]:
    """(the last session's budget, each earlier session's, newest first; 0: left out).

    `needs`: what each earlier session would fill at most (its part at EARLIER_TOP);
    `weights`: how often its user stated something (`thread_parts.meta`; None: all alike). The last
    gets what it needs up to LAST_SHARE of `avail`, more when the earlier ones need less;
    the earlier ones share the rest by their weights (water-filling), each at least
    EARLIER_MIN (the oldest left out first); what is left over goes back to the last
    session."""
    shown = len(needs)
    weights = list(weights) if weights and all(w > 0 for w in weights) else [1] * shown
    while True:
        wanted = sum(needs[:shown])
        last = min(last_need, max(int(avail * LAST_SHARE), avail - wanted))
        rest = avail - last
        if not shown or rest // shown >= min(EARLIER_MIN, *needs[:shown]):
            break
        shown -= 1
    budgets = _fill(rest, list(needs[:shown]), weights[:shown])
    last = min(last_need, avail - sum(budgets))
    return last, budgets + [0] * (len(needs) - shown)


def _fill(room: int, needs: Sequence[int], weights: Sequence[int]) -> list[int]:
    """`room` shared by water-filling: shares by weight, a need below its share fully met
    and a share below EARLIER_MIN raised to it (the rest shared again among the others);
    shares in STEPs, a full need exact."""
    budgets = [0] * len(needs)
    open_ = list(range(len(needs)))
    while open_:
        total = sum(weights[i] for i in open_)
        share = {i: room * weights[i] // total for i in open_}
        floor = {i: min(EARLIER_MIN, needs[i]) for i in open_}
        settled = [i for i in open_ if needs[i] <= share[i] or share[i] < floor[i]]
        if not settled:
            for i in open_:
                budgets[i] = max(floor[i], _down(share[i]))
            break
        for i in settled:
            budgets[i] = needs[i] if needs[i] <= share[i] else floor[i]
            room -= budgets[i]
            open_.remove(i)
    return budgets


# ---------------------------------------------------------------- at the next start


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


def header_room(entry: dict[str, Any], now: float) -> int:
    """The room a session's header (and the blank line before it) takes."""
    size = len(header(entry, 99, 99, now)) + 2 + HEADER_SLACK
    return -(-size // HEADER_STEP) * HEADER_STEP


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


def _joined(parts: Sequence[dict[str, Any]], hidden: int, now: float) -> str:
    if len(parts) == 1 and not hidden:  # one session alone reads as before: no header
        return str(parts[0]["text"])
    blocks = [hidden_line(hidden)] if hidden else []
    n = len(parts)
    blocks += [f"{header(p, k, n, now)}\n{p['text']}" for k, p in enumerate(parts, 1)]
    return "\n\n".join(blocks)


def compose(parts: Sequence[dict[str, Any]], hidden: int, now: float, room: int) -> str:
    """The thread's text in `room` characters: each part under its header, oldest first;
    the oldest earlier parts left out (counted in one line) while it does not fit, then the
    last part's older lines."""
    parts = list(parts)
    text = _joined(parts, hidden, now)
    while len(text) > room:
        droppable = [i for i, p in enumerate(parts) if p.get("role") == "earlier"]
        if not droppable:
            break
        del parts[droppable[0]]
        hidden += 1
        text = _joined(parts, hidden, now)
    if len(text) > room:
        at = next((i for i, p in enumerate(parts) if p.get("role") == "last"), len(parts) - 1)
        own = str(parts[at]["text"])
        parts[at] = {**parts[at], "text": _trimmed(own, len(own) - (len(text) - room))}
        text = _joined(parts, hidden, now)
    while len(text) > room and "\n" in text:  # what no trimming could fit
        text = text[: text.rfind("\n")]
    return text if len(text) <= room else ""


def _trimmed(text: str, room: int) -> str:
    """A part in `room`: its said lines dropped from the oldest (the first turn shown, the
    goal, and the newest stay), one line counting them."""
    if len(text) <= room:
        return text
    lines = text.splitlines()
    # a line counting turns left out already stays: what it counts is gone either way
    said = [i for i, line in enumerate(lines) if line.startswith("[") and not line.startswith("[…")]
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
    return "\n".join(lines)
