"""What a long session's restore shows of its older turns when not all fit: the room a long
turn cannot use goes to shorter ones, never to an "ok" alone."""

from __future__ import annotations

from memhooks.continuity.record_fit import GAP, fitting
from memhooks.text import lines_size


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
