"""The transcript reader: real sessions, incremental offsets, and every kind of bad line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memhooks.continuity.transcript import (
    TEXT_LIMIT,
    ReadProgress,
    iter_records,
    parse_line,
    read_new,
)
from memhooks.continuity.transcript_records import Record, TextBlock, ToolResult, ToolUse
from memhooks.text.redact import cut_at_line
from support import FIXTURES

TRANSCRIPTS = FIXTURES / "transcripts"
SESSIONS = sorted(p.name for p in TRANSCRIPTS.glob("*/")) if TRANSCRIPTS.is_dir() else []


def _line(obj: object) -> bytes:
    return json.dumps(obj).encode() + b"\n"


def _prompt(text: str, uuid: str = "u1") -> dict[str, object]:
    return {"type": "user", "uuid": uuid, "message": {"role": "user", "content": text}}


@pytest.mark.parametrize("session", SESSIONS)
def test_real_transcript_keeps_exactly_the_conversation_records(session: str) -> None:
    path = TRANSCRIPTS / session / "transcript.jsonl"
    expected = [
        json.loads(line)
        for line in path.read_bytes().splitlines()
        if json.loads(line)["type"] in {"user", "assistant", "system"}
    ]
    records, offset = read_new(path, 0)
    assert offset == path.stat().st_size
    assert [record.type for record in records] == [obj["type"] for obj in expected]
    errors = [
        block
        for record in records
        for block in record.blocks
        if isinstance(block, ToolResult) and block.is_error
    ]
    assert errors
    assert all(error.text and not error.skipped for error in errors)
    assert any(
        isinstance(block, ToolUse) and block.name == "TodoWrite"
        for record in records
        for block in record.blocks
    )


@pytest.mark.parametrize("session", SESSIONS)
def test_reading_a_growing_file_in_steps_equals_reading_it_at_once(
    session: str, tmp_path: Path
) -> None:
    source = TRANSCRIPTS / session / "transcript_at_precompact.jsonl"
    whole, _ = read_new(source, 0)
    data = source.read_bytes()
    growing = tmp_path / "growing.jsonl"
    collected: list[Record] = []
    offset = 0
    # The file grows by arbitrary byte counts, so cuts fall inside lines.
    for cut in [*range(0, len(data), 9_973), len(data)]:
        growing.write_bytes(data[:cut])
        records, offset = read_new(growing, offset)
        collected.extend(records)
    assert collected == whole
    assert offset == len(data)


def test_unreadable_file_keeps_the_offset(tmp_path: Path) -> None:
    assert read_new(tmp_path / "missing.jsonl", 7) == ([], 7)


def test_truncated_last_line_is_not_consumed(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    first = _line(_prompt("first"))
    second = _line(_prompt("second", "u2"))
    path.write_bytes(first + second[:20])
    records, offset = read_new(path, 0)
    assert [r.text for r in records] == ["first"]
    assert offset == len(first)
    path.write_bytes(first + second)
    records, offset = read_new(path, offset)
    assert [r.text for r in records] == ["second"]
    assert offset == len(first) + len(second)
    assert read_new(path, offset) == ([], offset)


def test_offset_past_the_end_restarts(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(_line(_prompt("new file")))
    records, offset = read_new(path, 10_000)
    assert [r.text for r in records] == ["new file"]
    assert offset == path.stat().st_size


def test_bookkeeping_unknown_and_bad_lines_are_skipped(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    lines = [
        _line({"type": "api-request-blob", "message": {"role": "user", "content": "copy"}}),
        _line({"type": "queue-operation", "content": "Decision: copied"}),
        _line({"type": "last-prompt", "lastPrompt": "x"}),
        _line({"type": "brand-new-kind", "type_hint": "user"}),
        _line({"parentUuid": None, "attachment": {"type": "file"}, "type": "attachment"}),
        b'{"type":"user","message":{"content":"unterminated\n',
        b'\xff\xfe not utf-8 "type":"user"\n',
        b'{"type":"user","message":{"content":"caf\xe9"}}\n',
        b"[1, 2, 3]\n",
        b'"type":"user"\n',
        b"\n",
        _line({"type": "user", "message": "not a dict", "uuid": 5}),
        _line({"type": "assistant", "message": {"content": [1, None, {"type": "tool_use"}]}}),
        _line(_prompt("kept")),
    ]
    path.write_bytes(b"".join(lines))
    records, offset = read_new(path, 0)
    assert offset == path.stat().st_size
    assert [r.type for r in records] == ["user", "assistant", "user"]
    assert records[0].uuid == ""
    assert records[0].text is None
    assert records[1].blocks == (ToolUse("", "", {}),)
    assert records[2].text == "kept"


def test_type_found_after_the_message(tmp_path: Path) -> None:
    # Assistant records put "type" after a large "message"; nested types must not fool us.
    line = (
        b'{"parentUuid":"p","message":{"type":"message","content":[{"type":"text","text":"hi"}]},'
        b'"type":"assistant","uuid":"a1"}'
    )
    record = parse_line(line, 0)
    assert record is not None
    assert record.blocks == (TextBlock("hi"),)


def test_huge_successful_tool_result_becomes_a_stub() -> None:
    body = "x" * 5_000_000
    line = json.dumps(
        {
            "type": "user",
            "message": {"content": [{"type": "tool_result", "tool_use_id": "t1", "content": body}]},
            "toolUseResult": {"stdout": body},
        }
    ).encode()
    record = parse_line(line, 0)
    assert record is not None
    assert record.blocks == (ToolResult("t1", is_error=False, skipped=True),)
    assert record.has_tool_use_result


def test_huge_failed_tool_result_is_parsed_and_its_text_capped() -> None:
    body = "Exit code 2\n" + "y" * 2_000_000
    line = json.dumps(
        {
            "type": "user",
            "message": {
                "content": [
                    {"type": "tool_result", "tool_use_id": "t2", "content": body, "is_error": True}
                ]
            },
            "toolUseResult": "Error: " + body,
        }
    ).encode()
    record = parse_line(line, 0)
    assert record is not None
    (block,) = record.blocks
    assert isinstance(block, ToolResult)
    assert block.is_error
    assert block.text.startswith("Exit code 2\n")
    assert len(block.text) <= 8 * 1024


def test_task_create_result_is_read_for_its_id() -> None:
    line = _line(
        {
            "type": "user",
            "message": {
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "t3",
                        "content": "Task #7 created successfully: Ship it",
                    }
                ]
            },
            "toolUseResult": {"task": {"id": "7"}},
        }
    )
    record = parse_line(line.rstrip(b"\n"), 0)
    assert record is not None
    assert record.blocks == (
        ToolResult("t3", is_error=False, text="Task #7 created successfully: Ship it"),
    )


def test_a_write_result_says_whether_it_created_its_file() -> None:
    """A Write's result is read when it says it created the file (the file is new); one
    that updated a file stays a stub."""

    def result(text: str) -> Record | None:
        block = {"type": "tool_result", "tool_use_id": "w1", "content": text}
        line = _line({"type": "user", "message": {"content": [block]}, "toolUseResult": {}})
        return parse_line(line.rstrip(b"\n"), 0)

    created = result("File created successfully at: /repo/notes/plan.txt")
    assert created is not None
    assert created.blocks[0].text.startswith("File created successfully at: ")
    updated = result("The file /repo/notes/plan.txt has been updated successfully.")
    assert updated is not None
    assert updated.blocks[0].skipped


def test_huge_write_input_is_slimmed() -> None:
    line = _line(
        {
            "type": "assistant",
            "message": {
                "content": [
                    {
                        "type": "tool_use",
                        "id": "w1",
                        "name": "Write",
                        "input": {"file_path": "/p/a.py", "content": "z" * 1_000_000},
                    }
                ]
            },
        }
    )
    record = parse_line(line, 0)
    assert record is not None
    (block,) = record.blocks
    assert isinstance(block, ToolUse)
    assert block.input["file_path"] == "/p/a.py"
    assert len(str(block.input["content"])) <= 4 * 1024


def test_iter_records_streams_the_same_records(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"".join(_line(_prompt(f"p{i}", f"u{i}")) for i in range(5)))
    assert list(iter_records(path)) == read_new(path, 0)[0]
    assert list(iter_records(tmp_path / "missing.jsonl")) == []


def test_lines_longer_than_a_read_chunk(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    long_prompt = "word " * 600_000
    path.write_bytes(
        _line(_prompt("a", "u1")) + _line(_prompt(long_prompt, "u2")) + _line(_prompt("c", "u3"))
    )
    records, offset = read_new(path, 0)
    # A text is kept up to TEXT_LIMIT characters, cut at a word: the long line is read whole.
    assert [len(r.text or "") for r in records] == [1, len(cut_at_line(long_prompt, TEXT_LIMIT)), 1]
    assert long_prompt.startswith(records[1].text or "-")
    assert offset == path.stat().st_size


def test_a_deadline_stops_reading_between_lines(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(b"".join(_line(_prompt(f"prompt {n}", f"u{n}")) for n in range(5)))
    records, offset = read_new(path, 0, deadline=0.0)  # long past
    assert (records, offset) == ([], 0)  # nothing consumed: the next read starts here
    progress = ReadProgress()
    first = next(iter_records(path, deadline=float("inf"), progress=progress))
    assert first.text == "prompt 0"
    assert not progress.stopped
    progress = ReadProgress()
    assert list(iter_records(path, deadline=0.0, progress=progress)) == []
    assert (progress.stopped, progress.end) == (True, 0)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.binary(max_size=3000), offset=st.integers(min_value=-10, max_value=4000))
def test_read_new_never_raises_on_random_bytes(tmp_path: Path, data: bytes, offset: int) -> None:
    path = tmp_path / "random.jsonl"
    path.write_bytes(data)
    records, new_offset = read_new(path, offset)
    assert 0 <= new_offset <= len(data)
    assert all(record.type in {"user", "assistant", "system"} for record in records)


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.sampled_from(
            [
                _line(_prompt("hello")),
                _line(
                    {"type": "assistant", "message": {"content": [{"type": "text", "text": "hi"}]}}
                ),
                _line({"type": "mode", "mode": "normal"}),
                b'{"type":"user","message":{"content":"trunc',
                b"\xc3\x28\n",
                b"\n",
            ]
        ),
        max_size=20,
    )
)
def test_read_new_never_raises_on_mixed_lines(tmp_path: Path, lines: list[bytes]) -> None:
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"".join(lines))
    records, offset = read_new(path, 0)
    assert offset <= path.stat().st_size
    assert len(records) <= len(lines)


def test_the_users_answer_to_a_question_tool_is_read_whole() -> None:
    """An answer the user picked in Claude's question tool is the user's own words: its
    result is parsed (a successful result is otherwise a stub)."""
    answer = 'User has answered your questions: "Which store?"="The flat file". You can go on.'
    line = _line(
        {
            "type": "user",
            "message": {
                "content": [{"type": "tool_result", "tool_use_id": "q1", "content": answer}]
            },
            "toolUseResult": {"answers": {"Which store?": "The flat file"}},
        }
    )
    record = parse_line(line.rstrip(b"\n"), 0)
    assert record is not None
    (block,) = record.blocks
    assert isinstance(block, ToolResult)
    assert not block.skipped
    assert "The flat file" in block.text
