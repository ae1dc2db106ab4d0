"""The Stop hook's journal entry: short, redacted, and empty when nothing happened."""

from __future__ import annotations

from pathlib import Path

from memhooks.continuity.journal_entry import render_journal_entry
from memhooks.continuity.transcript import read_new
from memhooks.continuity.transcript_records import Record, TextBlock, ToolResult, ToolUse
from support import FIXTURES

TRANSCRIPTS = FIXTURES / "transcripts"


def test_turn_by_turn_entries_from_a_real_session(tmp_path: Path) -> None:
    data = (TRANSCRIPTS / "a1-blog-slugs" / "transcript.jsonl").read_bytes()
    growing = tmp_path / "t.jsonl"
    entries = []
    offset = 0
    # Replay the session turn by turn, as Stop hooks see it: up to each stop summary.
    lines = data.splitlines(keepends=True)
    ends = [i + 1 for i, line in enumerate(lines) if b'"subtype":"stop_hook_summary"' in line]
    for end in ends:
        growing.write_bytes(b"".join(lines[:end]))
        records, offset = read_new(growing, offset)
        entries.append(render_journal_entry(records, last_assistant_message=None, when=f"t{end}"))
    assert len(entries) == 7
    assert entries[0].startswith("### t")
    assert "- Asked: Our blog generator (build.py)" in entries[0]
    assert "- Replied: " in entries[0]
    assert "`tests/test_slugs.py`" in entries[2]
    assert "- Failed: `python3 -m unittest discover -s tests -v`: " in entries[2]
    assert "- Changed: `slugs.py`" in entries[3]
    # no cue-phrase sorting: nothing is filed as "decided" or "blocked" on a guess
    assert not any("- Decided:" in entry or "- Blocked:" in entry for entry in entries)
    assert all(len(entry) < 2000 for entry in entries)


def test_nothing_new_gives_no_entry() -> None:
    assert render_journal_entry([], last_assistant_message="hi", when="now") == ""
    only_reply = [Record(type="assistant", blocks=(TextBlock("Sure."),))]
    assert render_journal_entry(only_reply, last_assistant_message=None, when="now") == ""
    bookkeeping = [Record(type="system", subtype="stop_hook_summary")]
    assert render_journal_entry(bookkeeping, last_assistant_message=None, when="now") == ""


def test_entry_is_short_redacted_and_uses_the_payload_reply() -> None:
    secret = "sk-ant-" + "api03-Abc123" * 8
    records = [
        Record(type="user", text=f"deploy with ANTHROPIC_API_KEY={secret} " + "please " * 200),
        Record(
            type="assistant",
            cwd="/p",
            blocks=tuple(
                ToolUse(f"w{i}", "Write", {"file_path": f"/p/f{i}.py"}) for i in range(12)
            ),
        ),
        Record(type="assistant", blocks=(ToolUse("b", "Bash", {"command": "make"}),)),
        Record(type="user", blocks=(ToolResult("b", is_error=True, text="Exit code 2\nboom"),)),
    ]
    entry = render_journal_entry(
        records, last_assistant_message=f"Done; key {secret}", when="2026-11-25 21:00"
    )
    assert secret not in entry
    assert entry.startswith(
        "### 2026-11-25 21:00\n\n- Asked: deploy with ANTHROPIC_API_KEY=[REDACTED"
    )
    assert "(+4 more)" in entry
    assert "- Failed: `make`: boom" in entry
    assert "- Replied: Done; key [REDACTED:anthropic-key]" in entry
    assert len(entry) < 1500


def test_code_and_pasted_values_keep_their_spacing() -> None:
    """Issue 33, item 9: a pasted 'hello  world' (the bug itself) lost a space in the journal,
    and names like `__init__.py` and `line_count` must come through verbatim."""
    prompt = "wc says 2 for 'hello  world'\nfix `line_count` in textstats/__init__.py"
    records = [
        Record(type="user", text=prompt),
        Record(type="assistant", blocks=(ToolUse("1", "Bash", {"command": "printf 'a  b'"}),)),
        Record(type="user", blocks=(ToolResult("1", is_error=True, text="Error: 'a  b' != 2"),)),
    ]
    entry = render_journal_entry(records, last_assistant_message="Fixed `line_count`.", when="t")
    assert "'hello  world' fix `line_count` in textstats/__init__.py" in entry
    assert "`printf 'a  b'`: Error: 'a  b' != 2" in entry
    assert "- Replied: Fixed `line_count`." in entry
