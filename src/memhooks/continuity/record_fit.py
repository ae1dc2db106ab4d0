"""Which turns a restore's record shows, and at which level of detail. Pure, stdlib only.

`handover.record_lines` renders the turns; this module chooses them in its room, from
the sizes of their renders (`render(i, level, hard)`) and their levels' caps by age (`top(i)`):

- the last turn whole first (LAST_SHARE of the room);
- the newest turns before it as whole as their age allows, after the goal's (`newest`): what
  the next session continues from, shown, with their room kept in RECENT_SHARE;
- then, when not all turns fit even at their shortest (a long session), the others that
  state most (`worth`) in BREADTH_SHARE of what is left (`fitting`: a reply that ends
  asking goes with the prompt that answered it; the room one cannot use goes to the
  shorter ones after it, never to an "ok" shown alone, `bare`);
- then each turn shown grown level by level in what room is left (`detailed`).
"""

from __future__ import annotations

import re

from memhooks import TYPE_CHECKING
from memhooks.continuity import turn_memo
from memhooks.continuity.excerpt import prose, sentences
from memhooks.continuity.proofs import answers
from memhooks.text import lines_size
from memhooks.text.lazy_re import LazyPattern

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from typing import Any

#: The share of the record's room the turns shown may take at their shortest: the rest is
#: for the detail of the newest (a long session's 100 one-line prompts tell a reader less).
BREADTH_SHARE = 0.85
#: The share of the record's room the newest turns get first, as whole as their age allows.
RECENT_SHARE = 0.3
#: The share the last turn may take first, whole (its options and its question).
LAST_SHARE = 0.5
#: A prompt's stated words (not its questions) rank it among the turns shown, in steps of
#: STATED_STEP characters up to STATED_CAP (a long paste is no more worth than a paragraph).
STATED_STEP = 60
STATED_CAP = 240
#: Turns at most that a reply asking pulls in, itself included (each answer that asks again
#: brings the next): a session where nearly every reply asks must not spend its breadth on
#: a few long runs; a longer chain's first turn is not shown.
CHAIN_MAX = 3
#: The line that stands for a run of turns left out.
GAP = "[… {} more turns not shown]"
#: A request put as a question: what the user wants done, not a question for Claude.
_REQUEST = LazyPattern(r"\b(?:can|could|would|will) you\b", re.IGNORECASE)


@turn_memo.kept
def stated(prompt: str) -> int:
    """Characters of what `prompt` states in prose (not its questions, not a pasted log; a
    request put as a question, "can you check X?", states what the user wants)."""
    return sum(
        len(s)
        for s in sentences(prompt)
        if (answers(s) or _REQUEST.compiled.search(s)) and prose(s)
    )


