"""The restore's caps and orders, as behaviour: what a turn keeps, which checks come first,
how many pointers fit."""

from __future__ import annotations

from memhooks.continuity import checks
from memhooks.continuity.briefing import pointers_block, prompt_reminder, session_start
from memhooks.continuity.compacted import after_compaction
from memhooks.continuity.evidence import (
    FULL_TURNS,
    MAX_CHECKS,
    MAX_FILES,
    MAX_PENDING,
    MAX_RUNS,
    MAX_TURNS,
    OLD_PROMPT,
    OLD_RUNS,
    PROMPT_CAP,
    Evidence,
)
from memhooks.continuity.excerpt import ERROR_LINES, head_tail, trim_paste
from memhooks.continuity.handover import RUNS_SHOWN, turn_lines
from memhooks.continuity.host_summary import HOST_SUMMARY_CAP, summary_text
from memhooks.continuity.journal_entry import render_journal_entry
from memhooks.continuity.proofs import (
    CHECKS_SHOWN,
    COMMITS_SHOWN,
    FILES_SHOWN,
    check_lines,
    file_lines,
    git_lines,
    unanswered_question,
)
from memhooks.continuity.transcript_records import Record, TextBlock, ToolResult, ToolUse
from memhooks.recall.pointer import Pointer
from memhooks.store import HOST_CONTEXT_CAP, Settings, Status


def _bash(call_id: str, command: str, *, ok: bool) -> list[Record]:
    return [
        Record(type="assistant", blocks=(ToolUse(call_id, "Bash", {"command": command}),)),
        Record(type="user", blocks=(ToolResult(call_id, is_error=not ok, text="ran"),)),
    ]


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


def _said(text: str) -> Record:
    return Record(type="assistant", blocks=(TextBlock(text),))


def _prompts(count: int) -> list[Record]:
    return [Record(type="user", text=f"prompt number {n}") for n in range(count)]


def test_a_kept_prompt_fits_a_session_start_briefing_and_its_cap() -> None:
    words = " ".join(f"word{n}" for n in range(5_000))
    turn = Evidence().add_all([Record(type="user", text=words)]).state["turns"][-1]
    assert len(turn["prompt"]) < Settings().session_start_chars
    assert len(turn["prompt"]) <= PROMPT_CAP
    assert turn["prompt"].startswith("word0 word1 word2")
    assert len(turn["prompt"]) > PROMPT_CAP // 2  # cut near the cap, not to a stub


def test_turns_keep_the_goal_and_the_newest() -> None:
    turns = Evidence().add_all(_prompts(MAX_TURNS + 50)).state["turns"]
    assert len(turns) == MAX_TURNS
    assert turns[0]["prompt"] == "prompt number 0"  # the goal stays
    assert turns[-1]["prompt"] == f"prompt number {MAX_TURNS + 49}"
    assert turns[1]["prompt"] == "prompt number 51"  # the oldest after the goal went


def test_a_prompt_is_known_only_among_the_latest_turns() -> None:
    evidence = Evidence().add_all(_prompts(12))
    assert evidence.known_prompt("prompt number 11")
    assert not evidence.known_prompt("prompt number 0")


def test_a_turn_keeps_claudes_first_last_and_every_middle_word_folded() -> None:
    records = [Record(type="user", text="go"), *(_said(f"text {n}.") for n in range(8))]
    turn = Evidence().add_all(records).state["turns"][-1]
    assert turn["first"] == "text 0."
    assert turn["last"] == "text 7."
    middle = " ".join(turn["mid"])
    assert all(f"text {n}." in middle for n in range(1, 7))  # folded, none dropped
    assert middle.index("text 1.") < middle.index("text 6.")  # in the order said


def test_a_turn_keeps_its_newest_runs() -> None:
    records = [Record(type="user", text="run them all")]
    for n in range(MAX_RUNS + 5):
        records += _bash(str(n), f"pytest tests/case{n:02d}", ok=True)
    ran = Evidence().add_all(records).state["turns"][-1]["ran"]
    assert len(ran) == MAX_RUNS
    assert "case05" in ran[0]["cmd"]
    assert f"case{MAX_RUNS + 4:02d}" in ran[-1]["cmd"]


