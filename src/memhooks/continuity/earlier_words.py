"""One turn's words as an earlier session's part shows them (continuity/thread_parts.py). Pure.

`user_words`: a prompt cut to a limit, the user's own words first (a log pasted in it gives
way), then what they decide; `answer`: Claude's answer, its final words' first sentence with
what it decided on the way (how it took the user's words: "Let's keep X instead: …") and the
rest of its final words a reader needs most.
`goal_turn`: which turn states an earlier session's goal (not a first question asked aside).
"""

from __future__ import annotations

import re

from memhooks import TYPE_CHECKING
from memhooks.continuity import handover
from memhooks.continuity.excerpt import (
    CUT,
    FILL_MIN,
    PASTE_MARK,
    clip_unit,
    decisions,
    prose,
    select,
    sentences,
    words_first,
)
from memhooks.text.lazy_re import LazyPattern

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

#: Characters of Claude's answer shown beside each of an earlier session's prompts at first.
ANSWER_WORDS = 120
#: A sentence that says no: after a decision, it may take the decision back ("Let's use X.
#: Wait, Y reads it, so I won't."): the two are shown together or not at all.
_NEGATES = LazyPattern(r"n't\b|\b(?:no|not|nor)\b", re.IGNORECASE)


def user_words(prompt: str, limit: int) -> str:
    """A prompt in `limit`: whole, or its own words (`_own_words`: a log pasted in it gives
    way) whole, or what they decide ("leave X alone"), else their head."""
    if len(prompt) <= limit or PASTE_MARK in prompt:
        return words_first(prompt, limit)
    own = _own_words(prompt)
    if len(own) <= limit:
        return words_first(own, limit)
    return decisions(own, limit) or words_first(own, limit)


def _own_words(prompt: str) -> str:
    """The lines of a prompt a person typed (`prose`), each run of the others (output pasted
    in it, too short to have been cut as a paste) one "…"; the prompt as it is when all its
    lines are prose, or none."""
    lines = [line.strip() for line in prompt.splitlines() if line.strip()]
    typed = [prose(line) for line in lines]
    if all(typed) or not any(typed):
        return prompt
    out: list[str] = []
    for line, own in zip(lines, typed, strict=True):
        if own:
            out.append(line)
        elif not out or out[-1] != "…":
            out.append("…")
    return "\n".join(out)


def answer(turn: dict[str, Any], limit: int) -> str:
    """Claude's answer in a turn, in `limit`, in its order: the first sentence of its final
    words (after its last tool call: what came of the turn, not what it set out to do; a
    reply opens with its verdict: "No, it won't fail", "I'd keep it as it is"), and with
    more room what it decided on the way (`_decided`: how it took the user's words, "Let's
    keep X instead: …", ahead of the rest of its final words), then the rest of its final
    words that a reader needs most (`select`)."""
    final = [s for s in sentences(turn.get("last") or turn.get("first") or "") if says(s)]
    if not final:
        return ""
    head = clip_unit(final[0], min(limit, ANSWER_WORDS))
    said = handover.said_text(turn)
    at = said.rfind(final[0])
    before = said[:at].strip() if at > 0 else ""
    after = "\n".join(final[1:])
    room = limit - len(head) - 2 * len(CUT)
    way = _decided(before, room * 2 // 3) if before and room >= 2 * FILL_MIN else ""
    room -= len(way)
    more = select(after, room) if after and room >= FILL_MIN else ""
    pieces = [way, head, more.removeprefix("… ")]
    text = CUT.join(piece for piece in pieces if piece)
    return text + (" …" if after and not more.endswith((final[-1], "…")) else "")


def _decided(text: str, limit: int) -> str:
    """What `text` decides, in `limit`, from its first decision on (a later, shorter one
    never in place of the first): each with what it introduces (a sentence ending in ":"
    goes with the next: "Let's use X instead: one Y per line", and so does one followed by a
    sentence that says no: it may take the decision back, and the two go whole or not at
    all), the first clipped when it does not fit whole, the others while they fit; each gap
    marked "…"."""
    units = sentences(text)
    picked: list[tuple[int, int, str]] = []  # (first unit, last unit, words)
    used = 0
    i = 0
    while i < len(units):
        start, unit, i = i, units[i], i + 1
        if not decisions(unit, len(unit) + len(CUT)):
            continue
        if unit.endswith(":") and i < len(units):  # what a lead-in introduces goes with it
            unit, i = f"{unit} {units[i]}", i + 1
        taken_back = i < len(units) and bool(_NEGATES.search(units[i]))
        if taken_back:  # with the sentence that may reverse it ("Actually, no: …" whole)
            unit, i = f"{unit} {units[i]}", i + 1
            if unit.endswith(":") and i < len(units):
                unit, i = f"{unit} {units[i]}", i + 1
        if used + len(unit) + len(CUT) > limit:
            if not picked and not taken_back:
                picked.append((start, i - 1, clip_unit(unit, limit - len(CUT))))
            break
        picked.append((start, i - 1, unit))
        used += len(unit) + len(CUT)
    out = ""
    after = 0  # the unit after the last one shown
    for start, end, unit in picked:
        gap = CUT if out else "… "
        out += ("" if start == after == 0 else " " if start == after else gap) + unit
        after = end + 1
    return out


def says(sentence: str) -> bool:
    """A sentence that says something: not a code fence's line, not a rule of box-drawing."""
    fence = sentence.startswith("```") and " " not in sentence.strip()
    return not fence and any(c.isalnum() for c in sentence)


def goal_turn(turns: Sequence[dict[str, Any]]) -> int | None:
    """The turn of an earlier session's goal: its first prompt, unless that was a question
    aside (`_aside`: "is there a way to …?", answered from what Claude knew), which is one of
    the user's other words: the room goes to those that state the work."""
    first = next((i for i, turn in enumerate(turns) if turn.get("prompt")), None)
    return None if first is None or _aside(turns[first]) else first


def _aside(turn: dict[str, Any]) -> bool:
    """A question asked aside: the prompt asks ("?"), no tool ran for it (no command, change
    or call between Claude's words: `mid`, `last`) and Claude answered without asking back
    ("Could you add X?" answered "Should Y hold it?" is the work being agreed: the goal)."""
    asks = [
        any(s.endswith("?") for s in sentences(t))
        for t in (turn.get("prompt") or "", handover.said_text(turn))
    ]
    return asks == [True, False] and not any(turn.get(k) for k in ("ran", "changed", "mid", "last"))