def worth(turns: Sequence[dict[str, Any]], i: int) -> tuple[int, int]:
    """How soon a turn is shown when not all fit (lowest first): the user's words that
    state most (a choice, a constraint, news: what a reader cannot guess; prose, not a
    pasted log; an answer given through a tool), then those that state less, then questions
    and greetings; a turn a model's summary covers after all those of the turns after it."""
    words = stated(turns[i]["prompt"]) + sum(len(s) for s in turns[i].get("told") or ())
    return bool(turns[i].get("summarized")), -(min(words, STATED_CAP) // STATED_STEP)


def fitting(
    turns: Sequence[dict[str, Any]],
    pinned: set[int],
    budget: int,
    render: Callable[[int, int, bool], list[str]],
) -> tuple[list[int], bool]:
    """The pinned turns' indexes and the others', those worth most first (`worth`), that
    fit `budget` at their shortest, with a line for each run of turns left out: a long
    session's turns are left out before any detail is chosen (a flat cost); and whether any
    was (then each one shown keeps what its prompt states). A turn whose reply ends asking
    is shown with the next, and so on while the next asks again, up to CHAIN_MAX turns (its
    question alone reads as open; a pinned one's answer comes first). A turn that does not
    fit leaves its room to the smaller ones after it; one that states nothing alone is not
    shown."""
    if sum(lines_size(render(i, 0, False)) for i in range(len(turns))) <= budget:
        return list(range(len(turns))), False
    keep = set(pinned)
    used = sum(lines_size(render(i, 0, True)) for i in keep)
    gap = len(GAP.format(len(turns))) + 1
    ranked = sorted(range(len(turns) - 1, -1, -1), key=lambda i: worth(turns, i))
    asks = [_asks(turn) for turn in turns]
    for i in [*sorted(pinned), *ranked]:
        # a reply that ends asking is shown with the prompt that answered it, or not at all
        # (alone, its question reads as open): an answer that asks again brings its own
        group = [i]  # walked no further than shows it too long: a flat cost per turn
        while (
            len(group) <= CHAIN_MAX
            and asks[group[-1]]
            and group[-1] + 1 < len(turns)
            and group[-1] + 1 not in keep
        ):
            group.append(group[-1] + 1)
        long_chain = len(group) > CHAIN_MAX
        group = [j for j in group if j not in keep]
        size = sum(lines_size(render(j, 0, True)) for j in group)
        alone = group == [i] and bare(turns[i], render(i, 0, True))
        if not group or alone or long_chain or used + size + gap > budget:
            continue  # a smaller turn worth less may still fit
        keep.update(group)
        used += size
    return sorted(keep), True


def _asks(turn: dict[str, Any]) -> bool:
    """Claude's reply in `turn` ends with a question (what the next prompt answers)."""
    said = sentences(turn.get("last") or turn.get("first") or "")
    return bool(said) and said[-1].endswith("?")


def bare(turn: dict[str, Any], lines: Sequence[str]) -> bool:
    """A turn's `lines` are only its user's words, and they state nothing (`stated`: an "ok", a
    "yes" with no answer of Claude's beside it agrees to what is not shown): not worth a line."""
    alone = all(line.startswith(f"[{turn['n']}] user: ") for line in lines)
    return alone and stated(str(turn.get("prompt") or "")) < STATED_STEP


def newest(
    count: int,
    room: int,
    goal: int,
    top: Callable[[int], int],
    render: Callable[[int, int, bool], list[str]],
) -> tuple[list[int], int]:
    """The turns before the last that the next session continues from, newest first, as
    many as fit `room` as whole as their age allows (`top`) after the goal (the first that
    does not fit too), and the room they and the goal take beyond their shortest (at most
    `room`): shown, with that room kept before the older turns are chosen at their shortest
    (a long session's breadth)."""

    def sizes(i: int) -> tuple[int, int]:  # whole as its age allows, and beyond its shortest
        whole = lines_size(render(i, top(i), False))
        return whole, whole - lines_size(render(i, 0, True))

    recent: list[int] = []
    whole, grown = sizes(goal) if goal < count - 1 else (0, 0)  # the goal grows first
    for i in range(count - 2, -1, -1):
        if whole >= room:
            break
        if i != goal:
            recent.append(i)
            size, more = sizes(i)
            whole, grown = whole + size, grown + more
    return recent, min(grown, room)


def detailed(
    count: int,
    pinned: Sequence[int],
    budget: int,
    top: Callable[[int], int],
    render: Callable[[int, int], list[str]],
    *,
    levels: int,
    recent: int,
) -> list[list[str]]:
    """Each of the `count` turns' lines, at the fullest of its `levels` of detail `budget`
    allows: the last turn whole first (in LAST_SHARE of the room), then the goal and the
    `recent` newest turns as whole as their age allows (`top`, in RECENT_SHARE), then level
    by level, the pinned turns and the newest first (capped by age, then with what room is
    left). `render(i, level)`: each rendered once."""
    goal = pinned[0] if pinned else 0
    newest_first = [count - 1 - age for age in range(count)]
    shown = [0] * count
    rendered = [render(i, 0) for i in range(count)]
    used = sum(lines_size(lines) for lines in rendered)

    def grow(i: int, tops: Iterable[int], limit: int) -> None:
        """Turn `i` at the first level of `tops` that fits in `limit`."""
        nonlocal used
        for level in tops:
            lines = render(i, level)
            if used - lines_size(rendered[i]) + lines_size(lines) <= limit:
                used += lines_size(lines) - lines_size(rendered[i])
                rendered[i], shown[i] = lines, level
                return

    for share, first in ((LAST_SHARE, newest_first[:1]), (RECENT_SHARE, [goal, *newest_first])):
        limit = min(budget, used + int(budget * share))
        for i in first[:recent]:
            grow(i, range(top(i), shown[i], -1), limit)
    order = [*pinned, *[i for i in newest_first if i not in pinned]]
    for level, capped in [(level, cap) for cap in (True, False) for level in range(1, levels)]:
        for i in order:
            if level > shown[i] and not (capped and level > top(i)):
                grow(i, [level], budget)
    return rendered
