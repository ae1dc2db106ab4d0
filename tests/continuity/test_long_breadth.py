"""What a long session's restore shows of its older turns when not all fit: the room a long
turn cannot use goes to shorter ones, never to an "ok" alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from memhooks.continuity.record_fit import GAP, fitting
from memhooks.text import lines_size

Render = Callable[[int, int, bool], list[str]]


def _two_lines(turns: list[dict[str, Any]]) -> tuple[Render, list[int], int]:
    """Each turn rendered as its prompt's first 100 characters and a line of Claude's, their
    sizes at the shortest, and a gap line's size."""

    def render(i: int, level: int, hard: bool) -> list[str]:
        return [f"[{i + 1}] user: {turns[i]['prompt'][:100]}", f"[{i + 1}] Claude: {i}"]

    size = [lines_size(render(i, 0, True)) for i in range(len(turns))]
    return render, size, len(GAP.format(len(turns))) + 1


def test_a_turn_too_long_for_the_room_left_leaves_it_to_a_shorter_one() -> None:
    """Not all turns fit at their shortest: one that does not fit no longer ends the choice;
    a shorter turn worth less (a bare answer with Claude's reading of it) takes the room
    left, an "ok" shown alone (no answer beside it) does not."""
    long_prompt = "The depot leads agreed the trucks load in the order of their routes. " * 4
    prompts = ["plan the loading", "the second", "ok", long_prompt, long_prompt, long_prompt]
    turns = [{"n": n + 1, "prompt": p} for n, p in enumerate(prompts)]

    def render(i: int, level: int, hard: bool) -> list[str]:
        lines = [f"[{i + 1}] user: {turns[i]['prompt'][:200]}"]
        return lines + (["[2] Claude: Blue pallets it is."] if i == 1 else [])

    kept, hard = fitting(turns, {0}, 600, render)
    assert hard
    assert kept == [0, 1, 4, 5]  # the newest two long ones, then the bare answer; not "ok"
    sizes = [lines_size(render(i, 0, True)) for i in range(len(turns))]
    room_for_ok = sizes[0] + sum(sizes[3:]) + sizes[2] + len(GAP.format(9)) + 1
    assert fitting(turns, {0}, room_for_ok, render)[0] == [0, 3, 4, 5]  # "ok" fits, not shown


def test_a_reply_that_asks_is_shown_with_the_prompt_that_answered_it() -> None:
    """Claude's closing question shown without the next prompt reads as still open: the two
    are shown together, or the question is not shown (a pinned one brings its answer)."""
    prose = "The kiln logs say the glaze cracked again on the top shelf overnight. " * 3
    turns = [
        {"n": 1, "prompt": "sort out the kiln schedule", "last": "Done. Shall I fire it now?"},
        {"n": 2, "prompt": "fire it", "last": "Fired at 04:00."},
        {"n": 3, "prompt": prose, "last": "Moved the glaze tests. Want me to log them?"},
        {"n": 4, "prompt": "no, skip the log", "last": "Skipped."},
        {"n": 5, "prompt": "thanks", "last": "Any time."},
        {"n": 6, "prompt": prose, "last": "Noted."},
    ]

    render, size, gap = _two_lines(turns)
    # the pinned first turn with its answer, and room for turn 3 alone, not with its answer
    room = size[0] + size[1] + size[2] + size[5] + gap
    kept, hard = fitting(turns, {0, 5}, room, render)
    assert hard
    assert 2 not in kept  # turn 3 asks: without turn 4 it is not shown
    assert kept == [0, 1, 3, 4, 5]  # its room went to the shorter ones
    room += size[3] + size[4]
    assert fitting(turns, {0, 5}, room, render)[0] == list(range(6))


def test_an_answer_that_asks_again_brings_its_own_answer() -> None:
    """A chain of questions (Claude asks, the user answers, Claude asks again): the turns are
    shown up to the prompt that answered the last question, or the first of them is not."""
    ruling = "The lab agreed that samples are labelled by the freezer shelf they sit on. " * 2
    turns = [
        {"n": 1, "prompt": "set up the sample labels", "last": "Set up."},
        {"n": 2, "prompt": ruling, "last": "Labelled. Print them now?"},
        {"n": 3, "prompt": "yes, on the small printer", "last": "Printed. Archive the old ones?"},
        {"n": 4, "prompt": "no", "last": "Kept."},
        {"n": 5, "prompt": "what is the weather like on the coast tomorrow", "last": "No idea."},
        {"n": 6, "prompt": "done for today", "last": "Bye."},
    ]

    render, size, gap = _two_lines(turns)
    chain = size[1] + size[2] + size[3]
    kept, _ = fitting(turns, {0, 5}, size[0] + size[5] + chain + gap, render)
    assert kept == [0, 1, 2, 3, 5]  # turn 3's question with turn 4's "no"
    kept, _ = fitting(turns, {0, 5}, size[0] + size[5] + chain - 1 + gap, render)
    # the chain from turn 2 does not fit: turn 2 is not shown (its question would hang
    # over turn 3 left out), turn 3's question with turn 4's "no" is
    assert kept == [0, 2, 3, 4, 5]


def test_a_long_chain_of_questions_is_not_pulled_in() -> None:
    """A turn whose answers each ask again: past CHAIN_MAX turns the chain's first turn is
    not shown (however well it ranks), and its room goes to the other turns."""
    ruling = "The crew agreed to stack the crates by their port of call, heaviest first. " * 3
    turns = [
        {"n": 1, "prompt": "plan the hold", "last": "Planned."},
        {"n": 2, "prompt": ruling, "last": "Stacked. Lash them too?"},
        *({"n": n, "prompt": f"yes, row {n}", "last": "Done. Next row?"} for n in (3, 4, 5)),
        {"n": 6, "prompt": "The harbour master wants the manifest by noon.", "last": "Sent."},
        {"n": 7, "prompt": "thanks", "last": "Any time."},
        {"n": 8, "prompt": "that is all", "last": "Bye."},
    ]

    render, size, gap = _two_lines(turns)
    room = sum(size) - size[6] + gap  # the chain from turn 2 would fit, not turn 7 beside it
    kept, hard = fitting(turns, {0, 7}, room, render)
    assert hard
    assert kept == [0, 2, 3, 4, 5, 6, 7]  # turn 2's chain runs to turn 6: five turns