def test_an_old_turn_is_shortened_to_its_newest_runs() -> None:
    records = [Record(type="user", text="the goal"), Record(type="user", text="x" * 5_000)]
    for n in range(OLD_RUNS + 4):
        records += _bash(f"r{n}", f"make step{n:02d}", ok=True)
    records += _prompts(FULL_TURNS + 2)
    old = Evidence().add_all(records).state["turns"][1]
    assert len(old["prompt"]) <= OLD_PROMPT
    assert len(old["ran"]) == OLD_RUNS
    assert f"step{OLD_RUNS + 3:02d}" in old["ran"][-1]["cmd"]
    assert "step00" not in str(old["ran"])


def test_checks_files_and_pending_calls_are_capped_keeping_the_newest() -> None:
    records = [Record(type="user", text="everything")]
    for n in range(MAX_CHECKS + 5):
        records += _bash(f"c{n}", f"pytest tests/t{n:03d}", ok=True)
    for n in range(MAX_FILES + 5):
        use = ToolUse(f"f{n}", "Edit", {"file_path": f"/p/src/f{n:03d}.py"})
        records += [
            Record(type="assistant", cwd="/p", blocks=(use,)),
            Record(type="user", blocks=(ToolResult(f"f{n}", is_error=False),)),
        ]
    for n in range(MAX_PENDING + 5):  # calls whose results never came
        use = ToolUse(f"p{n}", "Bash", {"command": f"sleep {n}"})
        records.append(Record(type="assistant", blocks=(use,)))
    state = Evidence().add_all(records).state
    assert len(state["checks"]) <= MAX_CHECKS
    assert not any("t000" in c["cmd"] for c in state["checks"].values())
    assert any(f"t{MAX_CHECKS + 4:03d}" in c["cmd"] for c in state["checks"].values())
    assert len(state["files"]) == MAX_FILES
    assert "src/f000.py" not in state["files"]
    assert f"src/f{MAX_FILES + 4:03d}.py" in state["files"]
    assert len(state["pending"]) == MAX_PENDING


def test_the_hosts_summary_is_cut_with_a_note() -> None:
    long = "The team chose SQLite. " * 1_000
    text = summary_text(f"<summary>{long}</summary>")
    assert len(text) < len(long)
    assert text.startswith("The team chose SQLite.")
    assert "more chars cut]" in text
    assert len(text) <= HOST_SUMMARY_CAP + 40


def test_the_prompt_reminder_cuts_at_a_whole_pointer_not_inside_its_frame() -> None:
    pointers = [Pointer(f"runbooks/r{n}.md", f"Runbook {n}", "steps " * 20) for n in range(30)]
    for budget in range(400, 3_000, 7):  # every place the last pointer line can fall
        text = prompt_reminder(status=None, pointers=pointers, budget=budget)
        assert "not shown" not in text, budget  # pointers were chosen to fit the frame
        assert text.rstrip().endswith("</memhooks-data>")


def test_the_open_question_is_claudes_last_questions() -> None:
    reply = "Done. " + " ".join(f"Question {n}?" for n in range(5))
    state = Evidence().add_all([Record(type="user", text="go"), _said(reply)]).state
    assert unanswered_question(state) == "Question 2? Question 3? Question 4?"


def _edited(count: int) -> list[Record]:
    records = [Record(type="user", text="edit everything")]
    for n in range(count):
        use = ToolUse(f"e{n}", "Edit", {"file_path": f"/p/src/m{n:03d}.py"})
        records += [
            Record(type="assistant", cwd="/p", blocks=(use,)),
            Record(type="user", blocks=(ToolResult(f"e{n}", is_error=False),)),
        ]
    return records


