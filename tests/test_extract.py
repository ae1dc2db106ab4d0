"""Facts from transcripts: the real sessions' facts.json, todo tools, failures, filters."""

from __future__ import annotations

import json
from typing import Any

import pytest

from memhooks.restore.extract import extract_facts
from memhooks.restore.facts import FailedCommand, SessionFacts, Todo
from memhooks.restore.statements import find_blockers, find_decisions, first_error_line
from memhooks.restore.transcript import iter_records
from memhooks.restore.transcript_records import Record, TextBlock, ToolResult, ToolUse
from support import FIXTURES

TRANSCRIPTS = FIXTURES / "transcripts"
SESSIONS = sorted(p.name for p in TRANSCRIPTS.glob("*/")) if TRANSCRIPTS.is_dir() else []
FILES = ["transcript_at_precompact.jsonl", "transcript.jsonl"]


def _facts_json(session: str) -> dict[str, Any]:
    return json.loads((TRANSCRIPTS / session / "facts.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("session", SESSIONS)
def test_every_fact_is_extracted(session: str, name: str) -> None:
    expected = _facts_json(session)
    facts = extract_facts(iter_records(TRANSCRIPTS / session / name))
    assert facts.task == expected["task"]
    assert facts.todos == tuple(Todo(t["content"], t["status"]) for t in expected["todos"])
    assert set(expected["files_written"]) <= set(facts.files_written)
    assert set(expected["files_edited"]) <= set(facts.files_edited)
    assert set(expected["failed_commands"]) <= {f.command for f in facts.failed_commands}
    assert all(f.error for f in facts.failed_commands)
    assert set(expected["decisions"]) <= set(facts.decisions)
    assert set(expected["blockers"]) <= set(facts.blockers)
    assert expected["last_assistant_message"] in (
        facts.last_assistant_message,
        *facts.earlier_replies,
    )


@pytest.mark.parametrize("session", SESSIONS)
def test_precompact_snapshot_has_no_compaction_and_the_last_reply(session: str) -> None:
    expected = _facts_json(session)
    facts = extract_facts(iter_records(TRANSCRIPTS / session / "transcript_at_precompact.jsonl"))
    assert facts.compactions == 0
    assert facts.last_assistant_message == expected["last_assistant_message"]
    assert list(facts.prompts) == expected["details"]["user_prompts"][-len(facts.prompts) :]


def test_full_transcript_after_auto_compaction_reports_the_newest_reply() -> None:
    expected = _facts_json("a2-invoice-config")
    facts = extract_facts(iter_records(TRANSCRIPTS / "a2-invoice-config" / "transcript.jsonl"))
    assert facts.compactions == 1
    assert (
        facts.last_assistant_message
        == expected["details"]["last_assistant_message_after_compaction"]
    )
    assert facts.earlier_replies[0] == expected["last_assistant_message"]


def test_failed_command_error_lines() -> None:
    assert first_error_line(
        'Exit code 1\nTraceback (most recent call last):\n  File "m.py", line 3\n'
        "sqlite3.OperationalError: no such column: due"
    ) == ("sqlite3.OperationalError: no such column: due", 1)
    assert first_error_line("Exit code 1\nok 1 - a\nnot ok 2 - b fails\n  error: 'x'") == (
        "not ok 2 - b fails",
        1,
    )
    assert first_error_line("Exit code 1\nError: Invalid configuration:\n- X is required") == (
        "Error: Invalid configuration: - X is required",
        1,
    )
    assert first_error_line("Exit code 127\n/bin/sh: foo: command not found") == (
        "/bin/sh: foo: command not found",
        127,
    )
    assert first_error_line("") == ("", None)


def test_decisions_and_blockers_from_text() -> None:
    text = (
        "Looked at it.\n\n**Decision:** use SQLite, because it is there.\n"
        "- decision: keep the API stable\nWe decided to drop Python 3.8. Next up is docs.\n"
        "The product decision about zones is open."
    )
    assert find_decisions(text) == [
        "use SQLite, because it is there.",
        "keep the API stable",
        "We decided to drop Python 3.8.",
    ]
    prompt = "Heads up: I'm blocked on the token. Meanwhile, do X.\nBlocker: CI is down"
    assert find_blockers(prompt, from_user=True) == [
        "Heads up: I'm blocked on the token.",
        "CI is down",
    ]
    restated = "I marked the deploy as blocked on the token. I'm still blocked by review."
    assert find_blockers(restated, from_user=False) == ["I'm still blocked by review."]


def _user(text: str | None = None, *, blocks: tuple[Any, ...] = (), **flags: Any) -> Record:
    return Record(type="user", text=text, blocks=blocks, cwd="/p", **flags)


def _assistant(*blocks: Any) -> Record:
    return Record(type="assistant", blocks=blocks, cwd="/p")


def test_prompt_filter() -> None:
    records = [
        _user("real one"),
        _user("<command-name>/compact</command-name>"),
        _user("<local-command-stdout>Compacted</local-command-stdout>"),
        _user("<task-notification>agent done</task-notification>"),
        _user("caveat", is_meta=True),
        _user("This session is being continued", is_compact_summary=True),
        _user("visible only", is_visible_in_transcript_only=True),
        _user("side", is_sidechain=True),
        _user("tool output", has_tool_use_result=True),
        _user(blocks=(TextBlock("text-block prompt"),)),
        _user("   "),
        _user("with reminder <system-reminder>ignore me</system-reminder>"),
    ]
    facts = extract_facts(records)
    assert facts.prompts == ("real one", "text-block prompt", "with reminder")


def test_extra_prompts_fill_the_gap_without_repeats() -> None:
    facts = extract_facts(
        [_user("first"), _user("second")],
        extra_prompts=["second", "third", "<task-notification>x</task-notification>"],
        custom_instructions="  focus on the tests ",
    )
    assert facts.prompts == ("first", "second", "third")
    assert facts.task == "third"
    assert facts.custom_instructions == "focus on the tests"


def test_task_tools_build_the_todo_list() -> None:
    records = [
        _assistant(
            ToolUse("c1", "TaskCreate", {"subject": "Write parser", "description": "JSONL"})
        ),
        _user(blocks=(ToolResult("c1", is_error=False, text="Task #1 created successfully"),)),
        _assistant(ToolUse("c2", "TaskCreate", {"subject": "Test parser"})),
        _user(blocks=(ToolResult("c2", is_error=False, text="Task #2 created successfully"),)),
        _assistant(ToolUse("c3", "TaskCreate", {"subject": "Never made"})),
        _user(blocks=(ToolResult("c3", is_error=True, text="validation failed"),)),
        _assistant(ToolUse("c4", "TaskCreate", {"subject": "Docs"})),
        _user(blocks=(ToolResult("c4", is_error=False, text="Task #9 created successfully"),)),
        _assistant(ToolUse("u1", "TaskUpdate", {"taskId": "1", "status": "completed"})),
        _assistant(ToolUse("u2", "TaskUpdate", {"taskId": 2, "status": "in_progress"})),
        _assistant(ToolUse("u3", "TaskUpdate", {"taskId": "9", "status": "deleted"})),
        _assistant(ToolUse("u4", "TaskUpdate", {"taskId": "2", "status": "completed"})),
        _user(blocks=(ToolResult("u4", is_error=True, text="no"),)),
        _assistant(ToolUse("u5", "TaskUpdate", {"taskId": "42", "status": "pending"})),
        _assistant(ToolUse("u6", "TaskUpdate", {"status": "completed"})),
        _assistant(ToolUse("c5", "TaskCreate", {"subject": 5})),
    ]
    facts = extract_facts(records)
    assert facts.todos == (
        Todo("Write parser", "completed", "JSONL"),
        Todo("Test parser", "in_progress"),
        Todo("Task #42", "pending"),
    )


def test_latest_todo_tool_wins_and_failed_todowrite_is_ignored() -> None:
    good = {"todos": [{"content": "a", "status": "completed"}, {"content": "b", "status": "odd"}]}
    records = [
        _assistant(ToolUse("t1", "TodoWrite", good)),
        _user(blocks=(ToolResult("t1", is_error=False, skipped=True),)),
        _assistant(ToolUse("t2", "TodoWrite", {"todos": [{"content": "bad"}]})),
        _user(blocks=(ToolResult("t2", is_error=True, text="InputValidationError"),)),
        _assistant(ToolUse("t3", "TodoWrite", {"todos": "not a list"})),
    ]
    assert extract_facts(records).todos == (Todo("a", "completed"), Todo("b", "pending"))


def test_files_and_failures_pair_with_results() -> None:
    records = [
        _assistant(ToolUse("w1", "Write", {"file_path": "/p/new.py", "content": "x"})),
        _user(blocks=(ToolResult("w1", is_error=False, skipped=True),)),
        _assistant(ToolUse("w2", "Write", {"file_path": "/p/denied.py", "content": "x"})),
        _user(blocks=(ToolResult("w2", is_error=True, text="File has not been read yet"),)),
        _assistant(ToolUse("e1", "Edit", {"file_path": "/elsewhere/x.py"})),
        _assistant(ToolUse("n1", "NotebookEdit", {"notebook_path": "/p/nb.ipynb"})),
        _assistant(ToolUse("b1", "Bash", {"command": "make test"})),
        _user(
            blocks=(ToolResult("b1", is_error=True, text="Exit code 2\nmake: *** [test] Error 1"),)
        ),
        _assistant(ToolUse("b2", "Bash", {"command": "make test"})),
        _user(blocks=(ToolResult("b2", is_error=False, skipped=True),)),
        _assistant(ToolUse("b3", "Bash", {"command": "deploy --token=abc123secret"})),
        _user(blocks=(ToolResult("b3", is_error=True, text="Exit code 1\nerror: denied"),)),
    ]
    facts = extract_facts(records)
    assert facts.files_written == ("new.py",)
    # Results not in the file yet (written with a lag) still count.
    assert facts.files_edited == ("/elsewhere/x.py", "nb.ipynb")
    assert facts.failed_commands == (
        FailedCommand("make test", "make: *** [test] Error 1", 2, later_succeeded=True),
        FailedCommand("deploy --token=[REDACTED:secret]", "error: denied", 1),
    )


def test_everything_returned_is_redacted() -> None:
    secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    records = [
        _user(f"use {secret} please. I'm blocked on {secret}."),
        _assistant(TextBlock(f"Decision: rotate {secret}")),
        _assistant(
            ToolUse("t", "TodoWrite", {"todos": [{"content": secret, "status": "pending"}]})
        ),
    ]
    facts = extract_facts(
        records, custom_instructions=secret, last_assistant_message=f"done {secret}"
    )
    assert secret not in repr(facts)
    assert "[REDACTED:github-token]" in facts.task


def test_payload_message_replaces_the_partial_reply() -> None:
    records = [_user("go"), _assistant(TextBlock("Let me look first."))]
    facts = extract_facts(records, last_assistant_message="All done.")
    assert facts.last_assistant_message == "All done."
    assert facts.earlier_replies == ()


def test_duplicate_uuids_are_read_once() -> None:
    record = Record(type="user", uuid="same", text="once", cwd="/p")
    assert extract_facts([record, record]).prompts == ("once",)


def test_empty_transcript() -> None:
    facts = extract_facts([])
    assert facts == SessionFacts()
    assert facts.is_empty
    assert facts.task == ""


def test_facts_are_immutable_values() -> None:
    facts = SessionFacts(prompts=("a",))
    with pytest.raises(AttributeError):
        facts.prompts = ("b",)  # type: ignore[misc]
    assert facts == SessionFacts(prompts=("a",))
    assert hash(Todo("a", "pending")) == hash(Todo("a", "pending"))
    assert repr(Todo("a", "pending")) == "Todo(content='a', detail='', status='pending')"
