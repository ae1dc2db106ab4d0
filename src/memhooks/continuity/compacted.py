"""What a compacted session is given beside the host's own summary (`after_compaction`), and
the restore rendered later to the room the briefing leaves it (`renderer`). Pure, stdlib only.

The host's summary tells the story; these few lines add what summaries lose: the record's
proofs and the user's own words (those the summary does not quote already), with Claude's
todo list at the turn that wrote it.
"""

from __future__ import annotations

from memhooks import TYPE_CHECKING
from memhooks.continuity import handover
from memhooks.continuity.excerpt import head_tail
from memhooks.continuity.handover import todo_lines, todo_turn
from memhooks.continuity.proofs import proven_section
from memhooks.text import lines_size, one_line

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

#: Characters of each prompt after a compaction (the user's own words, beside the summary).
PROMPT_WORDS_CAP = 220


def _in_summary(prompt: str, summary: str) -> bool:
    words = one_line(prompt).lower()
    return len(words) > 0 and words in one_line(summary).lower()


def after_compaction(state: dict[str, Any], *, summary: str, budget: int) -> str:
    """What the host's summary loses, in a few lines: the record's proofs, and the user's own
    words (those the summary does not quote already) with Claude's todo list at the turn that
    wrote it, oldest first (what the user said after it supersedes it)."""
    proven = proven_section(state)
    parts = [proven] if proven else []
    heading = "## The user's own words, oldest first (later ones supersede earlier ones)"
    prompted = [turn for turn in state.get("turns") or [] if turn["prompt"]]
    lines = [
        (turn["n"], f"[{turn['n']}] {head_tail(turn['prompt'], cap, head_share=0.6)}")
        for i, turn in enumerate(prompted)
        if not _in_summary(turn["prompt"], summary)
        # the first prompt states the goal, which several compactions in a row lose
        for cap in [handover.LEVELS[handover.GOAL_LEVEL][0] if i == 0 else PROMPT_WORDS_CAP]
    ]
    todos = state.get("todos") or []
    if todos:
        at = todo_turn(state)
        note = f"[{at}] Claude's todo list (its own note, as it wrote it then):"
        lines = sorted([*lines, (at + 0.5, "\n".join([note, *todo_lines(todos)]))])
    room = budget - lines_size(parts) - len(heading) - 3
    while lines and lines_size([text for _, text in lines]) > room:
        drop = next((i for i, (n, _) in enumerate(lines[1:], 1) if n % 1 == 0), 0)
        lines.pop(drop)  # the first (the goal), the todo list and the newest stay longest
    if lines:
        parts.append("\n".join([heading, *(text for _, text in lines)]))
    return "\n\n".join(parts)


def renderer(state: dict[str, Any], *, summary: str) -> Callable[[int], str]:
    """The restore after a compaction, rendered later to the room the briefing leaves it:
    what the host's `summary` loses ('' when it is not known yet)."""
    return lambda room: after_compaction(state, summary=summary, budget=room)