def test_the_restore_names_the_latest_files_and_how_many_more() -> None:
    lines = file_lines(Evidence().add_all(_edited(FILES_SHOWN + 3)).state)
    text = "\n".join(lines)
    assert f"src/m{FILES_SHOWN + 2:03d}.py" in text
    assert "src/m000.py" not in text
    assert "(+3 more)" in text


def test_the_restore_lists_at_most_the_first_commits_with_a_count() -> None:
    commits = [f"c{n:02d} change {n}" for n in range(COMMITS_SHOWN + 4)]
    text = "\n".join(git_lines({"changed": {}, "commits": commits}, []))
    assert "c00 change 0" in text
    assert f"c{COMMITS_SHOWN:02d}" not in text
    assert "(+4 more)" in text


def test_a_turn_shows_its_latest_runs() -> None:
    turn = {"ran": [{"cmd": f"make t{n:02d}", "ok": True} for n in range(RUNS_SHOWN + 3)]}
    lines = "\n".join(
        turn_lines(
            {**turn, "n": 1, "prompt": "go", "first": "", "mid": [], "last": "", "at": ""}, 4
        )
    )
    assert f"t{RUNS_SHOWN + 2:02d}" in lines
    assert "t00" not in lines


def test_after_a_compaction_the_goal_and_the_newest_words_stay() -> None:
    records = [Record(type="user", text=f"request {n}: " + "detail " * 30) for n in range(40)]
    state = Evidence().add_all(records).state
    text = after_compaction(state, summary="", budget=1_500)
    assert "request 0:" in text  # the goal
    assert "request 39:" in text  # the newest
    assert "request 1:" not in text
    assert len(text) <= 1_500


def test_the_journal_lists_the_latest_files_and_failures() -> None:
    records = _edited(12)
    for n in range(6):
        records += _bash(f"f{n}", f"pytest tests/fail{n}", ok=False)
    entry = render_journal_entry(records, last_assistant_message=None, when="2026-11-29")
    assert "src/m011.py" in entry
    assert "src/m000.py" not in entry
    assert "more)" in entry
    assert "fail5" in entry
    assert "fail0" not in entry


def test_the_journal_counts_a_single_file_left_out() -> None:
    entry = render_journal_entry(_edited(9), last_assistant_message=None, when="2026-11-29")
    assert "(+1 more)" in entry


def test_a_failures_line_is_the_last_when_none_says_error_and_is_clipped() -> None:
    assert checks.error_line("collecting\nrunning 3 tests\n3 tests ran, 1 broke") == (
        "3 tests ran, 1 broke"
    )
    long = checks.error_line("step\n" + "x" * 1_000)
    assert len(long) <= checks.ERROR_LIMIT + 1


def test_a_checks_target_is_its_last_command() -> None:
    found = checks.target("npm install && pytest -q tests/unit")
    assert found is not None
    assert found[0].split(" && ")[-1].startswith("pytest")


def test_head_tail_never_passes_its_limit() -> None:
    text = " ".join(f"Sentence number {n} is here." for n in range(40))
    for limit in (50, 120, 400, len(text) - 1):
        assert len(head_tail(text, limit)) <= limit, limit
    assert head_tail(text, len(text)) == text


def test_a_paste_keeps_at_most_its_error_lines_the_first_kinds() -> None:
    kinds = ["Value", "Type", "Key", "Index", "Name", "Lookup", "Runtime", "Attribute"]
    assert len(kinds) > ERROR_LINES
    lines = ["$ ./run-checks --all"]
    for i, kind in enumerate(kinds):
        lines.append(f"E   {kind}Error: 0x{i:02x} != 0x{i + 1:02x}")
        lines += [f"  0x{n:04x} 0x{n * 7:04x} 0x{n * 13:04x}" for n in range(6)]
    lines += ["== 8 failed ==", "exit 1", "done"]
    trimmed = trim_paste("\n".join(lines))
    assert [k for k in kinds if f"{k}Error" in trimmed] == kinds[:ERROR_LINES]
