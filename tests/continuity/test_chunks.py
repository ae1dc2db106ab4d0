"""The chunked reading for the summarize and synthesize agents (seed 002, option B)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from memhooks.continuity.chunks import split
from memhooks.curate.session_material import locate_transcript, reading
from memhooks.store import MemoryPaths, settings_from_dict, validate_config
from support import FIXTURES, run_cli

TRANSCRIPT = FIXTURES / "transcripts" / "a1-blog-slugs" / "transcript.jsonl"
SESSION = "abc-123"


def test_split_keeps_lines_whole_and_every_chunk_bounded() -> None:
    lines = [f"line {i} " + "x" * (i % 50) for i in range(500)] + ["y" * 2_500]
    chunks = split(lines, 1_000)
    assert all(len(c) <= 1_000 for c in chunks)
    assert "".join(c.replace("\n", "") for c in chunks) == "".join(lines)
    assert chunks[0].split("\n")[0] == "line 0 "


def test_split_of_nothing_is_no_chunk() -> None:
    assert split([], 1_000) == []
    assert split(["", "  "], 1_000) == []


def _home_transcript(home: Path, project: Path) -> Path:
    slug = "".join(c if c.isalnum() else "-" for c in str(project))
    target = home / ".claude" / "projects" / slug / f"{SESSION}.jsonl"
    target.parent.mkdir(parents=True)
    shutil.copy(TRANSCRIPT, target)
    return target


def test_the_transcript_is_found_where_the_host_keeps_it(
    started: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    project = started.parent.parent
    expected = _home_transcript(home, project)
    assert locate_transcript(SESSION, project, {}) == expected
    assert locate_transcript("other-session", project, {}) is None
    recorded = {"sessions": [{"id": "s9", "transcript_path": str(TRANSCRIPT)}]}
    assert locate_transcript("s9", project, recorded) == TRANSCRIPT


def test_the_reading_holds_the_conversation_and_the_hosts_compaction_summary(
    started: Path,
) -> None:
    lines = reading(MemoryPaths(started), SESSION, TRANSCRIPT, ())
    text = "\n".join(lines)
    facts = json.loads((TRANSCRIPT.parent / "facts.json").read_text())
    assert text.startswith("=== Conversation")
    assert "USER (" in text
    assert "CLAUDE (" in text
    assert "TOOL Write: file_path=" in text
    assert "RESULT (error):" in text  # the failing test run
    assert "HOST COMPACTION SUMMARY" in text
    assert "the conversation was compacted" in text
    assert "slugify" in text, facts
    assert all(len(line) <= 12_100 for line in lines)


def test_the_reading_takes_this_sessions_checkpoints_and_journal(started: Path) -> None:
    (started / "sessions" / f"{SESSION}.md").write_text(
        "---\ntitle: s\n---\n# s\n\n## Automatic journal\n\n- JOURNAL-LINE\n"
    )
    (started / "checkpoints" / "2026-01-01_000000_manual.md").write_text(
        f"# Checkpoint\nSession `{SESSION}`, trigger `manual`.\nCHECKPOINT-MINE\n"
    )
    (started / "checkpoints" / "2026-01-02_000000_auto.md").write_text(
        "# Checkpoint\nSession `someone-else`, trigger `auto`.\nCHECKPOINT-OTHER\n"
    )
    text = "\n".join(reading(MemoryPaths(started), SESSION, None, ()))
    assert "No transcript found" in text
    assert "CHECKPOINT-MINE" in text
    assert "JOURNAL-LINE" in text
    assert "CHECKPOINT-OTHER" not in text


def test_the_reading_is_redacted(started: Path, tmp_path: Path) -> None:
    secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    transcript = tmp_path / "t.jsonl"
    record = {"type": "user", "message": {"role": "user", "content": f"my token is {secret}"}}
    transcript.write_text(json.dumps(record) + "\n")
    text = "\n".join(reading(MemoryPaths(started), SESSION, transcript, ()))
    assert "my token is" in text
    assert secret not in text


def test_summarize_chunks_overview_then_every_chunk(started: Path) -> None:
    overview = run_cli(
        "summarize", "--chunks", "--chunk-chars", "3000", "--transcript-file", str(TRANSCRIPT),
        "--json", SESSION,
    )  # fmt: skip
    assert overview.returncode == 0, overview.stderr
    data = json.loads(overview.stdout)
    assert data["chunks"] >= 3
    assert data["compaction_summaries_in"]
    seen = []
    for n in range(1, data["chunks"] + 1):
        done = run_cli(
            "summarize", "--chunk", str(n), "--chunk-chars", "3000",
            "--transcript-file", str(TRANSCRIPT), SESSION,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert f"chunk {n} of {data['chunks']}" in done.stdout
        seen.append(done.stdout)
    assert "HOST COMPACTION SUMMARY" in "".join(seen)
    text = run_cli("summarize", "--chunks", "--transcript-file", str(TRANSCRIPT), SESSION).stdout
    assert "summarize --chunk K --session abc-123" in text


def test_summarize_chunk_out_of_range_is_a_clear_error(started: Path) -> None:
    done = run_cli("summarize", "--chunk", "99", "--transcript-file", str(TRANSCRIPT), SESSION)
    assert done.returncode == 7
    assert "chunk 99 does not exist" in done.stderr
    small = run_cli("summarize", "--chunks", "--chunk-chars", "10", SESSION)
    assert small.returncode == 2


def test_synthesize_chunks_hold_the_whole_material_uncut(started: Path) -> None:
    body = "\n".join(f"- finding {i}: " + "detail " * 40 for i in range(300))
    saved = run_cli(
        "save", "decision", "--title", "Big decision", "--body", f"# Big decision\n\n{body}"
    )
    assert saved.returncode == 0, saved.stderr
    cut = run_cli("synthesize", "--material").stdout
    assert "characters cut" in cut  # too big for one read: the agent's case
    overview = json.loads(run_cli("synthesize", "--chunks", "--json").stdout)
    assert overview["chunks"] >= 2
    whole = "".join(
        run_cli("synthesize", "--chunk", str(n)).stdout for n in range(1, overview["chunks"] + 1)
    )
    assert "finding 299" in whole
    assert "## Active Questions" in whole


@pytest.mark.parametrize(("value", "ok"), [("deny", True), ("allow", True), ("yes", False)])
def test_guard_direct_edits_config_key(value: str, ok: bool) -> None:
    data = {"guard": {"direct_edits": value}}
    settings = settings_from_dict(data)
    assert settings.direct_edits == (value if ok else "deny")
    assert bool(settings.problems) is not ok
    if ok:
        assert validate_config(data).direct_edits == value
    else:
        with pytest.raises(ValueError, match="direct_edits"):
            validate_config(data)
