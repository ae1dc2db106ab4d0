"""An earlier session's part is rendered a few times at most, whatever its renders do."""

from __future__ import annotations

from typing import Any

import pytest

from memhooks.continuity import handover, thread_parts
from memhooks.continuity.evidence import new_state


def test_an_earlier_part_that_shrinks_slowly_is_rendered_a_few_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A render whose text shrinks by one character for every eight taken off its room
    (its words cut in steps) and whose headings grow once marked as an earlier session's:
    stepping the room down by the overflow alone took dozens of renders."""
    renders: list[int] = []
    asked = [0]

    def render(_state: dict[str, Any], *, budget: int, **_: object) -> str:
        renders.append(budget)
        size = asked[0] + (budget - asked[0]) // 8  # the room asked for, or near it
        return "\n".join(["## Where the work stood", *["x" * (size // 20)] * 20])

    monkeypatch.setattr(handover, "next_session", render)
    for budget in range(700, 1200, 37):
        renders.clear()
        asked[0] = budget
        part = thread_parts.earlier_part(new_state("s"), budget)
        assert len(part) <= budget
        assert part.startswith("## Where the work stood" + thread_parts.EARLIER_MARK)
        assert len(renders) <= 5, (budget, len(renders))


def test_an_earlier_part_that_still_overflows_sheds_a_turn_that_says_least(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its words fill in steps: a render a few characters over the room in every room its
    renders try. What goes is a whole turn whose user's words state least (a go-ahead), not
    an older constraint, and never its first or its last turn."""
    said = [
        handover.RECORD_HEADING,
        "[1] user: " + "the goal of the work. " * 5,
        "[1] Claude: the approach to it.",
        "[2] user: never touch the generated folder, a job rewrites it every night.",
        "[2] Claude: noted, the generated folder stays as it is.",
        "[3] user: ok go",
        "[3] Claude: " + "going on with the next step of the plan. " * 3,
        "[4] user: the last request",
        "[4] Claude: the last answer, with its question?",
    ]

    def render(_state: dict[str, Any], *, budget: int, **_: object) -> str:
        return "\n".join(said)

    monkeypatch.setattr(handover, "next_session", render)
    budget = len("\n".join(said)) - 5
    part = thread_parts.earlier_part(new_state("s"), budget)
    assert len(part) <= budget
    assert part.endswith("[4] Claude: the last answer, with its question?")
    assert "the goal of the work." in part
    assert "never touch the generated folder" in part
    assert "[3] user: ok go" not in part
    assert "[… 1 more turn not shown]" in part


def test_a_short_ruling_outlasts_longer_chatter_when_turns_are_shed() -> None:
    """A turn shed is the one whose user's words state least: a short ruling (words that
    decide, or an answer given in Claude's question tool) stays, and the longer prose of a
    turn that only goes on goes first."""
    lines = [
        handover.RECORD_HEADING,
        "[1] user: Port the billing report to the new template engine.",
        "[1] Claude: Starting with the header block.",
        "[2] user: don't round the totals, auditors compare them to the cent.",
        "[2] Claude: Totals are left unrounded.",
        f'[3] {handover.TOLD_LABEL} "Which currency sign?"="Euro"',
        "[3] Claude: The sign is the euro's.",
        "[4] user: looks good to me so far, carry on with the footer block the same way please.",
        "[4] Claude: Footer moved.",
        "[5] user: the last request",
        "[5] Claude: the last answer",
    ]
    kept = "\n".join(thread_parts._shed(lines, len("\n".join(lines)) - 40))
    assert "don't round the totals" in kept
    assert '"Which currency sign?"="Euro"' in kept
    assert "carry on with the footer block" not in kept
