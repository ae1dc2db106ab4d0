"""The restore's caps and orders, as behaviour: what a turn keeps, which checks come first,
how many pointers fit."""

from __future__ import annotations

from memhooks.continuity.briefing import pointers_block, prompt_reminder, session_start
from memhooks.continuity.evidence import PROMPT_CAP, Evidence
from memhooks.continuity.handover import CHECKS_SHOWN, check_lines
from memhooks.continuity.transcript_records import Record, ToolResult, ToolUse
from memhooks.recall.pointer import Pointer
from memhooks.store import HOST_CONTEXT_CAP, Status


def _bash(call_id: str, command: str, *, ok: bool) -> list[Record]:
    return [
        Record(type="assistant", blocks=(ToolUse(call_id, "Bash", {"command": command}),)),
        Record(type="user", blocks=(ToolResult(call_id, is_error=not ok, text="ran"),)),
    ]


def test_a_long_prompt_is_kept_at_most_at_the_cap_with_its_start() -> None:
    words = " ".join(f"word{n}" for n in range(5_000))  # ~45,000 characters, no paste shape
    turn = Evidence().add_all([Record(type="user", text=words)]).state["turns"][-1]
    assert len(turn["prompt"]) <= PROMPT_CAP
    assert turn["prompt"].startswith("word0 word1 word2")
    assert len(turn["prompt"]) > PROMPT_CAP // 2  # cut near the cap, not to a stub


def test_checks_are_listed_newest_first_and_capped() -> None:
    records = [Record(type="user", text="run every suite")]
    for n in range(CHECKS_SHOWN + 4):
        records += _bash(str(n), f"pytest tests/suite{n:02d}", ok=True)
    lines = check_lines(Evidence().add_all(records).state)
    assert len(lines) == CHECKS_SHOWN
    newest = CHECKS_SHOWN + 3
    assert f"suite{newest:02d}" in lines[0]
    assert f"suite{newest - 1:02d}" in lines[1]
    assert not any("suite00" in line for line in lines)  # the oldest are the ones left out


def test_pointers_never_pass_their_budget() -> None:
    pointers = [
        Pointer(f"decisions/choice-{n}.md", f"Choice {n}", "why we chose it " * 3)
        for n in range(20)
    ]
    for budget in (80, 200, 500, 1_000):
        block = pointers_block(pointers, budget, "Lead:")
        assert len(block) <= budget, budget
        if block:
            assert block.count("\n") >= 1
    two = pointers_block(pointers, 200, "Lead:")
    assert "choice-0.md" in two  # the best first
    assert "choice-19.md" not in two


def test_the_prompt_reminder_stays_within_its_budget() -> None:
    pointers = [Pointer(f"runbooks/r{n}.md", f"Runbook {n}", "steps " * 20) for n in range(30)]
    for budget in (300, 700, 1_500, 20_000):
        text = prompt_reminder(status=None, pointers=pointers, budget=budget)
        assert len(text) <= min(budget, 10_000), budget
    assert "r0.md" in prompt_reminder(status=None, pointers=pointers, budget=1_500)


def test_a_restore_longer_than_its_room_is_cut_inside_its_frame() -> None:
    """The renderer is given a room; one that returns more (the 30,000 characters here reach
    the frame's cut, which a renderer keeping to its room never does) is still cut to it,
    the frame closed, the whole briefing within the host's cap."""
    long = "\n".join(f"- step {n}: wired the slug cache into build.py" for n in range(700))
    for budget in (2_000, 9_000, 10**6):
        text = session_start(
            session_id="s",
            status=Status(task="Ship the slugs"),
            handover=lambda _room: long,
            handover_title="This session's restore:",
            handover_source="restore",
            index="## Decisions\n- [Use SQLite](decisions/use-sqlite.md) — cache store\n",
            budget=budget,
        )
        assert len(text) <= min(budget, HOST_CONTEXT_CAP), budget
        assert "- step 0:" in text
        assert "characters of the restore not shown" in text
        assert text.count("</memhooks-data>") == text.count('<memhooks-data source="')
