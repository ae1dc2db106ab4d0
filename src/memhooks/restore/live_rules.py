# Copyright (c) 2025 memhooks developers. Licensed under the MIT License.
"""The sentence rules of the live-state replay: what decides, settles, passes, fails,
asks or proposes; and how a new decision retires older ones. Pure, stdlib only."""

from __future__ import annotations

from memhooks.restore import cues, decision_cues, session_text
from memhooks.restore.live_items import DECISION, Item
from memhooks.text import one_line

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs the hooks ms
if TYPE_CHECKING:
    from collections.abc import Callable

    Link = Callable[[set[str], set[str]], float]

RARE_LINK = 2.0  # summed rarity of shared words that ties two sentences together
REJECT_LINK = 1.0  # a user's rejection of the reply just before it needs less
SHORT_BLOCKER = 80  # characters: a blocker sentence this short takes the next one along
PROPOSAL_MIN = 60  # characters of substance that make a paragraph a proposal
MIN_SHARED = 2  # words a turned-down alternative must share with a decision it retires


def add_decision(item: Item, items: list[Item], link: Link) -> None:
    """A new decision retires a duplicate, the ones naming what it turned down, and the one
    closest to what it replaces."""
    live = [o for o in items if o.kind == DECISION and o.status == "open"]
    for other in live:
        if other.text == item.text:
            other.status = "duplicate"
    for other in live if item.rejected else ():
        if (
            other.status == "open"
            and not item.rejected.isdisjoint(other.words)
            and covers(item.rejected, other.words, link)
        ):
            other.status = "superseded"
    if item.replaces:
        closest = max(live, key=lambda o: link(item.replaces, o.words), default=None)
        # The user saying "let's not …, use B instead" is explicit: a weaker tie will do.
        needed = REJECT_LINK if item.from_user else RARE_LINK
        if closest and link(item.replaces, closest.words) >= needed:
            closest.status = "superseded"


def plan_items(lines: list[str]) -> list[str]:
    """The numbered or bulleted lines right under a "Plan:" heading."""
    items: list[str] = []
    for line in lines:
        if not line.strip():
            if items:
                break
            continue
        item = cues.PLAN_ITEM.match(line)
        if item is None:
            break
        items.append(one_line(item.group(1)))
    return items


def goal_without(goal: str, settled: list[str]) -> str:
    """The first request whole, but for what it said that is settled since (a blocker it
    mentioned that was resolved): that is listed with the settled items instead."""
    if not settled:
        return goal
    kept = [
        sentence
        for sentence in session_text.sentences(goal, from_user=True)
        if not any(one_line(sentence) in text for text in settled)
    ]
    return " ".join(kept) + " [part settled since: see below]"


def unlabelled(step: str) -> str:
    """ "Next: do X" and a status line "- Next: do X" are the same step."""
    match = cues.STATUS_LABEL.match(step)
    return one_line(match.group(2)) if match else step


def reports_failure(sentence: str, toks: frozenset[str]) -> bool:
    return bool(cues.USER_FAILURE.search(sentence, toks)) and not (
        cues.INTENDED_FAILURE.search(sentence, toks) or "?" in sentence or passes(sentence, toks)
    )


def passes(sentence: str, toks: frozenset[str]) -> bool:
    match = cues.PASSES.search(sentence, toks)
    if match is None or cues.CONDITIONAL.search(sentence):
        return False
    before = sentence[: match.start()].lower().split()[-2:]
    return not any(
        word in ("not", "never", "no", "still") or word.endswith("n't") for word in before
    )


def settles(sentence: str, toks: frozenset[str]) -> bool:
    """Says a blocker is gone; a sentence still saying "blocked" is one, unless "no longer"."""
    if not cues.says_resolved(sentence, toks):
        return False
    lowered = sentence.lower()
    blocked = cues.BLOCKED.search(sentence, toks) is not None
    return not blocked or "no longer" in lowered or "unblocked" in lowered


def is_decision(sentence: str, toks: frozenset[str]) -> bool:
    strong = decision_cues.DECISION_STRONG.search(sentence, toks) is not None
    if not strong and not (
        decision_cues.CHOICE.search(sentence, toks)
        and decision_cues.DECISION_WEAK.search(sentence, toks)
    ):
        return False
    return not (
        # "Before I build that, one question, because …" decides nothing, nor does a step.
        sentence.endswith("?")
        or decision_cues.SUBORDINATE.match(sentence)
        or decision_cues.STEP_TALK.search(sentence, toks)
    )


def covers(rejected: set[str], words: set[str], link: Link) -> bool:
    """A decision names the alternative a later one turned down: most of its words, rare."""
    shared = rejected & words
    return len(shared) >= min(MIN_SHARED, len(rejected)) and link(rejected, words) >= RARE_LINK


def questions(reply: str) -> list[str]:
    """What Claude asked at the end of its reply, with the options it offered."""
    tail = session_text.paragraphs(reply)[-3:]
    found: list[str] = []
    for paragraph in tail:
        found += [one_line(line) for line in paragraph.splitlines() if cues.OPTION.match(line)]
        found += [
            one_line(sentence)
            for sentence in session_text.sentences(paragraph, from_user=False)
            if sentence.endswith("?") or cues.WAITING.search(sentence)
        ]
    asked = any(text.endswith("?") for text in found)
    return list(dict.fromkeys(found)) if asked or any(cues.WAITING.search(t) for t in found) else []


def proposal(replies: list[str]) -> str:
    """The proposal the user just said yes to: the last paragraph of substance before the
    question that asked for it."""
    if not replies:
        return ""
    for paragraph in reversed(session_text.paragraphs(replies[-1])):
        kept = [
            s for s in session_text.sentences(paragraph, from_user=False) if not s.endswith("?")
        ]
        text = " ".join(kept)
        if len(text) >= PROPOSAL_MIN:
            return one_line(text)
    return ""
